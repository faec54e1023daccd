import { describe, expect, it } from 'vitest';
import type { MatchKind } from '../../src/model/action.js';
import type { SlotInput } from '../../src/model/roster.js';
import { resolveName } from '../../src/parse/names.js';
import { NameMatching } from '../../src/rules/ruleset.js';
import { roster } from './build.js';

/*
 * The last rungs, tried only when the rest of the ladder finds no one: a name spelled as it
 * sounds, and initials taken from anywhere in a name. One case per rule; the real ones are
 * votes the real-games bench sent to the GM unread.
 */

interface Case {
  name: string;
  written: string;
  players: (SlotInput | string)[];
  match: MatchKind;
  target: string | null;
  candidates?: string[];
}

const GAME_1382 = [
  'MonkeyMan576',
  'Johhog',
  'Kingmaker',
  'Yates',
  'inte',
  'PeregrineV',
  'Baseline',
  'StefanB',
  'malpascp',
  'Dunhamganger',
  'notch',
  'Zoroaster',
  'the director',
];
const GAME_1919 = [
  'Sergtacos',
  'Klazam',
  'Trivium',
  'Umlaut',
  'TwoFace',
  'Empiricus',
  'Mulch',
  'Carcalilly',
  'Tchill13',
  'Fykus',
  'Branson',
  'Vedith',
  'Dunkerdoodles',
];
const GAME_1454 = [
  'bubbajack8',
  'Nobody Special',
  'fuzzybutternut',
  'Kthxbye',
  'Hoopla',
  'Amrun',
  'notscience',
  'DeasVail',
  'marcmann2',
  'jon_h61',
  'HookerPunch',
  'GuyInFreezer',
  'Aj The Epic',
];
const GAME_1838 = [
  'Lil Uzi Vert',
  'Prism',
  'BlackVoid',
  'MariaR',
  'nn30',
  'PenguinPower',
  'boring',
  'eagerSnake',
  'Gamma Emerald',
  'Zoronos',
  'implosion',
  'Grendel',
  'Dierfire',
];

const sounds: Case[] = [
  // MafiaScum game 1382 post #599 (donbot data 739243d).
  {
    name: 'a name spelled as it sounds, against a word of a name ("Stephan" for StefanB)',
    written: 'Stephan',
    players: GAME_1382,
    match: 'fuzzy',
    target: 'StefanB',
  },
  // MafiaScum game 1919 post #947 (donbot data 739243d).
  {
    name: 'a name spelled as it sounds, against the name without its digits ("Chilly" for Tchill13)',
    written: 'Chilly',
    players: GAME_1919,
    match: 'fuzzy',
    target: 'Tchill13',
  },
  {
    name: 'two players who sound alike are the GM’s to choose',
    written: 'Chilly',
    players: ['Tchill13', 'Shelly', 'Branson'],
    match: 'ambiguous',
    target: null,
    candidates: ['Tchill13', 'Shelly'],
  },
  // MafiaScum game 1875 post #3651 (donbot data 739243d): nobody's name.
  {
    name: 'a short word of a name is not compared by its sound ("Freud" is not Lil Uzi Vert)',
    written: 'Freud',
    players: ['Lil Uzi Vert', 'Grendel', 'RadiantCowbells', 'Fro99er'],
    match: 'unknown',
    target: null,
  },
  {
    name: 'a short name is not read by its sound ("Bjj": many names sound like it)',
    written: 'Bjj',
    players: ['bji', 'Thor665', 'Mulch'],
    match: 'unknown',
    target: null,
  },
];

const initials: Case[] = [
  // MafiaScum game 1454 post #716 (donbot data 739243d).
  {
    name: 'initials of pieces that are no words ("KTB" for Kthxbye)',
    written: 'KTB',
    players: GAME_1454,
    match: 'fuzzy',
    target: 'Kthxbye',
  },
  // MafiaScum game 1838 post #2681 (donbot data 739243d).
  {
    name: 'initials of a one-word name no dictionary splits ("DF" for Dierfire)',
    written: 'DF',
    players: GAME_1838,
    match: 'fuzzy',
    target: 'Dierfire',
  },
  {
    name: 'two players whose names hold the initials are the GM’s to choose',
    written: 'DF',
    players: ['Dierfire', 'Dromfist', 'Grendel'],
    match: 'ambiguous',
    target: null,
    candidates: ['Dierfire', 'Dromfist'],
  },
  {
    name: 'an English word is no one’s initials ("NO")',
    written: 'NO',
    players: ['Nzxcvo', 'Grendel', 'Zoronos'],
    match: 'unknown',
    target: null,
  },
  {
    name: 'initials must start the name ("FT" is not Dierfire’s "f…t")',
    written: 'FT',
    players: ['Dierfiret', 'Grendel', 'Zoronos'],
    match: 'unknown',
    target: null,
  },
];

const read = (c: Case) => resolveName(c.written, roster(c.players), NameMatching.parse({}));

describe.each([
  ['a name spelled as it sounds', sounds],
  ['initials taken from anywhere in the name', initials],
])('resolveName: %s', (_, cases) => {
  it.each(cases)('$name', (c) => {
    const got = read(c);
    expect({ match: got.match, target: got.target }).toEqual({ match: c.match, target: c.target });
    if (c.candidates) expect([...got.candidates].sort()).toEqual([...c.candidates].sort());
  });
});
