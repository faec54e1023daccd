import { describe, expect, it } from 'vitest';
import { countVotes } from '../../src/tally/count.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { gm, players, plurality, vote } from './log-builders.js';

/**
 * Issue 24: "an elimination and the living list agree everywhere". A Day's eliminated
 * players are dead from the next Day's start in the tally itself (`players`, `living`,
 * `dead`), whether or not the GM also records a kill for them.
 */
const five = players('Alice', 'Bob', 'Cy', 'Dana', 'Eve');
const count = (events: TallyEvent[]) => countVotes({ ruleset: plurality(), roster: five, events });
const day1 = [vote(1, 'Alice', 'Bob'), vote(2, 'Cy', 'Bob'), vote(3, 'Bob', 'Eve'), gm({ at: 3, kind: 'day-end' })];
const day2 = gm({ at: 3, kind: 'day-start', day: 2 });

describe("a Day's eliminated are dead at the next Day's start", () => {
  const cases: { rule: string; events: TallyEvent[]; players: string[]; dead: string[] | undefined }[] = [
    {
      rule: 'the lynched player is not among Day 2 players',
      events: [...day1, day2],
      players: ['Alice', 'Cy', 'Dana', 'Eve'],
      dead: ['Bob'],
    },
    {
      rule: 'the GM also records the kill (at Night): a kill of the eliminated is no double death',
      events: [...day1, gm({ at: 3, kind: 'kill', player: 'Bob' }), day2],
      players: ['Alice', 'Cy', 'Dana', 'Eve'],
      dead: ['Bob'],
    },
    {
      rule: 'the GM records the kill on Day 2 too: a no-op, not an error',
      events: [...day1, day2, gm({ at: 4, kind: 'kill', player: 'Bob' })],
      players: ['Alice', 'Cy', 'Dana', 'Eve'],
      dead: ['Bob'],
    },
    {
      rule: 'revived by the GM after the decision: alive on Day 2',
      events: [...day1, gm({ at: 3, kind: 'revive', player: 'Bob' }), day2],
      players: ['Alice', 'Bob', 'Cy', 'Dana', 'Eve'],
      dead: undefined,
    },
    {
      rule: 'the Night (Day 1 closed, Day 2 not started): the frozen board still shows the Day as it was',
      events: day1,
      players: ['Alice', 'Bob', 'Cy', 'Dana', 'Eve'],
      dead: undefined,
    },
    {
      rule: 'a tie the GM has not decided buries nobody',
      events: [vote(1, 'Alice', 'Bob'), vote(2, 'Cy', 'Eve'), gm({ at: 2, kind: 'day-end' }), day2],
      players: ['Alice', 'Bob', 'Cy', 'Dana', 'Eve'],
      dead: undefined,
    },
    {
      rule: "the GM's decision (decide) is what buries",
      events: [
        vote(1, 'Alice', 'Bob'),
        vote(2, 'Cy', 'Eve'),
        gm({ at: 2, kind: 'day-end' }),
        gm({ at: 2, kind: 'decide', eliminated: ['Eve'] }),
        day2,
      ],
      players: ['Alice', 'Bob', 'Cy', 'Dana'],
      dead: ['Eve'],
    },
  ];

  it.each(cases)('$rule', ({ events, players, dead }) => {
    const t = count(events);
    expect(t.players).toEqual(players);
    expect(t.living).toBe(players.length);
    expect(t.dead).toEqual(dead);
    expect(t.flags.filter((f) => f.kind === 'not-a-player')).toEqual([]);
  });

  it('a vote for the lynched player on Day 2 is a vote for the dead', () => {
    const t = count([...day1, day2, vote(4, 'Alice', 'Bob')]);
    expect(t.flags.map((f) => [f.post, f.kind, f.player])).toContainEqual([4, 'vote-for-dead', 'Alice']);
    expect(t.wagons).toEqual([]);
  });
});
