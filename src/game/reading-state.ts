import type { PollState } from '../store/polls-repo.js';
import type { ThreadPage } from '../store/thread-pages-repo.js';

/**
 * How far Votal has read the thread: pages read of the pages the forum says it has, and
 * whether the first read is complete ("caught up": every page read and the last poll
 * good). Until then the count, and the GM's news, stand as at the last page read.
 */
export interface ReadingState {
  pagesRead: number;
  /** The pages the forum showed on the last read; null before the first. */
  pagesKnown: number | null;
  caughtUp: boolean;
  /** The last good poll, or null. */
  lastReadAt: string | null;
}

export function readingState(
  poll: Pick<PollState, 'pageCount' | 'lastOkAt' | 'lastError'>,
  pages: readonly Pick<ThreadPage, 'page'>[],
): ReadingState {
  const known = poll.pageCount;
  const read = new Set(pages.map((p) => p.page));
  let pagesRead = 0;
  for (const p of read) if (known === null || p <= known) pagesRead++;
  const caughtUp = known !== null && poll.lastOkAt !== null && poll.lastError === null && pagesRead >= known;
  return { pagesRead, pagesKnown: known, caughtUp, lastReadAt: poll.lastOkAt };
}
