import { z } from 'zod';
import { EngineId } from '../src/model/engine.js';

/**
 * Per-site facts that markup does not tell: which engine a board on its own domain
 * runs, how it prints dates, its posts per page, how fast we may ask. Data, never
 * `if (host === ...)` in shared code.
 */
/**
 * Where a site's posts are, as the generic reader found them and the GM confirmed
 * (scrapers/generic.ts): `post` matches each post's first element on the page; the others
 * are chains of compound selectors joined by " > ", anchored at that element.
 */
export const PostSelectors = z.strictObject({
  post: z.string().min(1),
  author: z.string().min(1),
  time: z.string().min(1).optional(),
  body: z.string().min(1),
  permalink: z.string().min(1).optional(),
  /** Rows one post spans (a table whose post is a header, a message and a button row): `post` matches each post's first row, the chains start at the group of rows. */
  rows: z.number().int().min(2).optional(),
  /** The page navigator (its links name the other pages). */
  pager: z.string().min(1).optional(),
});
export type PostSelectors = z.infer<typeof PostSelectors>;

export const SiteProfile = z.strictObject({
  /** Host names this profile applies to (exact, or "*.example.com"). */
  hosts: z.array(z.string().min(1)).default([]),
  engine: EngineId.optional(),
  /** IANA zone the board prints text dates in (guests see the board default). */
  timeZone: z.string().default('UTC'),
  dateOrder: z.enum(['mdy', 'dmy', 'ymd']).default('mdy'),
  postsPerPage: z.number().int().positive().optional(),
  /** Pause between two requests to this host. */
  minIntervalMs: z.number().int().min(0).optional(),
  needsBrowser: z.boolean().default(false),
  /** Other origins of the same board: links to them are internal. */
  aliases: z.array(z.string()).default([]),
  /** With engine `generic`: read posts with these plain selectors instead of finding them anew. */
  selectors: PostSelectors.optional(),
});
export type SiteProfile = z.infer<typeof SiteProfile>;

export const DEFAULT_PROFILE: SiteProfile = SiteProfile.parse({});
