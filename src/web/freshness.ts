import { staleCount } from '../game/stale-count.js';
import type { PollState } from '../store/polls-repo.js';

/**
 * How fresh a game's count is, from what the poller recorded (store `game_poll`): when the
 * count was made, when the thread was last read well, and, while reads fail, since when
 * and why (the error text exactly as the store has it). The live page and the tally API
 * both say it, so nobody takes an old count for a current one.
 */
export interface Freshness {
  /** When the count shown was made (the stored tally's time); null before the first. */
  countedAt: string | null;
  /** The last poll that read the thread without error. */
  lastOkAt: string | null;
  /** The last poll, good or not. */
  lastPolledAt: string | null;
  /** True while the polls since `lastOkAt` have failed: the count may be behind the thread. */
  stale: boolean;
  /** Why the last poll failed (null when it did not). */
  error: string | null;
  errorAt: string | null;
  /** Polls failed in a row. */
  failedPolls: number;
  /** `login-required`: only the GM can fix it (a fresh forum session); null while fresh. */
  reason: 'login-required' | 'poll-failed' | null;
}

export function freshnessOf(poll: PollState, countedAt: string | null): Freshness {
  // One rule for "stale" (game/stale-count.ts): the last poll failed.
  const failed = staleCount(poll);
  const stale = failed !== null;
  return {
    countedAt,
    lastOkAt: poll.lastOkAt,
    lastPolledAt: poll.lastPolledAt,
    stale,
    error: stale ? poll.lastError : null,
    errorAt: stale ? poll.lastErrorAt : null,
    failedPolls: poll.errorsInRow,
    reason: failed?.reason ?? null,
  };
}

/** What changes what a page shows of it (the last good poll's time alone is not shown, so it is not part of it). */
export function freshnessKey(f: Freshness): string {
  return f.stale ? `stale:${f.reason}:${f.failedPolls}:${f.errorAt ?? ''}:${f.error ?? ''}` : 'fresh';
}
