import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import pRetry from 'p-retry';
import { backoffDelay } from './backoff.js';
import { errorForResponse, mayHideChallenge } from './classify-response.js';
import { decodeBody } from './decode-body.js';
import {
  FetchError,
  isFetchTimeout,
  NetworkError,
  RobotsDisallowedError,
  ThrottledError,
  TimeoutError,
  PrivateHostError,
  TooManyRedirectsError,
  UnsupportedUrlError,
} from './errors.js';
import type { FetchedPage, Validators } from './fetched-page.js';
import {
  PageFetcherOptions,
  type RequestInfo,
  type ResolvedFetcherOptions,
  type RetryInfo,
} from './fetcher-options.js';
import { HostLanes, type HostLane, type Sleep } from './host-lane.js';
import { assertPublicUrl, guardedDispatcher, refusedAtConnect, type GuardedRequestInit } from './private-host.js';
import { discardBody, readBodyCapped } from './read-body.js';
import { redactUrl } from './redact-url.js';
import { RobotsCache, type RobotsResponse } from './robots.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Error pages are read only to look for a challenge; they need not be big. */
const ERROR_PAGE_BYTES = 256 * 1024;
const ROBOTS_BYTES = 512 * 1024;

/** One HTTP exchange. A page answer is a usable one (2xx/304); robots answers are raw. */
type Exchange =
  | { kind: 'redirect'; location: URL }
  | { kind: 'answer'; url: URL; status: number; headers: Headers; body: string; bytes: Uint8Array | null };

/** A page as the forum served it: the bytes before decoding and every response header. */
export interface ServedPage {
  page: FetchedPage;
  bytes: Uint8Array;
  headers: Headers;
}

/**
 * The only way Votal reads a forum. Owns politeness (robots.txt, one request at a time
 * per host with a pause, Retry-After), safety (no private hosts, size cap, timeouts,
 * secrets kept out of errors), conditional GETs, charset decoding and retries.
 * Adapters get text back and never see HTTP.
 *
 * Uses Node's global fetch only, so nock can intercept it in tests.
 */
export class PageFetcher {
  private readonly opts: ResolvedFetcherOptions;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly lanes: HostLanes;
  private readonly robots: RobotsCache;
  /** Connections whose resolved address is checked again at connect time (DNS rebinding). */
  private dispatcher: ReturnType<typeof guardedDispatcher> | undefined;

  constructor(options: PageFetcherOptions = {}) {
    this.opts = PageFetcherOptions.parse(options);
    this.sleep = this.opts.sleep ?? ((ms) => delay(ms));
    this.random = this.opts.random ?? Math.random;
    this.lanes = new HostLanes(
      this.opts.minIntervalMs,
      { maxPauseMs: this.opts.maxIntervalMs, sleep: this.sleep, ...(this.opts.now ? { now: this.opts.now } : {}) },
      this.opts.minIntervalFor,
    );
    this.robots = new RobotsCache(this.opts.userAgent, (robotsUrl) => this.loadRobots(robotsUrl));
  }

  /** The pause currently kept between requests to `url`'s host, in ms. */
  pauseFor(url: string): number {
    return this.lanes.for(new URL(url)).pauseMs;
  }

  /**
   * GETs a page. With `validators` from the last poll it asks "changed since?" and sets
   * `notModified` on a 304 or an identical body. Throws a FetchError subclass otherwise.
   */
  async get(url: string, validators: Validators = {}): Promise<FetchedPage> {
    const start = parseHttpUrl(url);
    return this.retrying(async () =>
      this.pageOf(url, await this.followRedirects(start, 'page', validators), validators),
    );
  }

  /**
   * GETs a page under the same rules as `get` and keeps it as served: the bytes before
   * decoding and the response headers (`votal capture` saves them for the next person).
   */
  async getServed(url: string): Promise<ServedPage> {
    const start = parseHttpUrl(url);
    return this.retrying(async () => {
      const answer = await this.followRedirects(start, 'page', {});
      return { page: this.pageOf(url, answer, {}), bytes: answer.bytes ?? new Uint8Array(), headers: answer.headers };
    });
  }

  private retrying<T>(attempt: () => Promise<T>): Promise<T> {
    return pRetry(attempt, {
      retries: this.opts.retries,
      // p-retry's own timer is off (0): the wait happens in onFailedAttempt through the
      // injectable sleep, so it can honour Retry-After and tests need not really wait.
      minTimeout: 0,
      shouldRetry: ({ error }) => isRetryable(error),
      onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
        if (!isRetryable(error) || retriesLeft <= 0) return;
        let wait = backoffDelay(attemptNumber, {
          baseMs: this.opts.backoffBaseMs,
          maxMs: this.opts.maxBackoffMs,
          random: this.random,
        });
        if (error instanceof ThrottledError && error.retryAfterMs !== null) {
          wait = Math.max(wait, error.retryAfterMs);
        }
        this.tellRetry({
          message: error.message,
          waitMs: wait,
          attempt: attemptNumber,
          attempts: this.opts.retries + 1,
        });
        await this.sleep(wait);
      },
    });
  }

  /**
   * Runs `visit` (a page load that is not this fetcher's own GET: the browser fallback)
   * under the same rules as a GET: public host, robots.txt, Retry-After hold, and the
   * host's lane with its pause. The visit must not follow the page to another host.
   */
  async politely<T>(url: string, visit: (target: URL) => Promise<T>): Promise<T> {
    const { target, lane } = await this.admit(parseHttpUrl(url), 'page');
    return lane.run(() => visit(target));
  }

  private pageOf(asked: string, answer: Extract<Exchange, { kind: 'answer' }>, validators: Validators): FetchedPage {
    const fetchedAt = new Date().toISOString();
    const etag = answer.headers.get('etag');
    const lastModified = answer.headers.get('last-modified');
    if (answer.status === 304) {
      return {
        url: asked,
        finalUrl: answer.url.href,
        status: 304,
        body: '',
        etag: etag ?? validators.etag ?? null,
        lastModified: lastModified ?? validators.lastModified ?? null,
        hash: validators.hash ?? '',
        notModified: true,
        fetchedAt,
      };
    }
    const hash = createHash('sha256').update(answer.body, 'utf8').digest('hex');
    return {
      url: asked,
      finalUrl: answer.url.href,
      status: answer.status,
      body: answer.body,
      etag,
      lastModified,
      hash,
      notModified: validators.hash != null && validators.hash === hash,
      fetchedAt,
    };
  }

  /** Follows redirects by hand, so every hop is checked (private host, robots) and paced. */
  private async followRedirects(
    start: URL,
    kind: RequestInfo['kind'],
    validators: Validators,
  ): Promise<Extract<Exchange, { kind: 'answer' }>> {
    let current = start;
    for (let hop = 0; ; hop++) {
      const { target, lane } = await this.admit(current, kind);
      const exchange = await lane.run(() => this.exchange(target, kind, validators, lane));
      if (exchange.kind === 'answer') return exchange;
      if (hop >= this.opts.maxRedirects) throw new TooManyRedirectsError(start, this.opts.maxRedirects);
      current = exchange.location;
    }
  }

  /** The checks every request passes before it may queue on its host's lane. */
  private async admit(url: URL, kind: RequestInfo['kind']): Promise<{ target: URL; lane: HostLane }> {
    const target = await assertPublicUrl(url, {
      allowPrivate: this.opts.allowPrivateHosts,
      resolve: this.opts.resolveHost,
    });
    const lane = this.lanes.for(target);
    if (lane.heldForMs > this.opts.maxRetryAfterMs) {
      // Do not park the caller for an hour in the queue: say so, let the poller reschedule.
      throw new ThrottledError(target, null, lane.heldForMs, false);
    }
    if (kind === 'page' && this.opts.respectRobots) {
      const policy = await this.robots.policyFor(target);
      if (policy.crawlDelayMs !== null) lane.raisePause(policy.crawlDelayMs);
      if (!policy.isAllowed(target.href)) throw new RobotsDisallowedError(target, this.opts.userAgent);
    }
    return { target, lane };
  }

  /** One request on the host's lane: send, read (capped), judge (pages), report. */
  private async exchange(
    target: URL,
    kind: RequestInfo['kind'],
    validators: Validators,
    lane: HostLane,
  ): Promise<Exchange> {
    const began = performance.now();
    let status: number | null = null;
    let failure: string | undefined;
    try {
      this.dispatcher ??= guardedDispatcher({
        allowPrivate: this.opts.allowPrivateHosts,
        resolve: this.opts.resolveHost,
        connectTimeoutMs: this.opts.connectTimeoutMs,
      });
      const init: GuardedRequestInit = {
        dispatcher: await this.dispatcher,
        headers: this.requestHeaders(target, kind === 'page' ? validators : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      };
      const response = await fetch(target, init);
      status = response.status;
      if (kind === 'page') this.keepCookies(target, response.headers);

      const location = response.headers.get('location');
      if (REDIRECTS.has(response.status) && location) {
        await discardBody(response);
        return { kind: 'redirect', location: new URL(location, target) };
      }
      const { body, bytes } = await this.readText(response, target, kind);
      if (kind === 'page') {
        const error = errorForResponse(
          target.href,
          { status: response.status, headers: response.headers, body },
          {
            maxRetryAfterMs: this.opts.maxRetryAfterMs,
          },
        );
        // Everyone waiting for this host backs off, not only this caller.
        if (error instanceof ThrottledError) lane.throttled(error.retryAfterMs);
        if (error) throw error;
      }
      return { kind: 'answer', url: target, status: response.status, headers: response.headers, body, bytes };
    } catch (error) {
      const mapped = this.transportError(target, error);
      failure = mapped.name;
      throw mapped;
    } finally {
      this.report({ url: redactUrl(target), kind, status, ms: Math.round(performance.now() - began), error: failure });
    }
  }

  /** The body as text (and the bytes it was decoded from), when anyone will look at it. */
  private async readText(
    response: Response,
    target: URL,
    kind: RequestInfo['kind'],
  ): Promise<{ body: string; bytes: Uint8Array | null }> {
    const ok = response.status >= 200 && response.status < 300;
    if (ok) {
      const cap = kind === 'robots' ? Math.min(ROBOTS_BYTES, this.opts.maxBytes) : this.opts.maxBytes;
      const bytes = await readBodyCapped(response, target.href, cap);
      return { body: decodeBody(bytes, response.headers.get('content-type')), bytes };
    }
    if (kind === 'page' && mayHideChallenge(response.status)) {
      try {
        const bytes = await readBodyCapped(response, target.href, Math.min(ERROR_PAGE_BYTES, this.opts.maxBytes));
        return { body: decodeBody(bytes, response.headers.get('content-type')), bytes };
      } catch (error) {
        // An oversized error page is still just an error page.
        if (error instanceof FetchError && !(error instanceof TimeoutError)) return { body: '', bytes: null };
        throw error;
      }
    }
    await discardBody(response);
    return { body: '', bytes: null };
  }

  private requestHeaders(target: URL, validators: Validators): Headers {
    const headers = new Headers({
      'user-agent': this.opts.userAgent,
      accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8',
    });
    if (validators.etag) headers.set('if-none-match', validators.etag);
    if (validators.lastModified) headers.set('if-modified-since', validators.lastModified);
    const cookie = this.opts.cookieHeader?.(target.href);
    if (cookie) {
      // Checked here: Headers would echo an invalid value in its own error message.
      if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(cookie)) {
        throw new FetchError(target, 'cookieHeader returned a value that is not a valid header (value not shown)');
      }
      headers.set('cookie', cookie);
    }
    return headers;
  }

  /** Hands Set-Cookie values to the session's jar; a failing hook must not fail the page. */
  private keepCookies(target: URL, headers: Headers): void {
    const setCookies = headers.getSetCookie();
    if (setCookies.length === 0 || !this.opts.storeCookies) return;
    try {
      this.opts.storeCookies(target.href, setCookies);
    } catch {
      // Nothing from the failure is kept: it could quote a cookie value.
    }
  }

  private async loadRobots(robotsUrl: URL): Promise<RobotsResponse> {
    try {
      const answer = await this.followRedirects(robotsUrl, 'robots', {});
      return { status: answer.status, text: answer.body };
    } catch {
      // No robots.txt we can read means no rules; nothing about the failure is kept.
      return null;
    }
  }

  /** Maps whatever fetch threw to the taxonomy, keeping request headers out of it. */
  private transportError(target: URL, error: unknown): FetchError {
    if (error instanceof FetchError) return error;
    const refused = refusedAtConnect(error);
    if (refused) return new PrivateHostError(target, refused.message);
    if (isFetchTimeout(error)) return new TimeoutError(target, this.opts.timeoutMs);
    if (error instanceof TypeError && error.message === 'fetch failed') {
      const cause = error.cause as NodeJS.ErrnoException | undefined;
      const detail =
        connectFailure(cause?.code, this.opts.connectTimeoutMs) ?? cause?.code ?? cause?.message ?? 'fetch failed';
      // 'bad port' and friends are refusals by fetch itself: retrying changes nothing.
      return new NetworkError(target, detail, { retryable: cause?.code !== undefined, cause });
    }
    if (error instanceof TypeError && error.message === 'terminated') {
      // The connection closed while the body was arriving: a cut-off transfer, worth a retry.
      const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
      return new NetworkError(target, `connection closed mid-response${code ? ` (${code})` : ''}`, {
        cause: error.cause,
      });
    }
    // Anything else may quote the request (e.g. a header value): keep only its class.
    return new NetworkError(target, `request failed (${name ?? 'unknown error'})`, { retryable: false });
  }

  private tellRetry(info: RetryInfo): void {
    try {
      this.opts.onRetry?.(info);
    } catch {
      // Progress must never break a fetch.
    }
  }

  private report(info: RequestInfo): void {
    try {
      this.opts.onRequest?.(info);
    } catch {
      // Metrics must never break a fetch.
    }
  }
}

/** A failed connection in plain words, the code kept for searching. */
function connectFailure(code: string | undefined, connectTimeoutMs: number): string | null {
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `no connection within ${connectTimeoutMs} ms (the forum does not answer; is the address right?) (${code})`;
    case 'ECONNREFUSED':
      return `connection refused: nothing listens at this address (${code})`;
    case 'ECONNRESET':
      return `the connection was reset (${code})`;
    case 'ENOTFOUND':
      return `no such host (${code})`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `the host cannot be reached from here (${code})`;
    default:
      return null;
  }
}

function isRetryable(error: unknown): boolean {
  return error instanceof FetchError && error.retryable;
}

function parseHttpUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new UnsupportedUrlError(url, 'not a valid URL');
  }
}
