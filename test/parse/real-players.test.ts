import { describe, expect, it } from 'vitest';
import type { ActionKind, Effect, MatchKind } from '../../src/model/action.js';
import type { PostEvent } from '../../src/model/event.js';
import type { SlotInput } from '../../src/model/roster.js';
import { readPost, type PostInput } from '../../src/parse/read-post.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { countVotes } from '../../src/tally/count.js';
import { b, br, color, post, roster } from './build.js';

/*
 * Issue #12: votes as real MafiaScum players write them, in the engine-neutral body (what
 * the phpBB adapter makes of `span.noboldsig`, `span.bbvote`, inline-style bold and an
 * inline div once it reads them as bold and inline). The same posts in MafiaScum's HTML,
 * with their sources, are in fixtures/parse-cases/mafiascum.yaml.
 */

const mafiascum = loadRuleset('mafiascum-majority');

const PLAYERS: SlotInput[] = [
  { name: 'Zachstralkita' },
  { name: 'Scott Brosius' },
  { name: "Midnight's Sorrow" },
  { name: 'Aj The Epic' },
  { name: 'mario and lugi' },
  { name: 'kondi2424' },
  { name: 'Toto' },
  { name: 'TwoFace' },
  { name: 'Rainbowdash' },
  { name: 'Nikanor' },
  { name: 'Jabo' },
  { name: 'Robert', formerNames: ['Just Another Bob'] },
];

interface Case {
  name: string;
  post: PostInput;
  effect: Effect;
  /** [kind, target, match] of every action, in order. */
  actions: [ActionKind, string | null, MatchKind][];
}

const vote = (target: string): Effect => ({ kind: 'vote', target, reason: null });
const review = (reason: Effect['reason'], target: string | null = null): Effect => ({ kind: 'review', target, reason });
const NONE: Effect = { kind: 'none', target: null, reason: null };

const cases: Case[] = [
  // The real-game misses.
  {
    name: 'a unique initial ("vote: Z") names the one player it starts',
    post: post(b('vote: Z')),
    effect: vote('Zachstralkita'),
    actions: [['vote', 'Zachstralkita', 'prefix']],
  },
  {
    name: 'an initial several names start with is ambiguous',
    post: post(b('vote: T')),
    effect: review('ambiguous-target'),
    actions: [['vote', null, 'ambiguous']],
  },
  {
    name: 'a name written surname first',
    post: post(b('Vote: Brosius Scott')),
    effect: vote('Scott Brosius'),
    actions: [['vote', 'Scott Brosius', 'fuzzy']],
  },
  {
    name: 'a shortened two-word name ("Scotty B")',
    post: post(b('Vote: Scotty B')),
    effect: vote('Scott Brosius'),
    actions: [['vote', 'Scott Brosius', 'fuzzy']],
  },
  {
    name: 'an acronym through an apostrophe ("MS" for "Midnight\'s Sorrow")',
    post: post(b('VOTE: MS')),
    effect: vote("Midnight's Sorrow"),
    actions: [['vote', "Midnight's Sorrow", 'acronym']],
  },
  {
    name: '"NL" is the ruleset\'s No Lynch',
    post: post(b('Vote: NL')),
    effect: vote('No Lynch'),
    actions: [['vote', 'No Lynch', 'keyword']],
  },
  {
    name: '"Unvote: X / Vote: Y" with Y unreadable: review, and the unvote applies',
    post: post(b('Unvote: Toto / Vote: Zorgblat')),
    effect: { ...review('unknown-target'), unvoted: true },
    actions: [
      ['unvote', 'Toto', 'exact'],
      ['vote', null, 'unknown'],
    ],
  },
  {
    name: 'a mistyped closing tag shown as text is not an unvote',
    post: post(b('VOTE: kondi[/unvote]')),
    effect: vote('kondi2424'),
    actions: [['vote', 'kondi2424', 'prefix']],
  },
  {
    name: '"Unovte; Vote: X": two swapped letters are still the keyword',
    post: post(b('Unovte; Vote: Toto')),
    effect: vote('Toto'),
    actions: [
      ['unvote', null, 'none'],
      ['vote', 'Toto', 'exact'],
    ],
  },
  {
    name: '"unvoteing" is the ruleset\'s unvote',
    post: post(b('unvoteing'), ' for now'),
    effect: { kind: 'unvote', target: null, reason: null },
    actions: [['unvote', null, 'none']],
  },
  {
    // mafiascum game 1385 post #31 ("Revote: monkeyman576"), game 1472 post #588.
    name: '"Re-Vote: X" is a vote',
    post: post(b('Re-Vote: Toto')),
    effect: vote('Toto'),
    actions: [['vote', 'Toto', 'exact']],
  },
  {
    // mafiascum game 1161 post #812: "Vote to Hammer: hiplop".
    name: '"Vote to Hammer: X" votes X',
    post: post(b('Vote to Hammer: Toto')),
    effect: vote('Toto'),
    actions: [['vote', 'Toto', 'exact']],
  },
  {
    // mafiascum game 1666 post #186: "Vote: lynch dragonspawn".
    name: '"Vote: lynch X" votes X',
    post: post(b('Vote: lynch Toto')),
    effect: vote('Toto'),
    actions: [['vote', 'Toto', 'exact']],
  },
  {
    name: '"Vote: lynch X" naming nobody goes to the GM as written',
    post: post(b('Vote: lynch Zorgblat')),
    effect: review('unknown-target'),
    actions: [['vote', null, 'unknown']],
  },
  {
    // mafiascum game 1685 post #2802: "EPM will hammer Varsoon if he gets a chance. Unvote the fuck up."
    name: 'a later clause "Unvote" telling others what to do is talk',
    post: post(b('Toto will hammer TwoFace if he gets a chance. Unvote the heck up.')),
    effect: NONE,
    actions: [],
  },
  {
    name: 'a later clause "unvote" naming a player is the unvote',
    post: post(b('FoS: TwoFace, unvote Toto')),
    effect: { kind: 'unvote', target: null, reason: null },
    actions: [['unvote', 'Toto', 'exact']],
  },

  // What other counters' cases taught.
  {
    name: 'bold with the name in an inline colour span is one vote',
    post: post(b('Vote: ', color('red', 'Toto'))),
    effect: vote('Toto'),
    actions: [['vote', 'Toto', 'exact']],
  },
  {
    name: '"FoS: X, Vote: Y" votes Y',
    post: post(b('FoS: TwoFace, Vote: Toto')),
    effect: vote('Toto'),
    actions: [['vote', 'Toto', 'exact']],
  },
  {
    name: '"Cross fingers, vote Y." votes Y',
    post: post(b('Cross fingers, vote Toto.')),
    effect: vote('Toto'),
    actions: [['vote', 'Toto', 'exact']],
  },
  {
    name: '"Vote to No Lynch" is No Lynch',
    post: post(b('Vote to No Lynch')),
    effect: vote('No Lynch'),
    actions: [['vote', 'No Lynch', 'keyword']],
  },
  {
    name: '"VOTE: vote X": the repeated keyword is not the name',
    post: post(b('VOTE: vote Toto')),
    effect: vote('Toto'),
    actions: [['vote', 'Toto', 'exact']],
  },
  {
    name: 'a short exact word of a longer name ("AJ")',
    post: post(b('vote AJ')),
    effect: vote('Aj The Epic'),
    actions: [['vote', 'Aj The Epic', 'substring']],
  },
  {
    name: '"&" for "and" in an acronym ("M&L")',
    post: post(b('VOTE: M&L')),
    effect: vote('mario and lugi'),
    actions: [['vote', 'mario and lugi', 'acronym']],
  },
  {
    name: '"Vote: X / or / Y" is ambiguous, never X',
    post: post(b('Vote: Rainbowdash / or / Nikanor')),
    effect: review('ambiguous-target'),
    actions: [['vote', null, 'ambiguous']],
  },
  {
    name: "a former name's acronym against a living player's plain match is ambiguous",
    post: post(b('VOTE: JAB')),
    effect: review('ambiguous-target'),
    actions: [['vote', null, 'ambiguous']],
  },
  {
    name: 'a bold vote keyword followed by an exact name mid-sentence goes to review',
    post: post(b('Hammer vote Toto....')),
    effect: review('malformed-vote', 'Toto'),
    actions: [['vote', 'Toto', 'exact']],
  },
  {
    name: 'a negated one does not ("Do not vote X")',
    post: post(b('Please, everyone! Do not vote Toto')),
    effect: NONE,
    actions: [],
  },
  {
    name: 'talk with "vote" and no name after it is not a vote',
    post: post(b('I will vote whoever claims last')),
    effect: NONE,
    actions: [],
  },
  {
    name: 'a later clause "vote" naming nobody is talk ("Vote counts follow")',
    post: post(b('Day 2 has begun. Vote counts will follow.')),
    effect: NONE,
    actions: [],
  },
  {
    name: 'a later clause "vote" about something else is talk',
    post: post(b('Sure, vote whoever you like')),
    effect: NONE,
    actions: [],
  },
  {
    name: 'a later clause "Vote:" naming nobody goes to the GM',
    post: post(b('FoS: TwoFace, Vote: Zorgblat')),
    effect: review('unknown-target'),
    actions: [['vote', null, 'unknown']],
  },
  // Issue #24. Mafiascum game 1540 (t=36986) post #51 and game 1827 (t=68153) post #2451, donbot
  // data 739243d: "VOTE: No One", "VOTE: No one.", on the moderators' No Lynch wagon.
  ...['VOTE: No One', 'VOTE: No one.', 'vote: nobody'].map(
    (line): Case => ({
      name: `a vote for nobody ("${line}") is No Lynch where the ruleset has one`,
      post: post(b(line)),
      effect: vote('No Lynch'),
      actions: [['vote', 'No Lynch', 'keyword']],
    }),
  ),
];

describe('votes as real players write them (issue #12)', () => {
  it.each(cases)('$name', (c) => {
    const reading = readPost(c.post, roster(PLAYERS), mafiascum);
    expect(reading.effect).toEqual(c.effect);
    expect(reading.actions.map((a) => [a.kind, a.target, a.match])).toEqual(c.actions);
  });

  it('a player whose name starts with the purpose word is that player', () => {
    // Read past "lynch", "Mob" would be Mobster's prefix.
    const players = roster([...PLAYERS, { name: 'Lynch Mob' }, { name: 'Mobster' }]);
    const reading = readPost(post(b('Vote: Lynch Mob')), players, mafiascum);
    expect(reading.effect).toEqual(vote('Lynch Mob'));
  });

  it('"Vote: Nobody" is the player it names before it is No Lynch', () => {
    const players = roster([...PLAYERS, { name: 'Nobody Special' }]);
    const reading = readPost(post(b('Vote: Nobody')), players, mafiascum);
    expect(reading.effect).toEqual(vote('Nobody Special'));
  });

  it('a vote for nobody where the ruleset has no No Lynch is refused for the GM', () => {
    const { noLynch: _, ...rest } = mafiascum;
    const reading = readPost(post(b('Vote: No One')), roster(PLAYERS), rest);
    expect(reading.effect).toEqual(review('no-lynch-not-allowed'));
  });

  it('"Vote: X / or / Y" names both players as candidates', () => {
    const reading = readPost(post(b('Vote: Rainbowdash / or / Nikanor')), roster(PLAYERS), mafiascum);
    expect(reading.actions[0]?.candidates).toEqual(['Rainbowdash', 'Nikanor']);
  });

  it('the count withdraws the old vote of "Unvote: X / Vote: (unreadable)" and flags the vote for the GM', () => {
    const event = (n: number, author: string, ...pieces: Parameters<typeof post>): PostEvent => ({
      kind: 'post',
      post: n,
      author,
      time: null,
      permalink: `https://forum.test/p/${n}`,
      reading: readPost(post(...pieces), roster(PLAYERS), mafiascum),
    });
    const tally = countVotes({
      ruleset: mafiascum,
      roster: roster(PLAYERS),
      events: [
        event(1, 'TwoFace', b('Vote: Toto')),
        event(2, 'TwoFace', 'changed my mind', br(), b('Unvote: Toto / Vote: Zorgblat')),
      ],
    });
    expect(tally.wagons).toEqual([]);
    expect(tally.flags.map((f) => [f.post, f.kind])).toEqual([[2, 'unknown-target']]);
  });

  it('without the unvote, an unreadable vote leaves the old vote standing', () => {
    const event = (n: number, ...pieces: Parameters<typeof post>): PostEvent => ({
      kind: 'post',
      post: n,
      author: 'TwoFace',
      time: null,
      permalink: `https://forum.test/p/${n}`,
      reading: readPost(post(...pieces), roster(PLAYERS), mafiascum),
    });
    const tally = countVotes({
      ruleset: mafiascum,
      roster: roster(PLAYERS),
      events: [event(1, b('Vote: Toto')), event(2, b('Vote: Zorgblat'))],
    });
    expect(tally.wagons.map((w) => [w.target, w.total])).toEqual([['Toto', 1]]);
  });
});
