import { describe, expect, it } from 'vitest';
import { countVotes } from '../../src/tally/count.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { gm, mafiascum, players, plurality, unvote, variant, vote, witchhunt } from './log-builders.js';
import type { Ruleset } from '../../src/rules/ruleset.js';

const five = players('Alice', 'Bob', 'Cy', 'Dana', 'Eve');
const count = (ruleset: Ruleset, events: TallyEvent[], roster = five) => countVotes({ ruleset, roster, events });
const dayEnd = (at: number) => gm({ at, kind: 'day-end' });

describe('how the Day is decided', () => {
  it('the Day is open until something decides it', () => {
    const t = count(plurality(), [vote(1, 'Alice', 'Bob')]);
    expect(t.outcome).toEqual({ status: 'open', eliminated: [], decidedAt: null, leaders: ['Bob'] });
  });

  it('majority reached ends the day when endsAtThreshold', () => {
    const t = count(mafiascum(), [vote(1, 'Alice', 'Eve'), vote(2, 'Bob', 'Eve'), vote(3, 'Cy', 'Eve')]);
    expect(t.outcome).toEqual({ status: 'majority', eliminated: ['Eve'], decidedAt: 3, leaders: ['Eve'] });
  });

  it('later votes after the decision are ignored and flagged', () => {
    const t = count(mafiascum(), [
      vote(1, 'Alice', 'Eve'),
      vote(2, 'Bob', 'Eve'),
      vote(3, 'Cy', 'Eve'),
      unvote(4, 'Alice'),
      vote(5, 'Dana', 'Cy'),
    ]);
    expect(t.wagons.map((w) => [w.target, w.total])).toEqual([['Eve', 3]]);
    expect(t.flags.map((f) => [f.post, f.kind, f.player])).toEqual([
      [4, 'vote-after-decision', 'Alice'],
      [5, 'vote-after-decision', 'Dana'],
    ]);
    expect(t.outcome.decidedAt).toBe(3);
  });

  it('a No Lynch majority ends the day with no lynch when endsAtThreshold', () => {
    const t = count(mafiascum(), [vote(1, 'Alice', 'No Lynch'), vote(2, 'Bob', 'no lynch'), vote(3, 'Cy', 'No Lynch')]);
    expect(t.outcome).toMatchObject({ status: 'no-lynch', eliminated: [], decidedAt: 3 });
  });

  it('witchhunt: a majority during the day does not end it (counted at the deadline)', () => {
    const t = count(witchhunt(), [
      vote(1, 'Alice', 'Eve'),
      vote(2, 'Bob', 'Eve'),
      vote(3, 'Cy', 'Eve'),
      unvote(4, 'Cy'),
    ]);
    expect(t.outcome.status).toBe('open');
    expect(t.wagons[0]).toMatchObject({ target: 'Eve', total: 2, toThreshold: 1 });
  });

  it('witchhunt: a majority at day end eliminates', () => {
    const t = count(witchhunt(), [vote(1, 'Alice', 'Eve'), vote(2, 'Bob', 'Eve'), vote(3, 'Cy', 'Eve'), dayEnd(3)]);
    expect(t.outcome).toEqual({ status: 'majority', eliminated: ['Eve'], decidedAt: 3, leaders: ['Eve'] });
  });

  it('witchhunt: no majority at day end defers to the Judge (decide event)', () => {
    const events = [vote(1, 'Alice', 'Eve'), vote(2, 'Bob', 'Eve'), vote(3, 'Cy', 'Dana'), dayEnd(3)];
    expect(count(witchhunt(), events).outcome).toEqual({
      status: 'ended',
      eliminated: [],
      decidedAt: null,
      leaders: ['Eve'],
    });
    const judged = count(witchhunt(), [...events, gm({ at: 3, kind: 'decide', eliminated: ['dana'] })]);
    expect(judged.outcome).toEqual({ status: 'ended', eliminated: ['Dana'], decidedAt: 3, leaders: ['Eve'] });
  });

  it('witchhunt: a Sleep majority defers to the Judge', () => {
    const t = count(witchhunt(), [
      vote(1, 'Alice', 'Sleep'),
      vote(2, 'Bob', 'Sleep'),
      vote(3, 'Cy', 'Sleep'),
      dayEnd(3),
    ]);
    expect(t.outcome).toEqual({ status: 'ended', eliminated: [], decidedAt: null, leaders: ['Sleep'] });
  });

  it('witchhunt: the Judge declining (decide with nobody) means no one is eliminated', () => {
    const t = count(witchhunt(), [vote(1, 'Alice', 'Eve'), dayEnd(1), gm({ at: 1, kind: 'decide', eliminated: [] })]);
    expect(t.outcome).toMatchObject({ status: 'no-lynch', eliminated: [], decidedAt: 1 });
  });

  it('witchhunt: unanimous-minus-one ends the day early', () => {
    const t = count(witchhunt(), [
      vote(1, 'Alice', 'Eve'),
      vote(2, 'Bob', 'Eve'),
      vote(3, 'Cy', 'Eve'),
      vote(4, 'Dana', 'Eve'),
      vote(5, 'Eve', 'Alice'),
    ]);
    expect(t.outcome).toEqual({ status: 'majority', eliminated: ['Eve'], decidedAt: 4, leaders: ['Eve'] });
    expect(t.flags.map((f) => [f.post, f.kind])).toEqual([[5, 'vote-after-decision']]);
  });

  it('plurality: the leader at day end is eliminated', () => {
    const t = count(plurality(), [vote(1, 'Alice', 'Eve'), vote(2, 'Bob', 'Eve'), vote(3, 'Cy', 'Dana'), dayEnd(9)]);
    expect(t.outcome).toEqual({ status: 'ended', eliminated: ['Eve'], decidedAt: 9, leaders: ['Eve'] });
  });

  it('plurality: a tie at day end is status tie with nobody eliminated', () => {
    const t = count(plurality(), [vote(1, 'Alice', 'Eve'), vote(2, 'Bob', 'Dana'), dayEnd(2)]);
    expect(t.outcome).toEqual({ status: 'tie', eliminated: [], decidedAt: null, leaders: ['Eve', 'Dana'] });
  });

  it('plurality: a GM decision settles a tie', () => {
    const t = count(plurality(), [
      vote(1, 'Alice', 'Eve'),
      vote(2, 'Bob', 'Dana'),
      dayEnd(2),
      gm({ at: 2, kind: 'decide', eliminated: ['Eve'] }),
    ]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Eve'], decidedAt: 2 });
  });

  it('plurality: No Lynch winning is status no-lynch', () => {
    const t = count(plurality(), [
      vote(1, 'Alice', 'No Lynch'),
      vote(2, 'Bob', 'No Lynch'),
      vote(3, 'Cy', 'Eve'),
      dayEnd(3),
    ]);
    expect(t.outcome).toEqual({ status: 'no-lynch', eliminated: [], decidedAt: 3, leaders: ['No Lynch'] });
  });

  it('plurality: nobody voting means nobody is eliminated', () => {
    expect(count(plurality(), [dayEnd(5)]).outcome).toMatchObject({ status: 'no-lynch', eliminated: [], decidedAt: 5 });
  });

  it('mafiascum-majority: no majority at the deadline falls back to plurality', () => {
    const t = count(mafiascum(), [vote(1, 'Alice', 'Eve'), vote(2, 'Bob', 'Eve'), vote(3, 'Cy', 'Dana'), dayEnd(3)]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Eve'], decidedAt: 3 });
  });

  it('shortOfThreshold no-elimination: no majority at the deadline means nobody goes', () => {
    const ruleset = variant('mafiascum-majority', { shortOfThreshold: 'no-elimination' });
    const t = count(ruleset, [vote(1, 'Alice', 'Eve'), dayEnd(1)]);
    expect(t.outcome).toMatchObject({ status: 'no-lynch', eliminated: [], decidedAt: 1 });
  });

  it('a fraction threshold decides like majority (two thirds of 5 is 4)', () => {
    const ruleset = variant('mafiascum-majority', { threshold: { kind: 'fraction', numerator: 2, denominator: 3 } });
    const three = count(ruleset, [vote(1, 'Alice', 'Eve'), vote(2, 'Bob', 'Eve'), vote(3, 'Cy', 'Eve')]);
    expect(three.outcome.status).toBe('open');
    const four = count(ruleset, [
      vote(1, 'Alice', 'Eve'),
      vote(2, 'Bob', 'Eve'),
      vote(3, 'Cy', 'Eve'),
      vote(4, 'Dana', 'Eve'),
    ]);
    expect(four.outcome).toMatchObject({ status: 'majority', eliminated: ['Eve'], decidedAt: 4 });
  });

  it('day-end after the Day was already decided keeps the first decision', () => {
    const t = count(mafiascum(), [vote(1, 'Alice', 'Eve'), vote(2, 'Bob', 'Eve'), vote(3, 'Cy', 'Eve'), dayEnd(10)]);
    expect(t.outcome.decidedAt).toBe(3);
  });

  it('a decide event naming nobody on the roster is kept and flagged', () => {
    const t = count(plurality(), [dayEnd(1), gm({ at: 1, kind: 'decide', eliminated: ['Zed'] })]);
    expect(t.outcome.eliminated).toEqual(['Zed']);
    expect(t.flags.map((f) => f.kind)).toEqual(['not-a-player']);
  });
});
