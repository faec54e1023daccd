import robotsParserModule from 'robots-parser';

// robots-parser is CommonJS with an ESM-style .d.ts: at run time the default import is
// the function itself, while the types put it under `.default`. Accept either.
type ParseRobots = typeof robotsParserModule.default;
const robotsParser: ParseRobots =
  typeof robotsParserModule === 'function'
    ? (robotsParserModule as unknown as ParseRobots)
    : robotsParserModule.default;

/** What robots.txt says about our User-Agent on one origin. */
export interface RobotsPolicy {
  isAllowed(url: string): boolean;
  /** Crawl-delay for our User-Agent (or `*`), in ms, or null. */
  readonly crawlDelayMs: number | null;
}

export const ALLOW_ALL: RobotsPolicy = { isAllowed: () => true, crawlDelayMs: null };

export function parseRobots(robotsUrl: string, text: string, userAgent: string): RobotsPolicy {
  // robots-parser matches groups on the product token ("Votal/0.1 (...)" -> "votal").
  const robot = robotsParser(robotsUrl, text);
  const delay = robot.getCrawlDelay(userAgent);
  return {
    // undefined means "URL not on this origin": cannot happen, we key by origin.
    isAllowed: (url) => robot.isAllowed(url, userAgent) !== false,
    crawlDelayMs: typeof delay === 'number' && Number.isFinite(delay) && delay > 0 ? delay * 1000 : null,
  };
}

/** How robots.txt came back: its text on 2xx, else only the status (or null: no response). */
export type RobotsResponse = { status: number; text: string } | null;

/**
 * robots.txt per origin, fetched once and kept for a day (a failure for an hour, so a
 * forum that was briefly down gets its rules read again). Concurrent callers share one
 * fetch. Any answer but 2xx means "no rules": 404 is the common case, and a 5xx or a
 * network failure must not stop a vote count.
 */
export class RobotsCache {
  private readonly entries = new Map<string, { policy: Promise<RobotsPolicy>; expiresAt: number }>();

  constructor(
    private readonly userAgent: string,
    private readonly load: (robotsUrl: URL) => Promise<RobotsResponse>,
    private readonly ttl = { okMs: 24 * 3600_000, failedMs: 3600_000 },
  ) {}

  policyFor(url: URL): Promise<RobotsPolicy> {
    const cached = this.entries.get(url.origin);
    if (cached && cached.expiresAt > Date.now()) return cached.policy;

    const robotsUrl = new URL('/robots.txt', url.origin);
    const entry = { policy: Promise.resolve(ALLOW_ALL), expiresAt: Number.POSITIVE_INFINITY };
    entry.policy = this.load(robotsUrl).then(
      (response) => {
        const ok = response !== null && response.status >= 200 && response.status < 300;
        // 4xx is a stable "no rules"; 5xx or no response may be a passing outage.
        const settled = response !== null && response.status < 500;
        entry.expiresAt = Date.now() + (settled ? this.ttl.okMs : this.ttl.failedMs);
        return ok ? parseRobots(robotsUrl.href, response.text, this.userAgent) : ALLOW_ALL;
      },
      () => {
        entry.expiresAt = Date.now() + this.ttl.failedMs;
        return ALLOW_ALL;
      },
    );
    this.entries.set(url.origin, entry);
    return entry.policy;
  }
}
