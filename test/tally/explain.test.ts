import { describe, expect, it } from 'vitest';
import { Tally } from '../../src/model/tally.js';
import { countVotes } from '../../src/tally/count.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { chatter, gm, mafiascum, players, plurality, variant, vote } from './log-builders.js';

const five = players('Alice', 'Bob', 'Cy', 'Dana', 'Eve');
const count = (events: TallyEvent[], ruleset = plurality(), explain = true) =>
  countVotes({ ruleset, roster: five, events, explain });

describe('explanations', () => {
  it('are left out unless asked for', () => {
    const t = count([vote(1, 'Alice', 'Eve'), gm({ at: 1, kind: 'day-end' })], plurality(), false);
    expect(t.wagons[0]).not.toHaveProperty('explain');
    expect(t.outcome).not.toHaveProperty('explain');
  });

  it('every vote on a wagon names its post, and a weight says what it counts', () => {
    const t = count([
      gm({ at: 0, kind: 'weight', player: 'Bob', weight: 2 }),
      vote(1, 'Alice', 'Eve'),
      vote(2, 'Bob', 'Eve'),
      gm({ at: 3, kind: 'vote', player: 'Cy', target: 'Eve' }),
    ]);
    expect(t.wagons[0]?.explain).toEqual([
      { post: 1, text: 'Alice: vote' },
      { post: 2, text: 'Bob: vote, counts 2' },
      { post: 3, text: 'Cy: vote entered by the GM' },
    ]);
  });

  it('penalty votes on a wagon and in the penalty counts name their post and cause', () => {
    const ruleset = variant('plurality', { violations: { image: 'penalty' } });
    const t = count(
      [
        chatter(4, 'Eve', { violations: [{ kind: 'image', detail: 'x.png' }] }),
        gm({ at: 5, kind: 'penalty', player: 'Eve', reason: 'posted a screenshot of a PM' }),
      ],
      ruleset,
    );
    expect(t.wagons[0]).toMatchObject({ target: 'Eve', votes: 0, penalty: 2, total: 2 });
    expect(t.wagons[0]?.explain).toEqual([
      { post: 4, text: 'penalty vote (Day 1): image in post 4' },
      { post: 5, text: 'penalty vote (Day 1): GM: posted a screenshot of a PM' },
    ]);
    expect(t.penalties).toEqual([
      {
        player: 'Eve',
        count: 2,
        today: 2,
        explain: [
          { post: 4, text: 'Day 1: image in post 4' },
          { post: 5, text: 'Day 1: GM: posted a screenshot of a PM' },
        ],
      },
    ]);
  });

  it('the outcome says what ended the Day and why the result is what it is', () => {
    const t = count([vote(1, 'Alice', 'Eve'), vote(2, 'Bob', 'Eve'), vote(3, 'Cy', 'Eve')], mafiascum());
    expect(t.outcome.explain).toEqual([
      { post: 3, text: 'Day 1 ends: Eve reached 3' },
      { post: 3, text: 'Eve has 3, at least the 3 needed (majority)' },
      { post: 3, text: 'Eve is lynched with 3' },
    ]);
  });

  it('explanations keep the Tally contract', () => {
    const t = count([vote(1, 'Alice', 'Eve'), gm({ at: 1, kind: 'day-end' })]);
    expect(Tally.parse(t)).toEqual(t);
  });
});
