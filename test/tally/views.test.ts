import { describe, expect, it } from 'vitest';
import { Tally } from '../../src/model/tally.js';
import { countVotes } from '../../src/tally/count.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { gm, mafiascum, players, plurality, vote } from './log-builders.js';

const five = players('Alice', 'Bob', 'Cy', 'Dana', 'Eve');
const count = (events: TallyEvent[], view: 'gm' | 'public', ruleset = plurality()) =>
  countVotes({ ruleset, roster: five, events, view });
const hidden = gm({ at: 0, kind: 'weight', player: 'Dana', weight: 2, hidden: true });

describe('public and GM views', () => {
  it('the GM view counts a hidden weight in full', () => {
    const t = count([hidden, vote(1, 'Dana', 'Eve'), vote(2, 'Cy', 'Bob')], 'gm');
    expect(t.view).toBe('gm');
    expect(t.wagons.map((w) => [w.target, w.total, w.voters.map((v) => v.weight)])).toEqual([
      ['Eve', 2, [2]],
      ['Bob', 1, [1]],
    ]);
    expect(t.outcome.leaders).toEqual(['Eve']);
  });

  it('the public view shows a hidden weight as 1, totals and leaders included', () => {
    const t = count([hidden, vote(1, 'Dana', 'Eve'), vote(2, 'Cy', 'Bob')], 'public');
    expect(t.view).toBe('public');
    expect(t.wagons.map((w) => [w.target, w.votes, w.total, w.voters.map((v) => v.weight)])).toEqual([
      ['Eve', 1, 1, [1]],
      ['Bob', 1, 1, [1]],
    ]);
    expect(t.outcome.leaders).toEqual(['Eve', 'Bob']);
  });

  it('a public weight shows as it is', () => {
    const t = count([gm({ at: 0, kind: 'weight', player: 'Dana', weight: 2 }), vote(1, 'Dana', 'Eve')], 'public');
    expect(t.wagons[0]?.total).toBe(2);
  });

  it('the decision is always made with the real weights', () => {
    const events = [gm({ at: 0, kind: 'weight', player: 'Dana', weight: 3, hidden: true }), vote(1, 'Dana', 'Eve')];
    expect(count(events, 'public', mafiascum()).outcome).toMatchObject({
      status: 'majority',
      eliminated: ['Eve'],
      decidedAt: 1,
    });
  });

  it('both views satisfy the Tally contract', () => {
    for (const view of ['gm', 'public'] as const) {
      const t = count([hidden, vote(1, 'Dana', 'Eve')], view);
      expect(Tally.parse(t)).toEqual(t);
    }
  });

  it('the default view is the GM view', () => {
    expect(
      countVotes({ ruleset: plurality(), roster: five, events: [hidden, vote(1, 'Dana', 'Eve')] }).wagons[0]?.total,
    ).toBe(2);
  });
});
