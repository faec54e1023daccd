/** The time-zone field of the new-game and settings forms: free text, with the runtime's zones offered. */
export function TimeZoneField(props: { value: string; zones: readonly string[] }) {
  return (
    <div>
      <label for="timeZone">Time zone</label>
      <input id="timeZone" name="timeZone" type="text" list="zones" value={props.value} />
      <datalist id="zones">
        {props.zones.map((z) => (
          <option value={z} />
        ))}
      </datalist>
    </div>
  );
}
