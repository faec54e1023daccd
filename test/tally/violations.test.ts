import { describe, expect, it } from 'vitest';
import { countVotes } from '../../src/tally/count.js';
import { readPost } from '../../src/parse/read-post.js';
import { chatter, mafiascum, players, plurality, variant, vote, witchhunt } from './log-builders.js';

const roster = players('Alice', 'Bob', 'Cy');

describe('rule violations', () => {
  it('edit is a flag under witchhunt', () => {
    const t = countVotes({
      ruleset: witchhunt(),
      roster,
      events: [chatter(4, 'Bob', { violations: [{ kind: 'edit', detail: 'Last edited: Jun 3, 2020' }] })],
    });
    expect(t.violations).toEqual([
      { player: 'Bob', post: 4, kind: 'edit', detail: 'Last edited: Jun 3, 2020', consequence: 'flag' },
    ]);
  });

  it('a vote not in the witchhunt format is a flag', () => {
    const t = countVotes({
      ruleset: witchhunt(),
      roster,
      events: [vote(2, 'Cy', 'Bob', { violations: [{ kind: 'format', detail: 'not bold' }] })],
    });
    expect(t.violations.map((v) => [v.kind, v.consequence])).toEqual([['format', 'flag']]);
  });

  // The rule only: a typed "[/b]" after the name (mafiascum game 1121 post #554) reads as
  // bold since the grammar reads bold up to a typed closing tag (test/parse/vote-grammar).
  it('mafiascum: a vote not in bold is not counted, and the GM is told', () => {
    const four = players('mb', 'Empking', 'Zach', 'Ann');
    const body = [{ t: 'text' as const, text: 'Vote: mb' }];
    const reading = readPost({ body, edit: null }, four, mafiascum());
    const post = { kind: 'post' as const, post: 554, author: 'Empking', time: null, permalink: null, reading };
    const t = countVotes({ ruleset: mafiascum(), roster: four, events: [post] });
    expect(t.wagons).toEqual([]);
    expect(t.violations).toEqual([
      { player: 'Empking', post: 554, kind: 'format', detail: 'vote not in bold: Vote: mb', consequence: 'flag' },
    ]);
  });

  it('violations the ruleset ignores are dropped', () => {
    const t = countVotes({
      ruleset: plurality(),
      roster,
      events: [chatter(4, 'Bob', { violations: [{ kind: 'edit', detail: 'edited' }] })],
    });
    expect(t.violations).toEqual([]);
  });

  it.each(['image', 'external-link', 'code', 'non-english'] as const)(
    'a %s violation becomes a penalty where the ruleset says so',
    (kind) => {
      const ruleset = variant('plurality', { violations: { [kind]: 'penalty' } });
      const t = countVotes({
        ruleset,
        roster,
        events: [chatter(9, 'alice', { violations: [{ kind, detail: 'evidence' }] })],
      });
      expect(t.violations).toEqual([{ player: 'Alice', post: 9, kind, detail: 'evidence', consequence: 'penalty' }]);
    },
  );

  it("violations by non-players are not the game's business", () => {
    const t = countVotes({
      ruleset: witchhunt(),
      roster,
      events: [chatter(4, 'Lurker', { violations: [{ kind: 'edit', detail: 'edited' }] })],
    });
    expect(t.violations).toEqual([]);
  });
});
