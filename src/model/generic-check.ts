import { z } from 'zod';

/**
 * The GM's one check of a generic reading (issue #26): page 1 of a thread no adapter reads,
 * as the generic reader read it, and three of its posts to compare with the forum. Until the
 * GM confirms it the game is not polled; once confirmed, what it found is kept as the host's
 * site profile (`LearnedProfile`) and every later poll reads with those plain selectors.
 */

/** One post the GM is asked to compare with the thread. */
export const SamplePost = z.object({
  number: z.number().int(),
  author: z.string(),
  /** UTC ISO 8601; null where the page showed no time that could be read. */
  postedAt: z.string().nullable(),
  permalink: z.string(),
  /** The start of its text (quotes included, as the body reads). */
  start: z.string(),
});
export type SamplePost = z.infer<typeof SamplePost>;

/** What the generic reader found on page 1, as the GM sees it. */
export const GenericFinding = z.object({
  pageUrl: z.string(),
  page: z.number().int().positive(),
  posts: z.number().int().nonnegative(),
  authors: z.number().int().nonnegative(),
  /** The reader's confidence in its finding (0..1). */
  score: z.number(),
  /** "Votal found 25 posts by 12 authors on page 1: check three of them (posts 1, 13, 25) ..." */
  message: z.string(),
  samples: z.array(SamplePost),
  /** What the reader wants the GM to know (posts without a time ...). */
  notes: z.array(z.string()),
  /** The site profile a confirmation stores (the shape of `sites/<host>.yaml`). */
  profile: z.record(z.string(), z.unknown()),
  /** The same profile as YAML, for the GM who keeps site profiles in files. */
  yaml: z.string(),
});
export type GenericFinding = z.infer<typeof GenericFinding>;

/** A game's check: waiting (`confirmedAt` null) or done, by whom. */
export const GenericCheck = z.object({
  gameId: z.number().int(),
  host: z.string(),
  finding: GenericFinding,
  readAt: z.string(),
  confirmedBy: z.string().nullable(),
  confirmedAt: z.string().nullable(),
});
export type GenericCheck = z.infer<typeof GenericCheck>;

/** A host's site profile as a confirmed generic reading taught it. */
export const LearnedProfile = z.object({
  host: z.string(),
  /** A SiteProfile (scrapers/site-profile.ts): engine `generic` and its `selectors`. */
  profile: z.record(z.string(), z.unknown()),
  /** The page the reading was made on. */
  foundOn: z.string(),
  confirmedBy: z.string(),
  confirmedAt: z.string(),
});
export type LearnedProfile = z.infer<typeof LearnedProfile>;
