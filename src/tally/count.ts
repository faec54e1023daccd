import type { EngineId } from '../model/engine.js';
import type { Roster } from '../model/roster.js';
import type { Tally } from '../model/tally.js';
import type { Ruleset } from '../rules/ruleset.js';
import { apply } from './apply.js';
import { runClock, startClock, type ClockInput } from './day-clock.js';
import { orderLog, type LogEntry, type TallyEvent } from './log.js';
import { nameKey } from './slot-names.js';
import { initialState, withFlag, withNote, type GameState } from './state.js';
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
  const { entries, corrections } = orderLog(input.events);
  const within = cutOf(entries, input);
  const clock = input.clock ?? {};
  const hosts = new Set((input.hosts ?? []).map(nameKey));
  let state = startClock(initialState(input.ruleset, input.roster, corrections, hosts), 1, null, clock);
  const seen = new Set<number>();
  let position = 0;
  let lastPostTime: number | null = null;
  for (const entry of entries) {
    if (!within(entry)) continue;
    if (input.day !== undefined && entry.event.kind === 'day-start' && entry.event.day > input.day) break;
    const time = timeOf(entry);
    // A Day whose start nothing tells begins with its first dated entry (Day 1: the thread's first post).
    if (state.clock.start === null && time !== null && entry.event.kind !== 'day-start') {
      state = { ...state, clock: { ...state.clock, start: time, firedTo: Math.max(state.clock.firedTo, time) } };
    }
    if (time !== null) state = runClock(state, time, false, position);
    if (entry.event.kind === 'post') seen.add(entry.event.post);
    state = apply(state, entry);
    if (entry.event.kind === 'day-start') state = startClock(state, entry.event.day, time ?? lastPostTime, clock);
    if (entry.event.kind === 'post' && time !== null) lastPostTime = time;
    position = entry.position;
  }
  // Time known to have passed after the last entry: the caller's `now`, or the `toTime` cut.
  const until = input.toTime ?? (input.toPost === undefined ? clock.now : undefined);
  if (until !== undefined) state = runClock(state, parseTime(until, 'clock.now'), true, position);
  state = finish(state, seen, input.day);
  return toTally(state, input.engine ?? null, { view: input.view ?? 'gm', explain: input.explain ?? false });
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

/**
 * The count as at each of `posts` (post numbers), from one pass of the fold: the same
 * tallies as `posts.map((p) => countVotes({ ...input, toPost: p }))` (the log is in
 * position order, so a cut is a prefix), at the cost of one fold plus one view per cut
 * instead of one whole fold per cut.
 */
export function countVotesAt(input: Omit<CountInput, 'toPost' | 'toTime'>, posts: readonly number[]): Tally[] {
  const cuts = [...posts].sort((a, b) => a - b);
  const { entries, corrections } = orderLog(input.events);
  let state = initialState(input.ruleset, input.roster, corrections);
  const seen = new Set<number>();
  const view = { view: input.view ?? 'gm', explain: input.explain ?? false } as const;
  const out = new Map<number, Tally>();
  const cut = (post: number): void => {
    out.set(post, toTally(finish(state, seen, input.day), input.engine ?? null, view));
  };
  let next = 0;
  for (const entry of entries) {
    while (next < cuts.length && entry.position > cuts[next]!) cut(cuts[next++]!);
    if (next >= cuts.length) break;
    if (input.day !== undefined && entry.event.kind === 'day-start' && entry.event.day > input.day) break;
    if (entry.event.kind === 'post') seen.add(entry.event.post);
    state = apply(state, entry);
  }
  while (next < cuts.length) cut(cuts[next++]!);
  return posts.map((p) => out.get(p)!);
}
