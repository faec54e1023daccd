import { z } from 'zod';
import { DraftSettings, type DraftSettingsInput } from '../model/game-settings.js';
import type { Tally, Wagon } from '../model/tally.js';

/**
 * When Votal drafts a votal for the GM on its own (the GM approves every one). Counters
 * in the wild post every N votes or hours, at L-1 and at the hammer, when a player asks,
 * and when the Day ends (research/anchors.md §4 item 8); each of those can be turned off.
 */
// The triggers' settings are part of a game's settings (src/model/game-settings.ts).
export { DraftSettings, type DraftSettingsInput };

export const DraftReasonKind = z.enum(['votes', 'hours', 'l-minus-1', 'majority', 'deadline', 'request', 'gm']);
export type DraftReasonKind = z.infer<typeof DraftReasonKind>;

/** Why a draft is due, with the posts that made it so (empty when no post did: a clock, a GM). */
export const DraftReason = z.object({
  kind: DraftReasonKind,
  text: z.string(),
  posts: z.array(z.number().int()),
  /** The wagon (l-minus-1, majority). */
  target: z.string().optional(),
  /** Who asked (request). */
  player: z.string().optional(),
  /** The keyword found (request). */
  keyword: z.string().optional(),
  /** Votes and unvotes counted (votes). */
  count: z.number().int().optional(),
  /** Hours since the last draft (hours). */
  hours: z.number().optional(),
});
export type DraftReason = z.infer<typeof DraftReason>;

export interface NewPost {
  post: number;
  author: string;
  /** The post's own text (quotes left out), where request keywords are looked for. */
  text: string;
}

export interface DraftInput {
  /** The tally before these posts; null when there was none (everything in `after` is new). */
  before: Tally | null;
  after: Tally;
  newPosts: readonly NewPost[];
  /** The last draft: when (ISO) and how many votes and unvotes had come since, up to `before`. */
  lastDraft: { at: string; votesSinceCount: number } | null;
  /** The time of this check (ISO): the only clock the rules see. */
  now: string;
  settings: DraftSettingsInput;
  /** The GM asked for a draft (dashboard or API), with an optional note. */
  gm?: { note?: string } | null;
}

/** One player's vote moving between two tallies: to null is an unvote, from null a first vote. */
export interface VoteChange {
  player: string;
  /** The post of the new vote, or of the player's latest new post for an unvote; null if unknown. */
  post: number | null;
  from: string | null;
  to: string | null;
}

const ABSTAIN = '\u0000abstain';

function standingVotes(t: Tally | null): Map<string, { target: string; post: number | null }> {
  const votes = new Map<string, { target: string; post: number | null }>();
  if (!t) return votes;
  for (const w of t.wagons) for (const v of w.voters) votes.set(v.player, { target: w.target, post: v.post });
  for (const p of t.abstaining ?? []) votes.set(p, { target: ABSTAIN, post: null });
  return votes;
}

/** The tally to compare with: none across a Day change (a new Day starts with no votes). */
function sameDay(before: Tally | null, after: Tally): Tally | null {
  return before && before.day === after.day ? before : null;
}

const sameName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;

/**
 * The votes and unvotes between two tallies of the same Day. A vote carried over to a
 * replacement (same post, same target) is not a change; a vote gone with a dead player
 * is not an unvote. The caller keeps `votesSinceCount` with this between drafts.
 */
export function voteChanges(before: Tally | null, after: Tally, newPosts: readonly NewPost[] = []): VoteChange[] {
  const prev = standingVotes(sameDay(before, after));
  const next = standingVotes(after);
  const carried = new Set([...prev.values()].map((v) => `${v.post}|${v.target}`));
  const lastPostBy = (player: string) => newPosts.filter((p) => sameName(p.author, player)).at(-1)?.post ?? null;
  const shown = (target: string) => (target === ABSTAIN ? 'abstain' : target);
  const changes: VoteChange[] = [];
  for (const [player, now] of next) {
    const was = prev.get(player);
    if (was && was.target === now.target && was.post === now.post) continue;
    if (!was && now.post !== null && carried.has(`${now.post}|${now.target}`)) continue;
    changes.push({
      player,
      post: now.post ?? lastPostBy(player),
      from: was ? shown(was.target) : null,
      to: shown(now.target),
    });
  }
  for (const [player, was] of prev) {
    if (next.has(player) || !after.players.includes(player)) continue;
    changes.push({ player, post: lastPostBy(player), from: shown(was.target), to: null });
  }
  return changes.sort((a, b) => (a.post ?? Infinity) - (b.post ?? Infinity) || a.player.localeCompare(b.player));
}

function postsOf(changes: readonly { post: number | null }[]): number[] {
  return [...new Set(changes.flatMap((c) => (c.post === null ? [] : [c.post])))].sort((a, b) => a - b);
}

function postList(posts: readonly number[]): string {
  if (!posts.length) return '';
  return posts.length === 1 ? ` (post ${posts[0]})` : ` (posts ${posts.join(', ')})`;
}

function parseTime(iso: string, what: string): number {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) throw new RangeError(`draft triggers: ${what} "${iso}" is not an ISO 8601 date and time`);
  return t;
}

const reached = (w: Wagon | undefined) => w !== undefined && w.toThreshold !== null && w.toThreshold <= 0;

/** Posts of the voters on `w` that were not on it before. */
function newVoterPosts(w: Wagon, was: Wagon | undefined): number[] {
  const old = new Set(was?.voters.map((v) => v.post) ?? []);
  return postsOf(w.voters.filter((v) => !old.has(v.post)));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether the wagons, the living or the outcome differ: "something changed" besides votes. */
function countChanged(before: Tally, after: Tally): boolean {
  const shape = (t: Tally) =>
    JSON.stringify([
      t.day,
      t.living,
      t.players,
      t.outcome.status,
      t.outcome.eliminated,
      t.wagons.map((w) => [w.target, w.total, w.toThreshold]),
    ]);
  return shape(before) !== shape(after);
}

/**
 * Why a new votal draft is due after `newPosts`, if it is: one reason per trigger that
 * fired, each saying which posts made it fire. Empty: no draft. Pure (the clock is `now`).
 */
export function draftReasons(input: DraftInput): DraftReason[] {
  const settings = DraftSettings.parse(input.settings);
  const { after, newPosts, lastDraft } = input;
  const before = sameDay(input.before, after);
  const reasons: DraftReason[] = [];
  const beforeWagon = (target: string) => before?.wagons.find((w) => w.target === target);
  const changes = voteChanges(input.before, after, newPosts);

  if (input.gm) {
    const note = input.gm.note?.trim();
    reasons.push({
      kind: 'gm',
      text: note ? `The GM asked for a count: ${note}` : 'The GM asked for a count.',
      posts: [],
    });
  }

  if (settings.requestKeywords.length) {
    const players = after.players;
    const patterns = settings.requestKeywords.map((k) => ({
      keyword: k,
      re: new RegExp(`(?<![\\p{L}\\p{N}_#])${escapeRegExp(k)}(?![\\p{L}\\p{N}_])`, 'iu'),
    }));
    for (const p of newPosts) {
      const player = players.find((name) => sameName(name, p.author));
      const hit = player !== undefined && patterns.find(({ re }) => re.test(p.text));
      if (!player || !hit) continue;
      reasons.push({
        kind: 'request',
        text: `${player} asked for a count with ${hit.keyword} (post ${p.post}).`,
        posts: [p.post],
        player,
        keyword: hit.keyword,
      });
    }
  }

  const newlyReached = after.wagons.filter((w) => reached(w) && !reached(beforeWagon(w.target)));
  const closed = after.outcome.status !== 'open' && (before === null || before.outcome.status === 'open');

  if (settings.onMajority) {
    for (const w of newlyReached) {
      const posts =
        closed && after.outcome.decidedAt !== null
          ? [after.outcome.decidedAt]
          : newVoterPosts(w, beforeWagon(w.target));
      const what = after.threshold.kind === 'majority' ? 'majority' : 'the threshold';
      reasons.push({
        kind: 'majority',
        text: `${w.target} reached ${what} with ${w.total}${postList(posts)}.`,
        posts,
        target: w.target,
      });
    }
  }

  if (settings.onDeadline && closed && newlyReached.length === 0) {
    const o = after.outcome;
    const posts = o.decidedAt !== null ? [o.decidedAt] : [];
    const result = o.eliminated.length
      ? `${o.eliminated.join(', ')} eliminated`
      : o.status === 'tie'
        ? `a tie between ${o.leaders.join(', ')}, for the GM to decide`
        : o.status === 'ended'
          ? 'the GM decides'
          : 'no elimination';
    reasons.push({ kind: 'deadline', text: `The Day ended${postList(posts)}: ${result}.`, posts });
  }

  if (settings.onLMinus1) {
    for (const w of after.wagons) {
      if (w.toThreshold !== 1 || beforeWagon(w.target)?.toThreshold === 1) continue;
      const posts = newVoterPosts(w, beforeWagon(w.target));
      reasons.push({
        kind: 'l-minus-1',
        text: `${w.target} is at L-1 with ${w.total}${postList(posts)}.`,
        posts,
        target: w.target,
      });
    }
  }

  const sinceDraft = (lastDraft?.votesSinceCount ?? 0) + changes.length;
  if (settings.everyNVotes !== null && sinceDraft >= settings.everyNVotes) {
    const posts = postsOf(changes);
    reasons.push({
      kind: 'votes',
      text: `${sinceDraft} votes and unvotes since the last draft${postList(posts)}.`,
      posts,
      count: sinceDraft,
    });
  }

  if (settings.everyHours !== null && lastDraft) {
    const hours = (parseTime(input.now, 'now') - parseTime(lastDraft.at, 'lastDraft.at')) / 3_600_000;
    const changed = sinceDraft > 0 || (before !== null && countChanged(before, after));
    if (hours >= settings.everyHours && changed) {
      const posts = postsOf(changes);
      const h = Math.floor(hours * 10) / 10;
      reasons.push({
        kind: 'hours',
        text: `${h} hours since the last draft, and the count changed${postList(posts)}.`,
        posts,
        hours: h,
      });
    }
  }
  return reasons;
}
