import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PostViolation } from '../../src/model/action.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { packageRoot } from '../../src/config/package-root.js';
import { countVotes } from '../../src/tally/count.js';
import { chatter, players, review, unvote, vote } from './log-builders.js';

const root = packageRoot();
const file = (path: string) => join(root, path);

/**
 * The standard fixture game (fixtures/games/standard-game.yaml) as the parser should read
 * it, post by post: the count of these readings must be the committed expected tally.
 */
const bad = (kind: PostViolation['kind']) => ({ violations: [{ kind, detail: kind }] });
const readings = [
  chatter(1, 'Moderator'),
  vote(2, 'Alice', 'Bob'),
  vote(3, 'Bob', 'Alice'),
  chatter(4, 'Carol'),
  vote(5, 'Dave', 'Bob'),
  vote(6, 'Eve', 'Alice', bad('image')),
  vote(7, 'Frank', 'Alice', bad('external-link')),
  vote(8, 'Davina', 'Sleep'),
  vote(9, 'Bob', 'Carol'),
  chatter(10, 'Alice', bad('code')),
  chatter(11, 'Carol'),
  vote(12, 'Eve', 'Carol'),
  unvote(13, 'Dave', bad('edit')),
  review(14, 'Frank', 'ambiguous-target', 'Vote: Dav', ['Dave', 'Davina']),
  vote(15, 'Lurker', 'Alice'),
  chatter(16, 'Davina'),
  vote(17, 'Carol', 'Bob'),
  vote(18, 'Alice', 'Frank'),
  vote(19, 'Frank', 'Davina'),
  vote(20, 'Davina', 'Eve'),
  chatter(21, 'Eve', bad('code')),
  vote(22, 'Bob', 'Bob'),
];

describe('standard fixture game', () => {
  it('the readings of the standard game count to fixtures/games/standard-game.expected.json', () => {
    const expected = JSON.parse(readFileSync(file('fixtures/games/standard-game.expected.json'), 'utf8')) as object;
    const tally = countVotes({
      ruleset: loadRuleset(file('fixtures/games/standard-ruleset.yaml')),
      roster: players('Alice', 'Bob', 'Carol', 'Dave', 'Davina', 'Eve', 'Frank'),
      events: readings,
    });
    expect(tally).toMatchObject(expected);
    expect(tally.wagons).toHaveLength(5);
    expect(tally.flags).toHaveLength(2);
  });
});
