import { z } from 'zod';
import { EngineId } from './engine.js';
import { ViolationKind } from './action.js';

export const Voter = z.object({
  player: z.string(),
  /** The post number of the vote that currently stands. */
  post: z.number().int(),
  weight: z.number(),
  permalink: z.string().nullable().default(null),
});
export type Voter = z.infer<typeof Voter>;

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

export const FlagKind = z.enum([
  'ambiguous-target', 'unknown-target', 'vote-for-dead', 'not-a-player', 'malformed-vote', 'empty-vote',
  'no-lynch-not-allowed', 'vote-by-non-player', 'vote-by-dead', 'vote-after-decision', 'gm-correction',
]);
export type FlagKind = z.infer<typeof FlagKind>;

export const Flag = z.object({
  post: z.number().int(),
  player: z.string().nullable(),
  kind: FlagKind,
  raw: z.string(),
  candidates: z.array(z.string()).default([]),
});
export type Flag = z.infer<typeof Flag>;

export const Threshold = z.object({
  kind: z.enum(['majority', 'plurality', 'fraction']),
  /** Votes that decide ("needs N"); null for plurality, which has no fixed number. */
  votes: z.number().int().nullable(),
});
export type Threshold = z.infer<typeof Threshold>;

export const Outcome = z.object({
  status: z.enum(['open', 'majority', 'ended', 'no-lynch', 'tie']),
  eliminated: z.array(z.string()),
  /** The post at which the decision was reached, if it was. */
  decidedAt: z.number().int().nullable().default(null),
  leaders: z.array(z.string()).default([]),
});
export type Outcome = z.infer<typeof Outcome>;

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
  wagons: z.array(Wagon),
  notVoting: z.array(z.string()),
  violations: z.array(TallyViolation),
  flags: z.array(Flag),
  outcome: Outcome,
});
export type Tally = z.infer<typeof Tally>;
