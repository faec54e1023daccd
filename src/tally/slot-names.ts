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
  const index = nameIndex(slots);
  return index.names.get(key) ?? index.former.get(key) ?? index.aliases.get(key);
}

interface NameIndex {
  names: Map<string, number>;
  former: Map<string, number>;
  aliases: Map<string, number>;
}

/**
 * Every name's first slot, built once per slots array (the fold never changes one in place:
 * a change makes a new array), so a lookup is not a scan of the roster: with one per post
 * that scan made a count quadratic in the roster.
 */
const indexes = new WeakMap<readonly SlotState[], NameIndex>();

function nameIndex(slots: readonly SlotState[]): NameIndex {
  let index = indexes.get(slots);
  if (index) return index;
  index = { names: new Map(), former: new Map(), aliases: new Map() };
  const add = (map: Map<string, number>, name: string, i: number): void => {
    const key = nameKey(name);
    if (!map.has(key)) map.set(key, i); // the first slot wins, as a scan in roster order would
  };
  slots.forEach((s, i) => {
    add(index!.names, s.name, i);
    for (const n of s.formerNames) add(index!.former, n, i);
    for (const n of s.aliases) add(index!.aliases, n, i);
  });
  indexes.set(slots, index);
  return index;
}
