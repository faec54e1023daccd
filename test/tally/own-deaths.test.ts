import { describe, expect, it } from 'vitest';
import { countVotesWithDeaths, type OwnDeath } from '../../src/tally/count.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { gm, mafiascum, players, plurality, review, vote } from './log-builders.js';

/**
 * Issue #24: the deaths the count causes by itself (not the GM's kills), placed after the
 * post from which the player is dead, so the posts after them are read with the player dead.
 */
const five = players('Alice', 'Bob', 'Cy', 'Dana', 'Eve');
// Bob's third vote is the hammer (majority of five); Eve leads Cy 2 to 1, short of it.
const bobHammered = [vote(1, 'Alice', 'Bob'), vote(2, 'Cy', 'Bob'), vote(3, 'Dana', 'Bob')];
const eveLeads = [vote(1, 'Alice', 'Eve'), vote(2, 'Cy', 'Eve'), vote(3, 'Bob', 'Cy')];
const t = (minute: number) => `2026-03-02T18:${String(minute).padStart(2, '0')}:00.000Z`;

describe('the deaths the count causes by itself', () => {
  const cases: {
    rule: string;
    ruleset: 'mafiascum' | 'plurality';
    events: TallyEvent[];
    deaths: OwnDeath[];
  }[] = [
    {
      rule: "a hammer at majority: the eliminated dies at the next Day's start",
      ruleset: 'mafiascum',
      events: [...bobHammered, gm({ kind: 'day-start', day: 2, at: 5 })],
      deaths: [{ player: 'Bob', at: 5 }],
    },
    {
      rule: 'a hammer and no Day 2 yet: nobody dies (the Night: the board is frozen)',
      ruleset: 'mafiascum',
      events: bobHammered,
      deaths: [],
    },
    {
      rule: 'the deadline rule (plurality leader) decides: the leader dies at the next Day',
      ruleset: 'mafiascum',
      events: [
        vote(1, 'Alice', 'Eve', { time: t(1) }),
        vote(2, 'Cy', 'Eve', { time: t(2) }),
        vote(3, 'Bob', 'Cy', { time: t(3) }),
        gm({ kind: 'deadline', time: t(4) }),
        gm({ kind: 'day-start', day: 2, at: 3 }),
      ],
      deaths: [{ player: 'Eve', at: 3 }],
    },
    {
      rule: 'the GM ends the Day on a plurality: the leader dies at the next Day',
      ruleset: 'plurality',
      events: [...eveLeads, gm({ kind: 'day-end', at: 4 }), gm({ kind: 'day-start', day: 2, at: 4 })],
      deaths: [{ player: 'Eve', at: 4 }],
    },
    {
      rule: 'a Day held for the GM (a vote it could not read could change it) buries nobody',
      ruleset: 'plurality',
      events: [
        ...eveLeads,
        review(4, 'Dana', 'ambiguous-target', 'Vote: C', ['Cy', 'Bob']),
        gm({ kind: 'day-end', at: 4 }),
        gm({ kind: 'day-start', day: 2, at: 4 }),
      ],
      deaths: [],
    },
    {
      rule: "the GM's kill is the GM's record, not the count's own",
      ruleset: 'plurality',
      events: [vote(1, 'Alice', 'Eve'), gm({ kind: 'kill', player: 'Dana', at: 1 })],
      deaths: [],
    },
    {
      rule: "the GM's decide on a tie: the count buries the decided player at the next Day",
      ruleset: 'plurality',
      events: [
        vote(1, 'Alice', 'Eve'),
        vote(2, 'Cy', 'Bob'),
        gm({ kind: 'day-end', at: 2 }),
        gm({ kind: 'decide', eliminated: ['Bob'], at: 2 }),
        gm({ kind: 'day-start', day: 2, at: 2 }),
      ],
      deaths: [{ player: 'Bob', at: 2 }],
    },
  ];

  it.each(cases)('$rule', ({ ruleset, events, deaths }) => {
    const { ownDeaths } = countVotesWithDeaths({
      ruleset: ruleset === 'mafiascum' ? mafiascum() : plurality(),
      roster: five,
      events,
    });
    expect(ownDeaths).toEqual(deaths);
  });
});
