import { describe, expect, it } from 'vitest';
import { players, unvote, vote } from '../tally/log-builders.js';
import { dayEnd, flagsOf, kill, scenario, totals } from './kit.js';
import { loadThread } from './thread-fixture.js';

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
    expect(flagsOf(t)).toEqual([[6, 'vote-after-decision', 'Gina'], [7, 'vote-after-decision', 'Alice']]);
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
    expect(totals(count(thread.events, { toPost: 7 }))).toEqual([['Eve', 4], ['Alice', 1]]);
    const t = count(thread.events);
    expect(t.outcome).toMatchObject({ status: 'majority', eliminated: ['Eve'], decidedAt: 8 });
    expect(flagsOf(t)).toEqual([[9, 'vote-after-decision', 'Dave']]);
  });
});
