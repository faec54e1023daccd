import { describe, expect, it } from 'vitest';
import { parseFragment } from '../../scrapers/fragment.js';
import { adapterOf } from '../../scrapers/identify.js';
import type { Body } from '../../src/model/body.js';
import { readOpeningPostsRules, readOpeningRules, type RuleOverrides } from '../../src/parse/opening-rules.js';

/** A rules post in MafiaScum's markup (phpBB): one rule a line. */
const post = (...lines: string[]): Body =>
  parseFragment(lines.join('<br>'), adapterOf('phpbb').descriptor.body, 'https://forum.mafiascum.net/');

const NOBODY: RuleOverrides = { shortOfThreshold: 'no-elimination' };
const LEADER: RuleOverrides = { shortOfThreshold: 'plurality' };

describe("the deadline rule of the GM's rules post", () => {
  it.each<[string, string, RuleOverrides]>([
    [
      'no majority by the deadline: nobody (mafiascum game 1166 post #1)',
      "If a majority isn't reached by the deadline, a no lynch will occur.",
      NOBODY,
    ],
    [
      'a deadline passing with no one at majority (mafiascum game 1408 post #0)',
      'If a day deadline passes and no one has a majority of votes, the day ends with no lynch.',
      NOBODY,
    ],
    [
      'the deadline before a lynch: without a lynch (mafiascum game 1836 post #1)',
      'If the deadline is reached before a lynch occurs, the day will end without a lynch.',
      NOBODY,
    ],
    [
      '"there will not be a lynch" at the deadline (mafiascum game 1241 post #1)',
      'There will not be a lynch if the game goes to night due to this deadline--someone has to consciously place a hammer vote.',
      NOBODY,
    ],
    [
      'failure to reach majority (mafiascum game 1762 post #1)',
      'Failure to reach majority before a deadline or a majority vote for a "Nolynch" results in no lynch occurring.',
      NOBODY,
    ],
    [
      'no majority by deadline or a No Lynch majority, both no lynch (mafiascum game 1883 post #1)',
      'If no majority is reached by deadline, or a simple majority votes no lynch, then a no lynch will occur.',
      NOBODY,
    ],
    [
      'the most votes at the deadline are lynched (mafiascum game 1199 post #0)',
      'If no one has reached a majority at the deadline, the person with the most votes will be lynched.',
      LEADER,
    ],
    [
      'a die rolled at the deadline: the GM decides (mafiascum game 1543 post #1)',
      'If a deadline is achieved and a player has not achieved the majority for lynching, then I will publically role a die with sides equal to the number of living players+No Lynch.',
      { shortOfThreshold: 'gm' },
    ],
  ])('%s', (_name, sentence, overrides) => {
    expect(readOpeningRules(post('Rules', sentence))).toEqual([{ rule: 'deadline', overrides, sentence }]);
  });

  it.each<[string, string]>([
    [
      'a No Lynch vote before the deadline (mafiascum game 1379 post #0)',
      '10) A no-lynch before deadline requires at least half of votes.',
    ],
    ['a night deadline', 'If I do not receive your action before the night deadline, you take no action.'],
    [
      'both outcomes in one sentence',
      'If no majority is reached by deadline, no lynch occurs or the most votes will be lynched.',
    ],
    ['a deadline without the rule', 'Day 1 has now begun, the deadline will be 29/4/15 at 9am.'],
  ])('proposes nothing for %s', (_name, sentence) => {
    expect(readOpeningRules(post(sentence))).toEqual([]);
  });

  it('reads 400 lines of a post, no more (a rule past them is not proposed)', () => {
    const filler = Array.from({ length: 400 }, (_, k) => `Rule ${k + 1}: be nice.`);
    const rule = 'If no majority is reached by deadline, no lynch will occur.';
    expect(readOpeningRules(post(...filler.slice(1), rule))).toHaveLength(1);
    expect(readOpeningRules(post(...filler, rule))).toEqual([]);
  });

  it("reads the GM's own words, not a quoted rule", () => {
    const body = parseFragment(
      '<blockquote><div>If no majority is reached by deadline, no lynch will occur.</div></blockquote>Noted.',
      adapterOf('phpbb').descriptor.body,
      'https://forum.mafiascum.net/',
    );
    expect(readOpeningRules(body)).toEqual([]);
  });
});

describe("the tie rule of the GM's rules post", () => {
  it.each<[string, string, RuleOverrides]>([
    [
      'the one reaching the tied number first (mafiascum game 1159 post #0)',
      'If there is a tie, the one reaching the tied number first will be lynched.',
      { ties: { breakers: ['first-to-reach'] } },
    ],
    [
      'whoever has been up longer (mafiascum game 1157 post #0)',
      'In the event of a tie, whoever has been up longer will be lynched.',
      { ties: { breakers: ['first-to-reach'] } },
    ],
    [
      'the same number of votes at the deadline (mafiascum game 1779 post #0)',
      '18) If multiple players have the same number of votes at deadline, the player who arrived at that number of votes first will be lynched.',
      { ties: { breakers: ['first-to-reach'] } },
    ],
    [
      'a tie to the most recent leader (issue #24, a TeamLiquid game)',
      'A tie goes to the player who most recently had more votes.',
      { ties: { breakers: ['last-to-lead'] } },
    ],
    [
      'a tie: nobody (mafiascum game 1193 post #2)',
      '* In the event of a tie there will be a nolynch.',
      { ties: { breakers: [], then: 'none' } },
    ],
  ])('%s', (_name, sentence, overrides) => {
    expect(readOpeningRules(post(sentence))).toEqual([{ rule: 'tie', overrides, sentence }]);
  });

  it('proposes nothing for a No Lynch that needs as many votes as a lynch (mafiascum game 1527 post #1)', () => {
    expect(
      readOpeningRules(post('You may vote to No Lynch, that requires the same number of votes as a lynch vote.')),
    ).toEqual([]);
  });
});

describe("the GM's opening posts", () => {
  const gm = (a: string) => a === 'Host';
  it('reads every post the GM made before anyone else, the first rule of each kind winning', () => {
    const posts = [
      { author: 'Host', body: post('Players:', 'Alice', 'Bob', 'Carol') },
      { author: 'Host', body: post('If no majority is reached by deadline, no lynch will occur.') },
      {
        author: 'Host',
        body: post(
          'If the deadline is reached, the most votes will be lynched.',
          'In case of a tie, the person who has hit it first will be lynched.',
        ),
      },
    ];
    expect(readOpeningPostsRules(posts, gm).map((p) => p.overrides)).toEqual([
      NOBODY,
      { ties: { breakers: ['first-to-reach'] } },
    ]);
  });

  it("stops at the first post by someone else: a player's words are not the rules", () => {
    const posts = [
      { author: 'Host', body: post('Players:', 'Alice', 'Bob', 'Carol') },
      { author: 'Alice', body: post('If no majority is reached by deadline, no lynch will occur.') },
      { author: 'Host', body: post('If no majority is reached by deadline, the most votes will be lynched.') },
    ];
    expect(readOpeningPostsRules(posts, gm)).toEqual([]);
  });
});
