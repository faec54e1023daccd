import { describe, expect, it } from 'vitest';
import { countVotes } from '../../src/tally/count.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { gm, players, plurality, vote } from './log-builders.js';

// Issue #14 item 4: "after kill Dave after post 22" the count must say Dave is dead.
const five = players('Alice', 'Bob', 'Cy', 'Dave', 'Eve');
const count = (events: TallyEvent[]) => countVotes({ ruleset: plurality(), roster: five, events });

describe('the dead list', () => {
  it('nobody dead: no list', () => {
    expect(count([vote(1, 'Bob', 'Alice')]).dead).toBeUndefined();
  });

  it('a GM kill puts the player on it', () => {
    expect(count([vote(1, 'Bob', 'Alice'), gm({ at: 22, kind: 'kill', player: 'Dave' })]).dead).toEqual(['Dave']);
  });

  it('a mod-kill puts the player on it, roster order', () => {
    expect(
      count([gm({ at: 3, kind: 'modkill', player: 'Eve' }), gm({ at: 4, kind: 'kill', player: 'Bob' })]).dead,
    ).toEqual(['Bob', 'Eve']);
  });

  it('a revive takes the player off it', () => {
    expect(
      count([gm({ at: 2, kind: 'kill', player: 'Dave' }), gm({ at: 3, kind: 'revive', player: 'Dave' })]).dead,
    ).toBeUndefined();
  });

  it('a replaced dead slot is named by its current player', () => {
    expect(
      count([gm({ at: 1, kind: 'replace', player: 'Dave', by: 'David' }), gm({ at: 2, kind: 'kill', player: 'Dave' })])
        .dead,
    ).toEqual(['David']);
  });

  it("a kill after the Day closed is dead now, though the Day's board is frozen", () => {
    const t = count([
      vote(1, 'Alice', 'Eve'),
      gm({ at: 2, kind: 'day-end' }),
      gm({ at: 2, kind: 'kill', player: 'Dave' }),
    ]);
    expect(t.players).toContain('Dave');
    expect(t.dead).toEqual(['Dave']);
  });
});
