import { describe, expect, it } from 'vitest';
import type { MatchKind } from '../../src/model/action.js';
import type { SlotInput } from '../../src/model/roster.js';
import { resolveName } from '../../src/parse/names.js';
import { NameMatching } from '../../src/rules/ruleset.js';
import { roster } from './build.js';

/*
 * The "slipped prefix" rung: the start of a name written with one slip of the keys (a
 * letter changed, added, dropped, or two neighbours swapped). One case per rule; the real
 * ones are the Days the real-games bench held for the GM on them.
 */

interface Case {
  name: string;
  written: string;
  players: (SlotInput | string)[];
  matching?: Partial<NameMatching>;
  match: MatchKind;
  target: string | null;
  candidates?: string[];
}

const cases: Case[] = [
  // MafiaScum game 1207 post #732 (donbot data 739243d).
  {
    name: 'a changed letter in the start of a name ("Wickid" for Wickedestjr)',
    written: 'Wickid',
    players: ['Wickedestjr', 'gorilla', 'Hinduragi', 'Vifam'],
    match: 'fuzzy',
    target: 'Wickedestjr',
  },
  // MafiaScum game 1332 post #634 (donbot data 739243d).
  {
    name: 'a dropped letter in the start of a name ("Vjay" for vijay2vasandani)',
    written: 'Vjay',
    players: ['vijay2vasandani', 'CryMeARiver', 'TeChNoWC', 'BK201'],
    match: 'fuzzy',
    target: 'vijay2vasandani',
  },
  // MafiaScum game 1410 post #826 (donbot data 739243d).
  {
    name: 'two letters swapped in the start of a name ("rolf" for roflcopter)',
    written: 'rolf',
    players: ['roflcopter', 'captaineddie', 'Revenus', 'CooLDoG'],
    match: 'fuzzy',
    target: 'roflcopter',
  },
  // MafiaScum game 1931 post #2749 (donbot data 739243d).
  {
    name: 'an added letter after the start of a name ("dunkers" for Dunkerdoodles)',
    written: 'dunkers',
    players: ['Dunkerdoodles', 'MarioManiac4', 'Eddie Cane', 'frog'],
    match: 'fuzzy',
    target: 'Dunkerdoodles',
  },
  // MafiaScum game 1749 post #1149 (donbot data 739243d): "garm" with two letters swapped.
  {
    name: 'swapped letters in the start of a short name ("Gamr" for Garmr)',
    written: 'Gamr',
    players: ['Garmr', 'Dierfire', 'Aeronaut', 'Frozen Angel'],
    match: 'fuzzy',
    target: 'Garmr',
  },
  {
    name: "a name shorter than the ruleset's minPartial is not read",
    written: 'Vjay',
    players: ['vijay2vasandani', 'gorilla'],
    matching: { minPartial: 5 },
    match: 'unknown',
    target: null,
  },
  {
    name: 'two players that fit are ambiguous',
    written: 'Wickid',
    players: ['Wickedestjr', 'Wickedwitch', 'Vifam'],
    match: 'ambiguous',
    target: null,
    candidates: ['Wickedestjr', 'Wickedwitch'],
  },
  {
    name: 'the first letter must be right ("Vickid" is no one)',
    written: 'Vickid',
    players: ['Wickedestjr', 'gorilla'],
    match: 'unknown',
    target: null,
  },
  {
    name: 'a four-letter name may not have a changed letter ("Wick" is not "Wack…")',
    written: 'Wick',
    players: ['Wackpecker', 'gorilla'],
    match: 'unknown',
    target: null,
  },
  {
    name: 'a short English word may not have a changed letter ("pass" is not Paschendale)',
    written: 'pass',
    players: ['Paschendale', 'gorilla'],
    match: 'unknown',
    target: null,
  },
  {
    name: 'an English word of six letters may ("dragon" for Dragnalus)',
    written: 'dragon',
    players: ['Dragnalus', 'TwoFace', 'Vedith'],
    match: 'fuzzy',
    target: 'Dragnalus',
  },
  {
    name: 'three letters are too few ("Vja")',
    written: 'Vja',
    players: ['vijay2vasandani', 'gorilla'],
    match: 'unknown',
    target: null,
  },
  {
    name: 'a name with digits is no slipped prefix ("Wick1d")',
    written: 'Wick1d',
    players: ['Wickedestjr', 'gorilla'],
    match: 'unknown',
    target: null,
  },
  {
    name: 'two slips are too many ("Wikcid")',
    written: 'Wikcid',
    players: ['Wickedestjr', 'gorilla'],
    match: 'unknown',
    target: null,
  },
  {
    name: 'a dead player that fits leaves the living one',
    written: 'Wickid',
    players: ['Wickedestjr', { name: 'Wickedwitch', alive: false }, 'Vifam'],
    match: 'fuzzy',
    target: 'Wickedestjr',
  },
];

const digitCases: Case[] = [
  // MafiaScum game 1602 post #18 (donbot data 739243d): neil1113 played as Flames682.
  {
    name: 'the letters of a former name with other digits ("Flames8675309" for Flames682)',
    written: 'Flames8675309',
    players: [{ name: 'neil1113', formerNames: ['Flames682'] }, 'AGar', 'sthar8'],
    match: 'fuzzy',
    target: 'neil1113',
  },
  // MafiaScum game 1175 post #97 (donbot data 739243d).
  {
    name: 'a name with its digits misremembered ("bgg1886" for bgg1996)',
    written: 'bgg1886',
    players: ['bgg1996', 'hiplop', 'Zachrulez'],
    match: 'fuzzy',
    target: 'bgg1996',
  },
  {
    name: 'two players with those letters and digits are ambiguous',
    written: 'bgg1886',
    players: ['bgg1996', 'bgg42', 'hiplop'],
    match: 'ambiguous',
    target: null,
    candidates: ['bgg1996', 'bgg42'],
  },
  {
    name: 'a player named by the letters alone competes',
    written: 'Flames8675309',
    players: ['Flames682', 'Flames', 'AGar'],
    match: 'ambiguous',
    target: null,
    candidates: ['Flames682', 'Flames'],
  },
  {
    name: 'digits in other places are another name ("12bgg" is not bgg1996)',
    written: '12bgg',
    players: ['bgg1996', 'hiplop'],
    match: 'unknown',
    target: null,
  },
  {
    name: 'two letters and digits are too few ("bg18" is not bg1996)',
    written: 'bg18',
    players: ['bg1996', 'hiplop'],
    match: 'unknown',
    target: null,
  },
];

const wordsAfterCases: Case[] = [
  // MafiaScum game 1444 post #351 (donbot data 739243d).
  {
    name: 'a unique prefix, then a word naming nobody ("Fuzzy dude" for Fuzzyman)',
    written: 'Fuzzy dude',
    players: ['Fuzzyman', 'RachMarie', 'Magical7', 'GreyICE'],
    match: 'prefix',
    target: 'Fuzzyman',
  },
  {
    name: 'a word after it that names another player is no vote for the first',
    written: 'Fuzzy Magic',
    players: ['Fuzzybutternut', 'Magical7', 'GreyICE'],
    match: 'unknown',
    target: null,
  },
  {
    name: 'a word after it that another player may be part of is no vote either ("the")',
    written: 'Fuzzy the man',
    players: ['Fuzzybutternut', 'startfromtheheart'],
    match: 'unknown',
    target: null,
  },
  {
    name: 'a short first word is not read loosely ("Fuz dude")',
    written: 'Fuz dude',
    players: ['Fuzzyman', 'GreyICE'],
    match: 'unknown',
    target: null,
  },
  {
    name: 'an ambiguous first word stays unread',
    written: 'Fuzzy dude',
    players: ['Fuzzyman', 'Fuzzybutternut', 'GreyICE'],
    match: 'unknown',
    target: null,
  },
  {
    name: 'too many words after it are talk, not a name',
    written: 'Fuzzy dude is so scummy',
    players: ['Fuzzyman', 'GreyICE'],
    match: 'unknown',
    target: null,
  },
];

const timesCases: Case[] = [
  // MafiaScum game 1509 post #409 (donbot data 739243d).
  {
    name: 'a word and how many times it is said ("Yesx3" for YES YES YES)',
    written: 'Yesx3',
    players: ['YES YES YES', 'Garruk Relentless', 'Brian Skies'],
    match: 'fuzzy',
    target: 'YES YES YES',
  },
  {
    name: 'the count must be the name\'s ("Yesx2" is not YES YES YES)',
    written: 'Yesx2',
    players: ['YES YES YES', 'Brian Skies'],
    match: 'unknown',
    target: null,
  },
];

const read = (c: Case) => resolveName(c.written, roster(c.players), NameMatching.parse(c.matching ?? {}));

describe('resolveName: a name with other digits', () => {
  it.each(digitCases)('$name', (c) => {
    const got = read(c);
    expect({ match: got.match, target: got.target }).toEqual({ match: c.match, target: c.target });
    if (c.candidates) expect(got.candidates).toEqual(c.candidates);
  });
});

describe('resolveName: a first word read loosely, then words naming nobody', () => {
  it.each(wordsAfterCases)('$name', (c) => {
    const got = read(c);
    expect({ match: got.match, target: got.target }).toEqual({ match: c.match, target: c.target });
  });

  it('is off where a vote must stand alone', () => {
    const got = resolveName('Fuzzy dude', roster(['Fuzzyman', 'GreyICE']), NameMatching.parse({}), {
      trailingWords: false,
    });
    expect(got.target).toBeNull();
  });
});

describe('resolveName: a word said several times', () => {
  it.each(timesCases)('$name', (c) => {
    const got = read(c);
    expect({ match: got.match, target: got.target }).toEqual({ match: c.match, target: c.target });
  });
});

describe('resolveName: the start of a name with a slip of the keys', () => {
  it.each(cases)('$name', (c) => {
    const got = read(c);
    expect({ match: got.match, target: got.target }).toEqual({ match: c.match, target: c.target });
    if (c.candidates) expect(got.candidates).toEqual(c.candidates);
  });

  it('reports its similarity score, as every fuzzy reading does', () => {
    const got = resolveName('Vjay', roster(['vijay2vasandani', 'gorilla']), NameMatching.parse({}));
    expect(got.match).toBe('fuzzy');
    expect(got.score).not.toBeNull();
  });

  it('a suggestion of another player by similarity keeps it unread', () => {
    // "Wickid" is one slip from the start of Wickedestjr and close, as a whole, to Wicki.
    const got = resolveName('Wickid', roster(['Wickedestjr', 'Wicki']), NameMatching.parse({}));
    expect(got.target).not.toBe('Wickedestjr');
  });
});
