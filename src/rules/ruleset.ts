import { z } from 'zod';

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
  /** "Vote:" with no name: an unvote, ignored, or sent to the GM. */
  emptyVote: z.enum(['unvote', 'ignore', 'review']).default('review'),
  keywords: z.strictObject({
    vote: keywords.default(['vote']),
    unvote: keywords.default(['unvote']),
  }).default({ vote: ['vote'], unvote: ['unvote'] }),
  /** Side actions (their own tallies; never replace the lynch vote), with their spellings. */
  side: z.strictObject({
    hammer: keywords.optional(),
    filibuster: keywords.optional(),
    veto: keywords.optional(),
    forgive: keywords.optional(),
  }).default({}),
});
export type VoteGrammar = z.infer<typeof VoteGrammar>;

export const NoLynch = z.strictObject({
  /** The name shown in tallies and votals ("No Lynch", "Sleep"). */
  name: z.string().min(1),
  /** What players write for it (matched case-, space- and hyphen-insensitively). */
  keywords: keywords,
  /** When No Lynch wins: nobody is eliminated, or the GM (a Judge) decides. */
  wins: z.enum(['no-elimination', 'gm']).default('no-elimination'),
});
export type NoLynch = z.infer<typeof NoLynch>;

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

export const NameMatching = z.strictObject({
  /** Minimum Jaro-Winkler similarity for a fuzzy match. */
  fuzzyMin: z.number().min(0).max(1).default(0.9),
  /** How far the best fuzzy match must be ahead of the runner-up. */
  fuzzyMargin: z.number().min(0).max(1).default(0.05),
  /** Shortest written name that may match by prefix or substring. */
  minPartial: z.number().int().positive().default(3),
});
export type NameMatching = z.infer<typeof NameMatching>;

export const Ruleset = z.strictObject({
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
  violations: z.strictObject({
    edit: Consequence.default('ignore'),
    image: Consequence.default('ignore'),
    'external-link': Consequence.default('ignore'),
    code: Consequence.default('ignore'),
    'non-english': Consequence.default('ignore'),
    /** A vote written outside the ruleset's grammar (not bold, not on its own line). */
    format: Consequence.default('ignore'),
  }).default({
    edit: 'ignore', image: 'ignore', 'external-link': 'ignore', code: 'ignore', 'non-english': 'ignore', format: 'ignore',
  }),
  names: NameMatching.default(NameMatching.parse({})),
});
export type Ruleset = z.infer<typeof Ruleset>;
export type RulesetInput = z.input<typeof Ruleset>;
