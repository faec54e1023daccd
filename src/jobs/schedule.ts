/**
 * When a game's thread is read next: pure, so the cadence is tested without a queue.
 *
 * - Every `intervalSeconds` (the game's, default 5 minutes), give or take `jitter`, so
 *   games created together do not hit one forum in the same second.
 * - In the last `nearMinutes` before a clock instant (the deadline, a Hammer check): every
 *   `nearIntervalSeconds` (default every minute in the last 30 minutes), and always just
 *   after the instant itself, so the count at the deadline is read at once.
 * - After failures: twice as long per failure in a row, up to an hour (never shorter than
 *   the interval); a forum that said "Retry-After" is not asked before then.
 */
export interface NextPollInput {
  /** The poll clock now (ms since the epoch). */
  now: number;
  intervalSeconds: number;
  /** Deadlines and checks still to come (ISO 8601). */
  upcoming: readonly string[];
  nearMinutes?: number;
  nearIntervalSeconds?: number;
  errorsInRow?: number;
  /** The forum asked us to wait this long (ms). */
  retryAfterMs?: number | null;
  /** Fraction of the delay a poll may move either way (default 0.1). */
  jitter?: number;
  /** [0, 1); default Math.random. */
  random?: () => number;
  /** Never sooner than this (ms). Default MIN_DELAY_MS. */
  minDelayMs?: number;
}

/** Polls just after a clock instant wait this long past it (forum and server clocks differ). */
export const AFTER_INSTANT_MS = 5_000;
export const MIN_DELAY_MS = 5_000;
export const MAX_BACKOFF_MS = 60 * 60_000;

/** How long to wait before the next poll, in ms. */
export function nextPollDelay(input: NextPollInput): number {
  const random = input.random ?? Math.random;
  const interval = input.intervalSeconds * 1000;
  const nearMs = (input.nearMinutes ?? 30) * 60_000;
  const nearInterval = (input.nearIntervalSeconds ?? 60) * 1000;
  const errors = input.errorsInRow ?? 0;

  let base = interval;
  if (errors > 0) base = Math.max(interval, Math.min(MAX_BACKOFF_MS, interval * 2 ** Math.min(errors, 10)));
  const instants = input.upcoming.map((t) => Date.parse(t)).filter((t) => !Number.isNaN(t) && t > input.now).sort((a, b) => a - b);
  const next = instants[0];
  let delay = base;
  let exact = false;
  if (next !== undefined && errors === 0) {
    const until = next - input.now;
    if (until <= nearMs) delay = Math.min(delay, nearInterval);
    if (until + AFTER_INSTANT_MS <= delay) {
      delay = until + AFTER_INSTANT_MS; // right after the deadline / check, no jitter before it
      exact = true;
    }
  }
  if (!exact) {
    const jitter = input.jitter ?? 0.1;
    delay = delay * (1 - jitter + 2 * jitter * random());
  }
  if (input.retryAfterMs != null) delay = Math.max(delay, input.retryAfterMs);
  return Math.max(input.minDelayMs ?? MIN_DELAY_MS, Math.round(delay));
}
