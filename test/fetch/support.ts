import { PageFetcher } from '../../src/fetch/page-fetcher.js';
import type { PageFetcherOptions } from '../../src/fetch/fetcher-options.js';

/** A sleep that returns at once and remembers what it was asked to wait. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms: number) => {
      waits.push(ms);
    },
  };
}

/**
 * A fake monotonic clock and the sleep that moves it: host pauses come out exact, however
 * busy the machine is. `waits` are the pauses asked for; each `doneBefore` says whether
 * every request `forum` had logged was finished when the pause began (a pause runs from
 * the end of the request before it).
 */
export function fakeClock(forum?: { requests: readonly { doneAt: number | null }[] }): {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  waits: number[];
  doneBefore: boolean[];
} {
  let clock = 0;
  const waits: number[] = [];
  const doneBefore: boolean[] = [];
  return {
    waits,
    doneBefore,
    now: () => clock,
    sleep: async (ms: number) => {
      waits.push(ms);
      if (forum) doneBefore.push(forum.requests.every((r) => r.doneAt !== null));
      clock += ms;
    },
  };
}

/**
 * A fetcher for the fake forum: loopback allowed, no pause, quick backoff, no jitter.
 * Tests that are about a rule set that rule's option explicitly.
 */
export function testFetcher(options: PageFetcherOptions = {}): PageFetcher {
  return new PageFetcher({
    allowPrivateHosts: true,
    minIntervalMs: 0,
    backoffBaseMs: 10,
    timeoutMs: 2000,
    random: () => 0,
    ...options,
  });
}

/** The rejection of `promise`, failing the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the promise to reject');
}
