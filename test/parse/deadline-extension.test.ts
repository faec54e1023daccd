import { describe, expect, it } from 'vitest';
import type { PostEvent } from '../../src/model/event.js';
import { readPost } from '../../src/parse/read-post.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { countVotes } from '../../src/tally/count.js';
import { b, post, roster } from './build.js';

/*
 * Issue #24: MafiaScum players ask for more time with "Vote: Deadline Extension". It is the
 * mafiascum-majority ruleset's side vote (its vocabulary), never a lynch vote: the player's
 * lynch vote stands, nothing waits for the GM as an unread lynch vote, and the GM is told.
 */
const mafiascum = loadRuleset('mafiascum-majority');
const PLAYERS = roster([
  { name: 'AGar' },
  { name: 'Nachomamma8' },
  { name: 'Lateralus22' },
  { name: 'Seraphim' },
  { name: 'singersigner' },
  { name: 'Reckamonic' },
  { name: 'Guderian' },
  { name: 'Powerrox93' },
  { name: 'Thor' },
  { name: 'Blood Queen' },
]);

// The posts as written, MafiaScum (donbot data 739243d).
const asked: [string, string][] = [
  ['game 1094 post #554', 'Vote: Deadline Extension'],
  ['game 1094 post #556 (the moderator’s own spelling, #553)', 'Vote: Deadline Extention'],
  ['game 1511 post #528', 'Vote: DEADLINE Extension.'],
  ['game 1511 post #429', 'VOTE: Extend deadline'],
  ['game 1474 post #457', 'Vote extension.'],
  ['game 1474 post #461', 'Vote to extend deadline'],
  ['game 1862 post #47', 'VOTE: Extension'],
];

describe('"Vote: Deadline Extension" is a side vote, not a lynch vote', () => {
  it.each(asked)('%s: "%s"', (_source, written) => {
    const reading = readPost(post(b(written)), PLAYERS, mafiascum);
    expect(reading.actions.map((a) => a.kind)).toEqual(['filibuster']);
    expect(reading.effect).toEqual({ kind: 'none', target: null, reason: null });
  });

  it('a player whose name only starts with the word is still voted for', () => {
    const players = roster([{ name: 'Extensionist' }, { name: 'AGar' }]);
    expect(readPost(post(b('Vote: Extensionist')), players, mafiascum).effect).toEqual({
      kind: 'vote',
      target: 'Extensionist',
      reason: null,
    });
  });

  // Game 1094 D2, reduced: Nachomamma8 and Lateralus22 were on AGar, asked for the extension
  // (#554, #556), and Seraphim's vote at #564 was the hammer the moderator counted.
  it('the lynch votes stand and the hammer decides the Day; the GM is told of the request', () => {
    const event = (n: number, author: string, written: string): PostEvent => ({
      kind: 'post',
      post: n,
      author,
      time: null,
      permalink: `https://forum.test/p/${n}`,
      reading: readPost(post(b(written)), PLAYERS, mafiascum),
    });
    const tally = countVotes({
      ruleset: mafiascum,
      roster: PLAYERS,
      events: [
        event(1, 'Nachomamma8', 'Vote: AGar'),
        event(2, 'Lateralus22', 'Vote: AGar'),
        event(3, 'Reckamonic', 'Vote: AGar'),
        event(4, 'Guderian', 'Vote: AGar'),
        event(554, 'Nachomamma8', 'Vote: Deadline Extension'),
        event(556, 'Lateralus22', 'Vote: Deadline Extention'),
        event(564, 'Seraphim', 'Vote: AGar'),
        event(565, 'Thor', 'Vote: AGar'),
      ],
    });
    expect(tally.outcome).toMatchObject({ status: 'majority', eliminated: ['AGar'], decidedAt: 565 });
    expect(tally.outcome.held).toBeUndefined();
    expect(tally.flags.map((f) => [f.post, f.kind])).toEqual([
      [554, 'side-action-not-allowed'],
      [556, 'side-action-not-allowed'],
    ]);
  });
});
