import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { AuditAction, AuditEntry } from '../model/audit.js';
import { plainText, type Body } from '../model/body.js';
import type { GmEvent, PostEvent } from '../model/event.js';
import type { Game } from '../model/game.js';
import type {
  CheckAnswer,
  CheckDifference,
  CheckListing,
  CheckPost,
  CountCheck,
  CountProposals,
  GmChecks,
  GmCount,
} from '../model/gm-count.js';
import type { Tally } from '../model/tally.js';
import { readGmCount } from '../parse/gm-count.js';
import { rosterNames, type GmNameBook } from '../parse/gm-posts.js';
import { nameKey } from '../parse/name-form.js';
import type { Ruleset } from '../rules/ruleset.js';
import { countVotesWithCuts } from '../tally/count.js';
import type { TallyEvent } from '../tally/log.js';
import { rosterAt } from '../tally/slot-names.js';
import { countLessons, LESSON_DISMISS, settleLessons } from './count-lessons.js';
import { gmNames, newsReadsBodyOf } from './gm-news.js';
import { answeredDeaths, deathProposals } from './death-check.js';
import { dismissedThresholds, thresholdDiff, thresholdProposal } from './threshold-check.js';

/**
 * The GM's own vote counts checked against Votal's: each count post of the GM's is read
 * (src/parse/gm-count.ts) and compared, voter by voter, with the one count (the fold's log,
 * cut with `countVotesWithCuts`) as at the post the count names, else the post before it, or a
 * few posts earlier where that agrees better (the GM counted to an earlier post, and the
 * check says so). Each difference names the posts that decide it. Pure: nothing is posted
 * and nothing changes the count; the GM's marks are audit entries (`CHECK_MARK`).
 */
export const CHECK_MARK = 'check.mark' satisfies AuditAction;

/** How many posts before its basis a count may have stopped. */
const EARLIER = 5;
/** A Votal marker in a post's own text (src/publish/marker.ts writes it). */
const VOTAL_MARKER = /votal:\d+\.[0-9a-f]{8}/;

export interface CheckPostInput {
  number: number;
  author: string;
  postedAt: string | null;
  permalink: string | null;
  deleted: boolean;
  /** Present on the GM's posts (the only ones read). */
  body?: Body;
}

export interface GmChecksInput {
  game: Pick<Game, 'roster' | 'settings' | 'engine'>;
  ruleset: Ruleset;
  /** Every post's head; bodies of the GM's posts. */
  posts: readonly CheckPostInput[];
  /**
   * The fold's log (`foldGame(...).log`): each post at its counted revision, and the GM
   * events. Not read when the GM's posts hold no count (a caller may fold only then).
   */
  log: readonly TallyEvent[];
  gmEvents: readonly GmEvent[];
  /**
   * What the names are read under (`readingEvents`: the GM's events and the count's own
   * deaths, from the fold that made `log`); default `gmEvents`.
   */
  readingEvents?: readonly GmEvent[];
  /** Posts known to be the GM's paste of a Votal draft (found by its words). */
  pastedVotals?: ReadonlySet<number>;
  /**
   * The game's `CHECK_MARK`, `LESSON_DISMISS`, `THRESHOLD_DISMISS`, `DEATH_RECORD` and
   * `DEATH_DISMISS` audit entries.
   */
  audit: readonly AuditEntry[];
}

export function gmChecks(input: GmChecksInput): GmChecks {
  const { game, ruleset } = input;
  const { found, ownVotals } = countsFound(input);
  // One fold for every cut of every count (the log is in thread order: a cut is a prefix).
  if (found.length === 0) return { counts: [], lessons: [], ownVotals, deathProposals: [] };
  const log = input.log;
  const cuts = [...new Set(found.flatMap((f) => range(f.base)))];
  const tallies = countVotesWithCuts(
    { ruleset, roster: game.roster, events: log, engine: game.engine ?? null },
    cuts,
  ).cuts;
  const at = new Map(cuts.map((c, i) => [c, tallies[i]!]));
  const posts = log.filter((e): e is PostEvent => e.kind === 'post').sort((a, b) => a.post - b.post);
  const ctx: Ctx = {
    permalinkOf: new Map(input.posts.map((p) => [p.number, p.permalink])),
    posts,
    byNumber: new Map(posts.map((p) => [p.post, p])),
    gmEvents: input.gmEvents,
    readingEvents: input.readingEvents ?? input.gmEvents,
    ruleset,
    roster: game.roster,
  };
  const answers = markAnswers(input.audit);
  const hosts = gmNames(game.settings, input.posts);
  // Each count with what it teaches about votes Votal could not read, at the cut it was compared at.
  const counts = found.map((f) => {
    const check = checkCount(f, at, ctx, answers);
    const tally = at.get(check.comparedTo)!;
    const lessons = countLessons({
      count: f.count,
      countPermalink: check.permalink,
      tally,
      byNumber: ctx.byNumber,
      book: f.book,
      hosts,
    });
    return { ...check, lessons };
  });
  const proposal = thresholdProposal(
    found.map((f) => f.count),
    ruleset,
  );
  const offered = proposal && !dismissedThresholds(input.audit).has(proposal.key) ? proposal : null;
  const deaths = deathProposals(
    found.map((f, i) => ({
      count: f.count,
      tally: at.get(counts[i]!.comparedTo)!,
      comparedTo: counts[i]!.comparedTo,
      permalink: counts[i]!.permalink,
    })),
    answeredDeaths(input.audit),
  );
  return {
    ...(offered ? { thresholdProposal: offered } : {}),
    deathProposals: deaths,
    counts,
    lessons: settleLessons(
      counts.map((c) => c.lessons),
      dismissedLessons(input.audit),
    ),
    ownVotals,
  };
}

/**
 * What the counts proposed at a count (`LastCount.proposals`), less what the GM answered: a
 * threshold dismissed, or one the game's ruleset overrides already hold (accepted: the
 * recount that stops proposing it may not have run yet); a death recorded or dismissed.
 */
export function settleProposals(
  proposed: CountProposals,
  overrides: Readonly<Record<string, unknown>>,
  audit: readonly AuditEntry[],
): CountProposals {
  const t = proposed.threshold;
  const held = t !== null && Object.entries(t.overrides).every(([k, v]) => isDeepStrictEqual(overrides[k], v));
  const threshold = t === null || held || dismissedThresholds(audit).has(t.key) ? null : t;
  const answered = answeredDeaths(audit);
  return { threshold, deaths: proposed.deaths.filter((d) => !answered.has(d.key)) };
}

/** The keys of the lessons the GM dismissed (`LESSON_DISMISS` audit entries). */
export function dismissedLessons(audit: readonly AuditEntry[]): Set<string> {
  return new Set(audit.filter((a) => a.action === LESSON_DISMISS).map((a) => String(a.detail['key'])));
}

/** A count the GM posted, and the post Votal's count is compared at. */
interface FoundCount {
  count: GmCount;
  base: number;
  basis: 'named' | 'before';
  author: string;
  /** The names the game knew at the count's post, as it was read. */
  book: GmNameBook;
}

/** The GM's count posts, read by the names the game knew at each; Votal's own votals set apart. */
function countsFound(input: GmChecksInput): { found: FoundCount[]; ownVotals: number[] } {
  const { game, ruleset } = input;
  const reads = newsReadsBodyOf(game.settings, input.posts);
  const ownVotals: number[] = [];
  const found: FoundCount[] = [];
  for (const post of [...input.posts].sort((a, b) => a.number - b.number)) {
    if (!reads(post) || !post.body) continue;
    if (input.pastedVotals?.has(post.number) || VOTAL_MARKER.test(plainText(post.body))) {
      ownVotals.push(post.number);
      continue;
    }
    const roster = rosterAt(game.roster, input.readingEvents ?? input.gmEvents, {
      number: post.number,
      postedAt: post.postedAt,
    });
    const book = rosterNames(roster, { matching: ruleset.names });
    const count = readGmCount({ number: post.number, body: post.body }, book, { noLynch: ruleset.noLynch ?? null });
    if (!count) continue;
    const named = count.asOfPost !== null && count.asOfPost < post.number;
    found.push({
      count,
      base: named ? count.asOfPost! : post.number - 1,
      basis: named ? 'named' : 'before',
      author: post.author,
      book,
    });
  }
  return { found, ownVotals };
}

/** The GM's marks on differences (`CHECK_MARK`): the last one per key stands. */
function markAnswers(audit: readonly AuditEntry[]): Map<string, CheckAnswer> {
  const answers = new Map<string, CheckAnswer>();
  for (const a of [...audit].sort((x, y) => x.id - y.id)) {
    if (a.action !== CHECK_MARK) continue;
    answers.set(String(a.detail['key']), a.detail['answer'] as CheckAnswer);
  }
  return answers;
}

/** One count checked: at the cut it agrees with best (the latest of equals), every difference keyed and marked. */
function checkCount(
  f: FoundCount,
  at: ReadonlyMap<number, Tally>,
  ctx: Ctx,
  answers: ReadonlyMap<string, CheckAnswer>,
): Omit<CountCheck, 'lessons'> {
  let best = f.base;
  let bestDiffs = voterDiffs(f.count, at.get(f.base)!, f.base, ctx);
  for (const cut of range(f.base).slice(1)) {
    const d = voterDiffs(f.count, at.get(cut)!, cut, ctx);
    if (d.length < bestDiffs.length) {
      best = cut;
      bestDiffs = d;
    }
  }
  const prefix = `Your count at #${f.count.post}`;
  const out: VoterDiff[] = [];
  if (best < f.base) out.push(stoppedEarly(f, best, bestDiffs.length > 0, ctx.posts, prefix));
  out.push(...wagonDiffs(f.count, at.get(best)!, bestDiffs, prefix));
  out.push(...bestDiffs.map((d) => ({ ...d, text: `${prefix}: ${d.text}` })));
  const stated = thresholdDiff(f.count, at.get(best)!, prefix, {
    post: f.count.post,
    permalink: ctx.permalinkOf.get(f.count.post) ?? null,
  });
  if (stated) out.push(stated);
  for (const name of new Set(f.count.unread))
    out.push({
      kind: 'unread',
      player: null,
      gm: name,
      votal: null,
      text: `${prefix}: "${name}" names no player Votal knows`,
      posts: [{ post: f.count.post, permalink: ctx.permalinkOf.get(f.count.post) ?? null }],
    });
  const differences = out.map((d) => {
    const key = digest(`${f.count.post}:${d.kind}:${d.player ?? ''}:${d.gm ?? ''}:${d.votal ?? ''}`);
    return { ...d, key, answer: answers.get(key) ?? null };
  });
  return {
    post: f.count.post,
    permalink: ctx.permalinkOf.get(f.count.post) ?? null,
    author: f.author,
    comparedTo: best,
    basis: f.basis,
    earlier: f.base - best,
    linesNotRead: f.count.linesNotRead,
    differences,
  };
}

/** The count agrees better with Votal's a few posts earlier: the votes it leaves out. */
function stoppedEarly(
  f: FoundCount,
  best: number,
  differs: boolean,
  posts: readonly PostEvent[],
  prefix: string,
): VoterDiff {
  const left = posts.filter(
    (p) =>
      p.post > best && p.post <= f.base && (p.reading.effect.kind === 'vote' || p.reading.effect.kind === 'unvote'),
  );
  const what = left.map((p) => `${p.author}'s ${effectText(p)} at #${p.post}`).join('; ');
  const gap = f.base - best;
  return {
    kind: 'stopped-early',
    player: null,
    gm: `#${best}`,
    votal: `#${f.base}`,
    text: `${prefix} ${differs ? 'is closest to' : 'matches'} Votal's as at #${best}, ${gap} post${gap === 1 ? '' : 's'} before #${f.base}${what ? `: it leaves out ${what}` : ''}`,
    posts: left.map((p) => ({ post: p.post, permalink: p.permalink })),
  };
}

interface Ctx {
  permalinkOf: ReadonlyMap<number, string | null>;
  posts: readonly PostEvent[];
  byNumber: ReadonlyMap<number, PostEvent>;
  gmEvents: readonly GmEvent[];
  readingEvents: readonly GmEvent[];
  ruleset: Ruleset;
  roster: Game['roster'];
}

type VoterDiff = Omit<CheckDifference, 'key' | 'answer'>;

const NOT_VOTING = 'not voting';

/** Voter by voter: where the GM's count puts each player, and where Votal's does at `cut`. */
function voterDiffs(count: GmCount, tally: Tally, cut: number, ctx: Ctx): VoterDiff[] {
  const { gmOn, gmNotVoting } = gmPlaces(count);
  const votalOn = new Map<string, VotalPlace>();
  for (const w of tally.wagons)
    for (const v of w.voters)
      votalOn.set(v.player, { target: w.target, post: v.post, permalink: v.permalink, weight: v.weight });
  const last = lastVotes(ctx, cut);
  const players = new Set([...gmOn.keys(), ...votalOn.keys(), ...gmNotVoting]);
  const out: VoterDiff[] = [];
  for (const player of players) {
    const listed = gmOn.get(player) ?? [];
    const gm = listed.map((l) => l.wagon);
    const votal = votalOn.get(player) ?? null;
    const why = () => whyVotal(player, votal, last.get(player), cut, ctx);
    // A double voter written once per vote on the wagon Votal has them on: the count agrees.
    if (gm.length > 1 && votal && gm.length === votal.weight && gm.every((t) => t === votal.target)) continue;
    if (gm.length > 1) {
      const w = why();
      out.push({
        kind: 'twice',
        player,
        gm: gm.join(' + '),
        votal: votal?.target ?? NOT_VOTING,
        text: `${player} is counted ${placesText(listed)}; ${w.text}`,
        posts: w.posts,
        listed,
      });
      continue;
    }
    const placed = gm[0] ?? (gmNotVoting.has(player) || count.notVoting === null ? NOT_VOTING : 'nowhere');
    const votalPlace = votal?.target ?? NOT_VOTING;
    if (placed === votalPlace || (placed === 'nowhere' && votalPlace === NOT_VOTING && !tally.players.includes(player)))
      continue;
    const w = why();
    const where = placed === NOT_VOTING ? 'not voting' : placed === 'nowhere' ? 'not on your count' : `on ${placed}`;
    out.push({
      kind: 'voter',
      player,
      gm: placed,
      votal: votalPlace,
      text: `${player} is ${where}; ${w.text}`,
      posts: w.posts,
    });
  }
  return out.sort((a, b) => (a.posts[0]?.post ?? 0) - (b.posts[0]?.post ?? 0) || a.player!.localeCompare(b.player!));
}

/**
 * The wagons the GM lists a voter on, for the GM to find them: "on Carol (name 2 of the
 * line, as "dave") and Eve (name 1 of the line)", or "twice on Carol (names 1 and 2 of the line)".
 */
function placesText(listed: readonly CheckListing[]): string {
  const as = (l: CheckListing): string => (l.exact ? '' : `, as "${l.written}"`);
  if (listed.every((l) => l.wagon === listed[0]!.wagon))
    return `${listed.length === 2 ? 'twice' : `${listed.length} times`} on ${listed[0]!.wagon} (names ${listed.map((l) => l.position).join(' and ')} of the line${listed.map(as).join('')})`;
  return `on ${listed.map((l) => `${l.wagon} (name ${l.position} of the line${as(l)})`).join(' and ')}`;
}

/** Where Votal's count places a voter: the wagon and the vote that stands. */
interface VotalPlace {
  target: string;
  post: number;
  permalink: string | null;
  /** The slot's vote weight (a double voter's is 2). */
  weight: number;
}

/** Where the GM's count places each player (the wagons they are listed on, unstruck, as written), and who it lists as not voting. */
function gmPlaces(count: GmCount): { gmOn: Map<string, CheckListing[]>; gmNotVoting: Set<string> } {
  const gmOn = new Map<string, CheckListing[]>();
  for (const w of count.wagons) {
    if (w.target === null) continue;
    w.voters.forEach((v, i) => {
      if (v.struck || v.player === null) return;
      const list = gmOn.get(v.player) ?? [];
      list.push({ wagon: w.target!, line: w.line, written: v.written, position: i + 1, exact: v.exact });
      gmOn.set(v.player, list);
    });
  }
  const gmNotVoting = new Set((count.notVoting ?? []).flatMap((v) => (v.player && !v.struck ? [v.player] : [])));
  return { gmOn, gmNotVoting };
}

/** Each slot's last vote or unvote by `cut`, by the names the game knew then (replacements). */
function lastVotes(ctx: Ctx, cut: number): Map<string, PostEvent> {
  const roster = rosterAt(ctx.roster, ctx.readingEvents, { number: cut + 1, postedAt: null });
  const book = rosterNames(roster, { matching: ctx.ruleset.names });
  const last = new Map<string, PostEvent>();
  for (const p of ctx.posts) {
    if (p.post > cut) break;
    const kind = p.reading.effect.kind;
    if (kind !== 'vote' && kind !== 'unvote') continue;
    const slot = book.exact(p.author);
    if (slot !== undefined) last.set(slot, p);
  }
  return last;
}

/** The deciding post of a difference: the vote that stands, else the unvote, plus a replacement's post. */
function whyVotal(
  player: string,
  votal: VotalPlace | null,
  last: PostEvent | undefined,
  cut: number,
  ctx: Ctx,
): { text: string; posts: CheckPost[] } {
  const posts = ctx.gmEvents.flatMap((e) =>
    e.kind === 'replace' && e.at !== undefined && e.at <= cut && nameKey(e.by) === nameKey(player)
      ? [{ post: e.at, permalink: ctx.permalinkOf.get(e.at) ?? null }]
      : [],
  );
  if (votal) {
    const p = ctx.byNumber.get(votal.post);
    const as = p && nameKey(p.author) !== nameKey(player) ? ` (posted as ${p.author})` : '';
    return {
      text: `${player}'s vote at #${votal.post}${as} is for ${votal.target}`,
      posts: [{ post: votal.post, permalink: votal.permalink }, ...posts],
    };
  }
  if (last && last.reading.effect.kind === 'unvote')
    return {
      text: `${player} unvoted at #${last.post}`,
      posts: [{ post: last.post, permalink: last.permalink }, ...posts],
    };
  if (last)
    return {
      text: `${player}'s vote at #${last.post} is not counted by Votal (${last.reading.effect.target ?? 'no target'})`,
      posts: [{ post: last.post, permalink: last.permalink }, ...posts],
    };
  return { text: `Votal has no vote by ${player} by #${cut}`, posts };
}

/** Wagons whose number differs from Votal's, each with the voters' differences that explain it. */
function wagonDiffs(count: GmCount, tally: Tally, voters: readonly VoterDiff[], prefix: string): VoterDiff[] {
  const out: VoterDiff[] = [];
  const seen = new Set<string>();
  for (const w of count.wagons) {
    if (w.target === null || seen.has(w.target)) continue;
    seen.add(w.target);
    const listed = w.voters.filter((v) => !v.struck).length;
    const theirs = w.stated ?? listed;
    const votal = tally.wagons.find((x) => x.target === w.target)?.total ?? 0;
    const involved = voters.filter((d) => d.gm?.split(' + ').includes(w.target!) || d.votal === w.target);
    if (theirs !== votal) {
      const because = involved.map((d) => d.text).join('; ');
      out.push({
        kind: 'wagon',
        player: w.target,
        gm: String(theirs),
        votal: String(votal),
        text: `${prefix}: ${w.target}'s wagon has ${theirs}, Votal counts ${votal}${because ? `: ${because}` : ''}`,
        posts: dedupe(involved.flatMap((d) => d.posts)),
      });
    } else if (w.stated !== null && w.stated !== listed) {
      out.push({
        kind: 'wagon',
        player: w.target,
        gm: String(w.stated),
        votal: String(votal),
        text: `${prefix}: ${w.target}'s wagon says ${w.stated} but names ${listed}`,
        posts: [],
      });
    }
  }
  // A wagon Votal has that the GM's count leaves out.
  for (const t of tally.wagons) {
    if (seen.has(t.target) || t.total === 0) continue;
    const involved = voters.filter((d) => d.votal === t.target);
    out.push({
      kind: 'wagon',
      player: t.target,
      gm: '0',
      votal: String(t.total),
      text: `${prefix}: ${t.target}'s wagon is not on it, Votal counts ${t.total}${involved.length ? `: ${involved.map((d) => d.text).join('; ')}` : ''}`,
      posts: dedupe(involved.flatMap((d) => d.posts)),
    });
  }
  return out;
}

function effectText(p: PostEvent): string {
  const e = p.reading.effect;
  return e.kind === 'vote' ? `vote for ${e.target}` : 'unvote';
}

function dedupe(posts: readonly CheckPost[]): CheckPost[] {
  const seen = new Set<number>();
  return posts.filter((p) => !seen.has(p.post) && seen.add(p.post)).sort((a, b) => a.post - b.post);
}

/** The basis and the few posts before it, latest first. */
function range(base: number): number[] {
  const out: number[] = [];
  for (let c = base; c >= Math.max(0, base - EARLIER); c--) out.push(c);
  return out;
}

const digest = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);
