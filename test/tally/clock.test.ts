import { describe, expect, it } from 'vitest';
import { addWeekdays, clockEvents, zonedInstant } from '../../src/tally/clock.js';
import { countVotes } from '../../src/tally/count.js';
import { filibuster, gm, players, plurality, variant, vote } from './log-builders.js';

const la = variant('plurality', {
  schedule: { timeZone: 'America/Los_Angeles', checks: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], time: '12:00' }] },
});

describe('clock events', () => {
  it('a local time becomes the right instant on both sides of a DST change (Intl only)', () => {
    expect(new Date(zonedInstant(2012, 11, 2, 12, 0, 'America/Los_Angeles')).toISOString()).toBe(
      '2012-11-02T19:00:00.000Z',
    );
    expect(new Date(zonedInstant(2012, 11, 5, 12, 0, 'America/Los_Angeles')).toISOString()).toBe(
      '2012-11-05T20:00:00.000Z',
    );
    expect(new Date(zonedInstant(2020, 6, 3, 23, 0, 'UTC')).toISOString()).toBe('2020-06-03T23:00:00.000Z');
  });

  it('noon checks across the end of daylight saving time keep 12:00 local', () => {
    const events = clockEvents(la, {
      day: 4,
      start: '2012-11-02T08:00:00-07:00',
      deadline: '2012-11-06T17:00:00-08:00',
    });
    expect(events).toEqual([
      { kind: 'check', time: '2012-11-02T19:00:00.000Z', day: 4 },
      { kind: 'check', time: '2012-11-05T20:00:00.000Z', day: 4 },
      { kind: 'check', time: '2012-11-06T20:00:00.000Z', day: 4 },
      { kind: 'deadline', time: '2012-11-07T01:00:00.000Z', day: 4 },
    ]);
  });

  it('a ruleset without a schedule has only the deadline', () => {
    expect(
      clockEvents(plurality(), { day: 1, start: '2020-01-01T00:00:00Z', deadline: '2020-01-03T00:00:00Z' }),
    ).toEqual([{ kind: 'deadline', time: '2020-01-03T00:00:00.000Z', day: 1 }]);
  });

  it('a check at the deadline itself is listed before the deadline', () => {
    const events = clockEvents(la, {
      day: 1,
      start: '2012-09-17T13:00:00-07:00',
      deadline: '2012-09-18T12:00:00-07:00',
    });
    expect(events.map((e) => e.kind)).toEqual(['check', 'deadline']);
    expect(events[0]?.time).toBe(events[1]?.time);
  });

  it('weekdays skip Saturday and Sunday, keep the local time, and cross DST', () => {
    expect(addWeekdays('2012-11-02T17:00:00-07:00', 1, 'America/Los_Angeles')).toBe('2012-11-06T01:00:00.000Z');
    expect(addWeekdays('2012-09-19T17:00:00-07:00', 2, 'America/Los_Angeles')).toBe('2012-09-22T00:00:00.000Z');
    expect(addWeekdays('2020-06-05T23:00:00Z', 1, 'UTC')).toBe('2020-06-08T23:00:00.000Z');
  });

  it('a time that is not ISO 8601 is refused', () => {
    expect(() => clockEvents(la, { day: 1, start: 'monday', deadline: '2020-01-01T00:00:00Z' })).toThrow(RangeError);
  });
});

describe('clock events in the fold', () => {
  const five = players('Alice', 'Bob', 'Cy', 'Dana', 'Eve');

  it('a deadline ends the Day like day-end when nothing extends it', () => {
    const t = countVotes({
      ruleset: plurality(),
      roster: five,
      events: [vote(1, 'Alice', 'Eve'), gm({ kind: 'deadline', at: 1, time: '2020-01-01T00:00:00Z' })],
    });
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Eve'], decidedAt: 1 });
  });

  it('a deadline or check of another Day does nothing (a stale one after an early end)', () => {
    const t = countVotes({
      ruleset: plurality(),
      roster: five,
      events: [
        gm({ at: 0, kind: 'day-start', day: 2 }),
        vote(1, 'Alice', 'Eve'),
        gm({ kind: 'deadline', at: 1, time: '2020-01-01T00:00:00Z', day: 1 }),
      ],
    });
    expect(t.outcome.status).toBe('open');
  });

  it('a check with no side rule that ends the Day does nothing', () => {
    const t = countVotes({
      ruleset: plurality(),
      roster: five,
      events: [vote(1, 'Alice', 'Eve'), gm({ kind: 'check', at: 1, time: '2020-01-01T00:00:00Z' })],
    });
    expect(t.outcome.status).toBe('open');
  });

  it('a side rule that applies `always` ends the Day as soon as it stands', () => {
    const ruleset = variant('plurality', {
      votes: { ...plurality().votes, side: { filibuster: ['filibuster'] } },
      sideRules: { filibuster: { atLeast: { numerator: 2, denominator: 5 }, when: 'always', effect: 'end-day' } },
    });
    const t = countVotes({
      ruleset,
      roster: five,
      events: [vote(1, 'Cy', 'Eve'), filibuster(2, 'Alice'), filibuster(3, 'Bob')],
    });
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Eve'], decidedAt: 3 });
  });
});
