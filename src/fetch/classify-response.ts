import { detectChallenge } from './challenge.js';
import {
  ChallengeError,
  type FetchError,
  ForbiddenError,
  LoginRequiredError,
  PageNotFoundError,
  ServerError,
  ThrottledError,
  UnexpectedStatusError,
} from './errors.js';
import { parseRetryAfter } from './retry-after.js';

/**
 * The one place where an HTTP answer becomes an error class (and so a retry decision).
 * Returns null for a usable page (2xx or 304). Redirects are handled before this.
 */
export function errorForResponse(
  url: string,
  response: { status: number; headers: Headers; body: string },
  opts: { maxRetryAfterMs: number; now?: number },
): FetchError | null {
  const { status, headers, body } = response;
  const challenge = detectChallenge(status, headers, body);
  if (challenge) return new ChallengeError(url, status, challenge);
  if ((status >= 200 && status < 300) || status === 304) return null;

  const retryAfterMs = parseRetryAfter(headers.get('retry-after'), opts.now);
  if (status === 429 || (status === 503 && retryAfterMs !== null)) {
    // A wait longer than we will sit through goes back to the caller, who can reschedule.
    const waitable = retryAfterMs === null || retryAfterMs <= opts.maxRetryAfterMs;
    return new ThrottledError(url, status, retryAfterMs, waitable);
  }
  if (status === 401) return new LoginRequiredError(url);
  if (status === 403) return new ForbiddenError(url);
  if (status === 404 || status === 410) return new PageNotFoundError(url, status);
  if (status >= 500 && status < 600) return new ServerError(url, status);
  return new UnexpectedStatusError(url, status);
}

/** Statuses whose body we read even though they are errors: a challenge hides there. */
export function mayHideChallenge(status: number): boolean {
  return status === 403 || status === 503;
}
