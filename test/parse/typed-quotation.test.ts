import { describe, expect, it } from 'vitest';
import { parseFragment } from '../../scrapers/fragment.js';
import { adapterOf } from '../../scrapers/identify.js';
import type { ActionKind } from '../../src/model/action.js';
import { readPost } from '../../src/parse/read-post.js';
import { lineQuotations, typedQuotations } from '../../src/parse/typed-quotation.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { roster } from './build.js';

/*
 * Quoted text is never the poster's action; a bold unvote in prose still is one. The
 * real cases are the posts' own HTML as MafiaScum serves it (donbot data 739243d), read
 * through the phpBB adapter.
 */

const markup = adapterOf('phpbb').descriptor.body;
const mafiascum = loadRuleset('mafiascum-majority');
const URL = 'https://forum.mafiascum.net/viewtopic.php?t=27042';
const bold = (html: string): string => `<div style="display:inline;font-weight:bold">${html}</div>`;

/** The quoted part of each line, `|`-joined per line. */
function quotedParts(texts: string[]): string[] {
  return typedQuotations(texts).map((spans, i) => spans.map((s) => texts[i]!.slice(s.start, s.end)).join('|'));
}

describe('typed quotations over lines', () => {
  const cases: { name: string; lines: string[]; quoted: string[] }[] = [
    {
      name: 'a mark opening a word, closed by one ending a word lines later, quotes the lines between',
      lines: ['#555', '"If you think so.', 'VOTE: Nero', 'UNVOTE: Nero" he wrote'],
      quoted: ['', '"If you think so.', 'VOTE: Nero', 'UNVOTE: Nero"'],
    },
    {
      name: 'a mark no later line closes hides nothing',
      lines: ['"Stray mark', 'VOTE: Nero'],
      quoted: ['', ''],
    },
    {
      name: 'a quotation on one line is not one over lines (lineQuotations reads it)',
      lines: ['he said "VOTE: Nero" then', 'VOTE: Bob'],
      quoted: ['', ''],
    },
    {
      name: 'a line with an odd mark that neither closes nor opens stops the search',
      lines: ['"Open', 'a " b', 'VOTE: Nero"'],
      quoted: ['', '', ''],
    },
    {
      name: 'inner pairs on the lines between do not end the quotation',
      lines: ['“She said', 'it was "fine" and', 'VOTE: Nero”'],
      quoted: ['“She said', 'it was "fine" and', 'VOTE: Nero”'],
    },
  ];
  for (const c of cases) it(c.name, () => expect(quotedParts(c.lines)).toEqual(c.quoted));

  it('a quotation longer than 20 lines is a stray mark', () => {
    const lines = ['"Open', ...Array.from({ length: 21 }, () => 'talk'), 'VOTE: Nero"'];
    expect(quotedParts(lines).every((q) => q === '')).toBe(true);
  });
});

describe('quotations on one line', () => {
  const cases: { name: string; text: string; quoted: string[] }[] = [
    {
      name: 'a mark opening a word and the next ending one are a quotation',
      text: 'say "VOTE: Nero." then',
      quoted: ['"VOTE: Nero."'],
    },
    { name: 'each pair is its own quotation', text: '"a" and "b"', quoted: ['"a"', '"b"'] },
    { name: 'a lone mark quotes nothing', text: 'say "VOTE: Nero', quoted: [] },
    { name: 'a mark inside a word opens nothing', text: 'a"b VOTE: Nero"', quoted: [] },
  ];
  for (const c of cases)
    it(c.name, () => expect(lineQuotations(c.text).map((q) => c.text.slice(q.start, q.end))).toEqual(c.quoted));
});

interface Case {
  name: string;
  html: string;
  players: string[];
  actions: [ActionKind, string | null][];
}

const PLAYERS_1440 = ['Bomberman', 'rmpeacoc', 'Nero', 'Demon', 'petapan'];
const PLAYERS_1164 = ['lobstermania', 'RaudhrGarm', 'Spadille', 'don_johnson'];
const PLAYERS_1553 = ['bjc', 'Huntress', 'Kreacher', 'SiX', 'neil1113', 'Does Bo Know'];
const PLAYERS_1747 = ['iraonavp', 'Chaotic Neutrality', 'Flubbernugget', 'Raskolnikov', 'Soapbar'];
const tag = (text: string): string => `<span class="bbvote" title="This is an official vote.">${text}</span>`;

const posts: Case[] = [
  {
    // MafiaScum game 1440 post #752: the player quotes rmpeacoc's post #555 in an unclosed bold.
    name: 'votes in a typed quotation over lines are not the poster’s',
    html: bold(
      '#555<br>"If you think I\'m so scummy why aren\'t you voting me.<br><br>would you feel better if I voted him again?<br><br>VOTE: Nero<br>UNVOTE: Nero"<br><br>This is literally nothing but an appeal.',
    ),
    players: PLAYERS_1440,
    actions: [],
  },
  {
    name: 'the poster’s own vote after the closing mark still counts',
    html: bold('"If you think so.<br>VOTE: Nero" is what she wrote. VOTE: Demon'),
    players: PLAYERS_1440,
    actions: [['vote', 'Demon']],
  },
  {
    name: 'the poster’s own vote on the line after the quotation counts',
    html: `"If you think so.<br>${bold('VOTE: Nero')}"<br>${bold('VOTE: Demon')}`,
    players: PLAYERS_1440,
    actions: [['vote', 'Demon']],
  },
  {
    // MafiaScum game 1164 post #54: the moderator counted it an unvote once told (post #94, count #106).
    name: 'a bold unvote in a sentence about it still unvotes',
    html: `Of course Raud looks scummy, but my point was that I'm not ready to see him lynched yet.  What I should have done was ${bold('Unvote')}.<br>I think, given a few more pages, a stronger case against Raud could be built up.`,
    players: PLAYERS_1164,
    actions: [['unvote', null]],
  },
  {
    // MafiaScum game 1553 post #1420 (donbot data 739243d): the official tag opens inside
    // the quotation marks of words put in another player's mouth.
    name: 'an official vote inside quotation marks on its line is not the poster’s',
    html: `Man... That is so weak. In fact, I'm 99% certain that when I flip VT you will come in (after drawing attention) and say "${tag("VOTE:  he's scum because I said so like fifty pages back and I don't have a case on him.\"<br><br>That's after I flip VT, lmao.")}`,
    players: PLAYERS_1553,
    actions: [],
  },
  {
    // MafiaScum game 1747 post #532: a made-up dialogue, the tag before the closing mark.
    name: 'an official vote before the closing mark of its line is not the poster’s',
    html: `Me: "intent to hammer pls claim cn"<br>CN: *is afk*<br>You: "cn is afk"<br>Me: "k, ]v[]cn${tag('VOTE: [v/]')}"`,
    players: PLAYERS_1747,
    actions: [],
  },
  {
    name: 'the poster’s vote after a quotation on its line counts',
    html: `he said "I am town" ${bold('VOTE: Nero')}`,
    players: PLAYERS_1440,
    actions: [['vote', 'Nero']],
  },
];

describe('quotations are not the poster’s action', () => {
  for (const c of posts)
    it(c.name, () => {
      const body = parseFragment(c.html, markup, URL);
      const reading = readPost({ body, edit: null }, roster(c.players), mafiascum);
      expect(reading.actions.map((a) => [a.kind, a.target])).toEqual(c.actions);
    });
});

describe('a vote quoted on its line goes to the GM as a format note', () => {
  it('is reported, never dropped without a word', () => {
    const body = parseFragment(`you will say "${bold('VOTE: Nero')} because I said so."`, markup, URL);
    const reading = readPost({ body, edit: null }, roster(PLAYERS_1440), mafiascum);
    expect(reading.actions).toEqual([]);
    expect(reading.violations).toContainEqual({ kind: 'format', detail: 'vote inside quotation marks: VOTE: Nero' });
  });
});
