import type { Game, GameStatus } from '../model/game.js';
import type { PollFacts } from '../model/poll-state.js';

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
const AFTER_INSTANT_MS = 5_000;
const MIN_DELAY_MS = 5_000;
const MAX_BACKOFF_MS = 60 * 60_000;

/** How long to wait before the next poll, in ms. */
export function nextPollDelay(input: NextPollInput): number {
  const random = input.random ?? Math.random;
  const interval = input.intervalSeconds * 1000;
  const nearMs = (input.nearMinutes ?? 30) * 60_000;
  const nearInterval = (input.nearIntervalSeconds ?? 60) * 1000;
  const errors = input.errorsInRow ?? 0;

  let base = interval;
  if (errors > 0) base = Math.max(interval, Math.min(MAX_BACKOFF_MS, interval * 2 ** Math.min(errors, 10)));
  const instants = input.upcoming
    .map((t) => Date.parse(t))
    .filter((t) => !Number.isNaN(t) && t > input.now)
    .sort((a, b) => a - b);
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

/** A game's poll counts as late for the GM once it is this far past due (ms). */
export const LATE_AFTER_MS = 60_000;

export interface LatenessInput {
  /** The poll clock now (ms since the epoch). */
  now: number;
  /** Only an active game is polled, so only an active one can be late. */
  status: GameStatus;
  /** When the game's next poll is due (`game.next_poll_at`); null when none is scheduled. */
  nextPollAt: string | null;
  /** When the last poll that started was due, and when it started (noted by the poller). */
  lastDueAt: string | null;
  lastStartedAt: string | null;
  /** Default LATE_AFTER_MS. */
  lateAfterMs?: number;
}

export interface PollLateness {
  /** When the game's next poll is due; null when none is scheduled (paused, finished). */
  dueAt: string | null;
  /** How long the due poll has been waiting to start (ms); 0 before it is due and once it started. */
  overdueMs: number;
  /** How late the last poll started against its schedule (ms); null before the first noted start. */
  lastLateMs: number | null;
  /** Overdue beyond `lateAfterMs`: the dashboard says so. */
  late: boolean;
}

/**
 * Whether a game's polls keep their schedule. The poll due at `nextPollAt` is overdue
 * while it has not started (a poll that started at or after that time is the due one, still
 * running or done); how late the last one started is its start minus its due time.
 */
export function pollLateness(input: LatenessInput): PollLateness {
  const at = (iso: string | null): number | null => {
    if (iso === null) return null;
    const t = Date.parse(iso);
    return Number.isNaN(t) ? null : t;
  };
  const lastDue = at(input.lastDueAt);
  const lastStarted = at(input.lastStartedAt);
  const lastLateMs = lastDue !== null && lastStarted !== null ? Math.max(0, lastStarted - lastDue) : null;
  const due = input.status === 'active' ? at(input.nextPollAt) : null;
  if (due === null) return { dueAt: null, overdueMs: 0, lastLateMs, late: false };
  const started = lastStarted !== null && lastStarted >= due;
  const overdueMs = started ? 0 : Math.max(0, input.now - due);
  const late = overdueMs > (input.lateAfterMs ?? LATE_AFTER_MS);
  return { dueAt: new Date(due).toISOString(), overdueMs, lastLateMs, late };
}

/**
 * `pollLateness` of a stored game and its poll state, whose facts the store parsed
 * (`PollFacts`): the start the poller noted (`PollsRepo.started`) is read as typed.
 */
export function gameLateness(
  game: Pick<Game, 'status' | 'nextPollAt'>,
  poll: { state: Pick<PollFacts, 'pollDueAt' | 'pollStartedAt'> },
  now: number,
): PollLateness {
  return pollLateness({
    now,
    status: game.status,
    nextPollAt: game.nextPollAt,
    lastDueAt: poll.state.pollDueAt ?? null,
    lastStartedAt: poll.state.pollStartedAt ?? null,
  });
}

/** "45 s", "2 min", "1 h 5 min": how late, for the GM. */
export function lateText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest ? `${Math.floor(minutes / 60)} h ${rest} min` : `${Math.floor(minutes / 60)} h`;
}
