import { describe, expect, it } from 'vitest';
import { countVotes } from '../../src/tally/count.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { orderLog } from '../../src/tally/log.js';
import { gm, players, plurality, vote } from './log-builders.js';

const five = players('Alice', 'Bob', 'Cy', 'Dana', 'Eve');
const count = (events: TallyEvent[], opts: { toTime?: string; toPost?: number; day?: number } = {}) =>
  countVotes({ ruleset: plurality(), roster: five, events, ...opts });
const at = (hh: string) => `2024-05-01T${hh}:00Z`;

describe('counting as at a time', () => {
  const events = [
    vote(1, 'Alice', 'Eve', { time: at('10:00') }),
    vote(2, 'Bob', 'Eve', { time: at('11:00') }),
    gm({ kind: 'kill', player: 'Eve', time: at('11:30') }),
    vote(3, 'Cy', 'Dana', { time: at('12:00') }),
  ];

  it('leaves out posts made and events timed after it', () => {
    expect(count(events, { toTime: at('11:15') })).toMatchObject({
      asOfPost: 2,
      living: 5,
      wagons: [{ target: 'Eve', total: 2 }],
    });
    expect(count(events, { toTime: at('11:45') })).toMatchObject({ asOfPost: 2, living: 4, wagons: [] });
    expect(count(events, { toTime: at('12:00') })).toMatchObject({ asOfPost: 3, wagons: [{ target: 'Dana' }] });
  });

  it('before the first post is an empty count', () => {
    expect(count(events, { toTime: at('09:00') })).toMatchObject({ asOfPost: null, postsRead: 0, wagons: [] });
  });

  it('a time that is not ISO 8601 is refused', () => {
    expect(() => count(events, { toTime: 'noon' })).toThrow(RangeError);
  });
});

describe('ordering events at the same post', () => {
  it('GM and clock events at one post follow their times; one without a time keeps its place after the one before it', () => {
    const events = [
      vote(1, 'Alice', 'Eve', { time: at('10:00') }),
      gm({ kind: 'deadline', time: at('12:00') }),
      gm({ kind: 'kill', player: 'Bob', time: at('11:00') }),
      gm({ at: 1, kind: 'revive', player: 'Bob' }),
    ];
    expect(orderLog(events).entries.map((e) => e.event.kind)).toEqual(['post', 'kill', 'revive', 'deadline']);
  });
});

describe('what a count cannot see on its own', () => {
  it('a correction of a post that is not in the log is flagged unknown-post', () => {
    const t = count([vote(1, 'Alice', 'Eve'), vote(3, 'Bob', 'Eve'), gm({ kind: 'correct', post: 2, target: 'Cy' })]);
    expect(t.flags).toEqual([
      { post: 2, player: null, kind: 'unknown-post', raw: 'correction of post 2 -> Cy: no such post', candidates: [] },
    ]);
  });

  it('a correction of a post beyond the count is not flagged (it may come)', () => {
    expect(count([vote(1, 'Alice', 'Eve'), gm({ kind: 'correct', post: 9, target: 'Cy' })]).flags).toEqual([]);
  });

  it('a Day that never started says so', () => {
    const t = count([vote(1, 'Alice', 'Eve')], { day: 3 });
    expect(t).toMatchObject({ day: 1, notes: ['Day 3 has not started: this is the count of Day 1'] });
  });
});
