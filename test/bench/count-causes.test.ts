import { describe, expect, it } from 'vitest';
import { type CauseContext, causeOf, leavesVotesOut } from '../../bench/count-causes.js';
import { parseFragment } from '../../scrapers/fragment.js';
import { adapterOf } from '../../scrapers/identify.js';
import type { PostHistory } from '../../src/game/fold-game.js';
import type { CheckDifference, CountCheck } from '../../src/model/gm-count.js';

/**
 * Whose miss a moderator's count's difference is (bench/count-causes.ts `causeOf`), one rule
 * a case, each from a real count of the real-games bench (MafiaScum, donbot data 739243d),
 * its differences as the check writes them. "moderator" leaves the count out of the 93 %
 * target's denominator (issue #24): it must be the moderator's own slip.
 */
const voter = (player: string, gm: string, votal: string, text: string, posts: number[] = []): CheckDifference => ({
  key: `voter:${player}`,
  kind: 'voter',
  player,
  gm,
  votal,
  text: `Your count: ${player} ${text}`,
  posts: posts.map((post) => ({ post, permalink: null })),
  answer: null,
});
const wagon = (target: string, text: string): CheckDifference => ({
  key: `wagon:${target}`,
  kind: 'wagon',
  player: target,
  gm: null,
  votal: null,
  text: `Your count: ${target}'s wagon ${text}`,
  posts: [],
  answer: null,
});
const unread = (written: string): CheckDifference => ({
  key: `unread:${written}`,
  kind: 'unread',
  player: null,
  gm: null,
  votal: null,
  text: `Your count: "${written}" names no player Votal knows`,
  posts: [],
  answer: null,
});
const countAt = (post: number, differences: CheckDifference[]): CountCheck => ({
  post,
  permalink: null,
  author: 'the moderator',
  comparedTo: post - 1,
  basis: 'before',
  earlier: 0,
  linesNotRead: 0,
  differences,
  lessons: [],
});
/** A post as Votal read it: its votes' targets (null: an unvote). */
const posted = (number: number, author: string, votes: (string | null)[]): PostHistory => ({
  number,
  author,
  postedAt: null,
  permalink: null,
  deleted: false,
  revisions: [
    {
      reading: {
        actions: votes.map((target) => ({
          kind: target === null ? 'unvote' : 'vote',
          target,
          match: 'exact',
          raw: `vote: ${target}`,
          written: target,
          candidates: [],
          score: null,
          source: 'parsed',
        })),
        effect: { kind: 'none', target: null, reason: null },
        violations: [],
      },
      firstSeen: '1970-01-01T00:00:00.000Z',
      edit: null,
      text: '',
    },
  ],
});
const context = (over: Partial<CauseContext> = {}): CauseContext => ({
  slotOf: (a) => a,
  histories: [],
  namedIn: () => false,
  dropped: () => false,
  leavesOut: false,
  byHost: () => false,
  living: 13,
  ...over,
});

interface Case {
  rule: string;
  source: string;
  count: CountCheck;
  context: CauseContext;
  cause: string;
}

const CASES: Case[] = [
  {
    rule: 'a vote Votal read, the count on another wagon: the moderator left it off',
    source: 'MafiaScum game 1241 post #353',
    count: countAt(353, [
      voter('el simo', 'NanookTheWolf', 'Wasabi', "is on NanookTheWolf; el simo's vote at #338 is for Wasabi", [338]),
    ]),
    context: context({ histories: [posted(338, 'el simo', ['Wasabi'])] }),
    cause: 'moderator',
  },
  {
    rule: "a count at odds with more than half the Day's living players is another count (the votes reset after a first lynch): Votal's",
    source: 'MafiaScum game 1721 post #805 (Day 1 of two lynches, 12 alive)',
    count: countAt(
      805,
      ['Ricastle', 'Gorkington', 'Fro99er', 'Ankamius', 'Luna Fox', 'Davsto', 'Aristophanes'].map((p) =>
        voter(p, 'Davsto', 'Not_Mafia', `is on Davsto; ${p}'s vote is for Not_Mafia`),
      ),
    ),
    context: context({ living: 12 }),
    cause: 'votal',
  },
  {
    rule: "four votes Votal read, left off a count of 13 alive: still the moderator's slip",
    source: 'MafiaScum game 1146 post #282 (DarthYoshi\'s #66 "Vote: Gandalf" among them)',
    count: countAt(
      282,
      [
        ['hitogoroshi', 38],
        ['DarthYoshi', 66],
        ['CooLDoG', 84],
        ['RedCoyote', 155],
      ].map(([p, at]) =>
        voter(String(p), 'not voting', 'gandalf5166', `is not voting; ${p}'s vote at #${at} is for gandalf5166`, [
          Number(at),
        ]),
      ),
    ),
    context: context({
      living: 13,
      histories: [
        posted(38, 'hitogoroshi', ['gandalf5166']),
        posted(66, 'DarthYoshi', ['gandalf5166']),
        posted(84, 'CooLDoG', [null, 'gandalf5166']),
        posted(155, 'RedCoyote', ['gandalf5166']),
      ],
    }),
    cause: 'moderator',
  },
  {
    rule: "the vote Votal counts is a moderator's own post (their count read as a player's vote): Votal's",
    source: "MafiaScum game 1543 post #300 (#250, Natirasha's Vote Count 1.10)",
    count: countAt(300, [
      voter(
        'MafiaSSK',
        'zMuffinMan',
        'No Lynch',
        "is on zMuffinMan; MafiaSSK's vote at #250 (posted as Natirasha) is for No Lynch",
        [250],
      ),
    ]),
    context: context({ byHost: (post) => post === 250 }),
    cause: 'votal',
  },
  {
    rule: "a replacement's vote Votal read, the count on another wagon: the moderator's (the GM's replacement news is no vote)",
    source: 'MafiaScum game 1742 post #1131 (jeanne11, posted as ICEninja: "Unvote, Vote A Simple Plan")',
    count: countAt(1131, [
      voter(
        'jeanne11',
        'Titus',
        'A Simple Plan',
        "is on Titus; jeanne11's vote at #1061 (posted as ICEninja) is for A Simple Plan",
        [1061, 1090],
      ),
    ]),
    context: context({
      slotOf: (a) => (a === 'ICEninja' ? 'jeanne11' : a),
      histories: [posted(1061, 'ICEninja', [null, 'A Simple Plan'])],
      byHost: (post) => post === 1090,
    }),
    cause: 'moderator',
  },
  {
    rule: "the count says the GM left votes out on purpose, and Votal counts one: the GM's ruling, Votal's",
    source: 'MafiaScum game 1505 post #55 ("This vote does not meet the stated voting rules and hasn\'t been counted")',
    count: countAt(55, [
      voter(
        'Sir Bastion',
        'not voting',
        'F-16_Fighting_Falcon',
        "is not voting; Sir Bastion's vote at #16 is for F-16_Fighting_Falcon",
        [16],
      ),
    ]),
    context: context({ leavesOut: true, histories: [posted(16, 'Sir Bastion', ['F-16_Fighting_Falcon'])] }),
    cause: 'votal',
  },
  {
    rule: "Votal has no vote by a voter who posted one that Day: Votal's count dropped it, Votal's",
    source: 'MafiaScum game 1107 post #100 (_over9000\'s replacement Vigilante Ventriloquist, #80 "Vote: ICEninja")',
    count: countAt(100, [
      voter('_over9000', 'ICEninja', 'not voting', 'is on ICEninja; Votal has no vote by _over9000 by #99'),
    ]),
    context: context({
      slotOf: (a) => (a === 'Vigilante Ventriloquist' ? '_over9000' : a),
      histories: [posted(80, 'Vigilante Ventriloquist', ['ICEninja'])],
    }),
    cause: 'votal',
  },
  {
    rule: "Votal has no vote by a voter who posted none, the count has one: the moderator's",
    source: 'MafiaScum game 1221 post #82 ("Zdenek - Nintendoaddict", the vote written reversed)',
    count: countAt(82, [
      voter('nintendoaddict1', 'Zdenek', 'not voting', 'is on Zdenek; Votal has no vote by nintendoaddict1 by #81'),
    ]),
    context: context({ histories: [posted(70, 'nintendoaddict1', [])] }),
    cause: 'moderator',
  },
  {
    rule: "fewer names than the wagon's number, every name read: a vote the moderator counted and did not write",
    source: 'MafiaScum game 1600 post #327 ("Flubbernugget: (5) Boonskiies, cerberus48, TobyLoby, bjc")',
    count: countAt(327, [wagon('Flubbernugget', 'says 5 but names 4')]),
    context: context(),
    cause: 'moderator',
  },
  {
    rule: "fewer names than the wagon's number and a name the reader could not read: the reader's",
    source: 'MafiaScum game 1140 post #212 ("banned loser")',
    count: countAt(212, [wagon('Haylen', 'says 2 but names 1'), unread('banned loser')]),
    context: context(),
    cause: 'reader',
  },
];

describe("whose miss a moderator's count's difference is (real-games bench, issue #24)", () => {
  it.each(CASES.map((c) => [c.rule, c] as const))('%s', (_rule, c) => {
    expect(causeOf(c.count, c.context)).toBe(c.cause);
  });
});

const bodyOf = (html: string) =>
  parseFragment(html, adapterOf('phpbb').descriptor.body, 'https://forum.mafiascum.net/viewtopic.php?t=1');

describe('a count that says the GM left votes out on purpose', () => {
  it.each([
    // MafiaScum game 1505 post #55 (donbot data 739243d)
    ["This vote does not meet the stated voting rules.and hasn't been counted.<br>Vote Count 1.01", true],
    // MafiaScum game 1836 post #2846 (donbot data 739243d)
    ['Mod notes:<br>These votes were after deadline and cannot be counted.', true],
    // MafiaScum game 1241 post #353: a count's ordinary notes
    ['Vote Count 2.5<br>Not Voting:<br>Five to lynch.', false],
    // Someone else's words in a quote are not the GM's
    ['<blockquote><div><cite>Bob wrote:</cite>my vote was not counted</div></blockquote>Vote Count 1.2', false],
  ])('%j: %s', (html, says) => {
    expect(leavesVotesOut(bodyOf(html))).toBe(says);
  });
});
