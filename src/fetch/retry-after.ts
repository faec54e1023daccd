/**
 * The longest a forum's Retry-After holds a host: one thread's 429 asking for two hours held
 * every game on that forum for two hours. Past this Votal tries again (politely: the host's
 * pause doubled on every throttle), and says on the game page that the forum asked for longer.
 */
export const MAX_RETRY_AFTER_MS = 15 * 60_000;

/**
 * Parses a Retry-After header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
 * Returns milliseconds to wait from `now`, or null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date names its month; V8's Date.parse would also accept "-5" as a year.
  if (!/[a-z]{3}/i.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  // A date in the past means "now"; never a negative wait.
  return Math.max(0, at - now);
}
