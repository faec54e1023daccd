import type { EngineId } from '../model/engine.js';
import type { GmEvent, PostEvent } from '../model/event.js';
import type { Roster } from '../model/roster.js';
import type { OwnDeath, Tally } from '../model/tally.js';
import type { Ruleset } from '../rules/ruleset.js';
import { apply } from './apply.js';
import { runClock, startClock, type ClockInput } from './day-clock.js';
import { orderLog, type LogEntry, type TallyEvent } from './log.js';
import { findSlot, nameKey } from './slot-names.js';
import { initialState, slotName, withFlag, withNote, type GameState } from './state.js';
import { toTally } from './tally-view.js';

export interface CountInput {
  ruleset: Ruleset;
  roster: Roster;
  /** Posts, GM events and clock events in any order; they are put in thread order first. */
  events: readonly TallyEvent[];
  engine?: EngineId | null;
  /** Count this Day: the fold stops at the start of any later Day. Default: the Day the log reaches. */
  day?: number;
  /** Count as at this post: posts after it, and GM events placed after it, are left out. */
  toPost?: number;
  /**
   * Count as at this time (ISO 8601): posts made after it and events timed after it are
   * left out, and so is anything placed after the last post made by then.
   */
  toTime?: string;
  /** `gm` (default) or `public` (what the live page may show). */
  view?: 'gm' | 'public';
  /** Explain every number: wagons, penalty counts and the outcome get `explain`. */
  explain?: boolean;
  /**
   * The game's clock: each Day's start and deadline as the GM set them, and `now`. The
   * ruleset's scheduled checks and the deadline (extensions included) fire as time passes
   * (src/tally/day-clock.ts); without `now`, only as far as the posts' times show.
   */
  clock?: ClockInput;
  /**
   * The hosts' forum names (the GM setting, co-hosts): their posts are the GM's. A host
   * who is not a player is never a "non-player" voting, and their vote counts are not votes.
   */
  hosts?: readonly string[];
}

/**
 * The vote count: a pure fold of the ordered log over the game state. No clock, no I/O;
 * the same input always gives the same Tally, so "the count as at post N" (or time T) is
 * a cut of the log.
 */
export function countVotes(input: CountInput): Tally {
  return foldCount(input, []).tally;
}

/** The count, and the count as it stood after each of some posts: one fold, the clock included. */
export interface CountWithCuts {
  tally: Tally;
  /** The count after each post asked for (in the order asked). */
  cuts: Tally[];
  /** The GM events (kills, replacements...) folded since the cut before, for each cut. */
  eventsBefore: GmEvent[][];
  /** The deaths the count caused by itself, in thread order (see `OwnDeath`). */
  ownDeaths: OwnDeath[];
}

/** A death the count caused by itself: the zod schema is the Tally's (`Tally.ownDeaths`). */
export type { OwnDeath };

/** The count and the deaths it caused by itself (the reading roster of later posts needs them). */
export function countVotesWithDeaths(input: CountInput): { tally: Tally; ownDeaths: OwnDeath[] } {
  const { tally, ownDeaths } = foldCount(input, []);
  return { tally, ownDeaths };
}

/**
 * The count as at each of `posts` from the same pass of the same fold that makes the
 * count, clock and all: a deadline that passed before a late vote leaves that vote out
 * of every cut after it, as it does of the count. The cut at the last post counted is
 * the count itself (its wagons are the count's wagons).
 */
export function countVotesWithCuts(input: CountInput, posts: readonly number[]): CountWithCuts {
  return foldCount(input, posts);
}

function foldCount(input: CountInput, posts: readonly number[]): CountWithCuts {
  const { entries, corrections } = orderLog(input.events);
  const within = cutOf(entries, input);
  const clock = input.clock ?? {};
  const hosts = new Set((input.hosts ?? []).map(nameKey));
  const view = { view: input.view ?? 'gm', explain: input.explain ?? false } as const;
  let state = startClock(initialState(input.ruleset, input.roster, corrections, hosts), 1, null, clock);
  const seen = new Set<number>();
  const order = [...posts].sort((a, b) => a - b);
  const taken = new Map<number, { tally: Tally; events: GmEvent[] }>();
  let pending: GmEvent[] = [];
  let next = 0;
  const cut = (post: number, s: GameState): void => {
    taken.set(post, { tally: toTally(finish(s, seen, input.day), input.engine ?? null, view), events: pending });
    pending = [];
  };
  let position = 0;
  let lastPostTime: number | null = null;
  const ownDeaths: OwnDeath[] = [];
  // Only the events the count takes: a count as at post N agrees with a count of the log cut at N.
  const clockEvents = clockEventDays(entries.filter(within));
  for (const entry of entries) {
    if (!within(entry)) continue;
    // Read once: the log may be large, and each read of an event is work (live-work.test.ts).
    const event = entry.event;
    const kind = event.kind;
    if (input.day !== undefined && event.kind === 'day-start' && event.day > input.day) break;
    while (next < order.length && entry.position > order[next]!) cut(order[next++]!, state);
    const time = timeOf(entry);
    // A Day whose start nothing tells begins with its first dated entry (Day 1: the thread's first post).
    if (state.clock.start === null && time !== null && kind !== 'day-start') {
      state = { ...state, clock: { ...state.clock, start: time, firedTo: Math.max(state.clock.firedTo, time) } };
    }
    if (time !== null) state = noteDeaths(state, runClock(state, time, false, position), position, ownDeaths);
    if (kind === 'post') {
      seen.add((event as PostEvent).post);
      if (time !== null) lastPostTime = time;
      else state = withUntimed(state, event as PostEvent, clockEvents);
    } else pending.push(event as GmEvent);
    const applied = apply(state, entry);
    state = GM_LIFE.has(kind) ? applied : noteDeaths(state, applied, entry.position, ownDeaths);
    if (event.kind === 'day-start') state = startClock(state, event.day, time ?? lastPostTime, clock);
    position = entry.position;
  }
  // Time known to have passed after the last entry: the caller's `now`, or the `toTime` cut.
  const until = input.toTime ?? (input.toPost === undefined ? clock.now : undefined);
  if (until !== undefined)
    state = noteDeaths(state, runClock(state, parseTime(until, 'clock.now'), true, position), position, ownDeaths);
  while (next < order.length) cut(order[next++]!, state);
  state = finish(state, seen, input.day);
  const tally = toTally(state, input.engine ?? null, view);
  const at = posts.map((p) => taken.get(p)!);
  return { tally, cuts: at.map((c) => c.tally), eventsBefore: at.map((c) => c.events), ownDeaths };
}

/** The GM's own life events: the reading roster has them from the GM's record already. */
const GM_LIFE: ReadonlySet<TallyEvent['kind']> = new Set(['kill', 'modkill', 'revive']);

/** Who died between two states (slots are a new array only when one changed), dead after post `at`. */
function noteDeaths(before: GameState, after: GameState, at: number, out: OwnDeath[]): GameState {
  if (before.slots === after.slots) return after;
  before.slots.forEach((slot, i) => {
    if (slot.alive && after.slots[i]?.alive === false) out.push({ player: slotName(before, i), at });
  });
  return after;
}

/** The Days that listed clock events (`deadline`, `check`) tie to; 0 stands for "any Day" (no `day`). */
function clockEventDays(entries: readonly LogEntry[]): ReadonlySet<number> {
  const days = new Set<number>();
  for (const { event } of entries) if (event.kind === 'deadline' || event.kind === 'check') days.add(event.day ?? 0);
  return days;
}

/**
 * A post with no readable time cannot be placed against the clock: a vote after the
 * deadline or a Hammer check would count as in time. Where a clock rule could apply (the
 * ruleset's scheduled checks, the Day's deadline, listed clock events), a post that votes
 * or acts is recorded for the GM; chatter, the hosts' posts and Days without clock rules are not.
 */
function withUntimed(state: GameState, post: PostEvent, clockEvents: ReadonlySet<number>): GameState {
  if (state.phase.kind !== 'open') return state;
  const clocked =
    (state.ruleset.schedule?.checks.length ?? 0) > 0 ||
    state.clock.deadline !== null ||
    clockEvents.has(0) ||
    clockEvents.has(state.day);
  if (!clocked) return state;
  if (post.reading.effect.kind === 'none' && post.reading.actions.length === 0) return state;
  const slot = findSlot(state.slots, post.author);
  if (slot === undefined && state.hosts.has(nameKey(post.author))) return state;
  const player = slot === undefined ? post.author : slotName(state, slot);
  return { ...state, untimed: { last: { post: post.post, player, permalink: post.permalink }, before: state.untimed } };
}

/** When an entry happened, if the log says. */
function timeOf(entry: LogEntry): number | null {
  const time = entry.event.time ?? null;
  if (time === null) return null;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? null : ms;
}

function parseTime(time: string, what: string): number {
  const ms = Date.parse(time);
  if (Number.isNaN(ms)) throw new RangeError(`${what} is not an ISO 8601 time: ${time}`);
  return ms;
}

/** Which log entries a count as at post N and/or time T takes. */
function cutOf(entries: readonly LogEntry[], input: CountInput): (entry: LogEntry) => boolean {
  const atTime = input.toTime === undefined ? undefined : Date.parse(input.toTime);
  if (atTime !== undefined && Number.isNaN(atTime))
    throw new RangeError(`toTime is not an ISO 8601 time: ${input.toTime}`);
  let lastPost = input.toPost ?? Number.POSITIVE_INFINITY;
  if (atTime !== undefined) {
    // The last post made by then; untimed posts and events placed by `at` follow it.
    const made = entries.flatMap((e) =>
      e.event.kind === 'post' && e.event.time !== null && Date.parse(e.event.time) <= atTime ? [e.event.post] : [],
    );
    lastPost = Math.min(lastPost, Math.max(0, ...made));
  }
  return (entry) => {
    if (entry.position > lastPost) return false;
    if (atTime === undefined) return true;
    const time = entry.event.time ?? null;
    return time === null || Date.parse(time) <= atTime;
  };
}

/**
 * What the fold cannot see on its own: a correction of a post that is not in the log
 * (only below the last post counted, so a cut count agrees), and a `day` that never started.
 */
function finish(state: GameState, seen: ReadonlySet<number>, day: number | undefined): GameState {
  let s = state;
  for (const [post, target] of s.corrections) {
    if (seen.has(post) || s.asOfPost === null || post >= s.asOfPost) continue;
    s = withFlag(s, {
      post,
      player: null,
      kind: 'unknown-post',
      raw: `correction of post ${post} -> ${target ?? '(ignored)'}: no such post`,
    });
  }
  if (day !== undefined && day > s.day)
    s = withNote(s, `Day ${day} has not started: this is the count of Day ${s.day}`);
  return s;
}
