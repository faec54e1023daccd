import { describe, expect, it } from 'vitest';
import { players, unvote, vote } from '../tally/log-builders.js';
import { dayEnd, flagsOf, kill, scenario, totals } from './kit.js';
import { loadThread } from './thread-fixture.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { Ruleset } from '../../src/rules/ruleset.js';
import { countVotes } from '../../src/tally/count.js';
import type { TallyEvent } from '../../src/tally/log.js';

/** Majority lynch, mafiascum style (MafiaScum wiki, "Majority Elimination"). */
const nine = players('Alice', 'Bob', 'Carol', 'Dave', 'Eve', 'Frank', 'Gina', 'Hank', 'Ivy');
const { count } = scenario('mafiascum-majority', nine);
const onEve = (...who: string[]) => who.map((p, i) => vote(i + 1, p, 'Eve'));

describe('mafiascum-majority', () => {
  it('A single player needs more than half of the votes of the living: 13 alive -> 7, 12 alive -> 7', () => {
    const names = Array.from({ length: 13 }, (_, i) => `P${i + 1}`);
    const thirteen = scenario('mafiascum-majority', players(...names));
    expect(thirteen.count([]).threshold).toEqual({ kind: 'majority', votes: 7 });
    expect(thirteen.count([kill(0, 'P13')]).threshold).toEqual({ kind: 'majority', votes: 7 });
  });

  it('The Day ends when that happens (hammer): later votes do not count', () => {
    const t = count([...onEve('Alice', 'Bob', 'Carol', 'Dave', 'Frank'), vote(6, 'Gina', 'Alice'), unvote(7, 'Alice')]);
    expect(t.outcome).toMatchObject({ status: 'majority', eliminated: ['Eve'], decidedAt: 5 });
    expect(flagsOf(t)).toEqual([
      [6, 'vote-after-decision', 'Gina'],
      [7, 'vote-after-decision', 'Alice'],
    ]);
  });

  it('A No Lynch majority ends the Day with nobody lynched', () => {
    const t = count(['Alice', 'Bob', 'Carol', 'Dave', 'Frank'].map((p, i) => vote(i + 1, p, 'No Lynch')));
    expect(t.outcome).toMatchObject({ status: 'no-lynch', eliminated: [], decidedAt: 5 });
  });

  it('No majority at the deadline: the leader is lynched', () => {
    const t = count([...onEve('Alice', 'Bob'), vote(3, 'Carol', 'Dave'), dayEnd(3)]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Eve'], decidedAt: 3 });
  });

  it('No majority at the deadline and a tie: the GM decides', () => {
    const t = count([vote(1, 'Alice', 'Eve'), vote(2, 'Bob', 'Dave'), dayEnd(2)]);
    expect(t.outcome).toMatchObject({ status: 'tie', eliminated: [], decidedAt: null, leaders: ['Eve', 'Dave'] });
  });

  it('the fixture thread: the fifth vote on Eve is the hammer', () => {
    const thread = loadThread('mafiascum-majority.thread.yaml');
    expect(totals(count(thread.events, { toPost: 7 }))).toEqual([
      ['Eve', 4],
      ['Alice', 1],
    ]);
    const t = count(thread.events);
    expect(t.outcome).toMatchObject({ status: 'majority', eliminated: ['Eve'], decidedAt: 8 });
    expect(flagsOf(t)).toEqual([[9, 'vote-after-decision', 'Dave']]);
  });
});

/**
 * "5 to lynch, 4 for a No Lynch" (a MafiaScum game's own rule, issue #12): No Lynch has a
 * threshold of its own. Nine players: majority (5) for a player, 4 for No Lynch.
 */
describe('mafiascum-majority with a No Lynch threshold of its own', () => {
  const base = loadRuleset('mafiascum-majority');
  const ruleset = Ruleset.parse({
    ...base,
    noLynch: { ...base.noLynch, threshold: { kind: 'votes', votes: 4 } },
  });
  const roster = players('Ann', 'Ben', 'Cat', 'Dan', 'Eli', 'Fox', 'Gus', 'Hal', 'Ivy');
  const count = (events: TallyEvent[]) => countVotes({ ruleset, roster, events, explain: true });

  it('four votes on No Lynch end the Day with no lynch', () => {
    const t = count([
      vote(1, 'Ann', 'No Lynch'),
      vote(2, 'Ben', 'No Lynch'),
      vote(3, 'Cat', 'No Lynch'),
      vote(4, 'Dan', 'No Lynch'),
      vote(5, 'Eli', 'Ann'),
    ]);
    expect(t.outcome).toMatchObject({ status: 'no-lynch', eliminated: [], decidedAt: 4 });
    expect(t.noLynchThreshold).toEqual({ kind: 'votes', votes: 4 });
    expect(t.wagons.find((w) => w.target === 'No Lynch')?.toThreshold).toBe(0);
  });

  it('four votes on a player do not: a player needs five', () => {
    const t = count([vote(1, 'Ann', 'Eli'), vote(2, 'Ben', 'Eli'), vote(3, 'Cat', 'Eli'), vote(4, 'Dan', 'Eli')]);
    expect(t.outcome.status).toBe('open');
    expect(t.threshold).toEqual({ kind: 'majority', votes: 5 });
    expect(t.wagons[0]).toMatchObject({ target: 'Eli', toThreshold: 1 });
    const five = count([
      vote(1, 'Ann', 'Eli'),
      vote(2, 'Ben', 'Eli'),
      vote(3, 'Cat', 'Eli'),
      vote(4, 'Dan', 'Eli'),
      vote(5, 'Fox', 'Eli'),
    ]);
    expect(five.outcome).toMatchObject({ status: 'majority', eliminated: ['Eli'], decidedAt: 5 });
  });

  it('a ruleset file states it', () => {
    expect(
      Ruleset.safeParse({ ...base, noLynch: { ...base.noLynch, threshold: { kind: 'votes', votes: 0 } } }).success,
    ).toBe(false);
  });
});
