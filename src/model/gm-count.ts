import { z } from 'zod';

/**
 * A vote count the GM wrote by hand, as read from their post (src/parse/gm-count.ts), and
 * what the check found comparing it with Votal's count (src/game/gm-checks.ts). Names are
 * the slots' names as the count knows them; what the GM wrote is kept beside them.
 */
export const GmCountVoter = z.object({
  written: z.string(),
  /** The slot the name is read as (the name ladder), or null when it names nobody. */
  player: z.string().nullable(),
  /** Struck through (`[s]`, `<s>`, strike): a vote withdrawn, shown but not counted. */
  struck: z.boolean(),
  /**
   * Written as a slot's own name (name, alias or former name, any case), between the GM's own
   * separators: not read through the name ladder, nor cut by the reader out of names written
   * side by side. Such a name on two wagons is the GM's slip, not the reader's.
   */
  exact: z.boolean().default(false),
});
export type GmCountVoter = z.infer<typeof GmCountVoter>;

/** The lynch threshold a GM states (src/parse/stated-threshold.ts). */
export const StatedThreshold = z.object({
  /** The living the GM states; null when none is stated or the votes in play are. */
  alive: z.number().int().nullable(),
  toLynch: z.number().int(),
  sentence: z.string(),
});
export type StatedThreshold = z.infer<typeof StatedThreshold>;

export const GmCountWagon = z.object({
  /** The line as the GM wrote it (for the GM to recognise it). */
  line: z.string(),
  written: z.string(),
  /** The player (slot name) or the ruleset's No Lynch; null when the name is not read. */
  target: z.string().nullable(),
  /** The number the GM wrote ("(3)"), or null when the line gives none. */
  stated: z.number().int().nullable(),
  voters: z.array(GmCountVoter),
  /** The line's L-n note, when it has one. */
  toLynch: z.number().int().nullable(),
});
export type GmCountWagon = z.infer<typeof GmCountWagon>;

export const GmCount = z.object({
  post: z.number().int(),
  /** The post the count says it counts to ("as of post 337"), or null. */
  asOfPost: z.number().int().nullable(),
  wagons: z.array(GmCountWagon),
  /** The "Not voting" line's names, or null when the count has none. */
  notVoting: z.array(GmCountVoter).nullable(),
  /** Names on the count that name nobody: said to the GM, never guessed. */
  unread: z.array(z.string()),
  /** Lines of the post past the reader's bound, not read (0: the whole post was read). */
  linesNotRead: z.number().int().default(0),
  /** The threshold the count states ("With 7 alive, it takes 4 to lynch"), or null. */
  stated: StatedThreshold.nullable().default(null),
});
export type GmCount = z.infer<typeof GmCount>;

/** A post the check turns on: the vote, unvote or replacement that decides a difference. */
export const CheckPost = z.object({
  post: z.number().int(),
  permalink: z.string().nullable(),
});
export type CheckPost = z.infer<typeof CheckPost>;

/** Where the GM's count lists a voter: for a voter on two wagons, each place as the GM wrote it. */
export const CheckListing = z.object({
  /** The wagon's target (slot name or No Lynch). */
  wagon: z.string(),
  /** The wagon's line as the GM wrote it. */
  line: z.string(),
  /** The voter's name as written there, and its place among the line's names (1: the first). */
  written: z.string(),
  position: z.number().int(),
  /** Written exactly as the slot's name (`GmCountVoter.exact`). */
  exact: z.boolean(),
});
export type CheckListing = z.infer<typeof CheckListing>;

export const CheckKind = z.enum([
  /** The GM placed a voter where Votal does not (a wagon, not voting, nowhere). */
  'voter',
  /** A voter on two wagons at once in the GM's count. */
  'twice',
  /** A wagon's number differs from Votal's (the voters' differences say why). */
  'wagon',
  /** The count matches Votal's as at an earlier post than the one it was made at. */
  'stopped-early',
  /** A name on the count that names nobody. */
  'unread',
  /** The alive count or threshold the count states differs from Votal's. */
  'threshold',
]);
export type CheckKind = z.infer<typeof CheckKind>;

export const CheckAnswer = z.enum(['slip', 'votal-error', 'dismiss']);
export type CheckAnswer = z.infer<typeof CheckAnswer>;

export const CheckDifference = z.object({
  /** Stable across reads: what the GM's mark is recorded under. */
  key: z.string(),
  kind: CheckKind,
  /** The slot the difference is about (voter kinds), or the wagon's target. */
  player: z.string().nullable(),
  /** Where the GM's count puts the player, and where Votal's does (a target, "not voting", "nowhere"). */
  gm: z.string().nullable(),
  votal: z.string().nullable(),
  /** The sentence the GM reads: "Your count at #337: Bob is on Carol; Bob unvoted at #331". */
  text: z.string(),
  /** The posts that decide it. */
  posts: z.array(CheckPost),
  /** `twice`: each wagon the GM lists the voter on, as written. */
  listed: z.array(CheckListing).optional(),
  /** The GM's mark, once given. */
  answer: CheckAnswer.nullable(),
});
export type CheckDifference = z.infer<typeof CheckDifference>;

/**
 * What the GM's own count teaches about a vote Votal could not read: the count puts `voter`
 * on `wagon`, and the voter's standing vote (post `post`) names `written`, which Votal read
 * as nobody (or as no vote at all: `reads`). Accepted, it is a `correct` event for that post and, where `alias` is set,
 * `written` becomes one of the wagon's slot's aliases (read so in every later post).
 */
export const NameLesson = z.object({
  kind: z.literal('name').default('name'),
  /** Stable across reads (the post, the wagon, the name): what an answer is recorded under. */
  key: z.string(),
  /** The GM's count the lesson is read from (the first that shows it), and its permalink. */
  countPost: z.number().int(),
  countPermalink: z.string().nullable(),
  voter: z.string(),
  /** The wagon's target: a slot's name, or the ruleset's No Lynch; null: among those not voting (`reads: stands`). */
  wagon: z.string().nullable(),
  /** The voter's standing vote Votal could not read. */
  post: z.number().int(),
  permalink: z.string().nullable(),
  /** The name as the voter wrote it, and the vote as written. */
  written: z.string(),
  raw: z.string(),
  /** The name learned for the wagon's slot, or null (`noAlias` says why). */
  alias: z.string().nullable(),
  noAlias: z.string().nullable(),
  /**
   * How the count reads the post: as the name written meaning the wagon's player (`name`), as
   * no change, the voter left on the wagon their vote stood on (`stands`), or as a vote that
   * names no one placed on the wagon (`no-name`). Only `name` (or none given) says anything of the name.
   */
  reads: z.enum(['name', 'stands', 'no-name']).optional(),
  /** The sentence the GM reads. */
  text: z.string(),
});
export type NameLesson = z.infer<typeof NameLesson>;

/**
 * What the GM's counts teach about a poster who is no player (a renamed account, an
 * unannounced replacement): the counts list `slot`, which has not posted, where `poster`'s
 * standing votes are. One count's reading says whether it agrees (`agreeing`: [its post]) or
 * not (`disagreeing`); the lesson offered (`GmChecks.lessons`) gathers every count's, and is
 * offered only for two agreeing, none disagreeing, one poster and one slot. Accepted, it is a
 * `replace` of the slot by the poster before the poster's first post.
 */
export const AuthorLesson = z.object({
  kind: z.literal('author'),
  /** Stable across reads (the poster, the slot): what an answer is recorded under. */
  key: z.string(),
  /** The count the lesson is read from (the one that made it sure), and its permalink. */
  countPost: z.number().int(),
  countPermalink: z.string().nullable(),
  /** The forum name that posts, matching no player. */
  poster: z.string(),
  /** The slot the counts list where the poster's votes are; it has not posted. */
  slot: z.string(),
  /** Where that count lists the slot (a wagon's target), or null: not voting. */
  wagon: z.string().nullable(),
  /** The post of the poster's standing vote (or unvote) at that count, and the poster's first post. */
  post: z.number().int(),
  permalink: z.string().nullable(),
  firstPost: z.number().int(),
  /** The GM's counts that list the slot where the poster's vote stood, and those that do not. */
  agreeing: z.array(z.number().int()),
  disagreeing: z.array(z.number().int()),
  /** The sentence the GM reads. */
  text: z.string(),
});
export type AuthorLesson = z.infer<typeof AuthorLesson>;

/** A lesson of the GM's counts: a vote Votal could not read, or a poster who plays a slot. */
export const CountLesson = z.union([AuthorLesson, NameLesson]);
export type CountLesson = z.infer<typeof CountLesson>;

export const CountCheck = z.object({
  /** The GM's count post. */
  post: z.number().int(),
  permalink: z.string().nullable(),
  author: z.string(),
  /** The post Votal's count was cut at to compare. */
  comparedTo: z.number().int(),
  /** Where the cut came from: the post the count names, else the post before the count. */
  basis: z.enum(['named', 'before']),
  /** Posts before the basis the closest cut is (0: the basis itself). */
  earlier: z.number().int(),
  /** Lines of the GM's post past the reader's bound: wagons there are not compared (0: all read). */
  linesNotRead: z.number().int().default(0),
  differences: z.array(CheckDifference),
  /** What this count teaches as read (`GmChecks.lessons` is what is offered: once, undismissed). */
  lessons: z.array(CountLesson).default([]),
});
export type CountCheck = z.infer<typeof CountCheck>;

/**
 * The threshold rule every stated number of the GM's counts fits and the ruleset's does not
 * (src/parse/stated-threshold.ts `statedRule`): accepted, `overrides` go in the game's
 * ruleset overrides, as the opening posts' rule proposals do.
 */
export const ThresholdProposal = z.object({
  /** Stable across reads (the rule proposed): what the GM's answer is recorded under. */
  key: z.string(),
  /** The game's ruleset overrides it sets (`{ threshold: { kind, ... } }`). */
  overrides: z.record(z.string(), z.unknown()),
  /** The counts whose statements it is read from, and the first one's sentence. */
  posts: z.array(z.number().int()),
  sentence: z.string(),
  /** The sentence the GM reads. */
  text: z.string(),
});
export type ThresholdProposal = z.infer<typeof ThresholdProposal>;

/**
 * A death the GM's count implies: it states fewer alive than Votal has, and leaves some of
 * Votal's living off entirely (on no wagon, voting for nobody, not on its not-voting line).
 * With one such player and one alive fewer, `player` names them and the GM may record the
 * death with one click (a `kill` after post `at`, the post the count was compared at); else
 * `player` is null and the candidates are only listed. Never recorded without the GM.
 */
export const DeathProposal = z.object({
  /** Stable across reads (who, and the first count that implies it): what the GM's answer is recorded under. */
  key: z.string(),
  /** The first count that implies it, and its permalink; every count that implies the same. */
  countPost: z.number().int(),
  permalink: z.string().nullable(),
  posts: z.array(z.number().int()),
  /** The living the count states, and Votal's at the post it was compared at. */
  stated: z.number().int(),
  alive: z.number().int(),
  /** Votal's living the count leaves off entirely. */
  candidates: z.array(z.string()),
  /** The one player whose death is proposed, or null: a note listing the candidates. */
  player: z.string().nullable(),
  /** The post the death is recorded after (the count's compared-at post). */
  at: z.number().int(),
  /** The sentence the GM reads. */
  text: z.string(),
});
export type DeathProposal = z.infer<typeof DeathProposal>;

/**
 * What the GM's own counts propose at one count, none answered yet: the poll makes it with
 * its count and keeps it (`LastCount.proposals`), so the GM's queue reads it without folding
 * the game again; the queue settles it with the GM's answers.
 */
export const CountProposals = z.object({
  threshold: ThresholdProposal.nullable(),
  deaths: z.array(DeathProposal),
});
export type CountProposals = z.infer<typeof CountProposals>;

export const GmChecks = z.object({
  /** Every GM count read, with its differences (none: the count agrees). */
  counts: z.array(CountCheck),
  /** Votes Votal could not read that the GM's counts place: each offered to the GM to accept. */
  lessons: z.array(CountLesson).default([]),
  /** The GM's posts skipped as Votal's own votals (pasted drafts, marked posts). */
  ownVotals: z.array(z.number().int()),
  /** A threshold the GM states repeatedly that the ruleset cannot produce: a game setting offered. */
  thresholdProposal: ThresholdProposal.optional(),
  /** Deaths the counts' stated alive counts imply, unanswered (`DeathProposal`; absent: none). */
  deathProposals: z.array(DeathProposal).optional(),
});
export type GmChecks = z.infer<typeof GmChecks>;
