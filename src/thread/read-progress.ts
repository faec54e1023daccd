/**
 * How far a read has come, told as it goes (`readThread`'s `onProgress`): once before a
 * page is asked for ("reading") and once after ("read", or "unchanged" when the forum
 * said nothing changed). The CLI draws it on stderr; the service can publish it.
 */
export interface ReadProgress {
  /** The page about to be read, or just read. */
  page: number;
  /** The thread's pages as far as known now (1 until page 1 or the cache has told). */
  pageCount: number;
  /** False until the forum (or the cache) has told how many pages there are. */
  pageCountKnown: boolean;
  phase: 'reading' | 'read' | 'unchanged';
  /** The pause the source keeps between two requests to this host (ms), 0 when none. */
  pauseMs: number;
  url: string;
}

/**
 * Time left in a read, in ms: the pages still to read at the pace so far (`elapsedMs` over
 * `pagesDone` pages of this read), never faster than the host's pause allows; null while
 * the thread's length is not known.
 */
export function timeLeftMs(p: ReadProgress, elapsedMs: number, pagesDone: number): number | null {
  if (!p.pageCountKnown) return null;
  const left = p.pageCount - p.page + (p.phase === 'reading' ? 1 : 0);
  if (left <= 0) return 0;
  const pace = pagesDone > 0 ? Math.max(elapsedMs / pagesDone, p.pauseMs) : p.pauseMs;
  return Math.round(left * pace);
}
