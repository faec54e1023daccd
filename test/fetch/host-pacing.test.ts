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
  /** A lane on a fake clock that moves only when the lane sleeps or a task takes `tick` ms. */
  const quickLane = (pause: number) => {
    const waits: number[] = [];
    const clock = { ms: 0 };
    const lane = new HostLane(pause, {
      maxPauseMs: 5000,
      now: () => clock.ms,
      sleep: async (ms) => {
        waits.push(ms);
        clock.ms += ms;
      },
    });
    return { lane, waits, clock };
  };

  it('the first request does not wait; the next waits the pause from the end of the one before', async () => {
    const { lane, waits, clock } = quickLane(200);
    await lane.run(async () => {
      clock.ms += 500; // a slow page does not shorten the pause after it
    });
    await lane.run(async () => 'b');
    expect(waits).toEqual([200]);
    clock.ms += 150; // the caller was busy for a while: only the rest of the pause is left
    await lane.run(async () => 'c');
    expect(waits).toEqual([200, 50]);
  });

  it('the pause only grows, up to the cap', () => {
    const { lane } = quickLane(200);
    lane.raisePause(100);
    expect(lane.pauseMs).toBe(200);
    lane.raisePause(60_000);
    expect(lane.pauseMs).toBe(5000);
  });

  it('throttling doubles the pause (at least 1 s) and holds the host for Retry-After', async () => {
    const { lane, waits, clock } = quickLane(200);
    lane.throttled(3000);
    expect(lane.pauseMs).toBe(1000);
    expect(lane.heldForMs).toBe(3000);
    clock.ms += 1000;
    expect(lane.heldForMs).toBe(2000);
    await lane.run(async () => 'after the hold');
    expect(waits).toEqual([2000]);
    expect(lane.heldForMs).toBe(0);
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
