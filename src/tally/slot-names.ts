import type { GmEvent } from '../model/event.js';
import type { Roster } from '../model/roster.js';
import { nameKey } from '../parse/name-form.js';
import type { SlotState } from './state.js';

/**
 * The one name key of the game (src/parse/name-form.ts): case, spaces, punctuation and
 * brackets folded, as the moderator's-count check compares names ("Humble Poirot" =
 * "HumblePoirot", "[Redacted]" = "Redacted"; issue #24).
 */
export { nameKey };

/** The name as written, only case and spacing folded ("Mister  X" = "mister x"). */
function exactKey(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The slot a name belongs to: its current name first, then former names (replacements),
 * then aliases, so an alias that equals another player's name never steals that player.
 * A name written otherwise than the roster ("Humble Poirot" for "HumblePoirot": GMs type
 * rosters by hand) is the slot whose names fold to its key, but only when exactly one slot
 * does: where two fold alike only the exact name reads, and anything else goes to the GM.
 */
export function findSlot(slots: readonly SlotNames[], name: string): number | undefined {
  const key = exactKey(name);
  const index = nameIndex(slots);
  const exact = index.names.get(key) ?? index.former.get(key) ?? index.aliases.get(key);
  if (exact !== undefined) return exact;
  const folded = index.folded.get(nameKey(name));
  return folded === AMBIGUOUS ? undefined : folded;
}

/** True when `name` reaches its slot only by the fold, not as the roster writes it. */
export function foldedOnly(slots: readonly SlotNames[], name: string): boolean {
  const key = exactKey(name);
  const index = nameIndex(slots);
  if (index.names.has(key) || index.former.has(key) || index.aliases.has(key)) return false;
  return findSlot(slots, name) !== undefined;
}

/** The names a slot answers to: a tally slot's or a roster slot's. */
type SlotNames = Pick<SlotState, 'name' | 'formerNames' | 'aliases'>;

interface NameIndex {
  names: Map<string, number>;
  former: Map<string, number>;
  aliases: Map<string, number>;
  /** Folded key of every name to its slot, or AMBIGUOUS when names of two slots fold alike. */
  folded: Map<string, number>;
}

const AMBIGUOUS = -1;

/**
 * Every name's first slot, built once per slots array (the fold never changes one in place:
 * a change makes a new array), so a lookup is not a scan of the roster: with one per post
 * that scan made a count quadratic in the roster.
 */
const indexes = new WeakMap<readonly SlotNames[], NameIndex>();

function nameIndex(slots: readonly SlotNames[]): NameIndex {
  let index = indexes.get(slots);
  if (index) return index;
  index = { names: new Map(), former: new Map(), aliases: new Map(), folded: new Map() };
  const folded = index.folded;
  const add = (map: Map<string, number>, name: string, i: number): void => {
    const key = exactKey(name);
    if (!map.has(key)) map.set(key, i); // the first slot wins, as a scan in roster order would
    const fold = nameKey(name);
    const had = folded.get(fold);
    folded.set(fold, had === undefined || had === i ? i : AMBIGUOUS);
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

/** The GM events that change who a slot is or whether it lives, as the reading roster keeps them. */
type RosterEvent = Extract<GmEvent, { kind: 'replace' | 'kill' | 'modkill' | 'revive' | 'decide' | 'day-start' }>;

const ROSTER_EVENTS: ReadonlySet<GmEvent['kind']> = new Set([
  'replace',
  'kill',
  'modkill',
  'revive',
  'decide',
  'day-start',
]);

/**
 * The roster as the game knew it at a post: the GM's events before the post (placed after
 * an earlier post, or timed at or before the post's time), in thread order. A replacement
 * makes `by` the slot's name and keeps the old name among its former names, so the parser
 * reads a vote by or for either name as the slot's; a kill or modkill marks the slot dead
 * and a revive alive again, so a name that fits one living player and only dead ones reads
 * as the living one, and a vote for the dead goes to the GM (issue #24). The players a GM's
 * `decide` eliminates die at the next Day's start, as the tally buries them (the last
 * decision of the Day wins; one revived after it stays). Eliminations the tally reaches
 * on its own come as kills among the events passed (`readingEvents`, src/game/reading-events.ts).
 */
export function rosterAt(roster: Roster, events: readonly GmEvent[], post: PostPlace): Roster {
  const postMs = post.postedAt === null ? Number.NaN : Date.parse(post.postedAt);
  const before = events.filter((e): e is RosterEvent => {
    if (!ROSTER_EVENTS.has(e.kind)) return false;
    const placed = e as RosterEvent;
    if (placed.at !== undefined) return placed.at < post.number;
    const at = placed.time === undefined ? Number.NaN : Date.parse(placed.time);
    return !Number.isNaN(at) && !Number.isNaN(postMs) && at <= postMs;
  });
  // Day starts alone change nobody: the roster as set up (the same object) serves most posts.
  if (before.every((e) => e.kind === 'day-start')) return roster;
  const order = (e: RosterEvent) => e.at ?? Number.POSITIVE_INFINITY;
  let out = roster.map((s) => ({ ...s }));
  // The slots the Day's decision eliminates, buried at the next day-start.
  let decided = new Set<number>();
  for (const e of [...before].sort((a, b) => order(a) - order(b))) {
    if (e.kind === 'decide') {
      decided = new Set(e.eliminated.flatMap((n) => findSlot(out, n) ?? []));
    } else if (e.kind === 'day-start') {
      out = out.map((s, i) => (decided.has(i) && s.alive ? { ...s, alive: false } : s));
      decided = new Set();
    } else {
      if (e.kind === 'revive') {
        const i = findSlot(out, e.player);
        if (i !== undefined) decided.delete(i);
      }
      out = applied(out, e);
    }
  }
  return out;
}

/** One roster event on the roster: a new array when it changes a slot (the name index is per array). */
function applied(roster: Roster, e: Exclude<RosterEvent, { kind: 'decide' | 'day-start' }>): Roster {
  if (e.kind !== 'replace') {
    // The GM may name the slot by its current, a former, or an alias name, as the tally finds it.
    const i = findSlot(roster, e.player);
    const alive = e.kind === 'revive';
    if (i === undefined || roster[i]!.alive === alive) return roster;
    return roster.map((s, j) => (j === i ? { ...s, alive } : s));
  }
  // Found as the tally's replacement finds it (src/tally/apply-replace.ts): a replacement that
  // names the slot by a former name ("Seraphim replaces Nachomamma8" after "Wake1 replaces
  // Nachomamma8") renames it here too, or the GM's count reads the slot by another name.
  const i = findSlot(roster, e.player);
  const slot = i === undefined ? undefined : roster[i];
  if (!slot || nameKey(slot.name) === nameKey(e.by)) return roster;
  return roster.map((s, j) =>
    j === i
      ? { ...s, name: e.by, formerNames: [...s.formerNames.filter((n) => nameKey(n) !== nameKey(e.by)), s.name] }
      : s,
  );
}
