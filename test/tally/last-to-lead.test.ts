import { describe, expect, it } from 'vitest';
import type { Ruleset } from '../../src/rules/ruleset.js';
import { countVotes } from '../../src/tally/count.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { gm, players, unvote, variant, vote } from './log-builders.js';

/**
 * The tie rule "last to lead" (`ties.breakers: [last-to-lead]`), from a TeamLiquid game's
 * rules quoted in issue 24: "a tie goes to the player who most recently had more votes".
 * Still tied (none of the tied ever led alone): `ties.then` decides, here `gm`.
 */
const lastToLead = (base = 'plurality', change = {}): Ruleset =>
  variant(base, { ties: { breakers: ['last-to-lead'], then: 'gm' }, ...change });
const seven = players('Alice', 'Bob', 'Cy', 'Dana', 'Eve', 'Fay', 'Gus');
const end = (at: number) => gm({ at, kind: 'day-end' });
const count = (events: TallyEvent[], ruleset = lastToLead()) => countVotes({ ruleset, roster: seven, events });

const nobodyLed = [vote(1, 'Cy', 'Eve'), vote(2, 'Dana', 'Alice'), vote(3, 'Fay', 'Bob'), unvote(4, 'Cy'), end(4)];

describe('the tie rule "last to lead" (issue 24, a TeamLiquid game\'s rule)', () => {
  const cases: { rule: string; events: TallyEvent[]; eliminated: string[]; status: string }[] = [
    {
      rule: 'A leads, B catches up (a tie): A, who led alone last',
      events: [vote(1, 'Cy', 'Alice'), vote(2, 'Dana', 'Bob'), vote(3, 'Eve', 'Alice'), vote(4, 'Fay', 'Bob'), end(4)],
      eliminated: ['Alice'],
      status: 'ended',
    },
    {
      rule: 'B led earlier, then A, then a tie: A (the most recent lead)',
      events: [vote(1, 'Cy', 'Bob'), vote(2, 'Dana', 'Alice'), vote(3, 'Eve', 'Alice'), vote(4, 'Fay', 'Bob'), end(4)],
      eliminated: ['Alice'],
      status: 'ended',
    },
    {
      rule: 'a lead lost by an unvote, then a tie: still the one who led alone last',
      events: [vote(1, 'Cy', 'Bob'), vote(2, 'Dana', 'Alice'), vote(3, 'Eve', 'Alice'), unvote(4, 'Eve'), end(4)],
      eliminated: ['Alice'],
      status: 'ended',
    },
    {
      rule: 'the last sole leader is no longer tied at the top: the tied one who led alone most recently',
      events: [
        vote(1, 'Alice', 'Bob'),
        vote(2, 'Bob', 'Cy'),
        vote(3, 'Cy', 'Cy'),
        vote(4, 'Dana', 'Eve'),
        vote(5, 'Eve', 'Eve'),
        vote(6, 'Fay', 'Eve'),
        vote(7, 'Fay', 'Bob'),
        vote(8, 'Gus', 'Bob'),
        unvote(9, 'Eve'),
        end(9),
      ],
      // Cy led (post 3), Eve (6), Bob (8); then Eve drops to 1: Bob 2 and Cy 2 tie, Bob led last.
      eliminated: ['Bob'],
      status: 'ended',
    },
    {
      rule: 'a tie where nobody led alone: the fallback (`then: gm`), nobody eliminated, the GM decides',
      // Eve led alone, Alice and Bob drew level with her, then Eve's only voter unvoted.
      events: nobodyLed,
      eliminated: [],
      status: 'tie',
    },
  ];

  it.each(cases)('$rule', ({ events, eliminated, status }) => {
    const t = count(events);
    expect(t.outcome).toMatchObject({ status, eliminated });
  });

  it('a tie where nobody led alone: the GM records the decision (`decide`)', () => {
    expect(count(nobodyLed).outcome).toMatchObject({ status: 'tie', decidedAt: null });
    const decided = count([...nobodyLed, gm({ at: 4, kind: 'decide', eliminated: ['Bob'] })]);
    expect(decided.outcome).toMatchObject({ status: 'ended', eliminated: ['Bob'], decidedAt: 4 });
  });

  it('explains the rule: who led alone last, after which post', () => {
    const events = [vote(1, 'Cy', 'Alice'), vote(2, 'Dana', 'Bob'), vote(3, 'Eve', 'Alice'), vote(4, 'Fay', 'Bob')];
    const t = countVotes({ ruleset: lastToLead(), roster: seven, events: [...events, end(4)], explain: true });
    const texts = (t.outcome.explain ?? []).map((e) => e.text);
    expect(texts).toContain(
      'most recently led alone (Alice last led alone after post 3, Bob never led alone): Alice goes',
    );
  });

  it('at the deadline, the same rule', () => {
    const events = [
      vote(1, 'Cy', 'Alice', { time: '2020-01-01T10:00:00Z' }),
      vote(2, 'Dana', 'Bob', { time: '2020-01-01T10:01:00Z' }),
      vote(3, 'Eve', 'Bob', { time: '2020-01-01T10:02:00Z' }),
      vote(4, 'Fay', 'Alice', { time: '2020-01-01T10:03:00Z' }),
      gm({ kind: 'deadline', at: 4, time: '2020-01-01T12:00:00Z' }),
    ];
    expect(count(events).outcome).toMatchObject({ status: 'ended', eliminated: ['Bob'], decidedAt: 4 });
  });

  it('a majority-less end under a majority ruleset (plurality short of it): the same rule', () => {
    const ruleset = lastToLead('mafiascum-majority', { shortOfThreshold: 'plurality' });
    const events = [vote(1, 'Cy', 'Alice'), vote(2, 'Dana', 'Bob'), vote(3, 'Eve', 'Bob'), vote(4, 'Fay', 'Alice')];
    expect(count([...events, end(4)], ruleset).outcome).toMatchObject({ eliminated: ['Bob'], decidedAt: 4 });
  });

  it("a new Day forgets the last Day's leads", () => {
    // Bob led alone on Day 1 only; on Day 2 Bob and Fay draw level with Gus, who loses his vote.
    const events = [
      vote(1, 'Cy', 'Bob'),
      end(1),
      gm({ at: 1, kind: 'decide', eliminated: [] }),
      gm({ at: 1, kind: 'day-start', day: 2 }),
      vote(2, 'Cy', 'Gus'),
      vote(3, 'Dana', 'Bob'),
      vote(4, 'Eve', 'Fay'),
      unvote(5, 'Cy'),
      end(5),
    ];
    expect(count(events).outcome).toMatchObject({ status: 'tie', eliminated: [] });
  });
});
