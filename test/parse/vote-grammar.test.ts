import { describe, expect, it } from 'vitest';
import type { ActionKind, Effect } from '../../src/model/action.js';
import { ownLines } from '../../src/parse/own-text.js';
import { readPost, type PostInput } from '../../src/parse/read-post.js';
import { findActions } from '../../src/parse/vote-grammar.js';
import type { RulesetInput } from '../../src/rules/ruleset.js';
import {
  b,
  br,
  code,
  color,
  grammar,
  i,
  mention,
  post,
  quote,
  roster,
  rules,
  s,
  sig,
  size,
  spoiler,
  u,
} from './build.js';

const NO_LYNCH: RulesetInput['noLynch'] = { name: 'No Lynch', keywords: ['no lynch', 'no elimination', 'sleep'] };
const SIDE: RulesetInput['votes'] = {
  side: { hammer: ['hammer'], filibuster: ['filibuster'], veto: ['veto'], forgive: ['forgive'] },
};

interface Case {
  name: string;
  post: PostInput;
  rules?: Partial<RulesetInput>;
  effect: Effect;
  /** [kind, target] of every action, in order. */
  actions?: [ActionKind, string | null][];
  /** Format violations expected (detail prefixes); none when empty. */
  format?: string[];
}

const vote = (target: string | null): Effect => ({ kind: 'vote', target, reason: null });
const NONE: Effect = { kind: 'none', target: null, reason: null };
const UNVOTE: Effect = { kind: 'unvote', target: null, reason: null };

const cases: Case[] = [
  // Where a vote may stand
  { name: 'bold "Vote: X" is a vote', post: post(b('Vote: Bob')), effect: vote('Bob'), actions: [['vote', 'Bob']] },
  { name: 'keywords are case-insensitive', post: post(b('VOTE: bob')), effect: vote('Bob') },
  {
    name: 'a keyword is a whole word ("Votes:" is not "Vote:")',
    post: post(b('Votes: Bob is at 3')),
    effect: NONE,
    actions: [],
  },
  {
    name: 'vote inside a quote is not a vote',
    post: post(quote('Ann', b('Vote: Bob')), 'agreed'),
    effect: NONE,
    actions: [],
  },
  {
    name: 'vote inside nested quote is not a vote',
    post: post(quote('Ann', 'hm', quote('Cy', b('Vote: Bob'))), 'ok'),
    effect: NONE,
    actions: [],
  },
  {
    name: 'own vote after a quote counts',
    post: post(quote('Ann', b('Vote: Bob')), b('Vote: Zeke')),
    effect: vote('Zeke'),
  },
  { name: 'struck-through vote does not count', post: post(s(b('Vote: Bob'))), effect: NONE, actions: [] },
  {
    name: 'struck name replaced in the same bold run',
    post: post(b('Vote: ', s('Bob'), ' Zeke')),
    effect: vote('Zeke'),
  },
  {
    name: 'vote in code block does not count',
    post: post('look:', code('[b]Vote: Bob[/b]')),
    effect: NONE,
    actions: [],
  },
  { name: 'vote in a signature does not count', post: post('hi', sig(b('Vote: Bob'))), effect: NONE, actions: [] },
  {
    name: 'spoiler vote ignored by default',
    post: post(spoiler(b('Vote: Bob'))),
    effect: NONE,
    actions: [],
    format: ['vote inside a spoiler: Vote: Bob'],
  },
  {
    name: 'spoiler vote counts when ruleset allows',
    post: post(spoiler(b('Vote: Bob'))),
    rules: { votes: { spoilers: true } },
    effect: vote('Bob'),
  },

  // Several actions
  {
    name: 'last vote in the post wins',
    post: post(b('Vote: Bob'), br(), 'changed my mind', br(), b('Vote: Zeke')),
    effect: vote('Zeke'),
  },
  {
    name: 'unvote after a vote leaves the post an unvote',
    post: post(b('Vote: Bob'), br(), b('Unvote')),
    effect: UNVOTE,
  },
  {
    name: 'Unvote; Vote: X in one bold run',
    post: post(b('Unvote; Vote: Zeke')),
    effect: vote('Zeke'),
    actions: [
      ['unvote', null],
      ['vote', 'Zeke'],
    ],
  },
  {
    name: 'unvote vote X without a separator',
    post: post(b('unvote vote Zeke')),
    effect: vote('Zeke'),
    actions: [
      ['unvote', null],
      ['vote', 'Zeke'],
    ],
  },
  {
    name: 'named unvote then vote without a separator',
    post: post(b('unvote Bob vote Zeke')),
    effect: vote('Zeke'),
    actions: [
      ['unvote', 'Bob'],
      ['vote', 'Zeke'],
    ],
  },
  {
    name: '##unvote ##vote X',
    post: post(b('##unvote ##vote Zeke')),
    effect: vote('Zeke'),
    actions: [
      ['unvote', null],
      ['vote', 'Zeke'],
    ],
  },
  {
    name: 'Vote: X and unvote in one run, in order',
    post: post(b('Vote: Bob, unvote')),
    effect: UNVOTE,
    actions: [
      ['vote', 'Bob'],
      ['unvote', null],
    ],
  },
  {
    name: 'unvote and vote on two lines of one bold element',
    post: post(b('Unvote', br(), 'Vote: Zeke')),
    effect: vote('Zeke'),
  },
  {
    name: 'named unvote is an unvote',
    post: post(b('Vote: Bob'), br(), b('Unvote: Bob')),
    effect: UNVOTE,
    actions: [
      ['vote', 'Bob'],
      ['unvote', 'Bob'],
    ],
  },
  { name: '"Vote: unvote" is an unvote', post: post(b('Vote: unvote')), effect: UNVOTE, actions: [['unvote', null]] },
  {
    // mafiascum game 1848 post #727: "[vote]UNVOTE MISA[/vote]".
    name: 'a vote tag around a typed unvote is the unvote of the name after it',
    post: post(b('VOTE: UNVOTE ZEKE')),
    effect: UNVOTE,
    actions: [['unvote', 'Zeke']],
  },
  {
    // mafiascum game 1101 post #197: "[b]Unvote.[/b]".
    name: 'punctuation after an unvote is no name',
    post: post(b('Unvote.')),
    effect: UNVOTE,
    actions: [['unvote', null]],
  },
  {
    // mafiascum game 1777 post #580 ("[/uv["), game 1393 post #1370 ("[\b]").
    name: 'a mistyped closing tag after the name is not part of it',
    post: post(b('VOTE: unvote: Zeke[/uv['), br(), b('Vote: Bob[\\b]')),
    effect: vote('Bob'),
    actions: [
      ['unvote', 'Zeke'],
      ['vote', 'Bob'],
    ],
  },
  { name: '##vote prefix', post: post(b('##vote Zeke')), effect: vote('Zeke') },
  {
    name: 'single # and punctuation before the keyword',
    post: post(b('#Vote: Zeke'), br(), b('-> vote: Bob')),
    effect: vote('Bob'),
  },

  // Bold chatter
  {
    name: 'bold chatter mentioning vote is not a vote',
    post: post(b('I will vote for whoever claims')),
    effect: NONE,
    actions: [],
    format: [],
  },
  { name: '"don\'t vote Bob" is not a vote', post: post(b("don't vote Bob")), effect: NONE, actions: [] },
  { name: '"my vote is staying" is not a vote', post: post(b('my vote is staying')), effect: NONE, actions: [] },
  {
    name: 'a quoted keyword is talk about the word',
    post: post(b('"vote" is a funny word')),
    effect: NONE,
    actions: [],
  },
  { name: '"vote count?" asks for a count', post: post(b('Vote count?')), effect: NONE, actions: [] },
  { name: '"vote for X" votes X', post: post(b('Vote for Zeke')), effect: vote('Zeke') },

  // Bold
  {
    name: 'unbolded vote ignored when bold required',
    post: post('Vote: Bob'),
    effect: NONE,
    actions: [],
    format: ['vote not in bold: Vote: Bob'],
  },
  {
    // mafiascum game 1121 post #283 ("[b]unvote[/b]"), game 1121 post #554 ("Vote: mb[/b]").
    name: "bold tags the forum left as text are the player's bold",
    post: post('[b]unvote[/b]', br(), 'Vote: Zeke[/b]', br(), "I'm not sure I'll be active"),
    effect: vote('Zeke'),
    actions: [
      ['unvote', null],
      ['vote', 'Zeke'],
    ],
  },
  {
    name: 'plain line vote counts when bold is optional',
    post: post('Vote: Bob'),
    rules: { votes: { bold: 'optional' } },
    effect: vote('Bob'),
  },
  {
    name: 'bold optional still needs the keyword at the start of the line',
    post: post('I think I would vote Bob today'),
    rules: { votes: { bold: 'optional' } },
    effect: NONE,
  },
  {
    name: 'a run split across adjacent bold elements joins',
    post: post(b('Vo'), b('te: '), b('Zeke')),
    effect: vote('Zeke'),
  },
  {
    name: 'bold split by a space between two bold elements joins',
    post: post(b('Vote:'), ' ', b('Zeke')),
    effect: vote('Zeke'),
  },
  {
    // mafiascum game 1892 post #743: two [vote] tags, each its own bold span.
    name: 'two bold votes side by side are two actions, the last one counts',
    post: post(b('VOTE: unvote'), ' ', b('VOTE: Zeke')),
    effect: vote('Zeke'),
    actions: [
      ['unvote', null],
      ['vote', 'Zeke'],
    ],
  },
  {
    name: 'a bold vote with its name is not joined to the next bold vote',
    post: post(b('VOTE: Bob'), ' ', b('VOTE: Zeke')),
    effect: vote('Zeke'),
    actions: [
      ['vote', 'Bob'],
      ['vote', 'Zeke'],
    ],
  },
  {
    // mafiascum game 1715 post #348: "[vote]ciara[/vote] [b]ciara is now at L-1[/b]".
    name: 'bold talk after a bold vote with its name is not part of the name',
    post: post(b('VOTE: Zeke'), ' ', b('Zeke is now at L-1')),
    effect: vote('Zeke'),
    actions: [['vote', 'Zeke']],
  },
  {
    name: 'bold keyword with the name in plain text on the same line',
    post: post(b('Vote:'), ' Zeke'),
    effect: vote('Zeke'),
  },
  {
    name: 'colour, size, italic and underline inside the bold vote are transparent',
    post: post(b(color('#f00', 'Vote: '), size('5', i(u('Zeke'))))),
    effect: vote('Zeke'),
  },
  { name: 'bold inside colour still counts', post: post(color('blue', b('Vote: Zeke'))), effect: vote('Zeke') },

  // Colon
  { name: 'colon optional accepts "vote bob"', post: post(b('vote bob')), effect: vote('Bob') },
  {
    name: "colon required rejects 'vote bob'",
    post: post(b('vote bob')),
    rules: { votes: { colon: 'required' } },
    effect: NONE,
    actions: [],
    format: ['vote without a colon: vote bob'],
  },
  {
    name: 'colon required accepts "Vote : Bob"',
    post: post(b('Vote : Bob')),
    rules: { votes: { colon: 'required' } },
    effect: vote('Bob'),
  },

  // Own line
  {
    name: 'own-line rule rejects a vote mid-sentence',
    post: post('I think ', b('Vote: Bob'), ' is right'),
    rules: { votes: { ownLine: true } },
    effect: NONE,
    actions: [],
    format: ['vote not on a line of its own: Vote: Bob'],
  },
  {
    name: 'own-line rule accepts a vote alone on its line',
    post: post('Bob lied.', br(), b('Vote: Bob'), br(), 'More later.'),
    rules: { votes: { ownLine: true } },
    effect: vote('Bob'),
  },
  {
    name: 'own-line rule does not let extra words pass as a name',
    post: post(b('Vote: Bob because he lied')),
    rules: { votes: { ownLine: true } },
    effect: { kind: 'review', target: null, reason: 'unknown-target' },
  },
  {
    name: 'without own-line, words after the name are reasons',
    post: post(b('Vote: Bob because he lied')),
    effect: vote('Bob'),
  },

  // Empty votes
  {
    name: 'empty vote goes to review by default',
    post: post(b('Vote:')),
    effect: { kind: 'review', target: null, reason: 'empty-vote' },
    actions: [['vote', null]],
  },
  {
    name: 'empty vote is an unvote when the ruleset says so',
    post: post(b('Vote:')),
    rules: { votes: { emptyVote: 'unvote' } },
    effect: UNVOTE,
  },
  {
    name: 'empty vote is ignored when the ruleset says so',
    post: post(b('Vote: Bob'), br(), b('Vote:')),
    rules: { votes: { emptyVote: 'ignore' } },
    effect: vote('Bob'),
  },

  // No Lynch
  ...['No Lynch', 'no-lynch', 'nolynch', 'NO  LYNCH', 'No elimination'].map(
    (spelling): Case => ({
      name: `No Lynch spellings: "${spelling}"`,
      post: post(b(`Vote: ${spelling}`)),
      rules: { noLynch: NO_LYNCH },
      effect: vote('No Lynch'),
      actions: [['vote', 'No Lynch']],
    }),
  ),
  {
    name: 'Sleep keyword',
    post: post(b('Vote: Sleep')),
    rules: { noLynch: { name: 'Sleep', keywords: ['sleep'] } },
    effect: vote('Sleep'),
  },
  {
    name: 'bold No Lynch alone on its line is a vote for it',
    post: post(b('No Lynch')),
    rules: { noLynch: NO_LYNCH },
    effect: vote('No Lynch'),
  },
  {
    name: 'bold "no lynch" inside a sentence is talk',
    post: post('I think ', b('no lynch'), ' is bad'),
    rules: { noLynch: NO_LYNCH },
    effect: NONE,
  },
  {
    name: 'Abstain is a keyword target like No Lynch',
    post: post(b('Vote: abstain')),
    rules: { abstain: { name: 'Abstain', keywords: ['abstain', 'abstaining'] } },
    effect: vote('Abstain'),
    actions: [['vote', 'Abstain']],
  },
  {
    name: 'bold Abstain alone on its line is a vote for it',
    post: post(b('Abstaining')),
    rules: { abstain: { name: 'Abstain', keywords: ['abstain', 'abstaining'] } },
    effect: vote('Abstain'),
  },
  {
    name: 'No Lynch vote where the ruleset has none goes to review',
    post: post(b('Vote: No Lynch')),
    effect: { kind: 'review', target: null, reason: 'no-lynch-not-allowed' },
  },

  // Side actions
  {
    name: 'hammer is a side action',
    post: post(b('Vote: Bob'), br(), b('Hammer')),
    rules: { votes: SIDE },
    effect: vote('Bob'),
    actions: [
      ['vote', 'Bob'],
      ['hammer', null],
    ],
  },
  {
    name: '"Vote: Hammer" is the hammer side vote',
    post: post(b('Vote: Hammer')),
    rules: { votes: SIDE },
    effect: NONE,
    actions: [['hammer', null]],
  },
  {
    name: 'filibuster is a side action',
    post: post(b('Filibuster')),
    rules: { votes: SIDE },
    effect: NONE,
    actions: [['filibuster', null]],
  },
  {
    name: 'veto X names a player',
    post: post(b('Veto Zeke')),
    rules: { votes: SIDE },
    effect: NONE,
    actions: [['veto', 'Zeke']],
  },
  {
    name: 'forgive X names a player',
    post: post(b('forgive: Bob')),
    rules: { votes: SIDE },
    effect: NONE,
    actions: [['forgive', 'Bob']],
  },
  { name: 'side keywords the ruleset lacks are not actions', post: post(b('Veto Zeke')), effect: NONE, actions: [] },
  {
    name: 'hammer and vote in one run',
    post: post(b('Hammer; Vote: Zeke')),
    rules: { votes: SIDE },
    effect: vote('Zeke'),
    actions: [
      ['hammer', null],
      ['vote', 'Zeke'],
    ],
  },

  // Targets
  { name: 'mention link as target', post: post(b('Vote: ', mention('Peggy Sue'))), effect: vote('Peggy Sue') },
  { name: 'decorated name Bob (L-2)', post: post(b('Vote: Bob (L-2)')), effect: vote('Bob') },
  {
    // mafiascum game 1725 post #874 (donbot data 739243d): "[b]intent to vote firesong[/b]".
    name: 'a vote announced with "intent to" is reported, not cast',
    post: post(b('intent to vote Zeke'), br(), 'There is no way on earth she believes what she writes.'),
    effect: NONE,
    actions: [],
    format: ['vote announced, not cast: intent to vote Zeke'],
  },
  {
    // mafiascum game 1642 post #1062: "[b]pseudo vote Acryon[/b] (with no colon)".
    name: 'a "pseudo vote" is reported, not cast',
    post: post(b('pseudo vote Zeke'), ' (with no colon)'),
    effect: NONE,
    actions: [],
    format: ['vote announced, not cast: pseudo vote Zeke'],
  },
  {
    // mafiascum game 1651 post #858: "[b]vote eektor[/b] would have my support."
    name: 'a bold vote a modal follows is supposed: the GM reads it',
    post: post(b('vote Zeke'), ' would have my support.'),
    effect: { kind: 'review', target: 'Zeke', reason: 'malformed-vote' },
    actions: [['vote', 'Zeke']],
  },
  {
    name: 'custom keywords (voto / desvoto)',
    post: post(b('desvoto'), br(), b('voto: Zeke')),
    rules: { votes: { keywords: { vote: ['voto'], unvote: ['desvoto'] } } },
    effect: vote('Zeke'),
  },
];

describe('vote grammar', () => {
  it.each(cases)('$name', (c) => {
    const reading = readPost(c.post, roster(), rules(c.rules ?? {}));
    expect(reading.effect).toEqual(c.effect);
    if (c.actions) expect(reading.actions.map((a) => [a.kind, a.target])).toEqual(c.actions);
    if (c.format) {
      const quiet = readPost(c.post, roster(), rules(c.rules ?? {}), { formatViolations: false });
      expect(quiet.violations.filter((v) => v.kind === 'format')).toEqual([]);
      const details = reading.violations.filter((v) => v.kind === 'format').map((v) => v.detail);
      expect(details).toEqual(c.format);
    }
  });

  it('keeps the raw text of each action and where it stands', () => {
    const lines = ownLines(post(b('Unvote; Vote: Zeke')).body);
    const found = findActions(lines, grammar());
    expect(found.actions.map((a) => [a.raw, a.written, a.span])).toEqual([
      ['Unvote', null, { line: 0, start: 0, end: 8 }],
      ['Vote: Zeke', 'Zeke', { line: 0, start: 8, end: 18 }],
    ]);
  });
});
