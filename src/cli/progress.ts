import type { RetryInfo } from '../fetch/fetcher-options.js';
import { ReadPace, type ReadProgress, spokenSeconds as seconds } from '../thread/read-progress.js';

export interface ProgressOptions {
  write: (s: string) => void;
  /** stderr is a terminal: one line redrawn in place; otherwise a plain line per page. */
  live: boolean;
  now?: () => number;
}

/**
 * The progress of a read on stderr (`votal count`, `read`, `capture`), from the thread
 * reader's own page events and the fetcher's retries: pages read of known, the pause
 * between pages, the time left; a failing connection names its URL at once.
 */
export class ProgressLine {
  private readonly pace: ReadPace;
  private drawn = false;

  constructor(private readonly o: ProgressOptions) {
    this.pace = new ReadPace(o.now);
  }

  page(p: ReadProgress): void {
    const left = this.pace.note(p);
    const of = p.pageCountKnown ? ` of ${p.pageCount}` : '';
    const pause = p.pauseMs >= 1000 ? `, ${seconds(p.pauseMs)} pause between pages` : '';
    const eta = left !== null && left > 0 ? `, about ${seconds(left)} left` : '';
    if (p.phase === 'reading') {
      // A plain log gets one line per page read, not two.
      if (this.o.live) this.draw(`reading page ${p.page}${of}${pause}${eta}`);
      return;
    }
    const what = p.phase === 'unchanged' ? 'unchanged' : 'read';
    if (this.o.live) this.draw(`page ${p.page}${of} ${what}${eta}`);
    else this.o.write(`votal: page ${p.page}${of} ${what}${eta}\n`);
  }

  /** One page asked for on its own (`votal read`, `capture`). */
  fetching(url: string): void {
    if (this.o.live) this.draw(`reading ${url}`);
    else this.o.write(`votal: reading ${url}\n`);
  }

  retry(info: RetryInfo): void {
    this.line(
      `${info.message}; trying again in ${seconds(info.waitMs)} (attempt ${info.attempt + 1} of ${info.attempts})`,
    );
  }

  /** A message that must stay on screen (the live line is cleared first and redrawn by the next page). */
  line(message: string): void {
    this.clear();
    this.o.write(`votal: ${message}\n`);
  }

  /** Clears the live line before the result or an error is printed. */
  clear(): void {
    if (this.drawn) this.o.write('\r\x1b[2K');
    this.drawn = false;
  }

  private draw(text: string): void {
    this.o.write(`\r\x1b[2Kvotal: ${text}`);
    this.drawn = true;
  }
}
