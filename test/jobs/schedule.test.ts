import { describe, expect, it } from 'vitest';
import { nextPollDelay } from '../../src/jobs/schedule.js';

const now = Date.parse('2026-03-04T12:00:00Z');
const mid = () => 0.5; // no jitter either way

describe('nextPollDelay', () => {
  it('polls at the game interval, with jitter of ±10 %', () => {
    expect(nextPollDelay({ now, intervalSeconds: 300, upcoming: [], random: mid })).toBe(300_000);
    expect(nextPollDelay({ now, intervalSeconds: 300, upcoming: [], random: () => 0 })).toBe(270_000);
    expect(nextPollDelay({ now, intervalSeconds: 300, upcoming: [], random: () => 0.999999 })).toBe(330_000);
  });

  it('polls every minute in the last 30 minutes before a deadline, and just after it', () => {
    const deadline = ['2026-03-04T12:20:00Z'];
    expect(nextPollDelay({ now, intervalSeconds: 300, upcoming: deadline, random: mid })).toBe(60_000);
    const close = Date.parse('2026-03-04T12:19:30Z');
    expect(nextPollDelay({ now: close, intervalSeconds: 300, upcoming: deadline, random: mid })).toBe(35_000);
    // An hour away: the usual interval.
    expect(nextPollDelay({ now, intervalSeconds: 300, upcoming: ['2026-03-04T13:00:00Z'], random: mid })).toBe(300_000);
    // A slow game whose deadline comes before its next poll: polled right after the deadline.
    expect(nextPollDelay({ now, intervalSeconds: 3_600, upcoming: ['2026-03-04T12:40:00Z'], random: mid })).toBe(40 * 60_000 + 5_000);
    // Past instants do not count.
    expect(nextPollDelay({ now, intervalSeconds: 300, upcoming: ['2026-03-04T11:59:00Z'], random: mid })).toBe(300_000);
  });

  it('the near-deadline pace is a setting', () => {
    expect(nextPollDelay({
      now, intervalSeconds: 300, upcoming: ['2026-03-04T12:50:00Z'], nearMinutes: 60, nearIntervalSeconds: 120, random: mid,
    })).toBe(120_000);
  });

  it('backs off after failures, up to an hour, and waits as long as the forum asked', () => {
    const base = { now, intervalSeconds: 300, upcoming: [], random: mid };
    expect(nextPollDelay({ ...base, errorsInRow: 1 })).toBe(600_000);
    expect(nextPollDelay({ ...base, errorsInRow: 3 })).toBe(2_400_000);
    expect(nextPollDelay({ ...base, errorsInRow: 9 })).toBe(3_600_000);
    expect(nextPollDelay({ ...base, errorsInRow: 1, retryAfterMs: 7_200_000 })).toBe(7_200_000);
  });

  it('never polls sooner than the minimum', () => {
    expect(nextPollDelay({ now, intervalSeconds: 1, upcoming: [], random: mid })).toBe(5_000);
    expect(nextPollDelay({ now, intervalSeconds: 1, upcoming: [], random: mid, minDelayMs: 500 })).toBe(1_000);
  });
});
