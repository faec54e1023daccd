import { z } from 'zod';

/**
 * What the caller remembers about a page from the last poll, to ask "anything new?".
 * Stored in the DB per thread page, so it survives restarts and is shared by workers.
 */
export const Validators = z.object({
  etag: z.string().nullish(),
  lastModified: z.string().nullish(),
  /** sha256 of the last body: forum pages often send no validators, so this is the real signal. */
  hash: z.string().nullish(),
});
export type Validators = z.infer<typeof Validators>;

export const FetchedPage = z.object({
  /** The URL asked for. */
  url: z.string(),
  /** The URL the page came from after redirects. */
  finalUrl: z.string(),
  status: z.number().int(),
  /** Decoded text; empty on a 304. */
  body: z.string(),
  etag: z.string().nullable(),
  lastModified: z.string().nullable(),
  /** sha256 (hex) of `body` as UTF-8. On a 304 it repeats `validators.hash` (or is ''). */
  hash: z.string(),
  /** True on 304, or when the body hash equals `validators.hash`. */
  notModified: z.boolean(),
  /** ISO 8601 time the response arrived. */
  fetchedAt: z.string(),
});
export type FetchedPage = z.infer<typeof FetchedPage>;
