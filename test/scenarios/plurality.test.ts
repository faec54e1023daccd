import { describe, expect, it } from 'vitest';
import { gm, players, vote } from '../tally/log-builders.js';
import { dayEnd, scenario, totals } from './kit.js';
import { loadThread } from './thread-fixture.js';

/** Plain plurality, the usual default when a game states nothing more. */
const { count, ruleset } = scenario('plurality', players('Alice', 'Bob', 'Cy', 'Dana', 'Eve'));

describe('plurality', () => {
  it('The player with the most votes at the deadline is lynched', () => {
    const t = count([vote(1, 'Alice', 'Cy'), vote(2, 'Bob', 'Cy'), vote(3, 'Cy', 'Dana'), dayEnd(3)]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Cy'], decidedAt: 3 });
  });

  it('No Lynch is a vote like any other: it wins with the most votes', () => {
    const t = count([vote(1, 'Alice', 'No Lynch'), vote(2, 'Bob', 'No Lynch'), vote(3, 'Cy', 'Dana'), dayEnd(3)]);
    expect(t.outcome).toMatchObject({ status: 'no-lynch', eliminated: [] });
  });

  it('Votes are bold', () => {
    expect(ruleset.votes.bold).toBe('required');
  });

  it('A tie goes to the GM, whose decision settles it', () => {
    const events = [vote(1, 'Alice', 'Cy'), vote(2, 'Bob', 'Dana'), dayEnd(2)];
    expect(count(events).outcome).toMatchObject({ status: 'tie', decidedAt: null, leaders: ['Cy', 'Dana'] });
    expect(count([...events, gm({ at: 2, kind: 'decide', eliminated: ['Dana'] })]).outcome).toMatchObject({
      status: 'ended',
      eliminated: ['Dana'],
      decidedAt: 2,
    });
  });

  it('the fixture thread: a tie the GM settles, then a Day No Lynch wins', () => {
    const thread = loadThread('plurality.thread.yaml');
    expect(count(thread.events, { day: 1 }).outcome).toMatchObject({
      status: 'ended',
      eliminated: ['Cy'],
      decidedAt: 6,
    });
    const t = count(thread.events, { day: 2 });
    expect(totals(t)).toEqual([
      ['No Lynch', 2],
      ['Eve', 1],
      ['Bob', 1],
    ]);
    expect(t.outcome).toMatchObject({ status: 'no-lynch', decidedAt: 10 });
  });
});
