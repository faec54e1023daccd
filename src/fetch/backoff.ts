/**
 * Exponential backoff with jitter: base * 2^(retry-1) * (1 + random), capped. The jitter
 * keeps many pollers that failed together from retrying together.
 */
export function backoffDelay(retry: number, opts: { baseMs: number; maxMs: number; random: () => number }): number {
  const exponential = opts.baseMs * 2 ** Math.max(0, retry - 1);
  return Math.round(Math.min(opts.maxMs, exponential * (1 + opts.random())));
}
