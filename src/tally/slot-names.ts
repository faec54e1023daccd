import type { GmEvent } from '../model/event.js';
import type { Roster } from '../model/roster.js';
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

/** Where a post stands in the thread, for the names the game knew when it was made. */
export interface PostPlace {
  number: number;
  postedAt: string | null;
}

/**
 * The roster as the game knew it at a post: each `replace` event before the post (placed
 * after an earlier post, or timed at or before the post's time) makes `by` the slot's name
 * and keeps the old name among its former names, so the parser reads a vote by or for
 * either name as the slot's. Replacements are applied in thread order.
 */
export function rosterAt(roster: Roster, events: readonly GmEvent[], post: PostPlace): Roster {
  const postMs = post.postedAt === null ? Number.NaN : Date.parse(post.postedAt);
  const before = events.filter((e): e is Extract<GmEvent, { kind: 'replace' }> => {
    if (e.kind !== 'replace') return false;
    if (e.at !== undefined) return e.at < post.number;
    const at = e.time === undefined ? Number.NaN : Date.parse(e.time);
    return !Number.isNaN(at) && !Number.isNaN(postMs) && at <= postMs;
  });
  if (before.length === 0) return roster;
  const order = (e: Extract<GmEvent, { kind: 'replace' }>) => e.at ?? Number.POSITIVE_INFINITY;
  let out = roster.map((s) => ({ ...s }));
  for (const e of [...before].sort((a, b) => order(a) - order(b))) {
    const key = nameKey(e.player);
    const i = out.findIndex((s) => nameKey(s.name) === key);
    const slot = i === -1 ? undefined : out[i];
    if (!slot || nameKey(slot.name) === nameKey(e.by)) continue;
    out = out.map((s, j) =>
      j === i
        ? { ...s, name: e.by, formerNames: [...s.formerNames.filter((n) => nameKey(n) !== nameKey(e.by)), s.name] }
        : s,
    );
  }
  return out;
}
