import { describe, expect, it } from 'vitest';
import { parseFragment } from '../../scrapers/fragment.js';
import { adapterOf } from '../../scrapers/identify.js';
import type { ActionKind, Effect, MatchKind } from '../../src/model/action.js';
import { readPost } from '../../src/parse/read-post.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { roster } from './build.js';

/*
 * Never silent (issue #24): vote-shaped text in a real MafiaScum post gives a vote, an
 * unvote, a review or a format violation, never nothing. Each case is the post's own HTML
 * as MafiaScum serves it, read through the phpBB adapter (donbot data 739243d); the
 * audit over every game is bench/silent-votes.ts.
 */

const markup = adapterOf('phpbb').descriptor.body;
const mafiascum = loadRuleset('mafiascum-majority');
const URL = 'https://forum.mafiascum.net/viewtopic.php?t=21350';

const bold = (html: string): string => `<div style="display:inline;font-weight:bold">${html}</div>`;
const tag = (text: string): string =>
  `<span class="bbvote" title="This is an official ${/^un/i.test(text) ? 'unvote' : 'vote'}.">${text}</span>`;

/** MafiaScum game 1318's players at Day 4 (thread 21350). */
const GAME_1318 = ['vijay2vasandani', 'havingfitz', 'mastin2', 'charter', 'UberNinja', 'The Mini-Librarian'];

interface Case {
  name: string;
  html: string;
  players?: string[];
  effect: Effect;
  /** [kind, target, match] of every action, in order. */
  actions: [ActionKind, string | null, MatchKind][];
  /** The format violations' details, in order. */
  format?: string[];
}

const vote = (target: string): Effect => ({ kind: 'vote', target, reason: null });
const review = (reason: Effect['reason'], target: string | null = null): Effect => ({ kind: 'review', target, reason });
const UNVOTE: Effect = { kind: 'unvote', target: null, reason: null };
const NONE: Effect = { kind: 'none', target: null, reason: null };

const officialTags: Case[] = [
  {
    // MafiaScum game 1318, post #416 (donbot data 739243d): the Day 4 hammer, the name mistyped.
    name: 'a vote tag inside bold talk is its own vote, its name read as any vote name',
    html: bold(`Hammer ${tag('VOTE: Vijay2vasadani')}.`),
    effect: vote('vijay2vasandani'),
    actions: [['vote', 'vijay2vasandani', 'fuzzy']],
  },
  {
    name: 'a vote tag inside bold talk, its name exact, counts (not a doubtful vote)',
    html: bold(`Hammer ${tag('VOTE: vijay2vasandani')}.`),
    effect: vote('vijay2vasandani'),
    actions: [['vote', 'vijay2vasandani', 'exact']],
  },
  {
    name: 'a vote tag naming nobody goes to the GM as an unknown name',
    html: bold(`Hammer ${tag('VOTE: Zorblax')}.`),
    effect: review('unknown-target'),
    actions: [['vote', null, 'unknown']],
  },
  {
    // MafiaScum game 1499, post #912: bold "Confirm", a space, the tag.
    name: "a vote tag after a bold word and a space is not that word's name",
    html: `${bold('Confirm')} ${tag('VOTE: havingf')}`,
    effect: vote('havingfitz'),
    actions: [['vote', 'havingfitz', 'prefix']],
  },
  {
    // MafiaScum game 1843, post #815: "Wont be avaible for 2-3 days UNVOTE: michel".
    name: 'an unvote tag after bold talk is the unvote',
    html: `${bold('Wont be avaible for 2-3 days ')} ${tag('UNVOTE: charter')} havent read anything past page 27`,
    effect: UNVOTE,
    actions: [['unvote', 'charter', 'exact']],
  },
  {
    // MafiaScum game 1521, post #1497.
    name: 'an empty unvote tag in bold talk is an unvote',
    html: bold(`I'm not sure how proxy votes work, but Jake ${tag('UNVOTE: ')} as well.`),
    effect: UNVOTE,
    actions: [['unvote', null, 'none']],
  },
  {
    name: 'two tags side by side are two actions',
    html: `${tag('UNVOTE: charter')}${tag('VOTE: mastin2')}`,
    effect: vote('mastin2'),
    actions: [
      ['unvote', 'charter', 'exact'],
      ['vote', 'mastin2', 'exact'],
    ],
  },
  {
    // MafiaScum game 1379, post #53: "[/vote]" typed for "[/unvote]" leaves the tag open to the end.
    name: "an unclosed tag's talk on later lines is bold talk, not votes",
    html:
      'out of RVS so <span class="bbvote" title="This is an official unvote.">UNVOTE: charter[/vote]. And since you ' +
      `come late... ${tag('VOTE: mastin2')}. <div align="center"><hr></div> @UN...wth? Why would a ` +
      'vote down on someone halfway through page 2 be town?',
    effect: vote('mastin2'),
    actions: [
      ['unvote', 'charter', 'exact'],
      ['vote', 'mastin2', 'exact'],
    ],
  },
  {
    name: "a vote tag in a quote is someone else's vote",
    html: `<blockquote><div><cite>charter wrote:</cite>${tag('VOTE: mastin2')}</div></blockquote> agreed`,
    effect: NONE,
    actions: [],
  },
];

const boldTalk: Case[] = [
  {
    // MafiaScum game 1146, post #164: "confirm vote:gandy" for gandalf5166 (the slipped-prefix rung reads it).
    name: 'a bold "vote:" after other words goes to the GM, its name as read',
    html: `You simply sit around and make stupid comments like this. ${bold('confirm vote:gandy')}`,
    players: ['gandalf5166', 'CooLDoG', 'Occult'],
    effect: review('malformed-vote', 'gandalf5166'),
    actions: [['vote', 'gandalf5166', 'fuzzy']],
  },
  {
    // MafiaScum game 1180, post #681: a vigilante's vote, not the lynch vote.
    name: 'a bold "vig-vote:" goes to the GM, never counted',
    html: bold('vig-vote: weirdalexc'),
    players: ['wierdalexv', 'Soben', 'Elsa von Spielburg'],
    effect: review('malformed-vote', 'wierdalexv'),
    actions: [['vote', 'wierdalexv', 'fuzzy']],
  },
  {
    name: 'a bold "vote:" after other words naming a player exactly goes to the GM',
    html: bold('Confirm vote: charter'),
    effect: review('malformed-vote', 'charter'),
    actions: [['vote', 'charter', 'exact']],
  },
  {
    // MafiaScum game 1195, post #1086: "Reluctant" ends in "nt" but negates nothing.
    name: 'a word ending in "nt" before a bold "vote:" is no negation',
    html: bold('Reluctant vote: Sub'),
    players: ['Beck', 'Captain Spoon', 'subgenius', 'Tommy'],
    effect: review('malformed-vote', 'subgenius'),
    actions: [['vote', 'subgenius', 'prefix']],
  },
  {
    name: 'a negated bold vote is a request not to vote, even unbolded contractions',
    html: bold('dont vote charter'),
    effect: NONE,
    actions: [],
  },
  {
    // MafiaScum game 1873, post #1645: the moderator's rules quoted in bold after the vote.
    name: 'a quoted "Vote:" in bold talk is talked about, and the vote before it stands',
    html: `in which case confirming ${tag('VOTE: charter')}<br>${bold('So a bolded "Vote: Playername" will count')}`,
    effect: vote('charter'),
    actions: [['vote', 'charter', 'exact']],
  },
  {
    name: 'bold talk with a colonless "vote" and no player\'s name is talk',
    html: bold('I will vote for whoever claims'),
    effect: NONE,
    actions: [],
  },
];

const keywordTypos: Case[] = [
  {
    // MafiaScum game 1365, post #891: the vote for fatlikepig was lost behind the unvote.
    name: 'a short keyword with two letters swapped and its colon is the keyword',
    html: bold('unvote, vtoe: flp'),
    players: ['fatlikepig', 'theplague42', 'CooLDoG', 'ChaosOmega'],
    effect: vote('fatlikepig'),
    actions: [
      ['unvote', null, 'none'],
      ['vote', 'fatlikepig', 'acronym'],
    ],
  },
  {
    name: 'a short keyword swapped without its colon is a word',
    html: bold('vtoe charter'),
    effect: NONE,
    actions: [],
  },
];

const plainText: Case[] = [
  {
    name: 'a plain "vote:" after a word is reported as not bold',
    html: 'Hammer VOTE: vijay2vasandani',
    effect: NONE,
    actions: [],
    format: ['vote not in bold: VOTE: vijay2vasandani'],
  },
  {
    name: 'a plain "vote:" after a mark is talk about votes',
    html: 'Template for everyone: [code]Vote: Frank[/code]',
    effect: NONE,
    actions: [],
    format: [],
  },
];

function check(c: Case): void {
  const body = parseFragment(c.html, markup, URL);
  const players = roster(c.players ?? GAME_1318);
  const reading = readPost({ body, edit: null }, players, mafiascum);
  expect(reading.effect).toEqual(c.effect);
  expect(reading.actions.map((a) => [a.kind, a.target, a.match])).toEqual(c.actions);
  if (c.format) expect(reading.violations.filter((v) => v.kind === 'format').map((v) => v.detail)).toEqual(c.format);
}

describe('never silent: official vote tags', () => {
  for (const c of officialTags) it(c.name, () => check(c));
});

describe('never silent: a bold "vote:" in talk', () => {
  for (const c of boldTalk) it(c.name, () => check(c));
});

describe('never silent: a short keyword mistyped', () => {
  for (const c of keywordTypos) it(c.name, () => check(c));
});

describe('never silent: a plain "vote:" after a word', () => {
  for (const c of plainText) it(c.name, () => check(c));
});
