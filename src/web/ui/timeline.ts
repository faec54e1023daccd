import type { GmEvent } from '../../model/event.js';
import type { Tally } from '../../model/tally.js';
import { countVotesWithCuts, type CountInput } from '../../tally/count.js';

/**
 * The Day's vote history for the live page: each wagon's size after every post of the
 * Day, and who moved their vote where. Built from cuts of the same pass of the same fold
 * that makes the tally (`countVotesWithCuts`, the clock included: a vote after the
 * deadline moves no line), in the public view, so it shows nothing the live tally would
 * not. GM events (a death, a replacement) are changes of their own, never a player's vote.
 */
export interface Series {
  target: string;
  /** The wagon's total after each post in `posts` (0 when it had no votes). */
  values: number[];
}

export interface VoteChange {
  post: number;
  player: string;
  from: string | null;
  to: string | null;
  permalink: string | null;
  /** A GM event, told as itself ("Lurker died (GM)", "Caroline replaced Carol"); from/to are null. */
  event?: string;
}

export interface Timeline {
  /** Post numbers along the x axis. */
  posts: number[];
  series: Series[];
  /** The threshold at the last point (null: plurality). */
  threshold: number | null;
  /** Oldest first. */
  changes: VoteChange[];
}

export interface TimelineInput extends Omit<CountInput, 'toPost' | 'toTime'> {
  /** The Day's posts (numbers), in thread order. */
  posts: readonly number[];
  /** Most points computed; longer Days are sampled evenly (the last post always kept). Default: `pointsFor(roster)`. */
  maxPoints?: number;
  /** Most series drawn (the biggest wagons). Default 6. */
  maxSeries?: number;
}

/**
 * Points on the chart for a roster: each point is a whole count of the roster, so a big
 * game gets fewer of them (240 up to 500 players, 40 at 3,000, never under 24) and the
 * live page's work stays linear in the roster.
 */
export function pointsFor(players: number): number {
  return Math.max(24, Math.min(240, Math.floor(120_000 / Math.max(1, players))));
}

export function buildTimeline(input: TimelineInput): Timeline {
  const all = [...new Set(input.posts)].sort((a, b) => a - b);
  const max = input.maxPoints ?? pointsFor(input.roster.length);
  const posts = all.length <= max ? all : sample(all, max);
  const { cuts, eventsBefore } = countVotesWithCuts({ ...input, view: input.view ?? 'public' }, posts);

  const totals = new Map<string, number[]>();
  cuts.forEach((t, i) => {
    for (const w of t.wagons) {
      let values = totals.get(w.target);
      if (!values) totals.set(w.target, (values = posts.map(() => 0)));
      values[i] = w.total;
    }
  });
  const last = cuts.at(-1);
  const lastTotals = new Map((last?.wagons ?? []).map((w) => [w.target, w.total]));
  const ranks = new Map(
    [...totals].map(([target, values]) => [
      target,
      (lastTotals.get(target) ?? 0) * 1000 + values.reduce((m, v) => Math.max(m, v), 0),
    ]),
  );
  const rank = (target: string): number => ranks.get(target)!;
  const series = [...totals.keys()]
    .sort((a, b) => rank(b) - rank(a) || a.localeCompare(b))
    .slice(0, input.maxSeries ?? 6)
    .map((target) => ({ target, values: totals.get(target)! }));

  const changes: VoteChange[] = [];
  let before = new Map<string, { target: string; post: number; permalink: string | null }>();
  cuts.forEach((t, i) => {
    const now = votesOf(t);
    // Players a GM event moved (died, replaced): the event is the change, not their vote.
    const told = (eventsBefore[i] ?? []).flatMap((e) => eventChange(e, posts[i]!) ?? []);
    const moved = new Set(told.flatMap((t) => t.players));
    for (const [player, v] of now) {
      if (moved.has(player)) continue;
      const was = before.get(player);
      // A vote restated for the same target keeps its place: not a change.
      if (was?.target === v.target) continue;
      changes.push({ post: v.post, player, from: was?.target ?? null, to: v.target, permalink: v.permalink });
    }
    for (const [player, was] of before) {
      if (!now.has(player) && !moved.has(player))
        changes.push({ post: posts[i]!, player, from: was.target, to: null, permalink: null });
    }
    // A GM event placed at a post comes after that post's votes.
    for (const t of told) changes.push(t.change);
    before = now;
  });
  changes.sort((a, b) => a.post - b.post);
  return { posts, series, threshold: last?.threshold.votes ?? null, changes };
}

/** A change as the live page tells it: a GM event as itself, a vote as who moved where. */
export function changeText(c: VoteChange): string {
  if (c.event !== undefined) return c.event;
  if (c.to === null) return `${c.player} unvoted ${c.from ?? ''}`.trim();
  return c.from ? `${c.player}: ${c.from} → ${c.to}` : `${c.player} voted ${c.to}`;
}

/** A GM event on the timeline, and the players whose votes it moved. */
function eventChange(e: GmEvent, cut: number): { change: VoteChange; players: string[] } | null {
  const post = 'at' in e && typeof e.at === 'number' ? e.at : cut;
  const change = (player: string, event: string): VoteChange => ({
    post,
    player,
    from: null,
    to: null,
    permalink: null,
    event,
  });
  switch (e.kind) {
    case 'kill':
      return { change: change(e.player, `${e.player} died (GM)`), players: [e.player] };
    case 'modkill':
      return { change: change(e.player, `${e.player} was mod-killed (GM)`), players: [e.player] };
    case 'revive':
      return { change: change(e.player, `${e.player} is alive again (GM)`), players: [e.player] };
    case 'replace':
      return { change: change(e.by, `${e.by} replaced ${e.player}`), players: [e.player, e.by] };
    default:
      return null;
  }
}

function votesOf(t: Tally): Map<string, { target: string; post: number; permalink: string | null }> {
  const out = new Map<string, { target: string; post: number; permalink: string | null }>();
  for (const w of t.wagons)
    for (const v of w.voters) out.set(v.player, { target: w.target, post: v.post, permalink: v.permalink ?? null });
  return out;
}

function sample(posts: readonly number[], n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(posts[Math.round((i * (posts.length - 1)) / (n - 1))]!);
  return [...new Set(out)];
}
