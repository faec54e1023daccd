import { z } from 'zod';
import { EngineId } from './engine.js';
import { MatchKind, ViolationKind } from './action.js';

/**
 * One reason behind a number: the post (or the post a GM or clock event applies after;
 * 0 = before the first post) and what happened there, so the live page and the GM can
 * see why a count is what it is.
 */
export const Explanation = z.object({
  post: z.number().int().nullable(),
  text: z.string(),
});
export type Explanation = z.infer<typeof Explanation>;

export const Voter = z.object({
  player: z.string(),
  /** The post number of the vote that currently stands. */
  post: z.number().int(),
  weight: z.number(),
  permalink: z.string().nullable().default(null),
  /**
   * How the vote's written name became its target, where that is not plain (not exact,
   * an alias, a keyword or the GM's): `fuzzy`, `prefix`, `acronym`... with the name as
   * written ("Carl" for Carol), so the GM sees every loose reading.
   */
  match: MatchKind.optional(),
  written: z.string().nullable().optional(),
  /** `nickname` only: the earlier game the nickname was learned in. */
  from: z.string().optional(),
});
export type Voter = z.infer<typeof Voter>;

/** The readings of a name that are plain: everything else is shown to the GM. */
const PLAIN_MATCHES: readonly MatchKind[] = ['exact', 'alias', 'keyword', 'gm'];
export function isLooseMatch(match: MatchKind | undefined): match is MatchKind {
  return match !== undefined && !PLAIN_MATCHES.includes(match);
}

/**
 * `written "Carl", fuzzy`: how a loose reading is told, in the count and on the pages; a
 * nickname says where it was learned (`written "PK", nickname from game 'Mini 12'`).
 */
export function looseReading(written: string | null | undefined, match: MatchKind, from?: string): string {
  const how = match === 'nickname' && from ? `nickname from game '${from}'` : match;
  return written ? `written "${written}", ${how}` : how;
}

export const Wagon = z.object({
  target: z.string(),
  /** Sum of the voters' weights. */
  votes: z.number(),
  /** Penalty votes on the target (rulesets with penalty votes). */
  penalty: z.number(),
  total: z.number(),
  voters: z.array(Voter),
  /** Votes still needed to reach the threshold (L-k); null where the ruleset has no threshold. */
  toThreshold: z.number().nullable(),
  /** Votes on the target cancelled by vetoes this Day (rulesets with vetoes); total = votes + penalty - cancelled. */
  cancelled: z.number().optional(),
  /** Where each part of the total comes from (counts asked for with `explain`). */
  explain: z.array(Explanation).optional(),
});
export type Wagon = z.infer<typeof Wagon>;

export const TallyViolation = z.object({
  player: z.string(),
  post: z.number().int(),
  kind: ViolationKind,
  detail: z.string(),
  /** What the ruleset does with it. */
  consequence: z.enum(['penalty', 'flag']),
});
export type TallyViolation = z.infer<typeof TallyViolation>;

/**
 * Why the count could not take a post's reading as it stands and shows it to the GM (the
 * review queue). Its own list, not `AuditAction` (model/audit.ts), which it resembles only in
 * shape: a flag is about what a post says, an audit row about what someone did.
 */
export const FlagKind = z.enum([
  'ambiguous-target',
  'unknown-target',
  'vote-for-dead',
  'not-a-player',
  'malformed-vote',
  'empty-vote',
  'no-lynch-not-allowed',
  'vote-by-non-player',
  'vote-by-dead',
  'vote-after-decision',
  'gm-correction',
  // Rules of particular rulesets (added with the five seed rulesets):
  'self-vote',
  'vote-in-thread',
  'side-action-not-allowed',
  'veto-spent',
  'self-veto',
  'self-forgive',
  'forgive-without-penalty',
  'missing-vote',
  'unknown-post',
  'unreadable-post',
]);
export type FlagKind = z.infer<typeof FlagKind>;

export const Flag = z.object({
  post: z.number().int(),
  player: z.string().nullable(),
  kind: FlagKind,
  raw: z.string(),
  candidates: z.array(z.string()).default([]),
  /**
   * Where the forum's nickname book took part in a name the count could not settle: the name
   * is a nickname from another game of the forum, and another reading fits too.
   */
  note: z.string().optional(),
});
export type Flag = z.infer<typeof Flag>;

/** A flag's note on a name the book's nickname made ambiguous (`Flag.note`). */
export function bookNote(written: string | null | undefined, from: string): string {
  return `${written ? `"${written}" is` : 'the name is'} a nickname from game '${from}' in the forum's book, and another reading fits too`;
}

export const Threshold = z.object({
  kind: z.enum(['majority', 'plurality', 'fraction', 'votes']),
  /** Votes that decide ("needs N"); null for plurality, which has no fixed number. */
  votes: z.number().int().nullable(),
});
export type Threshold = z.infer<typeof Threshold>;

/** A tie settled by a seeded random draw: recorded so a recount draws the same, and shown. */
export const Draw = z.object({
  /** The 32-bit seed of the draw (mulberry32). */
  seed: z.number().int(),
  /** Who was in the draw, in the order drawn from (roster order, No Lynch last). */
  candidates: z.array(z.string()),
  /** The first number the seeded generator gave, in [0, 1). */
  roll: z.number(),
  picked: z.string(),
});
export type Draw = z.infer<typeof Draw>;

export const Outcome = z.object({
  status: z.enum(['open', 'majority', 'ended', 'no-lynch', 'tie']),
  /** Who dies of the Day's vote: the lynched, then anyone their role takes along (a Hunter's target). */
  eliminated: z.array(z.string()),
  /** The post at which the decision was reached, if it was. */
  decidedAt: z.number().int().nullable().default(null),
  leaders: z.array(z.string()).default([]),
  draw: Draw.optional(),
  explain: z.array(Explanation).optional(),
  /**
   * Why the decision waits for the GM although the rules would have taken it: votes Votal
   * could not read that could change who is eliminated ("2 votes wait for you (#1496 ...)").
   */
  held: z.string().optional(),
});
export type Outcome = z.infer<typeof Outcome>;

/** A player's penalty votes (permanent; forgiven ones no longer count). */
export const PenaltyCount = z.object({
  player: z.string(),
  /** Penalty votes that count now. */
  count: z.number().int(),
  /** Of those, gained during the current Day. */
  today: z.number().int(),
  explain: z.array(Explanation).optional(),
});
export type PenaltyCount = z.infer<typeof PenaltyCount>;

/** A standing side vote count: Hammer, Filibuster (whole Day), forgive (per target, at Night). */
export const SideCount = z.object({
  kind: z.enum(['hammer', 'filibuster', 'forgive']),
  /** The forgiven player, for forgive; null for Hammer and Filibuster. */
  target: z.string().nullable(),
  total: z.number(),
  /** Voters needed for the rule to apply (at least a fraction of the living); null when no number applies. */
  needs: z.number().int().nullable(),
  voters: z.array(Voter),
});
export type SideCount = z.infer<typeof SideCount>;

/** A death the rules cause by themselves (not the Day's vote, not a GM kill). */
export const RuleDeath = z.object({
  player: z.string(),
  cause: z.enum(['penalty-modkill', 'inactivity']),
  day: z.number().int(),
  post: z.number().int().nullable(),
  text: z.string(),
});
export type RuleDeath = z.infer<typeof RuleDeath>;

/**
 * A post that votes or acts whose time could not be read, on a Day where clock rules apply
 * (scheduled checks, a deadline, clock events): the fold cannot tell whether it came before
 * or after them, so the GM is told rather than the post silently counting as in time.
 */
export const UntimedPost = z.object({
  post: z.number().int(),
  /** The author, by the slot's current name where the author is a player. */
  player: z.string(),
  permalink: z.string().nullable().default(null),
});
export type UntimedPost = z.infer<typeof UntimedPost>;

/** A living player's vote Votal could not read, waiting for the GM (see `Tally.waiting`). */
export const WaitingVote = z.object({
  post: z.number().int(),
  player: z.string(),
  raw: z.string(),
  /** The names it could be; none when it could be anyone. */
  candidates: z.array(z.string()).default([]),
});
export type WaitingVote = z.infer<typeof WaitingVote>;

/** How an untimed post is told to the GM, in the count and on the pages. */
export function untimedReason(post: number): string {
  return `clock rules (deadline, Hammer check, votes after the end) cannot apply to post #${post}: its time could not be read`;
}

/**
 * A death the count caused by itself, not the GM's kill or modkill: a Day's eliminated
 * buried at the next Day's start (a hammer, a deadline; never a Day held for the GM), a
 * penalty mod-kill, inactivity. `at`: the post after which the player is dead.
 */
export const OwnDeath = z.object({
  player: z.string(),
  at: z.number().int(),
});
export type OwnDeath = z.infer<typeof OwnDeath>;

/** `votal count --format json` and `GET /api/games/:id/tally`: one contract. */
export const Tally = z.object({
  engine: EngineId.nullable(),
  ruleset: z.string(),
  day: z.number().int(),
  postsRead: z.number().int(),
  /** The last post number counted. */
  asOfPost: z.number().int().nullable(),
  living: z.number().int(),
  players: z.array(z.string()),
  threshold: Threshold,
  /** What No Lynch needs, when the ruleset gives it a threshold of its own. */
  noLynchThreshold: Threshold.optional(),
  wagons: z.array(Wagon),
  notVoting: z.array(z.string()),
  violations: z.array(TallyViolation),
  flags: z.array(Flag),
  outcome: Outcome,
  /** `gm`: everything; `public`: hidden weights, hidden voters and unpublished votes withheld. */
  view: z.enum(['public', 'gm']).optional(),
  /** Players who voted to abstain (counted as having voted, on no wagon). */
  abstaining: z.array(z.string()).optional(),
  /** Penalty votes of every player who has had one (rulesets with penalty votes). */
  penalties: z.array(PenaltyCount).optional(),
  /** Hammer / Filibuster / forgive counts. */
  sideVotes: z.array(SideCount).optional(),
  /**
   * Every player dead as the count knows it now (GM kills and mod-kills, rule deaths;
   * revives undone), by the slot's current name, roster order; absent when nobody is. `players` is the Day's board, frozen once the Day is decided; this is not.
   */
  dead: z.array(z.string()).optional(),
  /** Deaths the rules caused (penalty mod-kills, inactivity), whole game. */
  deaths: z.array(RuleDeath).optional(),
  /** Players whose powers fail this Day and the following Night (missed vote). */
  powersBlocked: z.array(z.string()).optional(),
  /** Players the rules made inactive (their vote goes to a token holder); GM view only. */
  inactive: z.array(z.string()).optional(),
  /** The current Day's deadline when known (ISO 8601), extensions included. */
  deadline: z.string().optional(),
  /** What else the GM and players should know: extensions, forgiveness results, withheld votes. */
  notes: z.array(z.string()).optional(),
  /**
   * This Day's posts that vote or act whose time could not be read, when a clock rule could
   * apply to them (see `UntimedPost`); GM view only, absent when there are none.
   */
  untimed: z.array(UntimedPost).optional(),
  /**
   * Living players' latest votes Votal could not read (not replaced since): until the GM
   * reads them, the Day's decision waits if they could change it. GM view only, absent when none.
   */
  waiting: z.array(WaitingVote).optional(),
  /**
   * The deaths the count caused by itself (see `OwnDeath`), thread order; absent when none.
   * Whatever re-reads the stored count's posts (the review queue) reads them under these
   * too, as the count did (src/game/reading-events.ts).
   */
  ownDeaths: z.array(OwnDeath).optional(),
});
export type Tally = z.infer<typeof Tally>;

/**
 * Who is alive now: the Day's players less those the Day eliminated and those who died
 * after it closed (a Night kill). `players` is the Day's board, frozen when it closed; from
 * the next Day's start the tally itself leaves the eliminated out (they are dead), so this
 * only differs from `players` during a Night. The living list shown anywhere is this one.
 */
export function livingNow(t: Pick<Tally, 'players' | 'dead' | 'outcome'>): string[] {
  const gone = new Set([...(t.dead ?? []), ...t.outcome.eliminated].map((n) => n.toLowerCase()));
  return t.players.filter((p) => !gone.has(p.toLowerCase()));
}

/** Who is out now, beside `livingNow`: the dead, then the Day's eliminated not among them yet. */
export function deadNow(t: Pick<Tally, 'dead' | 'outcome'>): string[] {
  const dead = t.dead ?? [];
  const known = new Set(dead.map((n) => n.toLowerCase()));
  return [...dead, ...t.outcome.eliminated.filter((n) => !known.has(n.toLowerCase()))];
}
