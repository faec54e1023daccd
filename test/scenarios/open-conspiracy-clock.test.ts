import { describe, expect, it } from 'vitest';
import type { PostViolation } from '../../src/model/action.js';
import { chatter, filibuster, forgive, gm, hammer, players, vote } from '../tally/log-builders.js';
import type { CountInput } from '../../src/tally/count.js';
import { dayStart, explained, flagsOf, scenario } from './kit.js';
import { loadThread } from './thread-fixture.js';

/**
 * Open Conspiracy's clock rules run from the ruleset alone (seed 000, Pleonast 2012,
 * "Schedule": "If at least half the living players are voting for Hammer on any weekday at
 * 12 noon PT (3pm ET), the Day will end at that point." / Filibuster "the Day will continue
 * for one more weekday ... only once per Day"). No check or deadline is listed in these
 * logs: the fold fires them from the Day's start, its deadline and the time that passed.
 */
const { count } = scenario('open-conspiracy', players('Alice', 'Bob', 'Cy', 'Dana', 'Eve', 'Fay'));
const bad = (kind: PostViolation['kind']) => ({ violations: [{ kind, detail: `${kind}!` }] });
/** Pacific time in the week of Monday 17 September 2012 (PDT, -07:00). */
const sep = (date: number, hhmm: string) => `2012-09-${date}T${hhmm}:00-07:00`;
/** The week of the spring DST change: Friday 8 March 2013 is PST (-08:00), Monday 11 March PDT (-07:00). */
const mar = (date: number, hhmm: string) =>
  `2013-03-${String(date).padStart(2, '0')}T${hhmm}:00${date < 10 ? '-08:00' : '-07:00'}`;

describe('open-conspiracy clock: Hammer at a weekday noon check, no deadline given', () => {
  const log = [
    vote(1, 'Alice', 'Bob', { time: sep(17, '10:00') }),
    hammer(2, 'Bob', { time: sep(17, '10:30') }),
    hammer(3, 'Cy', { time: sep(17, '11:00') }),
    hammer(4, 'Dana', { time: sep(17, '11:30') }),
  ];

  it('a post after Monday noon shows the check passed: the Day ended at it, the later vote is refused', () => {
    const t = count([...log, vote(5, 'Eve', 'Alice', { time: sep(17, '12:30') })]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Bob'], decidedAt: 4 });
    expect(explained(t)[0]).toBe('Day 1 ends: Hammer: 3 of 6 living (needs 3) at the check 2012-09-17T19:00:00.000Z');
    expect(flagsOf(t)).toEqual([[5, 'vote-after-decision', 'Eve']]);
  });

  it("with no later post, the caller's clock says the check passed", () => {
    expect(count(log, { clock: { now: sep(17, '11:59') } }).outcome.status).toBe('open');
    expect(count(log, { clock: { now: sep(17, '12:00') } }).outcome).toMatchObject({
      status: 'ended',
      eliminated: ['Bob'],
    });
  });

  it('no check on a weekend: Hammer standing through Saturday noon does not end the Day', () => {
    const weekend = [
      hammer(1, 'Bob', { time: sep(21, '13:00') }),
      hammer(2, 'Cy', { time: sep(21, '13:30') }),
      hammer(3, 'Dana', { time: sep(21, '14:00') }),
    ];
    expect(count(weekend, { clock: { now: sep(23, '23:00') } }).outcome.status).toBe('open');
    expect(count(weekend, { clock: { now: sep(24, '12:00') } }).outcome).toMatchObject({ status: 'ended' });
  });

  it("the checks count from the Day's start: a Day 2 started by the GM at Tuesday 12:30 has its first check on Wednesday", () => {
    const t = count(
      [
        chatter(1, 'Alice', { time: sep(17, '10:00') }),
        gm({ at: 1, kind: 'day-end' }),
        gm({ at: 1, kind: 'day-start', day: 2, time: sep(18, '12:30') }),
        hammer(2, 'Bob', { time: sep(18, '13:00') }),
        hammer(3, 'Cy', { time: sep(18, '13:30') }),
        hammer(4, 'Dana', { time: sep(18, '14:00') }),
      ],
      { clock: { now: sep(19, '11:00') } },
    );
    expect(t).toMatchObject({ day: 2, outcome: { status: 'open' } });
    expect(t.sideVotes?.[0]).toMatchObject({ kind: 'hammer', total: 3 });
  });

  it('... and at Wednesday noon Hammer ends Day 2', () => {
    const t = count(
      [
        chatter(1, 'Alice', { time: sep(17, '10:00') }),
        gm({ at: 1, kind: 'day-end' }),
        gm({ at: 1, kind: 'day-start', day: 2, time: sep(18, '12:30') }),
        hammer(2, 'Bob', { time: sep(18, '13:00') }),
        hammer(3, 'Cy', { time: sep(18, '13:30') }),
        hammer(4, 'Dana', { time: sep(18, '14:00') }),
      ],
      { clock: { now: sep(19, '12:00') } },
    );
    expect(t).toMatchObject({ day: 2, outcome: { status: 'ended' } });
    // Day 1 ended with no votes: six missed-vote penalty votes tie, roster order lynches
    // Alice, so Day 2 has five living (issue #24: the Day's eliminated are dead next Day).
    expect(t.players).not.toContain('Alice');
    expect(explained(t)[0]).toBe('Day 2 ends: Hammer: 3 of 5 living (needs 3) at the check 2012-09-19T19:00:00.000Z');
  });
});

describe('open-conspiracy clock: Filibuster extends a Friday deadline to Monday across the spring DST change', () => {
  const clock = (now: string) => ({ clock: { days: [{ day: 1, deadline: mar(8, '17:00') }], now } });
  const log = [
    vote(1, 'Alice', 'Bob', { time: mar(7, '10:00') }),
    vote(2, 'Bob', 'Cy', { time: mar(7, '10:30') }),
    vote(3, 'Cy', 'Bob', { time: mar(7, '11:00') }),
    vote(4, 'Eve', 'Bob', { time: mar(7, '11:30') }),
    vote(5, 'Fay', 'Alice', { time: mar(7, '13:00') }),
    filibuster(6, 'Alice', { time: mar(8, '09:00') }),
    filibuster(7, 'Bob', { time: mar(8, '10:00') }),
    filibuster(8, 'Cy', { time: mar(8, '11:00') }),
  ];

  it("at Friday's deadline the Day goes on to Monday 17:00 PDT (00:00 UTC Tuesday), and says so", () => {
    const t = count(log, clock(mar(9, '12:00')));
    expect(t.outcome.status).toBe('open');
    expect(t.deadline).toBe('2013-03-12T00:00:00.000Z');
    expect(t.notes).toEqual([
      'Filibuster: 3 of 6 living (needs 3) at the deadline 2013-03-09T01:00:00.000Z: the Day is extended by 1 weekday, ' +
        'to 2013-03-12T00:00:00.000Z, and the Night as much',
    ]);
  });

  it('the new deadline ends the Day; a vote after it is flagged, never counted', () => {
    const t = count(
      [
        ...log,
        vote(9, 'Dana', 'Alice', { time: mar(11, '16:59') }),
        vote(10, 'Eve', 'Alice', { time: mar(11, '17:01') }),
      ],
      clock(mar(12, '09:00')),
    );
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Bob'], decidedAt: 9 });
    expect(explained(t)[0]).toBe('Day 1 ends: the deadline 2013-03-12T00:00:00.000Z');
    expect(flagsOf(t)).toEqual([[10, 'vote-after-decision', 'Eve']]);
    expect(t.wagons.find((w) => w.target === 'Bob')?.total).toBe(3);
  });

  it("no second extension: Filibuster still standing at Monday's deadline does not extend the Day again", () => {
    const t = count(log, clock(mar(11, '17:00')));
    expect(t.outcome.status).not.toBe('open');
    expect(t.notes).toHaveLength(1);
  });

  it("Monday's noon check is 12:00 PDT (19:00 UTC) after the change: Hammer there ends the extended Day", () => {
    const t = count(
      [
        ...log,
        hammer(9, 'Dana', { time: mar(11, '09:00') }),
        hammer(10, 'Eve', { time: mar(11, '09:30') }),
        hammer(11, 'Fay', { time: mar(11, '10:00') }),
      ],
      clock(mar(11, '12:00')),
    );
    expect(explained(t)[0]).toBe('Day 1 ends: Hammer: 3 of 6 living (needs 3) at the check 2013-03-11T19:00:00.000Z');
    expect(
      count(
        [
          ...log,
          hammer(9, 'Dana', { time: mar(11, '09:00') }),
          hammer(10, 'Eve', { time: mar(11, '09:30') }),
          hammer(11, 'Fay', { time: mar(11, '10:00') }),
        ],
        clock(mar(11, '11:59')),
      ).outcome.status,
    ).toBe('open');
  });

  it('no-vote penalties are given only when the Day really ends, not at the extended deadline', () => {
    const friday = count(log, clock(mar(9, '12:00')));
    expect(friday.penalties ?? []).toEqual([]);
    expect(friday.notVoting).toEqual(['Dana']);
    const monday = count(log, clock(mar(12, '09:00')));
    expect(monday.penalties?.map((p) => [p.player, p.count])).toEqual([['Dana', 1]]);
    expect(monday.powersBlocked).toEqual(['Dana']);
  });

  it('a tie at the real end is broken on penalty votes (rule 2)', () => {
    const t = count(
      [
        chatter(1, 'Bob', { time: mar(7, '09:00'), ...bad('image') }),
        chatter(2, 'Cy', { time: mar(7, '09:10'), ...bad('image') }),
        chatter(3, 'Cy', { time: mar(7, '09:20'), ...bad('code') }),
        vote(4, 'Alice', 'Bob', { time: mar(7, '10:00') }),
        vote(5, 'Dana', 'Bob', { time: mar(7, '10:30') }),
        vote(6, 'Eve', 'Cy', { time: mar(7, '11:00') }),
        vote(7, 'Bob', 'Fay', { time: mar(7, '11:30') }),
        vote(8, 'Cy', 'Alice', { time: mar(7, '13:00') }),
        vote(9, 'Fay', 'Alice', { time: mar(7, '13:30') }),
      ],
      clock(mar(9, '12:00')),
    );
    expect(t.wagons.slice(0, 2).map((w) => [w.target, w.votes, w.penalty, w.total])).toEqual([
      ['Bob', 2, 1, 3],
      ['Cy', 1, 2, 3],
    ]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Cy'] });
    expect(explained(t)).toContain('most penalty votes (Bob 1, Cy 2): Cy goes');
  });
});

describe('open-conspiracy clock: a whole game in one fold', () => {
  it('Day 2 counted from one run over the thread: Day 1 ends at its deadline, forgiveness at Night, a mod-kill, penalty votes carried', () => {
    const days = [
      { day: 1, deadline: sep(19, '17:00') },
      { day: 2, deadline: sep(21, '17:00') },
    ];
    const t = count(
      [
        chatter(1, 'Bob', { time: sep(17, '09:30'), ...bad('image') }),
        chatter(2, 'Cy', { time: sep(17, '09:45'), ...bad('code') }),
        vote(3, 'Alice', 'Bob', { time: sep(17, '10:00') }),
        vote(4, 'Bob', 'Cy', { time: sep(17, '11:00') }),
        vote(5, 'Cy', 'Dana', { time: sep(18, '10:00') }),
        vote(6, 'Dana', 'Bob', { time: sep(18, '11:00') }),
        vote(7, 'Eve', 'Dana', { time: sep(18, '12:30') }),
        vote(8, 'Fay', 'Alice', { time: sep(19, '10:00') }),
        // Night 1 (after Wednesday 17:00): Bob is lynched; forgiveness votes.
        vote(9, 'Alice', 'Fay', { time: sep(19, '18:00') }),
        forgive(10, 'Alice', 'Cy', { time: sep(19, '18:30') }),
        forgive(11, 'Dana', 'Cy', { time: sep(19, '19:00') }),
        gm({ kind: 'kill', player: 'Bob', time: sep(19, '17:30') }),
        dayStart(11, 2),
        vote(12, 'Alice', 'Eve', { time: sep(20, '10:00') }),
        vote(13, 'Cy', 'Eve', { time: sep(20, '11:00') }),
        gm({ kind: 'modkill', player: 'Fay', at: 13 }),
        vote(14, 'Dana', 'Alice', { time: sep(21, '09:00') }),
        vote(15, 'Eve', 'Alice', { time: sep(21, '10:00') }),
      ],
      { clock: { days, now: sep(21, '12:00') } },
    );
    expect(t).toMatchObject({
      day: 2,
      living: 4,
      players: ['Alice', 'Cy', 'Dana', 'Eve'],
      outcome: { status: 'open' },
      deadline: '2012-09-22T00:00:00.000Z',
    });
    expect(flagsOf(t)).toEqual([]);
    expect(t.notes).toEqual(['Night 1 forgiveness (Cy 2): Cy loses their oldest penalty vote (code in post 2)']);
    // Bob's image penalty stays his (dead); Cy's was forgiven; nobody missed a vote on Day 1.
    expect(t.penalties?.map((p) => [p.player, p.count])).toEqual([
      ['Bob', 1],
      ['Cy', 0],
    ]);
    expect(t.wagons.map((w) => [w.target, w.total])).toEqual([
      ['Eve', 2],
      ['Alice', 2],
    ]);
    // The vote in post 9 came after Day 1's deadline: it is flagged in Day 1's count.
    const day1 = count(
      [vote(8, 'Fay', 'Alice', { time: sep(19, '10:00') }), vote(9, 'Alice', 'Fay', { time: sep(19, '18:00') })],
      { clock: { days } },
    );
    expect(flagsOf(day1)).toEqual([[9, 'vote-after-decision', 'Alice']]);
  });
});

describe('open-conspiracy clock: the fixture thread with no clock event listed', () => {
  const thread = loadThread('open-conspiracy.thread.yaml');
  const run = (opts: Partial<Omit<CountInput, 'events'>> = {}) =>
    count([...thread.posts, ...thread.gmOnly], { clock: { days: thread.days, now: '2012-10-01T00:00:00Z' }, ...opts });

  it('one run over the whole thread reports Day 2 as the listed clock does: Filibuster to Monday, Fay lynched', () => {
    const listed = count(thread.events, { day: 2 });
    const t = run();
    expect(t.day).toBe(2);
    expect(t.outcome).toEqual(listed.outcome);
    expect(t.wagons).toEqual(listed.wagons);
    expect(t.penalties).toEqual(listed.penalties);
    expect(t.notes).toEqual(listed.notes);
    expect(t.deadline).toBe('2012-09-25T00:00:00.000Z');
  });

  it("Day 1 ends at Tuesday's noon check by itself, with the missed-vote penalties", () => {
    expect(run({ day: 1 }).outcome).toEqual(count(thread.events, { day: 1 }).outcome);
    expect(run({ day: 1 }).powersBlocked).toEqual(['Dana', 'Fay']);
  });
});

describe('open-conspiracy clock: a Day 1 started by an event at post 0 (no time)', () => {
  it('its checks count from its first post', () => {
    const t = count(
      [
        gm({ at: 0, kind: 'day-start', day: 1 }),
        hammer(1, 'Bob', { time: sep(17, '10:30') }),
        hammer(2, 'Cy', { time: sep(17, '11:00') }),
        hammer(3, 'Dana', { time: sep(17, '11:30') }),
      ],
      { clock: { now: sep(17, '12:00') } },
    );
    expect(explained(t)[0]).toBe('Day 1 ends: Hammer: 3 of 6 living (needs 3) at the check 2012-09-17T19:00:00.000Z');
  });
});
