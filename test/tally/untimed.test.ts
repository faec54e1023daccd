import { describe, expect, it } from 'vitest';
import type { PostEvent } from '../../src/model/event.js';
import { untimedReason } from '../../src/model/tally.js';
import { countVotes } from '../../src/tally/count.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { chatter, gm, hammer, players, plurality, variant, vote } from './log-builders.js';

// Issue 23 item 2: a post whose time cannot be read is told to the GM where clock rules
// could apply to it (they cannot), and only there.
const roster = players('Alice', 'Bob', 'Carol', 'Dave');
const scheduled = variant('plurality', {
  schedule: { timeZone: 'UTC', checks: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], time: '12:00' }] },
});
const at = (time: string) => ({ time });
const untimed = (p: PostEvent): PostEvent => ({ ...p, time: null });

function count(events: TallyEvent[], ruleset = plurality(), clock?: Parameters<typeof countVotes>[0]['clock']) {
  return countVotes({ ruleset, roster, events, ...(clock ? { clock } : {}) });
}

describe('posts whose time could not be read', () => {
  const log = [
    vote(1, 'Alice', 'Bob', at('2020-06-01T10:00:00Z')),
    untimed(vote(2, 'Bob', 'Carol')),
    untimed(chatter(3, 'Carol')),
    vote(4, 'Dave', 'Bob', at('2020-06-01T11:00:00Z')),
  ];

  it.each([
    ['the ruleset has scheduled checks', log, scheduled, undefined],
    ['the Day has a deadline', log, plurality(), { days: [{ day: 1, deadline: '2020-06-02T00:00:00Z' }] }],
    [
      'the log lists a clock event',
      [...log, gm({ kind: 'deadline', time: '2020-06-02T00:00:00Z' })],
      plurality(),
      undefined,
    ],
  ] as const)('a vote is reported when %s (clock rules cannot apply to it)', (_why, events, ruleset, clock) => {
    const t = count([...events], ruleset, clock);
    expect(t.untimed).toEqual([{ post: 2, player: 'Bob', permalink: 'https://forum.test/p/2' }]);
  });

  it('no clock rule: nothing to report, the count is as before', () => {
    const t = count(log);
    expect(t.untimed).toBeUndefined();
    expect(t.wagons.find((w) => w.target === 'Carol')?.voters.map((v) => v.post)).toEqual([2]);
  });

  it('chatter without a vote or an action is not reported, a side action is', () => {
    const t = count([untimed(chatter(1, 'Carol')), untimed(hammer(2, 'Dave'))], scheduled);
    expect(t.untimed?.map((u) => u.post)).toEqual([2]);
  });

  it('a host who is not a player posts vote counts, not votes: not reported', () => {
    const t = countVotes({ ruleset: scheduled, roster, events: [untimed(vote(1, 'TheGM', 'Bob'))], hosts: ['TheGM'] });
    expect(t.untimed).toBeUndefined();
  });

  it('the public view withholds it; a new Day starts over', () => {
    expect(countVotes({ ruleset: scheduled, roster, events: log, view: 'public' }).untimed).toBeUndefined();
    const t = count([...log, gm({ kind: 'day-start', day: 2, at: 4 }), untimed(vote(5, 'Alice', 'Dave'))], scheduled);
    expect(t.untimed?.map((u) => u.post)).toEqual([5]);
  });

  it('a thread whose theme hides every time: every voting post listed once, in thread order', () => {
    const who = ['Alice', 'Bob', 'Carol', 'Dave'] as const;
    const many = Array.from({ length: 5000 }, (_, i) => untimed(vote(i + 1, who[i % 4]!, who[(i + 1) % 4]!)));
    const t = count(many, scheduled);
    expect(t.untimed).toHaveLength(5000);
    expect(t.untimed?.slice(0, 3).map((u) => u.post)).toEqual([1, 2, 3]);
    expect(t.untimed?.at(-1)).toMatchObject({ post: 5000, player: 'Dave' });
  });

  it('the reason names the post and the rules it escapes', () => {
    expect(untimedReason(2)).toBe(
      'clock rules (deadline, Hammer check, votes after the end) cannot apply to post #2: its time could not be read',
    );
  });
});
