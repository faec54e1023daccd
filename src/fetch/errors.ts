import { redactUrl } from './redact-url.js';
import { MAX_RETRY_AFTER_MS } from './retry-after.js';

/**
 * The fetch error taxonomy. The class decides what happens next (after crawlee's
 * errors.ts): `retryable` errors are retried with backoff by the PageFetcher; the rest
 * go straight to the caller, who surfaces them to the GM (challenge, login wall) or
 * gives up on the page (404).
 *
 * Every message names the URL (redacted of passwords and session ids) and never
 * contains a request header, so errors are safe to log and to show.
 */
export class FetchError extends Error {
  /** The URL the error is about, redacted (no `user:pass@`, no session ids). */
  readonly url: string;
  /** True when trying again later may succeed. */
  readonly retryable: boolean;
  /** HTTP status when a response was received, else null. */
  readonly status: number | null;

  constructor(
    url: string | URL,
    message: string,
    opts: { retryable?: boolean; status?: number | null; cause?: unknown } = {},
  ) {
    const shown = redactUrl(url);
    super(`${message} (${shown})`, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.url = shown;
    this.retryable = opts.retryable ?? false;
    this.status = opts.status ?? null;
  }
}

/** 404 or 410: the page is gone. Not retried. */
export class PageNotFoundError extends FetchError {
  constructor(url: string | URL, status: 404 | 410 | number = 404) {
    super(url, `Page not found: HTTP ${status}`, { status });
  }
}

/** 403 without a challenge page: the forum refuses us. Not retried. */
export class ForbiddenError extends FetchError {
  constructor(url: string | URL) {
    super(url, 'Access forbidden: HTTP 403', { status: 403 });
  }
}

/**
 * A bot-protection interstitial (Cloudflare "Just a moment...", `cf-mitigated`).
 * Not retried and not evaded: the GM is told, and may use the browser fallback.
 */
export class ChallengeError extends FetchError {
  constructor(url: string | URL, status: number, detail: string) {
    super(url, `Bot-protection challenge page (HTTP ${status}, ${detail}); a person must open it`, {
      status,
    });
  }
}

/** 401, or a page the caller recognises as a login wall. Re-login is the caller's job. */
export class LoginRequiredError extends FetchError {
  constructor(url: string | URL, detail = 'HTTP 401', status: number | null = 401) {
    super(url, `Login required: ${detail}`, { status });
  }
}

/**
 * 429, or 503 with Retry-After: "come back later", not a failure of the page.
 * Retried after at least `retryAfterMs`, unless the forum asks for a longer wait than
 * the fetcher will sit through (then `retryable` is false and the poller reschedules).
 */
export class ThrottledError extends FetchError {
  /** How long Votal waits: what the forum asked, at most MAX_RETRY_AFTER_MS; null when it did not say. */
  readonly retryAfterMs: number | null;
  /** What the forum asked for, uncapped (shown to the GM when the cap was used). */
  readonly askedMs: number | null;

  constructor(
    url: string | URL,
    /** The throttling response's status; null when an earlier answer still holds the host. */
    status: number | null,
    retryAfterMs: number | null,
    retryable = true,
  ) {
    const capped = retryAfterMs === null ? null : Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
    const s = (ms: number) => `${Math.ceil(ms / 1000)} s`;
    const wait =
      retryAfterMs === null
        ? 'no Retry-After'
        : capped! < retryAfterMs
          ? `Retry-After ${s(retryAfterMs)}, longer than Votal waits: trying again after ${s(capped!)} (the cap)`
          : `Retry-After ${s(retryAfterMs)}`;
    const what = status === null ? 'host still held by an earlier Retry-After' : `HTTP ${status}`;
    super(url, `Throttled by the forum: ${what}, ${wait}`, { status, retryable });
    this.retryAfterMs = capped;
    this.askedMs = retryAfterMs;
  }
}

/** 5xx (other than a throttling 503): the forum is having trouble. Retried. */
export class ServerError extends FetchError {
  constructor(url: string | URL, status: number) {
    super(url, `Forum server error: HTTP ${status}`, { status, retryable: true });
  }
}

/** Connection refused/reset, DNS failure and the like. Retried. */
export class NetworkError extends FetchError {
  constructor(url: string | URL, detail: string, opts: { retryable?: boolean; cause?: unknown } = {}) {
    super(url, `Network error: ${detail}`, { retryable: opts.retryable ?? true, cause: opts.cause });
  }
}

/** No complete response within the time limit. Retried. */
export class TimeoutError extends FetchError {
  constructor(url: string | URL, timeoutMs: number) {
    super(url, `No complete response within ${timeoutMs} ms`, { retryable: true });
  }
}

/** The body is larger than the cap: a forum page never is, so something is wrong. */
export class TooLargeError extends FetchError {
  constructor(url: string | URL, maxBytes: number, status: number | null) {
    super(url, `Response body larger than ${maxBytes} bytes`, { status });
  }
}

/** robots.txt disallows this URL for our User-Agent. */
export class RobotsDisallowedError extends FetchError {
  constructor(url: string | URL, userAgent: string) {
    super(url, `robots.txt disallows this page for User-Agent "${userAgent}"`);
  }
}

/** The URL points at a loopback/private address (SSRF guard). */
export class PrivateHostError extends FetchError {
  constructor(url: string | URL, detail: string) {
    super(
      url,
      `Refusing to fetch a private or loopback address: ${detail}. ` +
        'Set VOTAL_ALLOW_PRIVATE_HOSTS=1 (or allowPrivateHosts: true) to allow it',
    );
  }
}

/** Not an http(s) URL, or not a URL at all. */
export class UnsupportedUrlError extends FetchError {
  constructor(url: string | URL, detail: string) {
    super(url, `Unsupported URL: ${detail}`);
  }
}

/** Redirect chain longer than the fetcher follows (or a loop). */
export class TooManyRedirectsError extends FetchError {
  constructor(url: string | URL, maxRedirects: number) {
    super(url, `More than ${maxRedirects} redirects`);
  }
}

/** A status the fetcher has no rule for (400, 405, 451, a 3xx without Location...). */
export class UnexpectedStatusError extends FetchError {
  constructor(url: string | URL, status: number) {
    super(url, `Unexpected HTTP status ${status}`, { status });
  }
}

/**
 * For callers: the adapter recognised the engine but found no posts where posts should
 * be (the forum changed its markup, or served an error page with HTTP 200).
 */
export class LayoutError extends FetchError {
  constructor(url: string | URL, detail: string) {
    super(url, `Page layout not understood: ${detail}`);
  }
}

/** For callers: the HTML ends before the document does (a cut-off transfer). Retried. */
export class TruncatedPageError extends FetchError {
  constructor(url: string | URL, detail: string) {
    super(url, `Page looks truncated: ${detail}`, { retryable: true });
  }
}

/**
 * Whether Node's fetch gave up at its `AbortSignal.timeout` (the request, or the body read
 * after it). The platform says so with a DOMException, which has no subclass per kind: its
 * `name` ("TimeoutError", or "AbortError" where the body was being read) is its class. It
 * may come as the cause of undici's TypeError. Our own errors are told apart by `instanceof`.
 */
export function isFetchTimeout(error: unknown): boolean {
  const abort = (e: unknown) => e instanceof DOMException && (e.name === 'TimeoutError' || e.name === 'AbortError');
  return abort(error) || (error instanceof Error && abort(error.cause));
}
