import { z } from 'zod';

/**
 * What a post asks for. `vote` targets a player (canonical name) or the ruleset's
 * No Lynch / Sleep name; side actions (hammer, filibuster, veto, forgive) are their own
 * kinds and never replace the poster's lynch vote.
 */
export const ActionKind = z.enum(['vote', 'unvote', 'hammer', 'filibuster', 'veto', 'forgive']);
export type ActionKind = z.infer<typeof ActionKind>;

/** How a written name became a player: the resolution ladder's rung, or why it did not. */
export const MatchKind = z.enum([
  'exact',
  'alias',
  /** A nickname learned in an earlier game on the same site (the nickname book). */
  'nickname',
  'prefix',
  'substring',
  'acronym',
  'fuzzy',
  'keyword',
  'gm',
  'ambiguous',
  'unknown',
  'none',
]);
export type MatchKind = z.infer<typeof MatchKind>;

export const Action = z.object({
  kind: ActionKind,
  /** Canonical player name, the No Lynch name, or null (unvote, unresolved, empty). */
  target: z.string().nullable(),
  match: MatchKind,
  /** The text as the poster wrote it, for evidence. */
  raw: z.string(),
  /** The name as written after decorations were stripped. */
  written: z.string().nullable().default(null),
  /** Players the name could mean, when ambiguous (or the fuzzy runner-up). */
  candidates: z.array(z.string()).default([]),
  /** Jaro-Winkler score for fuzzy matches. */
  score: z.number().nullable().default(null),
  /** `nickname` only: the earlier game the nickname was learned in. */
  from: z.string().optional(),
  /** Where the reading came from: the parser, or a GM correction. */
  source: z.enum(['parsed', 'gm']).default('parsed'),
});
export type Action = z.infer<typeof Action>;

export const ReviewReason = z.enum([
  'ambiguous-target',
  'unknown-target',
  'vote-for-dead',
  'not-a-player',
  'malformed-vote',
  'empty-vote',
  'no-lynch-not-allowed',
  'unreadable-post',
]);
export type ReviewReason = z.infer<typeof ReviewReason>;

/** The post's net effect on the poster's lynch vote. */
export const Effect = z.object({
  kind: z.enum(['none', 'vote', 'unvote', 'review']),
  target: z.string().nullable(),
  reason: ReviewReason.nullable(),
  /** `review` only: the post unvoted before the vote the GM must read, so the old vote is withdrawn. */
  unvoted: z.literal(true).optional(),
});
export type Effect = z.infer<typeof Effect>;

export const ViolationKind = z.enum(['edit', 'image', 'external-link', 'code', 'non-english', 'format']);
export type ViolationKind = z.infer<typeof ViolationKind>;

export const PostViolation = z.object({
  kind: ViolationKind,
  /** The evidence: the image source, the link, the edit marker, the detected language. */
  detail: z.string(),
});
export type PostViolation = z.infer<typeof PostViolation>;

/** `votal parse --format json`: one post read the way a moderator reads it. */
export const PostReading = z.object({
  actions: z.array(Action),
  effect: Effect,
  violations: z.array(PostViolation),
});
export type PostReading = z.infer<typeof PostReading>;
