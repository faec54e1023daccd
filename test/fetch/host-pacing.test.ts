import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/fetch/backoff.js';
import { HostLane } from '../../src/fetch/host-lane.js';

describe('backoffDelay', () => {
  it('doubles per retry, with jitter up to 2x, capped', () => {
    const opts = { baseMs: 1000, maxMs: 30_000 };
    expect([1, 2, 3].map((n) => backoffDelay(n, { ...opts, random: () => 0 }))).toEqual([1000, 2000, 4000]);
    expect(backoffDelay(1, { ...opts, random: () => 0.999 })).toBe(1999);
    expect(backoffDelay(10, { ...opts, random: () => 0 })).toBe(30_000);
  });
});

describe('HostLane', () => {
  const quickLane = (pause: number) => {
    const waits: number[] = [];
    const lane = new HostLane(pause, { maxPauseMs: 5000, sleep: async (ms) => void waits.push(ms) });
    return { lane, waits };
  };

  it('the first request does not wait; the next waits the pause', async () => {
    const { lane, waits } = quickLane(200);
    await lane.run(async () => 'a');
    await lane.run(async () => 'b');
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(190);
  });

  it('the pause only grows, up to the cap', () => {
    const { lane } = quickLane(200);
    lane.raisePause(100);
    expect(lane.pauseMs).toBe(200);
    lane.raisePause(60_000);
    expect(lane.pauseMs).toBe(5000);
  });

  it('throttling doubles the pause (at least 1 s) and holds the host for Retry-After', () => {
    const { lane } = quickLane(200);
    lane.throttled(3000);
    expect(lane.pauseMs).toBe(1000);
    expect(lane.heldForMs).toBeGreaterThan(2900);
  });

  it('runs one task at a time', async () => {
    const { lane } = quickLane(0);
    let running = 0;
    let most = 0;
    const task = async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 10));
      running -= 1;
    };
    await Promise.all([lane.run(task), lane.run(task), lane.run(task)]);
    expect(most).toBe(1);
  });
});
