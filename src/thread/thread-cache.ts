import { z } from 'zod';
import { Validators } from '../fetch/fetched-page.js';
import { EngineId } from '../model/engine.js';
import { Post } from '../model/post.js';

/** One page of a thread as it was last read: how to ask "changed?" and what it held. */
export const CachedPage = z.object({
  page: z.number().int().positive(),
  url: z.string(),
  validators: Validators,
  posts: z.array(Post),
});
export type CachedPage = z.infer<typeof CachedPage>;

/**
 * A thread as the last complete read left it. Pages 1..n in order, none missing: the
 * reader resumes at the last one, so a gap would hide posts.
 */
export const CachedThread = z
  .object({
    /** Canonical URL of page 1 (the adapter's ThreadRef.url): the cache key. */
    threadUrl: z.string(),
    engine: EngineId,
    title: z.string().nullable(),
    pageCount: z.number().int().positive(),
    /** What the thread's pages showed (phpBB/SMF start offsets need it for page URLs). */
    postsPerPage: z.number().int().positive().nullable(),
    pages: z.array(CachedPage).min(1),
    /** ISO 8601 time of the read that produced this entry. */
    savedAt: z.string(),
  })
  .refine((t) => t.pages.every((p, i) => p.page === i + 1), {
    message: 'pages must be 1..n in order',
    path: ['pages'],
  });
export type CachedThread = z.infer<typeof CachedThread>;

/**
 * Where the reader keeps what it read, so a re-count fetches only from the last page it
 * had seen. A port: a file per thread for the CLI (`--cache-dir`), the store for the
 * service. `put` is only called after a complete, successful read, so a failed re-read
 * never replaces what an implementation already holds.
 */
export interface ThreadCache {
  /** The last complete read of the thread, or null (never read, or unreadable: read afresh). */
  get(threadUrl: string): Promise<CachedThread | null>;
  put(thread: CachedThread): Promise<void>;
}
