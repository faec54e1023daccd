import { z } from 'zod';
import type { ResolveHost } from './private-host.js';
import type { Now, Sleep } from './host-lane.js';

export const DEFAULT_USER_AGENT = 'Votal/0.1 (+https://github.com/votal/votal; forum vote counter)';

/** What `onRequest` hears about each HTTP request: enough for metrics, no headers. */
export interface RequestInfo {
  /** Redacted URL (no password, no session id). */
  url: string;
  kind: 'page' | 'robots';
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  ms: number;
  /** Error class name when the request failed. */
  error?: string;
}

/** What `onRetry` hears: the error (its message names the redacted URL) and the wait before the next try. */
export interface RetryInfo {
  message: string;
  waitMs: number;
  /** The attempt that failed (1 is the first) and how many there may be in all. */
  attempt: number;
  attempts: number;
}

const fn = <T>(what: string) =>
  z.custom<T>((value) => typeof value === 'function', { message: `${what} must be a function` });

export const PageFetcherOptions = z.strictObject({
  userAgent: z.string().min(1).default(DEFAULT_USER_AGENT),
  /** Per request (each redirect hop and each retry gets its own): connect, headers and body. */
  timeoutMs: z.number().int().positive().default(20_000),
  /**
   * Connecting alone (name lookup and TCP/TLS handshake): a forum that accepts nothing is
   * named within seconds, while a slow page still gets the whole `timeoutMs`.
   */
  connectTimeoutMs: z.number().int().positive().default(5_000),
  maxBytes: z
    .number()
    .int()
    .positive()
    .default(8 * 1024 * 1024),
  /** Retries after the first attempt, for retryable errors only. */
  retries: z.number().int().min(0).default(3),
  /** First retry waits about this long (doubling, with jitter). */
  backoffBaseMs: z.number().int().min(0).default(1000),
  maxBackoffMs: z.number().int().min(0).default(30_000),
  /** Pause between two requests to the same host. */
  minIntervalMs: z.number().int().min(0).default(1000),
  /** Crawl-delay and throttling raise the pause, up to this. */
  maxIntervalMs: z.number().int().min(0).default(60_000),
  /** A Retry-After longer than this is not waited out: the error goes to the caller. */
  maxRetryAfterMs: z.number().int().min(0).default(120_000),
  maxRedirects: z.number().int().min(0).default(5),
  respectRobots: z.boolean().default(true),
  /** Default: VOTAL_ALLOW_PRIVATE_HOSTS=1. */
  allowPrivateHosts: z.boolean().optional(),
  resolveHost: fn<ResolveHost>('resolveHost').optional(),
  sleep: fn<Sleep>('sleep').optional(),
  /** The monotonic clock the host pauses are measured on (default `performance.now`); pair with `sleep` in tests. */
  now: fn<Now>('now').optional(),
  /** In [0, 1); jitter source. */
  random: fn<() => number>('random').optional(),
  /** Cookie header for a URL (a logged-in session). Never logged, never in errors. */
  cookieHeader: fn<(url: string) => string | undefined>('cookieHeader').optional(),
  /** Hears a page response's Set-Cookie values (a session the forum refreshes). Never logged. */
  storeCookies: fn<(url: string, setCookies: string[]) => void>('storeCookies').optional(),
  /** A host's own pause from its site profile (overrides minIntervalMs; Crawl-delay still raises it). */
  minIntervalFor: fn<(url: URL) => number | undefined>('minIntervalFor').optional(),
  onRequest: fn<(info: RequestInfo) => void>('onRequest').optional(),
  /** Hears each failed attempt that will be tried again, before the wait (progress: "retrying in 2 s"). */
  onRetry: fn<(info: RetryInfo) => void>('onRetry').optional(),
});
export type PageFetcherOptions = z.input<typeof PageFetcherOptions>;
export type ResolvedFetcherOptions = z.output<typeof PageFetcherOptions>;
