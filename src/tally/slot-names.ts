import type { SlotState } from './state.js';

/** Names compare case- and space-insensitively ("Mister  X" = "mister x"). */
export function nameKey(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The slot a name belongs to: its current name first, then former names (replacements),
 * then aliases, so an alias that equals another player's name never steals that player.
 */
export function findSlot(slots: readonly SlotState[], name: string): number | undefined {
  const key = nameKey(name);
  const pick = (names: (s: SlotState) => readonly string[]): number | undefined => {
    const i = slots.findIndex((s) => names(s).some((n) => nameKey(n) === key));
    return i === -1 ? undefined : i;
  };
  return pick((s) => [s.name]) ?? pick((s) => s.formerNames) ?? pick((s) => s.aliases);
}
