import { describe, expect, it } from 'vitest';
import { Roster } from '../../src/model/roster.js';
import { clockEvents } from '../../src/tally/clock.js';
import { chatter, gm, players, unvote, vote } from '../tally/log-builders.js';
import { explained, flagsOf, kill, scenario, totals } from './kit.js';
import { loadThread } from './thread-fixture.js';

/**
 * Witchhunt (seed 004, fontisian 2020): "Overview", "Voting and Deadlines" and "Behavior
 * Rules". Seven players: a majority is 4.
 */
const { count, ruleset } = scenario('witchhunt', players('Eidolonic', 'Amy', 'Bob', 'Cindy', 'Fred', 'Jerry', 'Wanda'));
const deadline = (at: number) => gm({ at, kind: 'deadline', time: '2020-06-03T23:00:00Z' });
const judge = (at: number, eliminated: string[]) => gm({ at, kind: 'decide', eliminated });

describe('witchhunt: Voting and Deadlines', () => {
  it('Votes are made in bold on a separate line ("Vote: Eidolonic")', () => {
    expect(ruleset.votes).toMatchObject({ bold: 'required', colon: 'required', ownLine: true });
    const t = count([vote(1, 'Amy', 'Eidolonic')]);
    expect(totals(t)).toEqual([['Eidolonic', 1]]);
  });

  it('A vote written another way does not count and is shown to the GM', () => {
    const t = count([
      chatter(1, 'Amy', { violations: [{ kind: 'format', detail: 'vote not on a line of its own: Vote: Bob' }] }),
    ]);
    expect(t.wagons).toEqual([]);
    expect(t.violations.map((v) => [v.post, v.kind, v.consequence])).toEqual([[1, 'format', 'flag']]);
  });

  it('You may change votes at any time during the day', () => {
    const t = count([vote(1, 'Amy', 'Eidolonic'), vote(2, 'Amy', 'Bob'), unvote(3, 'Bob'), vote(4, 'Bob', 'Cindy')]);
    expect(totals(t)).toEqual([
      ['Bob', 1],
      ['Cindy', 1],
    ]);
  });

  it("At the end of the day's deadline, a player with a true majority (more than half) is Eliminated", () => {
    const t = count([
      vote(1, 'Amy', 'Eidolonic'),
      vote(2, 'Bob', 'Eidolonic'),
      vote(3, 'Cindy', 'Eidolonic'),
      vote(4, 'Fred', 'Eidolonic'),
      deadline(4),
    ]);
    expect(t.outcome).toMatchObject({ status: 'majority', eliminated: ['Eidolonic'], decidedAt: 4 });
  });

  it('Half is not a majority', () => {
    const six = scenario('witchhunt', players('A', 'B', 'C', 'D', 'E', 'F'));
    const t = six.count([
      vote(1, 'A', 'F'),
      vote(2, 'B', 'F'),
      vote(3, 'C', 'F'),
      gm({ at: 3, kind: 'deadline', time: '2020-06-03T23:00:00Z' }),
    ]);
    expect(t.threshold).toEqual({ kind: 'majority', votes: 4 });
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: [], decidedAt: null });
  });

  it('A majority reached during the day does not end it: it counts at the deadline', () => {
    const t = count([
      vote(1, 'Amy', 'Eidolonic'),
      vote(2, 'Bob', 'Eidolonic'),
      vote(3, 'Cindy', 'Eidolonic'),
      vote(4, 'Fred', 'Eidolonic'),
      unvote(5, 'Fred'),
      deadline(5),
    ]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: [], decidedAt: null, leaders: ['Eidolonic'] });
  });

  it('The number of votes that constitute a majority is posted at the start of each day', () => {
    expect(count([]).threshold).toEqual({ kind: 'majority', votes: 4 });
    expect(count([kill(0, 'Wanda'), kill(0, 'Jerry')]).threshold).toEqual({ kind: 'majority', votes: 3 });
  });

  it('If no player has a majority, the decision defers to the Judge', () => {
    const events = [vote(1, 'Amy', 'Eidolonic'), vote(2, 'Bob', 'Eidolonic'), vote(3, 'Cindy', 'Wanda'), deadline(3)];
    expect(count(events).outcome).toMatchObject({ status: 'ended', eliminated: [], decidedAt: null });
    expect(explained(count(events))).toContain('no wagon reached 4: the GM (Judge) decides');
    expect(count([...events, judge(3, ['Wanda'])]).outcome).toMatchObject({
      status: 'ended',
      eliminated: ['Wanda'],
      decidedAt: 3,
    });
  });

  it('If a majority of players vote to Sleep, the decision defers to the Judge', () => {
    const t = count([...['Amy', 'Bob', 'Cindy', 'Fred'].map((p, i) => vote(i + 1, p, 'Sleep')), deadline(4)]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: [], decidedAt: null, leaders: ['Sleep'] });
    expect(explained(t)).toContain('Sleep wins: the GM (Judge) decides');
  });

  it('If the Judge is dead or declines Judgment, no one is eliminated', () => {
    const t = count([vote(1, 'Amy', 'Eidolonic'), deadline(1), judge(1, [])]);
    expect(t.outcome).toMatchObject({ status: 'no-lynch', eliminated: [], decidedAt: 1 });
  });

  it('Ending the day early requires an unanimous-minus-one vote count', () => {
    const five = ['Amy', 'Bob', 'Cindy', 'Fred', 'Jerry'].map((p, i) => vote(i + 1, p, 'Eidolonic'));
    expect(count(five.slice(0, 4)).outcome.status).toBe('open');
    // Five of seven is a majority, not all but one: the Day goes on.
    expect(count([...five, vote(6, 'Wanda', 'Amy')]).outcome.status).toBe('open');
    const six = count([...five, vote(6, 'Wanda', 'Eidolonic'), vote(7, 'Eidolonic', 'Amy')]);
    expect(six.outcome).toMatchObject({ status: 'majority', eliminated: ['Eidolonic'], decidedAt: 6 });
    expect(flagsOf(six)).toEqual([[7, 'vote-after-decision', 'Eidolonic']]);
  });

  it('Each phase has an announced deadline: the clock lists it for the Day', () => {
    expect(clockEvents(ruleset, { day: 1, start: '2020-06-01T23:00:00Z', deadline: '2020-06-03T23:00:00Z' })).toEqual([
      { kind: 'deadline', time: '2020-06-03T23:00:00.000Z', day: 1 },
    ]);
  });
});

describe('witchhunt: who may vote', () => {
  it('Any living player may vote for any other living player: a self-vote is refused', () => {
    const t = count([vote(1, 'Fred', 'Fred')]);
    expect(t.wagons).toEqual([]);
    expect(flagsOf(t)).toEqual([[1, 'self-vote', 'Fred']]);
  });

  it('... and a vote for a dead player is refused', () => {
    const t = count([kill(0, 'Wanda'), vote(1, 'Amy', 'Wanda')]);
    expect(flagsOf(t)).toEqual([[1, 'vote-for-dead', 'Amy']]);
  });

  it('Dead players may no longer vote', () => {
    const roster = Roster.parse([{ name: 'Amy' }, { name: 'Bob', alive: false }, { name: 'Cindy' }]);
    const t = scenario('witchhunt', roster).count([vote(1, 'Bob', 'Amy')]);
    expect(flagsOf(t)).toEqual([[1, 'vote-by-dead', 'Bob']]);
  });
});

describe('witchhunt: Behavior Rules', () => {
  it('5. No Forum Abuse (No Edits): an edit is a violation shown to the GM', () => {
    const t = count([vote(5, 'Jerry', 'Amy', { violations: [{ kind: 'edit', detail: 'Last edited: Jun 3, 2020' }] })]);
    expect(t.violations).toEqual([
      { player: 'Jerry', post: 5, kind: 'edit', detail: 'Last edited: Jun 3, 2020', consequence: 'flag' },
    ]);
    expect(totals(t)).toEqual([['Amy', 1]]);
    expect(t.penalties).toBeUndefined();
  });
});

describe('witchhunt: the fixture thread', () => {
  const thread = loadThread('witchhunt.thread.yaml');

  it('Day 1: Eidolonic had a majority during the Day but 3 at the deadline; the Judge chose Wanda', () => {
    expect(count(thread.events, { toPost: 7 }).wagons[0]).toMatchObject({
      target: 'Eidolonic',
      total: 4,
      toThreshold: 0,
    });
    const t = count(thread.events, { day: 1 });
    expect(totals(t)).toEqual([
      ['Eidolonic', 3],
      ['Sleep', 1],
      ['Wanda', 1],
    ]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Wanda'], decidedAt: 8 });
    expect(flagsOf(t)).toEqual([[4, 'self-vote', 'Fred']]);
    expect(t.violations.map((v) => [v.post, v.kind])).toEqual([
      [5, 'edit'],
      [6, 'format'],
    ]);
  });

  it('Day 2: six alive, majority 4; five on Bob is unanimous minus one and ends the Day', () => {
    const t = count(thread.events, { day: 2 });
    expect(t.threshold).toEqual({ kind: 'majority', votes: 4 });
    expect(t.outcome).toMatchObject({ status: 'majority', eliminated: ['Bob'], decidedAt: 14 });
    expect(flagsOf(t)).toEqual([[15, 'vote-after-decision', 'Bob']]);
  });
});
