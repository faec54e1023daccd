import { describe, expect, it } from 'vitest';
import { parseFragment } from '../../scrapers/fragment.js';
import { adapterOf } from '../../scrapers/identify.js';
import type { Body } from '../../src/model/body.js';
import { readOpeningPostsRules } from '../../src/parse/opening-rules.js';
import { readStatedThreshold, STATED_RULES, statedRule, votesUnder } from '../../src/parse/stated-threshold.js';
import type { ThresholdRule } from '../../src/rules/ruleset.js';
import { thresholdFor } from '../../src/tally/threshold.js';

/** The sentences are the moderators' own, from the MafiaScum games of donbot data 739243d. */
describe('the threshold a GM states', () => {
  it.each<[string, string, number | null, number]>([
    ['"it takes" (MafiaScum game 1137 post #38)', 'With 13 alive, it takes 7 to lynch', 13, 7],
    ['no comma (MafiaScum game 1379 post #454)', 'With 11 alive it takes 6 to lynch.', 11, 6],
    ['"7 votes" (MafiaScum game 1721 post #5)', 'With 13 alive, it takes 7 votes to lynch.', 13, 7],
    ['"it\'s" (MafiaScum game 1152 post #3)', "With 13 alive, it's 7 to lynch.", 13, 7],
    ['"players alive" (MafiaScum game 1874 post #2)', 'With 13 players alive, it takes 7 votes to lynch.', 13, 7],
    ['"==" (MafiaScum game 1159 post #12)', '13 Alive == 7 to Lynch && 7 to No-Lynch', 13, 7],
    [
      '"7/13 votes are required" (MafiaScum game 1905 post #3)',
      'With 13 players living, 7/13 votes are required to lynch.',
      13,
      7,
    ],
    [
      '"votes are required" (MafiaScum game 1854 post #302)',
      'With 13 players living, 7 votes are required to lynch.',
      13,
      7,
    ],
    ['"players in play" (MafiaScum game 1692 post #3)', 'With 13 players in play, it will take 7 to Lynch.', 13, 7],
    [
      '"eligible to vote", a curly apostrophe (MafiaScum game 1839 post #3)',
      'With 13 players eligible to vote, it’s 7 to lynch!',
      13,
      7,
    ],
    [
      '"players", and a No Lynch number after (MafiaScum game 1094 post #4)',
      'With 12 players, it takes 7 to lynch and 6 for a No Lynch.',
      12,
      7,
    ],
    [
      '"votes in play" are not the living (MafiaScum game 1883 post #3)',
      "With 13 votes in play, it's 7 to lynch!",
      null,
      7,
    ],
    ['no alive count (MafiaScum game 1618 post #543)', 'It takes 6 to lynch.', null, 6],
    ['"votes are required for a lynch" (MafiaScum game 1221 post #1051)', '5 votes are required for a lynch.', null, 5],
    ['a number in words', "With 4 alive, it'll take four to lynch", 4, 4],
    ['"the majority is" (MafiaScum game 1825 post #2)', 'With 13 alive, the majority is 7.', 13, 7],
    ['"majority is ... today" (MafiaScum game 1762 post #134)', 'With 13 players alive, majority is 7 today.', 13, 7],
    ['"Absolute majority is" (MafiaScum game 1698 post #22)', 'Absolute majority is 7.', null, 7],
    [
      '"a majority of 7 is needed to achieve a lynch" (MafiaScum game 1791 post #5)',
      'With 13 players alive, a majority of 7 is needed to achieve a lynch.',
      13,
      7,
    ],
    [
      '"living players", "a majority consists of" (MafiaScum game 1145 post #3)',
      'With 12 living players, a majority consists of 7 votes.',
      12,
      7,
    ],
    ['"to reach a Lynch" (MafiaScum game 1903 post #3)', 'With 13 alive, It takes 7 to reach a Lynch.', 13, 7],
    [
      '"players to reach a lynch" (MafiaScum game 1454 post #25)',
      'With 13 alive, it takes 7 players to reach a lynch.',
      13,
      7,
    ],
    [
      'BBCode the forum left unrendered (MafiaScum game 1511 post #147)',
      'With 13 alive, it takes 7[/i] votes to lynch.',
      13,
      7,
    ],
    ['"it takes," (MafiaScum game 1177 post #686)', 'With 9 alive it takes, 5 to lynch.', 9, 5],
    [
      '"required to obtain a lynch" (MafiaScum game 1761 post #2)',
      '7 Votes are required to obtain a lynch. 7 votes are also required to obtain a no-lynch prior to deadline.',
      null,
      7,
    ],
    ['"required for the lynch" (MafiaScum game 1221 post #216)', 'Seven votes required for the lynch.', null, 7],
    ['a line of the number alone (MafiaScum game 1142 post #63)', '5 to lynch', null, 5],
    ['"Five to lynch." (MafiaScum game 1241 post #353)', 'Five to lynch.', null, 5],
    ['"7/13 votes to lynch" alone (MafiaScum game 1925 post #50)', '7/13 votes to lynch', null, 7],
    ['the label "Votes to Lynch:" (MafiaScum game 1496 post #4)', 'Votes to Lynch: 7', null, 7],
    ['the label "Players needed to lynch:" (MafiaScum game 1231 post #25)', 'Players needed to lynch: 5', null, 5],
    ['the label "Needed to Lynch [ 7 ]" (MafiaScum game 1379 post #2)', 'Needed to Lynch [ 7 ]', null, 7],
  ])('reads %s', (_name, line, alive, toLynch) => {
    expect(readStatedThreshold(line)).toMatchObject({ alive, toLynch });
  });

  it.each<[string, string]>([
    ['a number with no lead is not a rule', "I highly doubt you'll find 3 people who want to lynch me"],
    ['"with 9 to lynch" in a player\'s reasoning', "With 9 to lynch, town needs every vote that's"],
    ["a wagon line's note", 'Carol (2) - 3 to lynch'],
    ['the No Lynch number alone', 'it takes 6 for a No Lynch'],
    [
      'a number inside a sum (MafiaScum game 1360 post #1)',
      '(D1 deadline lynch would be 7 players / 2 = 3.5 players = 4 to lynch)',
    ],
    [
      'a share, not a number (MafiaScum game 1463 post #1)',
      'If one player receives a majority (at least 51%) of votes',
    ],
    ['"majority of 50%"', 'A lynch needs a majority of 50% of the living'],
    ["a wagon's L-n note (MafiaScum game 1892 post #78)", 'LicketyQuickety is closest to LYNCH at L-3'],
    ['a number in a sentence before "to lynch"', 'We need 3 more people to lynch him'],
    [
      '"hammer at 4pm": in real posts a time, never a threshold (MafiaScum game 1653 post #1160)',
      'If no one beats me to it I will hammer at 4pm est',
    ],
  ])('reads nothing in %s', (_name, line) => {
    expect(readStatedThreshold(line)).toBeNull();
  });
});

describe('the rules a stated threshold is tried against', () => {
  it('give the numbers the tally gives (the parser may not import it)', () => {
    for (const rule of STATED_RULES)
      for (let alive = 1; alive <= 30; alive++) expect(votesUnder(rule, alive)).toBe(thresholdFor(rule, alive).votes);
  });

  const MAJORITY: ThresholdRule = { kind: 'majority' };
  const HALF: ThresholdRule = { kind: 'fraction', numerator: 1, denominator: 2 };
  const st = (alive: number | null, toLynch: number) => ({ alive, toLynch, sentence: `${alive} alive, ${toLynch}` });
  it.each<[string, ReturnType<typeof st>[], ThresholdRule | null]>([
    ['statements the ruleset gives: nothing', [st(7, 4), st(5, 3)], null],
    ['half of the living stated twice: half, rounded up', [st(8, 4), st(6, 3), st(5, 3)], HALF],
    ['stated once: not yet repeated', [st(8, 4), st(7, 4)], null],
    ['statements that disagree with themselves: nothing', [st(8, 4), st(6, 3), st(6, 4)], null],
    ['no alive count: nothing to try a rule on', [st(null, 4), st(null, 3)], null],
  ])('%s', (_name, statements, rule) => {
    expect(statedRule(statements, MAJORITY)).toEqual(rule);
  });
});

const post = (...lines: string[]): Body =>
  parseFragment(lines.join('<br>'), adapterOf('phpbb').descriptor.body, 'https://forum.mafiascum.net/');

describe("a threshold stated in the GM's rules post", () => {
  const gm = (a: string) => a === 'Mod';
  it('proposes half of the living when majority cannot give the stated number', () => {
    const r = readOpeningPostsRules([{ author: 'Mod', body: post('With 8 alive, it takes 4 to lynch.') }], gm);
    expect(r).toEqual([
      {
        rule: 'threshold',
        overrides: { threshold: { kind: 'fraction', numerator: 1, denominator: 2 } },
        sentence: 'With 8 alive, it takes 4 to lynch.',
      },
    ]);
  });

  it('proposes nothing for a majority (MafiaScum game 1094 post #4)', () => {
    const r = readOpeningPostsRules(
      [{ author: 'Mod', body: post('With 12 players, it takes 7 to lynch and 6 for a No Lynch.') }],
      gm,
    );
    expect(r).toEqual([]);
  });

  it('proposes nothing for a threshold at the deadline only (MafiaScum game 1360 post #1)', () => {
    const sentence =
      '17) At deadline, majority is cut in half rounded up (D1 deadline lynch would be 7 players / 2 = 3.5 players = 4 to lynch).';
    expect(readOpeningPostsRules([{ author: 'Mod', body: post(sentence) }], gm)).toEqual([]);
  });

  it("reads a bare number against the game's living", () => {
    const body = post('It takes 6 to lynch.');
    expect(readOpeningPostsRules([{ author: 'Mod', body }], gm, { living: 11 })).toEqual([]);
    expect(readOpeningPostsRules([{ author: 'Mod', body }], gm, { living: 12 })).toMatchObject([
      { rule: 'threshold', overrides: { threshold: { kind: 'fraction', numerator: 1, denominator: 2 } } },
    ]);
    expect(readOpeningPostsRules([{ author: 'Mod', body }], gm)).toEqual([]);
  });
});
