/**
 * Votal replayed on complete real MafiaScum games (issue #24): every Day's lynch, and the
 * share of the moderators' own vote counts that Votal's count matches.
 *
 * The material is the dataset of the Computational-Mafia project (github.com/Computational-
 * Mafia/donbot, commit 739243d "updated scraped posts"; the files were dropped from the
 * repository's tip): `data/posts/<thread>.jsonl` (every post of each game's thread: number,
 * author, the phpBB post body's HTML), `data/archive.txt` (per game: moderators, notes, the
 * players with replacements and each one's fate) and `data/transitions.tsv` (the post that
 * ended each Day). It is third-party data and stays out of this repository: this script
 * reads it from its mirror (`fetch github:Computational-Mafia/donbot`) and says so when the
 * mirror is absent. Nothing is written.
 *
 *   npx tsx bench/real-games.ts [--games N] [--game ID] [--days] [--misses] [--counts] [--count-causes] [--json]
 *     [--peer FILE] [--own-fates] [--learn [--lessons]] [--news] [--archive-only] [--no-news-deaths] [--no-weights] [--no-spellings] [--stated]
 *   VOTAL_DONBOT_MIRROR=<git dir> VOTAL_DONBOT_COMMIT=<commit> to read another copy.
 *
 * Each Day is counted the way `votal count` counts it: the phpBB adapter's body markup,
 * `readPost` with the Day's living players (the archive's fates; replacements are former
 * names of the slot), the shipped `mafiascum-majority` ruleset, the moderators as hosts, and
 * the Day's end post as its deadline (a Day that ends short of majority goes to the
 * ruleset's deadline rule). The deadline and tie rules the moderator wrote in the opening
 * posts (`readOpeningPostsRules`, the new-game form's proposal) are applied over the
 * ruleset, as a GM who accepts the proposal would. So are the replacements and Day deaths
 * Votal's news reader proposes from the moderators' posts, and the archive's double voters
 * get their weight (bench/real-games-gm.ts; `--news` lists what the news adds and where it
 * disagrees with the archive, `--archive-only` leaves the GM to the archive). The expected
 * lynch is the archive's, with its notes read the way donbot's own data-driven test reads
 * them ("dN no lynch", "dN no majority", "dN hammer after deadline").
 *
 * `--peer <file.json>` scores another vote counter's decisions instead of Votal's, with the
 * same scorer and labels: the same Days, the same moderators' count posts read by the same
 * reader, compared voter by voter with the peer's votes folded as Votal folds its own. The
 * file (made outside this repository, never committed) is
 *   { "peer": "<name>", "games": { "<game id>": [ { "day": 1, "lynch": <slot> | "no-lynch" | null,
 *     "at": <post> | null, "votes": [[<post>, <slot> | "no-lynch" | null], ...], "error": null } ] } }
 * `lynch` is the peer's own decision (what "Days right" scores); `votes` is every vote it
 * counted in order, the voter being the post's author and null an unvote (the last one of a
 * post stands). A Day the file lacks or has an `error` is the peer deciding nothing, listed
 * with the skipped.
 *
 * `--own-fates` reads each Day with Votal's own eliminations of the Days before it in place
 * of the archive's lynches (bench/own-fates.ts).
 */
import { readFileSync } from 'node:fs';
import { parseFragment } from '../scrapers/fragment.js';
import { adapterOf } from '../scrapers/identify.js';
import { gmChecks, type CheckPostInput } from '../src/game/gm-checks.js';
import { foldGame, type PostHistory } from '../src/game/fold-game.js';
import type { PostReading } from '../src/model/action.js';
import type { Body } from '../src/model/body.js';
import { GmEvent } from '../src/model/event.js';
import type { Roster } from '../src/model/roster.js';
import type { CheckDifference, CountCheck } from '../src/model/gm-count.js';
import { gameRuleset } from '../src/game/game-ruleset.js';
import { readOpeningPostsRules, type RuleProposal } from '../src/parse/opening-rules.js';
import { readPost } from '../src/parse/read-post.js';
import { loadRuleset } from '../src/rules/load-ruleset.js';
import type { Ruleset } from '../src/rules/ruleset.js';
import {
  type ArchiveGame,
  fromMirror,
  MIRROR,
  mirrorProblem,
  postsOf,
  type RawPost,
  readArchive,
  readTransitions,
  SOURCE,
} from './donbot-games.js';
import {
  type AcceptedLesson,
  type DayRun,
  GameLessons,
  type Learned,
  lessonFigures,
  withLearned,
} from './count-lessons.js';
import { CAUSES, type Cause, causeOf, leavesVotesOut, namesAny, ownWords } from './count-causes.js';
import { NicknameBook } from './nickname-book.js';
import { OwnFates } from './own-fates.js';
import { isSilentVote } from './silent-votes.js';
import { type GmAccepts, gmAccepts, gmSummary } from './real-games-gm.js';
import {
  apartStated,
  type ImpliedDeath,
  impliedDeathsSummary,
  scoreImpliedDeaths,
  statedSummary,
  statedThresholdProposal,
} from './stated-threshold.js';

const args = process.argv.slice(2);
const flag = (name: string): boolean => args.includes(name);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const problem = mirrorProblem();
if (problem) {
  console.error(problem);
  process.exit(2);
}

// ---- one Day counted ----

const markup = adapterOf('phpbb').descriptor.body;
const EPOCH = '1970-01-01T00:00:00.000Z';

type Expected = { kind: 'player'; slot: string } | { kind: 'no-lynch' } | { kind: 'nobody' };

interface DayResult {
  game: string;
  day: number;
  thread: string;
  /** Why the Day's lynch is not scored (donbot's own labels), or null. */
  unscored: string | null;
  /** The archive's note says the Day ended without a majority. */
  noMajority: boolean;
  expected: Expected;
  status: string;
  eliminated: string[];
  decidedAt: number | null;
  /** The decision waits for the GM: unread votes could change who is eliminated. */
  held: boolean;
  /** How the Day was decided, step by step (the outcome's explain, held reason included). */
  explain: string[];
  right: boolean;
  /** Right under the shipped ruleset's own deadline and tie rules (no opening-post proposal). */
  rightShipped: boolean;
  /** The wagons at the Day's end, and the tally's flags by kind (for --json and --days). */
  wagons: [string, number][];
  flags: Record<string, number>;
  /** Votes whose name Votal could not read: "post author: raw (match)". */
  unreadVotes: string[];
  counts: CountCheck[];
  /** The counts' stated alive counts and thresholds that differ from Votal's (bench/stated-threshold.ts). */
  stated: CheckDifference[];
  /** The deaths the counts' stated alive counts imply, each scored against the archive (bench/stated-threshold.ts). */
  impliedDeaths: ImpliedDeath[];
  /** Each differing count's cause, in the order of `counts` (null: the count matched). */
  causes: (Cause | null)[];
  /** The Day's fold, for the lessons of `--learn` (dropped once they are read). */
  fold?: DayRun['fold'];
}

/** The Day's posts whose vote Votal dropped without a word, looked at once each. */
function droppedIn(inDay: readonly RawPost[], url: string): (post: PostHistory) => boolean {
  const html = new Map(inDay.map((p) => [p.number, p.content]));
  const seen = new Map<number, boolean>();
  return (h) => {
    let silent = seen.get(h.number);
    if (silent === undefined)
      seen.set(h.number, (silent = isSilentVote(html.get(h.number) ?? '', url, h.revisions[0]!.reading)));
    return silent;
  };
}

/** Whether a count post names a player by any of their slot's names (bench/count-causes.ts). */
function namedInCount(bodies: ReadonlyMap<number, Body>, roster: Roster, slotOf: (name: string) => string | undefined) {
  return (post: number, player: string): boolean => {
    const body = bodies.get(post);
    const slot = roster.find((s) => s.name === (slotOf(player) ?? player));
    return body !== undefined && namesAny(ownWords(body), [player, ...(slot ? [slot.name, ...slot.formerNames] : [])]);
  };
}

function expectedOf(
  game: ArchiveGame,
  day: number,
): { expected: Expected; unscored: string | null; noMajority: boolean } {
  const notes = game.notes.toLowerCase();
  const unscored = notes.includes(`d${day} hammer after deadline`) ? 'hammer after deadline' : null;
  const noMajority = notes.includes(`d${day} no majority`);
  if (notes.includes(`d${day} no lynch`)) return { expected: { kind: 'no-lynch' }, unscored, noMajority };
  const slot = game.lynched.get(day);
  return {
    expected: slot === undefined ? { kind: 'nobody' } : { kind: 'player', slot: game.slots[slot]![0]! },
    unscored,
    noMajority,
  };
}

/**
 * The Day's kills the archive's notes place at a post ("xfdagentx42 killed on post 82"), as
 * the GM records them: the moderators' other rulings there are not applied (they are what
 * Votal must read by itself).
 */
function killsOf(game: ArchiveGame, roster: Roster, start: number, end: number): GmEvent[] {
  const names = new Map(roster.flatMap((s) => [s.name, ...s.formerNames].map((n) => [n.toLowerCase(), s.name])));
  const out: GmEvent[] = [];
  for (const m of game.notes.matchAll(/(?:^|;\s*)([^;]+?) killed (?:on|in) post (\d+)/giu)) {
    const player = names.get(m[1]!.trim().toLowerCase());
    const at = Number(m[2]);
    if (player && at > start && at <= end) out.push(GmEvent.parse({ kind: 'kill', player, at }));
  }
  return out;
}

function rosterFor(game: ArchiveGame, day: number): Roster {
  return game.slots.map((names, i) => ({
    name: names[0]!,
    aliases: [],
    formerNames: names.slice(1).reverse(),
    alive: game.fates[i]! >= day,
  }));
}

function isRight(expected: Expected, outcome: { status: string; eliminated: readonly string[] }): boolean {
  if (expected.kind === 'player') return outcome.eliminated.length === 1 && outcome.eliminated[0] === expected.slot;
  if (expected.kind === 'no-lynch') return outcome.status === 'no-lynch';
  return outcome.eliminated.length === 0;
}

const SHIPPED = loadRuleset('mafiascum-majority');

/**
 * The shipped ruleset with the opening posts' proposals laid over it, as a GM who accepts
 * the new-game form's proposal would set the game.
 */
function rulesetOf(game: ArchiveGame, posts: readonly RawPost[]): { ruleset: Ruleset; proposals: RuleProposal[] } {
  const isHost = new Set(game.moderators.map((h) => h.toLowerCase()));
  const opening = posts.slice(0, 10).map((p) => ({ author: p.user, body: parseFragment(p.content, markup, game.url) }));
  const proposals = readOpeningPostsRules(opening, (a) => isHost.has(a.toLowerCase()), { living: game.slots.length });
  const bodyOf = (p: RawPost) => parseFragment(p.content, markup, game.url);
  const stated = statedThresholdProposal(posts, (a) => isHost.has(a.toLowerCase()), bodyOf, SHIPPED.threshold);
  if (stated && !proposals.some((p) => p.rule === 'threshold')) proposals.push(stated);
  const rulesetOverrides = Object.assign({}, ...proposals.map((p) => p.overrides)) as Record<string, unknown>;
  if (proposals.length === 0) return { ruleset: SHIPPED, proposals };
  return { ruleset: gameRuleset({ ruleset: 'mafiascum-majority', rulesetOverrides }), proposals };
}

/** The Day's roster: the archive's slots and fates (or the fates Votal read, `--own-fates`), with the lessons learned. */
function dayRoster(game: ArchiveGame, day: number, learned: Learned | undefined): Roster {
  const fated = ownFates ? ownFates.rosterFor(game, day, rosterFor(game, day)) : rosterFor(game, day);
  return learned ? withLearned(fated, learned) : fated;
}

/** The Day's posts as the store keeps them (one revision each, read by Votal or the peer), and the hosts' bodies. */
function dayHistories(
  game: ArchiveGame,
  inDay: readonly RawPost[],
  ruleset: Ruleset,
  roster: Roster,
  gm: GmAccepts,
  readingOf: ((post: RawPost) => PostReading) | undefined,
): { histories: PostHistory[]; bodies: Map<number, Body> } {
  const isHost = new Set(game.moderators.map((h) => h.toLowerCase()));
  const bodies = new Map<number, Body>();
  const histories: PostHistory[] = inDay.map((p) => {
    const body = parseFragment(p.content, markup, game.url);
    if (isHost.has(p.user.toLowerCase())) bodies.set(p.number, body);
    return {
      number: p.number,
      author: p.user,
      postedAt: null,
      permalink: null,
      deleted: false,
      revisions: [
        {
          reading: readingOf
            ? readingOf(p)
            : readPost({ body, edit: null }, gm.readingRoster(roster, p.number), ruleset),
          firstSeen: EPOCH,
          edit: null,
          text: '',
        },
      ],
    };
  });
  return { histories, bodies };
}

/** The Day's GM events: its start, what the GM accepted, the archive's kills, its end, the learned corrections. */
function dayEvents(
  game: ArchiveGame,
  roster: Roster,
  gm: GmAccepts,
  day: number,
  start: number,
  end: number,
  learned: Learned | undefined,
): GmEvent[] {
  return [
    GmEvent.parse({ kind: 'day-start', day, at: start }),
    ...gm.eventsOf(day, start, end),
    ...killsOf(game, roster, start, end),
    GmEvent.parse({ kind: 'day-end', at: end }),
    ...(learned?.corrections ?? []),
  ];
}

/** The moderators' counts in the Day checked against Votal's fold (and the deaths their alive counts imply). */
function dayChecks(
  game: ArchiveGame,
  inDay: readonly RawPost[],
  bodies: ReadonlyMap<number, Body>,
  roster: Roster,
  ruleset: Ruleset,
  folded: ReturnType<typeof foldGame>,
  gmEvents: GmEvent[],
): ReturnType<typeof gmChecks> {
  const checkPosts: CheckPostInput[] = inDay.map((p) => {
    const body = bodies.get(p.number);
    return {
      number: p.number,
      author: p.user,
      postedAt: null,
      permalink: null,
      deleted: false,
      ...(body ? { body } : {}),
    };
  });
  return gmChecks({
    game: { roster, settings: { gm: game.moderators }, engine: 'phpbb' },
    ruleset,
    posts: checkPosts,
    log: folded.log,
    gmEvents,
    audit: [],
  });
}

/** A name's slot by the archive's names, else by a replacement the GM accepted. */
function slotNamer(roster: Roster, gm: GmAccepts): (name: string) => string | undefined {
  const slotNames = new Map(
    roster.flatMap((sl) => [sl.name, ...sl.formerNames].map((n) => [n.toLowerCase(), sl.name])),
  );
  return (name: string): string | undefined => slotNames.get(name.toLowerCase()) ?? gm.slotName(name);
}

/** The tally's flags, counted by kind. */
function flagsByKind(flags: readonly { kind: string }[]): Record<string, number> {
  return Object.fromEntries(
    [...new Set(flags.map((f) => f.kind))].map((k) => [k, flags.filter((f) => f.kind === k).length]),
  );
}

/** Votes whose name Votal could not read: "post author: raw (match)". */
function unreadVotesOf(histories: readonly PostHistory[]): string[] {
  return histories.flatMap((h) =>
    h.revisions[0]!.reading.actions.flatMap((a) =>
      a.target === null && (a.match === 'unknown' || a.match === 'ambiguous')
        ? [`#${h.number} ${h.author}: ${a.raw} (${a.match})`]
        : [],
    ),
  );
}

function countDay(
  game: ArchiveGame,
  posts: readonly RawPost[],
  ruleset: Ruleset,
  day: number,
  start: number,
  end: number,
  gm: GmAccepts,
  /** Another counter's reading of each post (`--peer`); Votal's own by default. */
  readingOf?: (post: RawPost) => PostReading,
  /** The lessons of the moderators' counts accepted so far (`--learn`, bench/count-lessons.ts). */
  learned?: Learned,
): DayResult {
  const roster = dayRoster(game, day, learned);
  const hosts = game.moderators;
  const inDay = posts.filter((p) => p.number > start && p.number <= end);
  const { histories, bodies } = dayHistories(game, inDay, ruleset, roster, gm, readingOf);
  const gmEvents = dayEvents(game, roster, gm, day, start, end, learned);
  const fold = (r: Ruleset) =>
    foldGame({
      ruleset: r,
      roster,
      engine: 'phpbb',
      posts: histories,
      gmEvents,
      now: EPOCH,
      hosts,
      countDay: day,
      explain: true,
    });
  const folded = fold(ruleset);
  const checks = dayChecks(game, inDay, bodies, roster, ruleset, folded, gmEvents);
  const { counts, stated } = apartStated(checks.counts);
  const slotOf = slotNamer(roster, gm);
  const authorOf = new Map(inDay.map((p) => [p.number, p.user]));
  const isHost = new Set(hosts.map((h) => h.toLowerCase()));
  const { expected, unscored, noMajority } = expectedOf(game, day);
  // The slot by the archive's name: a replacement the GM accepted renames it.
  const bySlot = <T extends { eliminated: readonly string[] }>(o: T): T => ({
    ...o,
    eliminated: o.eliminated.map((n) => slotOf(n) ?? n),
  });
  const outcome = bySlot(folded.tally.outcome);
  const right = isRight(expected, outcome);
  return {
    rightShipped: ruleset === SHIPPED ? right : isRight(expected, bySlot(fold(SHIPPED).tally.outcome)),
    game: game.id,
    day,
    thread: game.thread,
    unscored,
    noMajority,
    expected,
    status: outcome.status,
    eliminated: outcome.eliminated,
    decidedAt: outcome.decidedAt,
    held: outcome.held !== undefined,
    explain: (outcome.explain ?? []).map((e) => `#${e.post} ${e.text}`),
    right,
    wagons: folded.tally.wagons.map((w) => [w.target, w.total]),
    flags: flagsByKind(folded.tally.flags),
    unreadVotes: unreadVotesOf(histories),
    counts,
    stated,
    impliedDeaths: scoreImpliedDeaths(checks.deathProposals ?? [], game, day),
    causes: counts.map((c) =>
      causeOf(c, {
        slotOf,
        histories,
        namedIn: namedInCount(bodies, roster, slotOf),
        dropped: droppedIn(inDay, game.url),
        leavesOut: bodies.has(c.post) && leavesVotesOut(bodies.get(c.post)!),
        byHost: (post) => isHost.has(authorOf.get(post)?.toLowerCase() ?? ''),
        living: roster.filter((s) => s.alive).length,
      }),
    ),
    ...(learned ? { fold: { log: folded.log, roster, ruleset } } : {}),
  };
}

// ---- a peer's decisions (--peer) ----

interface PeerDay {
  day: number;
  lynch: string | null;
  at: number | null;
  votes: [number, string | null][];
  error: string | null;
}
interface PeerFile {
  peer: string;
  games: Record<string, PeerDay[]>;
}

/**
 * The Day as the peer decided it: its votes folded and checked against the moderators'
 * counts exactly as Votal's are, its own lynch scored. A Day the peer has no decision for
 * (absent, or the peer failed) is the peer deciding nothing; `skipped` says so.
 */
function peerDay(
  peer: PeerFile,
  game: ArchiveGame,
  posts: readonly RawPost[],
  ruleset: Ruleset,
  day: number,
  start: number,
  end: number,
  gm: GmAccepts,
  skipped: string[],
): DayResult {
  const decided = peer.games[game.id]?.find((d) => d.day === day);
  if (!decided || decided.error) skipped.push(`peer: game ${game.id} D${day}: ${decided?.error ?? 'no decision'}`);
  const byPost = new Map<number, (string | null)[]>();
  for (const [post, target] of decided?.votes ?? []) byPost.set(post, [...(byPost.get(post) ?? []), target]);
  const nameOf = (t: string): string => (t === 'no-lynch' ? (ruleset.noLynch?.name ?? 'No Lynch') : t);
  const readingOf = (p: RawPost): PostReading => {
    const targets = (byPost.get(p.number) ?? []).map((t) => (t === null ? null : nameOf(t)));
    const last = targets.at(-1);
    return {
      actions: targets.map((target) => ({
        kind: target === null ? 'unvote' : 'vote',
        target,
        match: 'exact',
        raw: `${peer.peer}: ${target ?? 'unvote'}`,
        written: null,
        candidates: [],
        score: null,
        source: 'parsed',
      })),
      effect:
        last === undefined
          ? { kind: 'none', target: null, reason: null }
          : { kind: last === null ? 'unvote' : 'vote', target: last, reason: null },
      violations: [],
    };
  };
  const counted = countDay(game, posts, ruleset, day, start, end, gm, readingOf);
  const lynch = decided?.lynch ?? null;
  const status = lynch === 'no-lynch' ? 'no-lynch' : lynch === null ? 'open' : 'majority';
  const eliminated = lynch === null || lynch === 'no-lynch' ? [] : [lynch];
  return {
    ...counted,
    status,
    eliminated,
    decidedAt: decided?.at ?? null,
    right: isRight(counted.expected, { status, eliminated }),
  };
}

// ---- the run ----

const games = readArchive(fromMirror('data/archive.txt'));
const transitions = readTransitions(fromMirror('data/transitions.tsv'));
const only = option('--game');
const limit = option('--games') === undefined ? Infinity : Number(option('--games'));
const chosen = games.filter((g) => (only ? g.id === only : true)).slice(0, limit);
const peerFile = option('--peer');
const peer = peerFile === undefined ? null : (JSON.parse(readFileSync(peerFile, 'utf8')) as PeerFile);
const ownFates = flag('--own-fates') ? new OwnFates() : null;

const results: DayResult[] = [];
const skipped: string[] = [];
const learning = flag('--learn') && !peer;
const lessons: AcceptedLesson[] = [];
/** The forum's nickname book: names accepted in a game are known in the later ones (game id order). */
const nicknameBook = learning ? new NicknameBook() : undefined;
const gmOptions = {
  news: !flag('--archive-only'),
  deaths: !flag('--archive-only') && !flag('--no-news-deaths'),
  weights: !flag('--archive-only') && !flag('--no-weights'),
  spellings: !flag('--archive-only') && !flag('--no-spellings'),
};
const gmNotes: GmAccepts[] = [];
let statedGames = 0;
for (const game of chosen) {
  const ends = transitions.get(game.id);
  if (!ends || ends.length === 0) {
    skipped.push(`game ${game.id}: no Day ends in transitions.tsv`);
    continue;
  }
  const posts = postsOf(game);
  if (!posts) {
    skipped.push(`game ${game.id}: no data/posts/${game.thread}.jsonl`);
    continue;
  }
  const { ruleset, proposals } = rulesetOf(game, posts);
  if (proposals.some((p) => p.rule === 'threshold')) statedGames++;
  const gm = gmAccepts(game, posts, ends, gmOptions);
  gmNotes.push(gm);
  if (flag('--days'))
    for (const p of proposals)
      console.log(`game ${game.id} rules: ${JSON.stringify(p.overrides)} from "${p.sentence}"`);
  const taught = new GameLessons(game.id, lessons, nicknameBook);
  ends.forEach((end, i) => {
    const start = i === 0 ? 0 : ends[i - 1]!;
    const r = peer
      ? peerDay(peer, game, posts, ruleset, i + 1, start, end, gm, skipped)
      : learning
        ? taught.day(i + 1, end, (l) => countDay(game, posts, ruleset, i + 1, start, end, gm, undefined, l))
        : countDay(game, posts, ruleset, i + 1, start, end, gm);
    results.push(r);
    ownFates?.record(game, r.day, r);
    if (flag('--days'))
      console.log(
        `game ${r.game} D${r.day}: ${r.right ? 'right' : 'WRONG'} (${r.held ? 'held ' : ''}${r.status} ${r.eliminated.join('+') || '-'}, expected ${expectedText(r.expected)}); wagons ${r.wagons.map(([t, n]) => `${t} ${n}`).join(', ')}; flags ${JSON.stringify(r.flags)}${r.right ? '' : r.explain.map((e) => `\n  why ${e}`).join('')}${r.unreadVotes.map((u) => `\n  unread ${u}`).join('')}`,
      );
  });
}

function expectedText(e: Expected): string {
  return e.kind === 'player' ? e.slot : e.kind;
}

const isMatch = (c: CountCheck): boolean => c.differences.length === 0;
const isMatchEarlier = (c: CountCheck): boolean =>
  c.differences.every((d) => d.kind === 'stopped-early' && d.text.includes(' matches '));

const scored = results.filter((r) => r.unscored === null);
const majorityDays = scored.filter((r) => !r.noMajority);
const noMajorityDays = scored.filter((r) => r.noMajority);
const lynchDays = majorityDays.filter((r) => r.expected.kind === 'player');
const wrongPlayer = majorityDays.filter(
  (r) => !r.right && r.eliminated.length > 0 && (r.expected.kind !== 'player' || r.eliminated[0] !== r.expected.slot),
);
const misses = majorityDays.filter((r) => !r.right);
const counts = results.flatMap((r) => r.counts);
const summary = {
  source: SOURCE,
  games: new Set(results.map((r) => r.game)).size,
  days: results.length,
  scoredDays: scored.length,
  right: majorityDays.filter((r) => r.right).length,
  /** Days right under the shipped ruleset's deadline and tie rules, the opening posts' not applied. */
  rightShipped: majorityDays.filter((r) => r.rightShipped).length,
  /** Missed Days the shipped default (the plurality leader at the deadline) gets: the count stayed short of the hammer. */
  rightOnlyShipped: majorityDays.filter((r) => r.rightShipped && !r.right).length,
  of: majorityDays.length,
  lynchDaysRight: lynchDays.filter((r) => r.right).length,
  lynchDays: lynchDays.length,
  wrongPlayerEliminated: wrongPlayer.length,
  /** Misses where Votal asks the GM: a tie at the deadline (the ruleset's tie goes to the GM). */
  missedTies: misses.filter((r) => r.status === 'tie').length,
  /** Misses where the decision waits for the GM to read votes that could change it. */
  missedHeld: misses.filter((r) => r.held).length,
  /** Misses where Votal eliminated nobody, or only No Lynch, and the archive has a lynch. */
  missedNobody: misses.filter((r) => r.status !== 'tie' && !r.held && r.eliminated.length === 0).length,
  noMajorityDaysRight: noMajorityDays.filter((r) => r.right).length,
  noMajorityDays: noMajorityDays.length,
  moderatorCounts: counts.length,
  moderatorCountsMatched: counts.filter(isMatch).length,
  moderatorCountsMatchedOrEarlier: counts.filter((c) => isMatch(c) || isMatchEarlier(c)).length,
  /** The differing counts by cause (see `Cause`). */
  differingCounts: Object.fromEntries(
    CAUSES.map((k) => [k, results.reduce((n, r) => n + r.causes.filter((c) => c === k).length, 0)]),
  ) as Record<Cause, number>,
  skipped,
};

if (flag('--counts')) {
  for (const r of results)
    r.counts.forEach((c, i) => {
      if (!isMatch(c))
        console.log(
          `count (${r.causes[i]}): game ${r.game} D${r.day} #${c.post}:\n  ${c.differences.map((d) => d.text).join('\n  ')}`,
        );
    });
}
// One line per count post, its cause or "matched", for bench/count-moves.ts.
if (flag('--count-causes'))
  for (const r of results)
    for (const [i, c] of r.counts.entries())
      console.log(`count-cause: game ${r.game} D${r.day} #${c.post} ${r.causes[i] ?? 'matched'}`);
if (flag('--stated'))
  for (const r of results) {
    for (const d of r.stated) console.log(`stated: game ${r.game} D${r.day}: ${d.text}`);
    for (const d of r.impliedDeaths) console.log(`implied death (${d.archive}): game ${r.game} D${r.day}: ${d.text}`);
  }
if (flag('--misses')) {
  for (const r of majorityDays.filter((d) => !d.right))
    console.log(
      `miss: game ${r.game} D${r.day} (t=${r.thread}): ${r.status} ${r.eliminated.join('+') || '-'} at #${r.decidedAt ?? '-'}, expected ${expectedText(r.expected)}`,
    );
}
if (flag('--json')) console.log(JSON.stringify({ summary, results }, null, 2));
else {
  const pct = (a: number, b: number) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`);
  console.log(`material: ${SOURCE} (${MIRROR})`);
  if (peer) console.log(`counter: the peer ${peer.peer} (${peerFile}), not Votal`);
  if (ownFates) console.log("fates: Votal's own eliminations of the Days before, not the archive's lynches");
  console.log(`games: ${summary.games}, Days: ${summary.days} (${summary.scoredDays} scored)`);
  console.log(
    `Days right: ${summary.right} of ${summary.of} (${pct(summary.right, summary.of)}); lynch Days ${summary.lynchDaysRight} of ${summary.lynchDays}`,
  );
  console.log(
    `Days right without the opening posts' rules (the shipped deadline rule): ${summary.rightShipped}; ${summary.rightOnlyShipped} of today's misses are right only so (the count short of majority, the leader lynched at the deadline)`,
  );
  console.log(
    `misses: ${summary.wrongPlayerEliminated} a wrong player eliminated, ${summary.missedTies} a tie left to the GM, ${summary.missedHeld} held for the GM (unread votes could change it), ${summary.missedNobody} nobody eliminated`,
  );
  console.log(
    `"no majority" Days (deadline rule): ${summary.noMajorityDaysRight} of ${summary.noMajorityDays} as the archive`,
  );
  console.log(
    `moderators' vote counts matched: ${summary.moderatorCountsMatched} of ${summary.moderatorCounts} (${pct(summary.moderatorCountsMatched, summary.moderatorCounts)}); with counts that stop a few posts early: ${summary.moderatorCountsMatchedOrEarlier}`,
  );
  const d = summary.differingCounts;
  const fair = summary.moderatorCounts - d.moderator;
  console.log(
    `differing counts by cause: ${d.votal} Votal's miss, ${d.reader} the count reader's miss, ${d.material} a name the archive lacks, ${d.moderator} the moderator's slip`,
  );
  console.log(
    `counts matched of those that are not the moderator's slip: ${summary.moderatorCountsMatched} of ${fair} (${pct(summary.moderatorCountsMatched, fair)})`,
  );
  console.log(gmSummary(gmNotes, flag('--news')));
  console.log(
    statedSummary(
      results.flatMap((r) => r.stated),
      statedGames,
    ),
  );
  console.log(impliedDeathsSummary(results.flatMap((r) => r.impliedDeaths)));
  if (learning) {
    const f = lessonFigures(lessons);
    console.log(
      `lessons from the moderators' counts (accepted): ${f.proposals} (${f.withAlias} with a name learned, ${f.authors} a poster as a slot); later counts agree with ${f.agreed}, disagree with ${f.disagreed}, ${f.unconfirmed} unconfirmed; precision ${f.precision === null ? '-' : pct(f.agreed, f.agreed + f.disagreed)}`,
    );
    console.log(
      `later counts bearing on a lesson: ${f.agreeingCounts} agree, ${f.disagreeingCounts} disagree (${pct(f.agreeingCounts, f.agreeingCounts + f.disagreeingCounts)})`,
    );
    if (flag('--lessons')) for (const l of f.lessons) console.log(`lesson: ${l}`);
    const n = nicknameBook!.figures();
    console.log(
      `nickname book (names accepted in earlier games, same forum name): ${n.nicknames} nicknames; ${n.votes} votes in ${n.games} later games read by one; later counts confirm ${n.confirmed}, deny ${n.denied}, ${n.votes - n.confirmed - n.denied} unconfirmed (counts bearing: ${n.confirmingCounts} confirm, ${n.denyingCounts} deny)`,
    );
    if (flag('--lessons')) for (const l of n.lines) console.log(`nickname: ${l}`);
  }
  for (const s of skipped) console.log(`skipped: ${s}`);
}
