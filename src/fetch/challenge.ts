/**
 * Recognises a bot-protection interstitial (Cloudflare "Just a moment..."). Such a page
 * is not the forum page, and retrying only digs deeper, so it must never be parsed as
 * posts nor retried.
 *
 * On 403/503 any Cloudflare challenge marker counts. On 200 only strong signs count
 * (the header, the interstitial's <title>, its script or form targets): a real thread can
 * quote the words "cf-chl" or "challenge-platform" in a post.
 */
const STRONG_MARKERS: readonly RegExp[] = [
  /<title>\s*Just a moment\.\.\.\s*<\/title>/i,
  /window\._cf_chl_opt/,
  /(?:src|action)\s*=\s*["'][^"']*(?:\/cdn-cgi\/challenge-platform\/|[?&]__cf_chl_)/i,
];
const WEAK_MARKERS: readonly RegExp[] = [/cf-chl/i, /challenge-platform/i];

/** Returns what gave the challenge away, or null when the response is not a challenge. */
export function detectChallenge(status: number, headers: Headers, body: string): string | null {
  const mitigated = headers.get('cf-mitigated');
  if (mitigated && /challenge/i.test(mitigated)) return 'cf-mitigated header';
  if (status !== 200 && status !== 403 && status !== 503) return null;
  if (STRONG_MARKERS.some((re) => re.test(body))) return 'challenge page';
  if (status !== 200 && WEAK_MARKERS.some((re) => re.test(body))) return 'challenge markers';
  return null;
}
