import { isKnownTimeZone } from '../../model/game-settings.js';
import { zonedInstant } from '../../tally/clock.js';
import { zoneName } from '../../votal/render-votal.js';

/**
 * A deadline as the GM types it: a wall-clock time in a named time zone
 * ("2026-03-06T18:00" in "Europe/Berlin") -> the instant, as ISO 8601 UTC, with the
 * same zone arithmetic the clock rules use (tally/clock.ts).
 */

/** Whether `zone` is an IANA time zone Node knows: the model's one rule (`TimeZone`). */
export const isTimeZone = (zone: string): boolean => isKnownTimeZone(zone);

/** `local` is `YYYY-MM-DDTHH:mm[:ss]` (what `<input type="datetime-local">` sends). Null when malformed. */
export function localToUtc(local: string, zone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local.trim());
  if (!m || !isTimeZone(zone)) return null;
  const [y, mo, d, h, mi] = m.slice(1, 6).map(Number) as [number, number, number, number, number];
  const s = m[6] === undefined ? 0 : Number(m[6]);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const ms = zonedInstant(y, mo, d, h, mi, zone, s);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** The instant as `YYYY-MM-DDTHH:mm` on the wall clock of `zone` (to refill a datetime-local input). */
export function utcToLocalInput(iso: string, zone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: isTimeZone(zone) ? zone : 'UTC',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/**
 * An instant shown as wall-clock time in `zone` ("Fri 6 Mar 2026, 18:00 CET", "..., 13:00
 * EST"): the zone's short name as the votal and the rest of the page write it (`zoneName`;
 * en-GB alone writes "GMT-5" for New York).
 */
export function formatInZone(iso: string, zone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const timeZone = isTimeZone(zone) ? zone : 'UTC';
  const name = zoneName(date.getTime(), timeZone, 'en-GB');
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  })
    .formatToParts(date)
    .map((p) => (p.type === 'timeZoneName' ? name : p.value))
    .join('');
}
