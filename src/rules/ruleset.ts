import { z } from 'zod';
import { checkRuleset } from './ruleset-checks.js';

/** What the ruleset does with a kind of rule violation. */
export const Consequence = z.enum(['penalty', 'flag', 'ignore']);
export type Consequence = z.infer<typeof Consequence>;

const keywords = z.array(z.string().min(1)).min(1);

/** How players write their actions: the vote grammar. */
export const VoteGrammar = z.strictObject({
  /** `required`: only bold text votes; `optional`: a vote line counts bold or not. */
  bold: z.enum(['required', 'optional']).default('required'),
  /** `required`: "Vote: X" only; `optional`: "vote X" counts too. */
  colon: z.enum(['required', 'optional']).default('optional'),
  /** The vote must stand on a line of its own (nothing else on the line). */
  ownLine: z.boolean().default(false),
  /** Whether votes inside spoilers count. */
  spoilers: z.boolean().default(false),
  /**
   * The explicit vote marker a vote must carry: `any` (none needed), `hash` ("##vote Bob",
   * TeamLiquid), `tag` (a typed `[vote]Bob[/vote]`), or `hash-or-tag`. A vote without it
   * is reported as a format violation and not counted: "votes count only as ##vote".
   */
  marker: z.enum(['any', 'hash', 'tag', 'hash-or-tag']).default('any'),
  /** "Vote:" with no name: an unvote, ignored, or sent to the GM. */
  emptyVote: z.enum(['unvote', 'ignore', 'review']).default('review'),
  keywords: z
    .strictObject({
      vote: keywords.default(['vote']),
      unvote: keywords.default(['unvote']),
    })
    .default({ vote: ['vote'], unvote: ['unvote'] }),
  /** Side actions (their own tallies; never replace the lynch vote), with their spellings. */
  side: z
    .strictObject({
      hammer: keywords.optional(),
      filibuster: keywords.optional(),
      veto: keywords.optional(),
      forgive: keywords.optional(),
    })
    .default({}),
});
export type VoteGrammar = z.infer<typeof VoteGrammar>;

export const NoLynch = z.strictObject({
  /** The name shown in tallies and votals ("No Lynch", "Sleep"). */
  name: z.string().min(1),
  /** What players write for it (matched case-, space- and hyphen-insensitively). */
  keywords: keywords,
  /** When No Lynch wins: nobody is eliminated, or the GM (a Judge) decides. */
  wins: z.enum(['no-elimination', 'gm']).default('no-elimination'),
  /**
   * No Lynch must have strictly more votes than every player: tied with a player it
   * loses the tie and leaves it to the players tied with it.
   */
  losesTies: z.boolean().default(false),
  /** The Days on which it may be voted (absent: every Day); on other Days a vote for it is flagged and not counted. */
  days: z.array(z.number().int().positive()).min(1).optional(),
  /**
   * The votes No Lynch needs, when not the same as a player's wagon ("5 to lynch, 4 for a
   * No Lynch": `{ kind: votes, votes: 4 }`). Absent: the game's threshold.
   */
  get threshold() {
    return NoLynchThreshold.optional();
  },
});
export type NoLynch = z.infer<typeof NoLynch>;

/** Abstaining as a vote: the player has voted (no missed vote) but is on no wagon. */
export const Abstain = z.strictObject({
  name: z.string().min(1),
  keywords: keywords,
});
export type Abstain = z.infer<typeof Abstain>;

/** At least `numerator / denominator` of the living, rounded up. */
export const Fraction = z.strictObject({
  numerator: z.number().int().positive(),
  denominator: z.number().int().positive(),
});
export type Fraction = z.infer<typeof Fraction>;

/**
 * Tie rules, in order: each breaker keeps only the tied players that win it; when more
 * than one is left, `then` decides.
 */
export const TieBreaker = z.enum([
  /** Most penalty votes. */
  'most-penalty',
  /** Most penalty votes gained during the current Day. */
  'most-penalty-today',
  /** Most recently gained a penalty vote. */
  'latest-penalty',
  /** The wagon whose standing votes were complete first (its last standing vote is the earliest). */
  'first-to-reach',
  /** Earliest on the official player list (always leaves one). */
  'roster-order',
  /**
   * "A tie goes to the player who most recently had more votes": the tied player who most
   * recently led alone this Day. None of them ever led alone: still tied (`then` decides).
   */
  'last-to-lead',
]);
export type TieBreaker = z.infer<typeof TieBreaker>;

export const Ties = z.strictObject({
  breakers: z.array(TieBreaker).default([]),
  /** Still tied: the GM decides (`decide` event), everyone tied dies, nobody dies, or a seeded random draw. */
  then: z.enum(['gm', 'all', 'none', 'draw']).default('gm'),
});
export type Ties = z.infer<typeof Ties>;

/** What a status (a GM `status` event) does to the vote. */
export const StatusRule = z.strictObject({
  /** The player's own vote counts. */
  voteCounts: z.boolean().default(true),
  /** When the player is among the leaders, the lynch fails (nobody is lynched). */
  shieldsFromLynch: z.boolean().default(false),
});
export type StatusRule = z.infer<typeof StatusRule>;

/** What a role (a GM `role` event) does to the vote. Role names match case-insensitively. */
export const RoleRule = z.strictObject({
  /** The role's vote weight (a Mayor's counts twice). */
  weight: z.number().min(0).optional(),
  /** The weight is secret: the public view shows 1. */
  hiddenWeight: z.boolean().default(false),
  /** Eliminated by the vote, the player takes the target of their standing vote along (a Hunter). */
  lynchKillsVoteTarget: z.boolean().default(false),
});
export type RoleRule = z.infer<typeof RoleRule>;

/** A side vote that ends or extends the Day when enough of the living stand on it (Hammer, Filibuster). */
export const KeywordRule = z.strictObject({
  atLeast: Fraction,
  /** When it is looked at: scheduled `check` events, the `deadline`, or after every event. */
  when: z.enum(['check', 'deadline', 'always']),
  effect: z.enum(['end-day', 'extend-day']),
  /** `extend-day`: how much longer the Day runs (the Night is extended as much). */
  extendBy: z.strictObject({ weekdays: z.number().int().positive() }).optional(),
  /** How many times a Day it may apply. */
  perDay: z.number().int().positive().default(1),
});
export type KeywordRule = z.infer<typeof KeywordRule>;

/** A veto cancels one vote on its target for the Day; a player has `perGame` of them. */
export const VetoRule = z.strictObject({
  perGame: z.number().int().positive().default(1),
  onSelf: z.enum(['allowed', 'refused']).default('refused'),
  /** Casting a veto counts as voting that Day (missed-vote rules). */
  countsAsVote: z.boolean().default(true),
});
export type VetoRule = z.infer<typeof VetoRule>;

/**
 * Night forgiveness votes: the most-forgiven player loses their oldest penalty vote at
 * the next Day start; a tie forgives no one.
 */
export const ForgiveRule = z.strictObject({
  onSelf: z.enum(['allowed', 'refused']).default('refused'),
});
export type ForgiveRule = z.infer<typeof ForgiveRule>;

export const Weekday = z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
export type Weekday = z.infer<typeof Weekday>;

/** An IANA time zone the runtime knows ("America/Los_Angeles"). */
const TimeZone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'unknown time zone');

/** When clock events fall: `clockEvents` lists them for a Day; the fold itself reads no clock. */
export const Schedule = z.strictObject({
  timeZone: TimeZone.default('UTC'),
  /** Scheduled checks (Hammer time): on these weekdays at this local time. */
  checks: z
    .array(
      z.strictObject({
        days: z.array(Weekday).min(1),
        time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM (24-hour clock)'),
      }),
    )
    .default([]),
});
export type Schedule = z.infer<typeof Schedule>;

export const ThresholdRule = z.discriminatedUnion('kind', [
  /** More than half of the living (true majority): floor(living / 2) + 1. */
  z.strictObject({ kind: z.literal('majority') }),
  /** The most votes at the deadline; no fixed number. */
  z.strictObject({ kind: z.literal('plurality') }),
  /** At least ceil(living * numerator / denominator). */
  z.strictObject({
    kind: z.literal('fraction'),
    numerator: z.number().int().positive(),
    denominator: z.number().int().positive(),
  }),
]);
export type ThresholdRule = z.infer<typeof ThresholdRule>;

/** No Lynch's own threshold: a game threshold, or a fixed number of votes ("4 for a No Lynch"). */
export const NoLynchThreshold = z.discriminatedUnion('kind', [
  ...ThresholdRule.options,
  z.strictObject({ kind: z.literal('votes'), votes: z.number().int().positive() }),
]);
export type NoLynchThreshold = z.infer<typeof NoLynchThreshold>;

export const NameMatching = z.strictObject({
  /** Minimum Jaro-Winkler similarity for a fuzzy match. */
  fuzzyMin: z.number().min(0).max(1).default(0.9),
  /** How far the best fuzzy match must be ahead of the runner-up. */
  fuzzyMargin: z.number().min(0).max(1).default(0.05),
  /** Shortest written name that may match by prefix or substring. */
  minPartial: z.number().int().positive().default(3),
});
export type NameMatching = z.infer<typeof NameMatching>;

export const Ruleset = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and hyphens'),
    title: z.string().min(1),
    /** Where the rules come from (a rule post, a wiki page). */
    source: z.string().optional(),
    votes: VoteGrammar.default(VoteGrammar.parse({})),
    /** No Lynch / Sleep as a vote target; absent when the game has none. */
    noLynch: NoLynch.optional(),
    threshold: ThresholdRule,
    /** Reaching the threshold ends the Day at once (later votes do not count). */
    endsAtThreshold: z.boolean().default(false),
    /**
     * At the deadline, when no wagon reached the threshold (majority and fraction rules):
     * the leader goes (`plurality`), nobody does (`no-elimination`), or the GM decides (`gm`).
     */
    shortOfThreshold: z.enum(['plurality', 'no-elimination', 'gm']).default('plurality'),
    /** The Day also ends at once when one wagon holds all living votes but `allBut` ("unanimous minus one"). */
    earlyEnd: z.strictObject({ allBut: z.number().int().min(0) }).optional(),
    violations: z
      .strictObject({
        edit: Consequence.default('ignore'),
        image: Consequence.default('ignore'),
        'external-link': Consequence.default('ignore'),
        code: Consequence.default('ignore'),
        'non-english': Consequence.default('ignore'),
        /** A vote written outside the ruleset's grammar (not bold, not on its own line). */
        format: Consequence.default('ignore'),
      })
      .default({
        edit: 'ignore',
        image: 'ignore',
        'external-link': 'ignore',
        code: 'ignore',
        'non-english': 'ignore',
        format: 'ignore',
      }),
    names: NameMatching.default(NameMatching.parse({})),

    /** Where votes come from: posts in the thread, or only votes the GM enters (`vote` events; PMs). */
    voteSource: z.enum(['posts', 'gm']).default('posts'),
    /** When the public view shows who votes for whom: as votes come, or once the Day is decided. */
    publish: z.enum(['live', 'day-end']).default('live'),
    /** Whether a player may vote for themself; a refused self-vote is flagged and not counted. */
    selfVote: z.enum(['allowed', 'refused']).default('allowed'),
    /** Abstaining as a vote target; absent when the game has none. */
    abstain: Abstain.optional(),
    /** Fewest votes (with penalty votes) a wagon needs to eliminate; fewer means nobody goes. */
    minVotes: z.number().int().min(1).default(1),
    ties: Ties.default(Ties.parse({})),
    statuses: z
      .strictObject({
        arrested: StatusRule.optional(),
        poisoned: StatusRule.optional(),
        abroad: StatusRule.optional(),
        hindered: StatusRule.optional(),
      })
      .default({}),
    roles: z.record(z.string().min(1), RoleRule).default({}),
    /** Penalty votes come from violations with consequence `penalty`, missed votes and GM `penalty` events. */
    penalties: z
      .strictObject({
        /** Mod-kill a player at once when their penalty votes exceed the number of living players. */
        modkill: z.enum(['never', 'more-than-living']).default('never'),
      })
      .default({ modkill: 'never' }),
    /** A living player without a vote (player, No Lynch, abstain or veto) when the Day ends. */
    missingVote: z
      .strictObject({
        /** A permanent penalty vote, counted in that Day's final count. */
        penalty: z.boolean().default(false),
        /** Their powers fail for that Day and the following Night (listed for the GM). */
        blocksPowers: z.boolean().default(false),
        /** A `missing-vote` flag for the GM. */
        flag: z.boolean().default(false),
      })
      .default({ penalty: false, blocksPowers: false, flag: false }),
    /** Missed phases (Days without a vote, `missed` events) after which a player dies or goes inactive. */
    inactivity: z
      .strictObject({
        after: z.number().int().positive(),
        counting: z.enum(['consecutive', 'total']),
        becomes: z.enum(['dead', 'inactive']),
      })
      .optional(),
    /** What the side actions the grammar reads (`votes.side`) do. */
    sideRules: z
      .strictObject({
        hammer: KeywordRule.optional(),
        filibuster: KeywordRule.optional(),
        veto: VetoRule.optional(),
        forgive: ForgiveRule.optional(),
      })
      .default({}),
    schedule: Schedule.optional(),
  })
  .superRefine(checkRuleset);
export type Ruleset = z.infer<typeof Ruleset>;
export type RulesetInput = z.input<typeof Ruleset>;
