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
function timeLeftMs(p: ReadProgress, elapsedMs: number, pagesDone: number): number | null {
  if (!p.pageCountKnown) return null;
  const left = p.pageCount - p.page + (p.phase === 'reading' ? 1 : 0);
  if (left <= 0) return 0;
  const pace = pagesDone > 0 ? Math.max(elapsedMs / pagesDone, p.pauseMs) : p.pauseMs;
  return Math.round(left * pace);
}

/**
 * The pace of one read: when it started and how many pages it has read, for the time left
 * (`timeLeftMs`). The CLI's progress line and the service's progress news share it.
 */
export class ReadPace {
  private started: number | null = null;
  private pagesDone = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Notes one progress report; the time left after it (ms), null while the length is not known. */
  note(p: ReadProgress): number | null {
    this.started ??= this.now();
    if (p.phase !== 'reading') this.pagesDone++;
    return timeLeftMs(p, this.now() - this.started, this.pagesDone);
  }
}

/** A duration as a reader says it: "1 s", "50 s", "1 min 58 s". */
export function spokenSeconds(ms: number): string {
  if (ms < 60_000) return `${Math.max(1, Math.round(ms / 1000))} s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return s ? `${m} min ${s} s` : `${m} min`;
}

/**
 * A read's progress in words, as the dashboard and the live page show it: "Reading page 12
 * of 60, about 50 s left" while a page is asked for, "Read page 12 of 60, ..." after it.
 */
export function progressSentence(
  p: Pick<ReadProgress, 'page' | 'pageCount' | 'pageCountKnown' | 'phase'>,
  leftMs: number | null,
): string {
  const of = p.pageCountKnown ? ` of ${p.pageCount}` : '';
  const eta = leftMs !== null && leftMs > 0 ? `, about ${spokenSeconds(leftMs)} left` : '';
  const verb = p.phase === 'reading' ? 'Reading' : p.phase === 'unchanged' ? 'Unchanged:' : 'Read';
  return `${verb} page ${p.page}${of}${eta}`;
}
