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
