import { describe, expect, it } from 'vitest';
import { parseFragment } from '../../scrapers/fragment.js';
import { adapterOf } from '../../scrapers/identify.js';
import { Roster } from '../../src/model/roster.js';
import { readGmCount } from '../../src/parse/gm-count.js';
import { rosterNames } from '../../src/parse/gm-posts.js';

/**
 * The moderators' counts the reader misread on the real-games bench (issue #24, lane
 * "reader"), one rule a case: each is a real MafiaScum count, its lines as the forum shows
 * them (a long count abridged to the lines the rule needs), read with the game's slots (a slot's other names are its replacements'). What the
 * count says, wagon by wagon, with the unread names said to the GM, never guessed.
 */
interface Case {
  rule: string;
  source: string;
  /** The game's slots: the first name is the slot's, the others its former names. */
  slots: string[][];
  lines: string[];
  /** Target -> the voters as read (null: a name that names nobody); struck ones left out. */
  wagons: Record<string, (string | null)[]>;
  notVoting: string[] | null;
  unread?: string[];
  toLynch?: Record<string, number>;
}

const slots = (...names: string[]): string[][] => names.map((n) => n.split('/'));

const CASES: Case[] = [
  {
    rule: 'a line with no number but its L-n note is the count\'s, a voter named by nobody said to the GM ("Dr. Z")',
    source: 'MafiaScum game 1433, post #1462 (donbot data 739243d)',
    slots: slots(
      'BBMolla',
      'Hiraki',
      'Human Destroyer',
      'Doctor Zoidberg MD',
      'Bacde',
      'absta101',
      'SafetyDance',
      'pirate mollie',
      'AngryPidgeon',
      'IFM',
    ),
    lines: [
      'Vote Count 3.04',
      'BBMolla -',
      'Hiraki -',
      'Human Destroyer - SafetyDance (L-5)',
      'Doctor Zoidberg MD -',
      'Bacde - absta101, Dr. Z, Human Destroyer, IFM (L-2)',
      'absta101 -',
      'SafetyDance - ',
      'pirate mollie - Hiraki (L-5)',
      'AngryPidgeon -',
      'IFM - BBMolla (L-5)',
      'Not Voting - pirate mollie, Bacde & AngryPidgeon',
      'With 10 alive it takes 6 to lynch',
    ],
    wagons: {
      'Human Destroyer': ['SafetyDance'],
      Bacde: ['absta101', null, 'Human Destroyer', 'IFM'],
      'pirate mollie': ['Hiraki'],
      IFM: ['BBMolla'],
    },
    notVoting: ['pirate mollie', 'Bacde', 'AngryPidgeon'],
    unread: ['Dr. Z'],
    toLynch: { 'Human Destroyer': 5, Bacde: 2, 'pirate mollie': 5, IFM: 5 },
  },
  {
    rule: '"Not voting - 9 - Everyone": the counted list written as everyone, no name',
    source: 'MafiaScum game 1351, post #474 (donbot data 739243d)',
    slots: slots('Code_X', 'havingfitz', 'ChaosOmega', 'Fate'),
    lines: [
      'Current VoteCount 2.1:',
      'Code_X - 0 - No-one',
      'Havingfitz - 0 - No-one',
      'ChaosOmega - 0 - No-one',
      'Fate - 0 - No-one',
      'Not voting - 9 - Everyone',
    ],
    wagons: { Code_X: [], havingfitz: [], ChaosOmega: [], Fate: [] },
    notVoting: null,
  },
  {
    rule: '"Not voting - like 6 people": a number of players in place of their names, the list not written',
    source: 'MafiaScum game 1238, post #428 (donbot data 739243d)',
    slots: slots('monk', 'Empking', 'Nobody Special/Mute', 'Hiraki', 'Whiskers', 'Killjoy'),
    lines: [
      'Vote Count 2.1',
      'Monk - Empking (1)',
      'Mute - Hiraki (1)',
      'Hiraki - Whiskers (1)',
      'Killjoy - Monk (1)',
      'Not voting - like 6 people',
    ],
    wagons: { monk: ['Empking'], 'Nobody Special': ['Hiraki'], Hiraki: ['Whiskers'], Killjoy: ['monk'] },
    notVoting: null,
  },
  {
    rule: '"Not Voting (0) - No One; yay democracy!": nobody, a remark after it',
    source: 'MafiaScum game 1460, post #672 (donbot data 739243d)',
    slots: slots('Elyse', 'Baezu', 'Slandaar', 'SunnyDays', 'Red Dragon', 'chernobylcitybus'),
    lines: [
      'Vote Count',
      'Elyse (3) - Baezu, Slandaar, SunnyDays (L-4)',
      'Red Dragon (1) - chernobylcitybus',
      'Not Voting (0) - No One; yay democracy! ',
    ],
    wagons: { Elyse: ['Baezu', 'Slandaar', 'SunnyDays'], 'Red Dragon': ['chernobylcitybus'] },
    notVoting: [],
    toLynch: { Elyse: 4 },
  },
  {
    rule: '"Not Voting (0): Not a single person": nobody',
    source: 'MafiaScum game 1917, post #1413 (donbot data 739243d)',
    slots: slots('PenguinPower', 'Cheetory6', 'Backhand', 'kraska77', 'Grendel'),
    lines: [
      'Vote Count 1.19 (FINAL)',
      'PenguinPower (2): Cheetory6, Backhand',
      'Backhand (1): Grendel',
      'Not Voting (0): Not a single person',
    ],
    wagons: { PenguinPower: ['Cheetory6', 'Backhand'], Backhand: ['Grendel'] },
    notVoting: [],
  },
  {
    rule: '"Not voting (0): Everyone is voting!": nobody',
    source: 'MafiaScum game 1933, post #2873 (donbot data 739243d)',
    slots: slots('Formerfish', 'Backhand', 'tictac', 'Tchill13', 'Flavor Leaf'),
    lines: [
      'VC 4.Final',
      'Backhand (L-3): tictac',
      'Tchill13 (L-3): Formerfish',
      'tictac (L-3): Flavor Leaf',
      'Not voting (0): Everyone is voting!',
    ],
    wagons: { Backhand: ['tictac'], Tchill13: ['Formerfish'], tictac: ['Flavor Leaf'] },
    notVoting: [],
    toLynch: { Backhand: 3, Tchill13: 3, tictac: 3 },
  },
  {
    rule: '"Not Voting" alone on its line, its names on the next line',
    source: 'MafiaScum game 1791, post #2582 (donbot data 739243d)',
    slots: slots(
      'Dwlee99',
      'Titus/FourTrouble',
      'Apricity',
      'Performer',
      'BulletNLynchproof',
      'Expedience',
      'Asphodel',
    ),
    lines: [
      'VC 4.1',
      '[2] Dwlee99 : Titus, Apricity',
      '[0] BulletNLynchproof : ',
      '[2] Apricity : Dwlee99, Performer ',
      'Not Voting',
      'BulletNLynchproof, Expedience, Asphodel',
      'With 7 players alive, a majority of 4 is needed to achieve a lynch.',
    ],
    wagons: { Dwlee99: ['Titus', 'Apricity'], BulletNLynchproof: [], Apricity: ['Dwlee99', 'Performer'] },
    notVoting: ['BulletNLynchproof', 'Expedience', 'Asphodel'],
  },
  {
    rule: 'a wagon\'s target written as the slot\'s old and new names side by side ("pisskop Jordarrian")',
    source: 'MafiaScum game 1938, post #450 (donbot data 739243d)',
    slots: slots('pisskop/Jordarrian', 'lovelife', 'BlueBloodedToffee', 'Backhand', 'Sofiel', 'Havo', 'Robbnva'),
    lines: [
      'Votecount 1.8',
      'pisskop Jordarrian (2/7): lovelife, BlueBloodedToffee',
      'BlueBloodedToffee (2/7): Backhand, Sofiel',
      'Not Voting (3): pisskop Jordarrian, Havo, Robbnva.',
    ],
    wagons: { pisskop: ['lovelife', 'BlueBloodedToffee'], BlueBloodedToffee: ['Backhand', 'Sofiel'] },
    notVoting: ['pisskop', 'Havo', 'Robbnva'],
  },
  {
    rule: 'a number joined to the target by a hyphen is the end of a player\'s name ("Z7-852 (L-7)"), not a count',
    source: 'MafiaScum game 1469, post #75 (donbot data 739243d)',
    slots: slots('Team Rocket', 'Nul', 'Cheery Dog', 'hapahauli', 'Effulgence/Magua/Z7-852'),
    lines: [
      'vote count 1.3',
      'Cheery Dog (L-6): Nul',
      'Team Rocket (L-7):',
      'Z7-852 (L-7): hapahauli',
      'Not Voting: Z7-852, Team Rocket',
    ],
    wagons: { 'Cheery Dog': ['Nul'], 'Team Rocket': [], Effulgence: ['hapahauli'] },
    notVoting: ['Effulgence', 'Team Rocket'],
    toLynch: { 'Cheery Dog': 6, 'Team Rocket': 7, Effulgence: 7 },
  },
  {
    rule: '"No Lynch (REACHED): ...": the lynch note in brackets',
    source: 'MafiaScum game 1107, post #436 (donbot data 739243d)',
    slots: slots('Neruz', 'Hiraki', 'Nobody Special', 'sordros/chkflip', 'Cecily', 'Riceballtail', 'Withnail'),
    lines: [
      'VOTECOUNT 3.1',
      'No Lynch (REACHED): Neruz, Hiraki, Nobody Special, sordros',
      'Cecily (2/5): Riceballtail',
      'Not Voting: Withnail, Cecily',
    ],
    wagons: { 'No Lynch': ['Neruz', 'Hiraki', 'Nobody Special', 'sordros'], Cecily: ['Riceballtail'] },
    notVoting: ['Withnail', 'Cecily'],
  },
  {
    rule: '"ICEninja (4) (L+2): ...": a wagon past the lynch, its note no voter',
    source: 'MafiaScum game 1114, post #203 (donbot data 739243d)',
    slots: slots('ICEninja', 'Javert', 'Edgerobin', 'Oso', 'Mute', 'ConSpiracy'),
    lines: [
      'Vote Count D1 #4: lynch reached!',
      'ConSpiracy (0): ',
      'Mute (2): ConSpiracy, ICEninja',
      'ICEninja (4) (L+2): Javert, Edgerobin, Oso, Mute',
    ],
    wagons: { ConSpiracy: [], Mute: ['ConSpiracy', 'ICEninja'], ICEninja: ['Javert', 'Edgerobin', 'Oso', 'Mute'] },
    notVoting: null,
  },
  {
    rule: '"Nisani       1 votes: Oversoul": a count set in columns, the word "votes" after its number and no separator before it',
    source: 'MafiaScum game 1338, post #637 (donbot data 739243d)',
    slots: slots('Common Man', 'knox', 'AGar', 'Nisani201', 'Oversoul', 'Peabody', 'HezLucky', 'Elmo Teh Azn'),
    lines: [
      'Common Man   3 votes: knox, AGar, Nisani201',
      'Nisani       1 votes: Oversoul',
      'Peabody:     1 votes: HezLucky',
      'Elmo Teh Azn 1 votes: Peabody',
    ],
    wagons: {
      'Common Man': ['knox', 'AGar', 'Nisani201'],
      Nisani201: ['Oversoul'],
      Peabody: ['HezLucky'],
      'Elmo Teh Azn': ['Peabody'],
    },
    notVoting: null,
  },
  {
    rule: '"x. No Lynch (2): ...": a list\'s mark in a letter before a target the numbers leave out',
    source: 'MafiaScum game 1227, post #870 (donbot data 739243d)',
    slots: slots('saulres', 'Beck', 'killerjester', 'Zdenek'),
    lines: [
      'Second Votecount of Day 6',
      '5. saulres (0): ',
      '6. Beck (0): ',
      '12. killerjester(1): Zdenek',
      '13. Zdenek (0):',
      'x. No Lynch (2): killerjester, Beck',
      'Players not voting: saulres',
    ],
    wagons: { saulres: [], Beck: [], killerjester: ['Zdenek'], Zdenek: [], 'No Lynch': ['killerjester', 'Beck'] },
    notVoting: ['saulres'],
  },
  {
    rule: '"[13] crazycrabman † - town - vanilla - lynched day 1": a player list\'s line (a role and a fate, no voter) is not a wagon',
    source: 'MafiaScum game 1805, post #1697 (donbot data 739243d)',
    slots: slots(
      'DrippingGoofball',
      'Creature',
      'NJAC',
      'Robbnva',
      'Eggman',
      'Titus',
      'crazycrabman',
      'petroleumjelly',
    ),
    lines: [
      'Vote count Day 2 #07',
      'DrippingGoofball [1]: petroleumjelly',
      'Eggman [1]: DrippingGoofball',
      'Titus [2]: Creature / NJAC',
      'Current player list [01] DrippingGoofball',
      '[04] Robbnva † - town - role cop neighbour - killed night 1',
      '[12] Titus',
      '[13] crazycrabman † - town - vanilla - lynched day 1',
    ],
    wagons: { DrippingGoofball: ['petroleumjelly'], Eggman: ['DrippingGoofball'], Titus: ['Creature', 'NJAC'] },
    notVoting: null,
  },
  {
    rule: '"AzBlueM [2 - Ant_to_the_Max, Fusion": the count\'s bracket left open, the separator after it',
    source: 'MafiaScum game 1511, post #154 (donbot data 739243d)',
    slots: slots('aphix', 'implosion', 'gorckat', 'havingfitz', 'AzBlueM', 'Ant_to_the_Max', 'Fusion', 'Kublai Khan'),
    lines: [
      'VOTECOUNT 1.3',
      'aphix [3] - Implosion, gorckat,  havingfitz ',
      'AzBlueM [2 - Ant_to_the_Max, Fusion',
      'Fusion [1] - Kublai Khan',
      'Not Voting [3] - AzBlueM',
    ],
    wagons: {
      aphix: ['implosion', 'gorckat', 'havingfitz'],
      AzBlueM: ['Ant_to_the_Max', 'Fusion'],
      Fusion: ['Kublai Khan'],
    },
    notVoting: ['AzBlueM'],
  },
  {
    rule: '"Ciara24 (10- ": a count\'s bracket left open with no voter after it is not read as a number',
    source: 'MafiaScum game 1705, post #550 (donbot data 739243d)',
    slots: slots('Klingoncelt', 'Gale Wing Srock', 'Ciara24'),
    lines: [
      'Klingoncelt (0)- ',
      'Gale Wing Srock (0)- ',
      'Ciara24 (10- ',
      'Not Voting (3)- Klingoncelt, Gale Wing Srock, Ciara24',
    ],
    wagons: { Klingoncelt: [], 'Gale Wing Srock': [] },
    notVoting: ['Klingoncelt', 'Gale Wing Srock', 'Ciara24'],
  },
];

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

describe("the moderators' counts as the reader reads them (real-games bench, issue #24)", () => {
  it.each(CASES.map((c) => [c.rule, c] as const))('%s', (_rule, c) => {
    const roster = Roster.parse(c.slots.map(([name, ...former]) => ({ name: name!, formerNames: former })));
    const body = parseFragment(
      c.lines.map(escapeHtml).join('<br>'),
      adapterOf('phpbb').descriptor.body,
      'https://forum.mafiascum.net/viewtopic.php?t=1',
    );
    const count = readGmCount({ number: 500, body }, rosterNames(roster), {
      noLynch: { name: 'No Lynch', keywords: ['no lynch'] },
    });
    expect(count).not.toBeNull();
    const wagons = Object.fromEntries(
      count!.wagons.map((w) => [w.target, w.voters.filter((v) => !v.struck).map((v) => v.player)]),
    );
    expect(wagons).toEqual(c.wagons);
    expect(count!.notVoting?.map((v) => v.player) ?? null).toEqual(c.notVoting);
    expect(count!.unread).toEqual(c.unread ?? []);
    if (c.toLynch)
      expect(
        Object.fromEntries(count!.wagons.flatMap((w) => (w.toLynch === null ? [] : [[w.target, w.toLynch]]))),
      ).toEqual(c.toLynch);
  });
});
