import type { Effect, PostReading, PostViolation } from '../model/action.js';
import type { EngineId } from '../model/engine.js';
import type { GmEvent, PostEvent } from '../model/event.js';
import type { EditMarker } from '../model/post.js';
import type { Roster } from '../model/roster.js';
import type { Flag, Tally } from '../model/tally.js';
import type { Ruleset } from '../rules/ruleset.js';
import { clockEvents, nextCheckAfter } from '../tally/clock.js';
import { countVotesWithDeaths, type OwnDeath } from '../tally/count.js';
import type { TallyEvent } from '../tally/log.js';
import type { ClockDay, ClockInput } from '../tally/day-clock.js';
import type { DaySetting } from './poll-settings.js';

/**
 * The game's count from what the store holds: every post (deleted ones too) with every
 * body it has had, the GM's events, and the Day's clock. Pure: the caller passes `now`.
 *
 * - An edit is a new revision. One the forum did not mark (a silent edit) is an `edit`
 *   violation quoting both versions; one it marked was already read as one by the parser.
 * - An edit made once the Day of its post was decided (a deadline passed, a majority
 *   reached, the GM decided) never changes the count: the post keeps the body it had
 *   then, and an edit that would change its vote is flagged `vote-after-decision`.
 * - A deleted post still counts (it was made); the tally notes that it was deleted.
 * - Clock: the fold runs the ruleset's checks from each Day's start and the Day's deadline
 *   (extensions included) up to `now` (src/tally/day-clock.ts).
 *
 * This is the one count: `votal count`, the poller's stored tally, the drafts, the
 * dashboard and the live page all call it; the public view only hides, never recounts.
 */
export interface PostHistory {
  number: number;
  author: string;
  postedAt: string | null;
  permalink: string | null;
  deleted: boolean;
  /** Oldest first; the last one is what the forum shows now. */
  revisions: RevisionReading[];
}

export interface RevisionReading {
  reading: PostReading;
  /** When this body was first seen by the poller (ISO 8601). */
  firstSeen: string;
  /** The forum's edit marker seen with this body. */
  edit: EditMarker | null;
  /** The poster's own words in this body (for the evidence of an edit). */
  text: string;
}

export interface FoldGameInput {
  ruleset: Ruleset;
  roster: Roster;
  engine: EngineId | null;
  posts: readonly PostHistory[];
  gmEvents: readonly GmEvent[];
  /** The current Day's clock as the GM set it (game settings). */
  day?: DaySetting | undefined;
  /** Other Days' clocks (`votal count --deadline`); `day` wins for its Day. */
  clockDays?: readonly ClockDay[] | undefined;
  /** ISO 8601: clock events up to here happened. */
  now: string;
  /** The hosts' forum names (`gmNames`): their posts are not a non-player's votes. */
  hosts?: readonly string[] | undefined;
  /** `gm` (default) or `public`: the public view hides what only the GM may see; it counts the same. */
  view?: 'gm' | 'public' | undefined;
  explain?: boolean | undefined;
  /** Count this Day (the fold stops at the start of a later one); default: the Day the thread reached. */
  countDay?: number | undefined;
  /** The count as it stood at this post / time. */
  toPost?: number | undefined;
  toTime?: string | undefined;
}

/** An edit the count does not take, because it came after its Day was decided. */
export interface LateEdit {
  post: number;
  author: string;
  /** When the edit was seen (or the forum says it was made). */
  at: string;
  /** The effect that stands, and the one the edit would have had. */
  counted: Effect;
  edited: Effect;
}

export interface FoldGameResult {
  tally: Tally;
  lateEdits: LateEdit[];
  /** The Day's deadline now (after Filibuster extensions), or null without a Day clock. */
  deadline: string | null;
  /** Scheduled checks and deadlines of the Day still to come after `now`. */
  upcoming: string[];
  /** The log counted: each post at its counted revision, and the GM events (for cuts of the same count). */
  log: TallyEvent[];
  /** The clock the count ran with. */
  clock: ClockInput;
  /**
   * The deaths the count caused by itself (a Day's eliminated at the next Day's start, rule
   * deaths): the posts after them are read with those players dead (src/game/reading-events.ts).
   */
  ownDeaths: OwnDeath[];
}

/** Most edit instants examined one by one; later ones are judged with the last fold. */
const MAX_EDIT_INSTANTS = 200;
const SNIPPET = 160;

export function foldGame(input: FoldGameInput): FoldGameResult {
  const nowMs = parse(input.now, 'now');
  const times = input.posts.map((p) => p.revisions.map((r, i) => revisionTime(p, r, i)));

  // Which revision of each post counts: edits are taken in time order, each only if its
  // post's Day was still open just before it.
  const chosen = input.posts.map(() => 0);
  const edits = new Map<number, { post: number; revision: number }[]>();
  input.posts.forEach((p, pi) => {
    p.revisions.forEach((_r, ri) => {
      if (ri === 0) return;
      const t = times[pi]![ri]!;
      if (t > nowMs) return;
      const list = edits.get(t) ?? [];
      list.push({ post: pi, revision: ri });
      edits.set(t, list);
    });
  });
  const instants = [...edits.keys()].sort((a, b) => a - b);
  const lateEdits: LateEdit[] = [];
  const dayStarts = input.gmEvents.flatMap((e) => (e.kind === 'day-start' && e.at !== undefined ? [e.at] : []));
  let examined = 0;
  for (const t of instants) {
    const before = examined++ < MAX_EDIT_INSTANTS ? countAt(input, chosen, t - 1, true).tally : null;
    for (const { post: pi, revision: ri } of edits.get(t)!) {
      const post = input.posts[pi]!;
      if (before && isLate(post.number, before, dayStarts, t)) {
        const counted = post.revisions[chosen[pi]!]!.reading.effect;
        lateEdits.push({
          post: post.number,
          author: post.author,
          at: iso(t),
          counted,
          edited: post.revisions[ri]!.reading.effect,
        });
      } else {
        chosen[pi] = ri;
      }
    }
  }

  const final = countAt(input, chosen, nowMs, false);
  const tally = final.tally;
  const flags: Flag[] = [...tally.flags];
  const notes: string[] = [...(tally.notes ?? [])];
  for (const late of lateEdits) {
    if (sameEffect(late.counted, late.edited)) {
      notes.push(
        `Post ${late.post} by ${late.author} was edited after its Day was decided (${late.at}); the edit is not counted.`,
      );
      continue;
    }
    flags.push({
      post: late.post,
      player: late.author,
      kind: 'vote-after-decision',
      raw: `edited after the Day was decided (${late.at}): ${describe(late.edited)}; it does not count, ${describe(late.counted)} stands`,
      candidates: [],
    });
  }
  for (const p of input.posts) {
    if (p.deleted)
      notes.push(`Post ${p.number} by ${p.author} was deleted on the forum; it is kept and counted as it was.`);
  }
  const out: Tally = { ...tally, flags: flags.sort((a, b) => a.post - b.post) };
  if (notes.length) out.notes = notes;
  if (final.ownDeaths.length) out.ownDeaths = final.ownDeaths;
  return {
    tally: out,
    lateEdits,
    deadline: final.deadline,
    upcoming: final.upcoming.filter((t) => Date.parse(t) > nowMs),
    log: final.log,
    clock: final.clock,
    ownDeaths: final.ownDeaths,
  };
}

/** A post's Day was decided (or is over) at the moment of an edit. */
function isLate(post: number, before: Tally, dayStarts: readonly number[], _at: number): boolean {
  // A post of an earlier Day than the one being counted.
  const currentStart = Math.max(0, ...dayStarts.filter((at) => at <= (before.asOfPost ?? 0)));
  if (currentStart > 0 && post <= currentStart) return true;
  if (before.outcome.status === 'open') return false;
  const decidedAt = before.outcome.decidedAt ?? before.asOfPost ?? Number.POSITIVE_INFINITY;
  return post <= decidedAt;
}

interface CountAt {
  tally: Tally;
  deadline: string | null;
  upcoming: string[];
  log: TallyEvent[];
  clock: ClockInput;
  ownDeaths: OwnDeath[];
}

/**
 * The count with each post at its chosen revision, as at `atMs`: clock events up to then,
 * and (`cut`, while judging edits) only posts and events made by then.
 */
function countAt(input: FoldGameInput, chosen: readonly number[], atMs: number, cut: boolean): CountAt {
  const posts: PostEvent[] = input.posts.map((p, pi) => ({
    kind: 'post',
    post: p.number,
    author: p.author,
    time: p.postedAt,
    permalink: p.permalink,
    reading: readingOf(p, chosen[pi]!),
  }));
  const days: ClockDay[] = (input.clockDays ?? []).filter((d) => d.day !== input.day?.number);
  if (input.day) days.push({ day: input.day.number, start: input.day.start, deadline: input.day.deadline });
  const log: TallyEvent[] = [...posts, ...input.gmEvents];
  const clock = { now: iso(atMs), days };
  const { tally, ownDeaths } = countVotesWithDeaths({
    ruleset: input.ruleset,
    roster: input.roster,
    events: log,
    engine: input.engine,
    clock,
    hosts: input.hosts ?? [],
    view: cut ? 'gm' : (input.view ?? 'gm'),
    explain: cut ? false : (input.explain ?? false),
    ...(cut ? { toTime: iso(atMs) } : {}),
    ...(!cut && input.toTime !== undefined ? { toTime: input.toTime } : {}),
    ...(!cut && input.toPost !== undefined ? { toPost: input.toPost } : {}),
    ...(!cut && input.countDay !== undefined ? { day: input.countDay } : {}),
  });
  const deadline = tally.deadline ?? null;
  return { tally, deadline, upcoming: upcomingOf(input.ruleset, tally, atMs), log, clock, ownDeaths };
}

/** The checks still to come this Day and its deadline (the poller polls faster near them). */
function upcomingOf(ruleset: Ruleset, tally: Tally, atMs: number): string[] {
  if (tally.outcome.status !== 'open') return [];
  if (tally.deadline !== undefined) {
    if (Date.parse(tally.deadline) <= atMs) return [];
    return clockEvents(ruleset, { day: tally.day, start: iso(atMs), deadline: tally.deadline }).map((e) => e.time);
  }
  const next = nextCheckAfter(ruleset, atMs);
  return next === null ? [] : [iso(next)];
}

/** A revision's reading, with an `edit` violation when the forum did not mark the edit. */
function readingOf(p: PostHistory, index: number): PostReading {
  const rev = p.revisions[index]!;
  if (index === 0 || rev.edit !== null) return rev.reading;
  const before = p.revisions[index - 1]!;
  const violation: PostViolation = {
    kind: 'edit',
    detail: `edited without an edit marker (seen ${rev.firstSeen}); before: "${snippet(before.text)}"; after: "${snippet(rev.text)}"`,
  };
  return { ...rev.reading, violations: [...rev.reading.violations, violation] };
}

/** When a body appeared: the post's time for the first, else the edit marker's time or when it was seen. */
function revisionTime(p: PostHistory, r: RevisionReading, index: number): number {
  const seen = parse(r.firstSeen, 'firstSeen');
  if (index === 0) {
    const posted = p.postedAt === null ? Number.NaN : Date.parse(p.postedAt);
    return Number.isNaN(posted) ? seen : Math.min(posted, seen);
  }
  const marked = r.edit?.at ? Date.parse(r.edit.at) : Number.NaN;
  return Number.isNaN(marked) ? seen : Math.min(marked, seen);
}

function sameEffect(a: Effect, b: Effect): boolean {
  return a.kind === b.kind && a.target === b.target && a.reason === b.reason;
}

function describe(e: Effect): string {
  if (e.kind === 'vote') return `a vote for ${e.target}`;
  if (e.kind === 'unvote') return 'an unvote';
  if (e.kind === 'review') return `a vote the GM must review (${e.reason ?? 'unclear'})`;
  return 'no vote';
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET ? `${flat.slice(0, SNIPPET - 1)}…` : flat;
}

function parse(time: string, what: string): number {
  const ms = Date.parse(time);
  if (Number.isNaN(ms)) throw new RangeError(`${what} is not an ISO 8601 time: ${time}`);
  return ms;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
