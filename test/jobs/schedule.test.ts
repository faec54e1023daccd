import { describe, expect, it } from 'vitest';
import {
  gameLateness,
  LATE_AFTER_MS,
  lateText,
  type LatenessInput,
  nextPollDelay,
  pollLateness,
} from '../../src/jobs/schedule.js';

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
    expect(nextPollDelay({ now, intervalSeconds: 3_600, upcoming: ['2026-03-04T12:40:00Z'], random: mid })).toBe(
      40 * 60_000 + 5_000,
    );
    // Past instants do not count.
    expect(nextPollDelay({ now, intervalSeconds: 300, upcoming: ['2026-03-04T11:59:00Z'], random: mid })).toBe(300_000);
  });

  it('the near-deadline pace is a setting', () => {
    expect(
      nextPollDelay({
        now,
        intervalSeconds: 300,
        upcoming: ['2026-03-04T12:50:00Z'],
        nearMinutes: 60,
        nearIntervalSeconds: 120,
        random: mid,
      }),
    ).toBe(120_000);
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

describe('pollLateness: which games are late, and by how much', () => {
  // The poll clock is the `now` given; nothing reads the wall clock.
  const at = (hhmmss: string) => `2026-03-04T${hhmmss}.000Z`;
  const clock = Date.parse(at('12:00:00'));
  const base: Omit<LatenessInput, 'nextPollAt'> = {
    now: clock,
    status: 'active',
    lastDueAt: null,
    lastStartedAt: null,
  };

  it.each([
    { rule: 'a poll not yet due is not late', nextPollAt: at('12:01:00'), overdueMs: 0, late: false },
    {
      rule: 'a poll due less than the threshold ago is overdue, not yet late',
      nextPollAt: at('11:59:30'),
      overdueMs: 30_000,
      late: false,
    },
    {
      rule: 'exactly at the threshold is not late yet',
      nextPollAt: at('11:59:00'),
      overdueMs: LATE_AFTER_MS,
      late: false,
    },
    {
      rule: 'past the threshold and not started: late by the time since it was due',
      nextPollAt: at('11:58:00'),
      overdueMs: 120_000,
      late: true,
    },
    {
      rule: 'the due poll has started (it runs long): not late',
      nextPollAt: at('11:50:00'),
      lastDueAt: at('11:50:00'),
      lastStartedAt: at('11:50:02'),
      overdueMs: 0,
      late: false,
    },
    {
      rule: 'the last start was before this poll was due: this one is still waiting',
      nextPollAt: at('11:55:00'),
      lastDueAt: at('11:50:00'),
      lastStartedAt: at('11:50:02'),
      overdueMs: 300_000,
      late: true,
    },
    {
      rule: 'a paused game is never late',
      status: 'paused' as const,
      nextPollAt: at('11:00:00'),
      overdueMs: 0,
      late: false,
      dueAt: null,
    },
    { rule: 'a game with no poll scheduled is not late', nextPollAt: null, overdueMs: 0, late: false, dueAt: null },
  ])('$rule', ({ rule: _rule, overdueMs, late, dueAt, ...input }) => {
    const l = pollLateness({ ...base, ...input });
    expect({ overdueMs: l.overdueMs, late: l.late }).toEqual({ overdueMs, late });
    expect(l.dueAt).toBe(dueAt === undefined ? input.nextPollAt : dueAt);
  });

  it('how late the last poll started: its start minus when it was due (never negative)', () => {
    const next = at('12:04:00');
    const last = (started: string) =>
      pollLateness({ ...base, nextPollAt: next, lastDueAt: at('11:59:00'), lastStartedAt: started });
    expect(last(at('11:59:42')).lastLateMs).toBe(42_000);
    // "Poll now" moved the start before the schedule: not late.
    expect(last(at('11:58:00')).lastLateMs).toBe(0);
    expect(pollLateness({ ...base, nextPollAt: next }).lastLateMs).toBeNull();
  });

  it('the threshold is a parameter', () => {
    expect(pollLateness({ ...base, nextPollAt: at('11:59:30'), lateAfterMs: 10_000 }).late).toBe(true);
  });

  it("reads what the poller noted in the game's poll state", () => {
    const poll = { state: { pollDueAt: at('11:50:00'), pollStartedAt: at('11:50:07') } };
    expect(gameLateness({ status: 'active', nextPollAt: at('11:57:00') }, poll, clock)).toEqual({
      dueAt: '2026-03-04T11:57:00.000Z',
      overdueMs: 180_000,
      lastLateMs: 7_000,
      late: true,
    });
    // Nothing noted yet (a game never polled): unknown, not an error. A noted value that is
    // not an instant never gets here: the store's PollFacts parse rejects it by game and key.
    const unknown = gameLateness({ status: 'active', nextPollAt: null }, { state: {} }, clock);
    expect(unknown.lastLateMs).toBeNull();
    const dueNull = gameLateness(
      { status: 'active', nextPollAt: null },
      { state: { pollDueAt: null, pollStartedAt: at('11:50:07') } },
      clock,
    );
    expect(dueNull.lastLateMs).toBeNull();
  });

  it.each([
    [45_000, '45 s'],
    [120_000, '2 min'],
    [179_000, '2 min'],
    [3_600_000, '1 h'],
    [3_900_000, '1 h 5 min'],
  ])('%i ms reads "%s"', (ms, text) => {
    expect(lateText(ms)).toBe(text);
  });
});
