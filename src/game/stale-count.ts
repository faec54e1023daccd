import type { PollState } from '../store/polls-repo.js';

/** Why the count shown may be behind the thread, for the GM page and the API. */
export interface StaleCount {
  /** `login-required`: the forum asked for a login (the session expired); `poll-failed`: any other failure. */
  reason: 'login-required' | 'poll-failed';
  message: string;
  /** The last poll's failure, and the last read that worked (the count is as of then). */
  failedAt: string | null;
  lastOkAt: string | null;
}

const LOG_IN_AGAIN =
  "Log in again: the forum asked Votal for a login, so the count is stale. Store a fresh session in the game's " +
  "settings (publishing with the board's form: paste a cookie export from a logged-in browser), or refresh the " +
  "site profile's cookies file, then poll again.";

/**
 * A count is stale when the last poll failed; the forum asking for a login is told apart
 * (`game_poll.state.loginRequired`, set by the poll), because only a person can fix it.
 */
export function staleCount(
  poll: Pick<PollState, 'lastError' | 'lastErrorAt' | 'lastOkAt' | 'state'>,
): StaleCount | null {
  if (poll.lastError === null) return null;
  const login = poll.state.loginRequired === true;
  return {
    reason: login ? 'login-required' : 'poll-failed',
    message: login
      ? `${LOG_IN_AGAIN} (${poll.lastError})`
      : `The last poll failed, so the count may be behind the thread: ${poll.lastError}`,
    failedAt: poll.lastErrorAt,
    lastOkAt: poll.lastOkAt,
  };
}
