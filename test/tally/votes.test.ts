import { describe, expect, it } from 'vitest';
import { Roster } from '../../src/model/roster.js';
import { Tally } from '../../src/model/tally.js';
import { countVotes } from '../../src/tally/count.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { chatter, gm, players, plurality, review, unvote, vote, witchhunt } from './log-builders.js';

const five = players('Alice', 'Bob', 'Cy', 'Dana', 'Eve');
const count = (events: TallyEvent[], ruleset = plurality(), roster = five) => countVotes({ ruleset, roster, events });
const wagon = (t: Tally, target: string) => t.wagons.find((w) => w.target === target);

describe('votes', () => {
  it("a vote puts the voter on the target's wagon", () => {
    const t = count([vote(1, 'Bob', 'Alice')]);
    expect(t.wagons).toEqual([
      {
        target: 'Alice',
        votes: 1,
        penalty: 0,
        total: 1,
        toThreshold: null,
        voters: [{ player: 'Bob', post: 1, weight: 1, permalink: 'https://forum.test/p/1' }],
      },
    ]);
  });

  it('the tally satisfies the Tally contract', () => {
    const t = countVotes({ ruleset: witchhunt(), roster: five, events: [vote(1, 'Bob', 'Alice')], engine: 'xenforo2' });
    expect(Tally.parse(t)).toEqual(t);
    expect(t).toMatchObject({ engine: 'xenforo2', ruleset: 'witchhunt', day: 1, postsRead: 1, asOfPost: 1, living: 5 });
  });

  it('a vote moves when the player votes again', () => {
    const t = count([vote(1, 'Bob', 'Alice'), vote(2, 'Bob', 'Cy')]);
    expect(t.wagons.map((w) => [w.target, w.total])).toEqual([['Cy', 1]]);
    expect(wagon(t, 'Cy')?.voters[0]?.post).toBe(2);
  });

  it('voting again for the same target keeps the earlier vote', () => {
    const t = count([vote(1, 'Bob', 'Alice'), vote(5, 'Bob', 'Alice')]);
    expect(wagon(t, 'Alice')?.voters.map((v) => v.post)).toEqual([1]);
  });

  it('unvote removes the vote', () => {
    const t = count([vote(1, 'Bob', 'Alice'), unvote(2, 'Bob')]);
    expect(t.wagons).toEqual([]);
    expect(t.notVoting).toContain('Bob');
  });

  it('unvote without a vote changes nothing', () => {
    const t = count([unvote(1, 'Bob')]);
    expect(t.wagons).toEqual([]);
    expect(t.flags).toEqual([]);
  });

  it('each player has one current vote', () => {
    const t = count([vote(1, 'Bob', 'Alice'), vote(2, 'Bob', 'Cy'), vote(3, 'Bob', 'Dana')]);
    expect(t.wagons.reduce((n, w) => n + w.total, 0)).toBe(1);
  });

  it('the author is matched case-insensitively', () => {
    expect(wagon(count([vote(1, 'bOB', 'Alice')]), 'Alice')?.voters[0]?.player).toBe('Bob');
  });

  it('the author is matched by alias', () => {
    const roster = Roster.parse([{ name: 'Robert Paulson', aliases: ['Bob'] }, { name: 'Alice' }]);
    const t = count([vote(1, 'bob', 'Alice')], plurality(), roster);
    expect(wagon(t, 'Alice')?.voters[0]?.player).toBe('Robert Paulson');
  });

  it('a target written as an alias counts for the slot under its canonical name', () => {
    const roster = Roster.parse([{ name: 'Robert Paulson', aliases: ['Bob'] }, { name: 'Alice' }]);
    const t = count([vote(1, 'Alice', 'bob')], plurality(), roster);
    expect(t.wagons.map((w) => w.target)).toEqual(['Robert Paulson']);
  });

  it('posts by non-players are ignored for votes and flagged as vote-by-non-player', () => {
    const t = count([vote(1, 'Lurker', 'Alice'), chatter(2, 'Lurker')]);
    expect(t.wagons).toEqual([]);
    expect(t.flags).toEqual([
      { post: 1, player: 'Lurker', kind: 'vote-by-non-player', raw: 'Vote: Alice', candidates: [] },
    ]);
  });

  it('a vote by a dead player is flagged vote-by-dead and not counted', () => {
    const roster = Roster.parse([{ name: 'Alice' }, { name: 'Bob', alive: false }, { name: 'Cy' }]);
    const t = count([vote(1, 'Bob', 'Alice')], plurality(), roster);
    expect(t.wagons).toEqual([]);
    expect(t.flags.map((f) => [f.kind, f.player])).toEqual([['vote-by-dead', 'Bob']]);
  });

  it('votes for a dead player are flagged and not counted', () => {
    const roster = Roster.parse([{ name: 'Alice', alive: false }, { name: 'Bob' }, { name: 'Cy' }]);
    const t = count([vote(1, 'Cy', 'Bob'), vote(2, 'Cy', 'Alice')], plurality(), roster);
    expect(t.flags.map((f) => [f.post, f.kind])).toEqual([[2, 'vote-for-dead']]);
    // The standing vote is kept: the flagged post does not count either way until the GM decides.
    expect(t.wagons.map((w) => w.target)).toEqual(['Bob']);
  });

  it('a vote for a name on no slot is flagged unknown-target', () => {
    const t = count([vote(1, 'Bob', 'Zed')]);
    expect(t.flags.map((f) => f.kind)).toEqual(['unknown-target']);
    expect(t.wagons).toEqual([]);
  });

  it.each([
    ['ambiguous-target', 'Vote: a', ['Alice', 'Alan']],
    ['unknown-target', 'Vote: zzz', []],
    ['malformed-vote', 'Vote Alice Bob', []],
    ['empty-vote', 'Vote:', []],
    ['no-lynch-not-allowed', 'Vote: no lynch', []],
  ] as const)(
    'a review effect (%s) becomes a flag of that kind and leaves the vote unchanged',
    (reason, raw, candidates) => {
      const t = count([vote(1, 'Bob', 'Cy'), review(2, 'Bob', reason, raw, [...candidates])]);
      expect(t.flags).toEqual([{ post: 2, player: 'Bob', kind: reason, raw, candidates }]);
      expect(wagon(t, 'Cy')?.voters.map((v) => v.player)).toEqual(['Bob']);
    },
  );

  it('Sleep is a wagon named Sleep', () => {
    const t = count([vote(1, 'Bob', 'Sleep'), vote(2, 'Cy', 'sleep')], witchhunt());
    expect(t.wagons.map((w) => [w.target, w.total])).toEqual([['Sleep', 2]]);
  });

  it("No Lynch votes target the ruleset's No Lynch name, whatever keyword was used", () => {
    const t = count([vote(1, 'Bob', 'No Lynch'), vote(2, 'Cy', 'no-lynch'), vote(3, 'Dana', 'NoLynch')]);
    expect(t.wagons.map((w) => [w.target, w.total])).toEqual([['No Lynch', 3]]);
  });

  it('wagons are sorted by total, then by earliest vote', () => {
    const t = count([
      vote(1, 'Alice', 'Eve'),
      vote(2, 'Bob', 'Dana'),
      vote(3, 'Cy', 'Dana'),
      vote(4, 'Dana', 'Cy'),
      vote(5, 'Eve', 'Bob'),
    ]);
    expect(t.wagons.map((w) => w.target)).toEqual(['Dana', 'Eve', 'Cy', 'Bob']);
  });

  it('voters are sorted by the post of their vote', () => {
    const t = count([vote(3, 'Cy', 'Eve'), vote(1, 'Alice', 'Eve'), vote(2, 'Bob', 'Eve')]);
    expect(wagon(t, 'Eve')?.voters.map((v) => [v.player, v.post])).toEqual([
      ['Alice', 1],
      ['Bob', 2],
      ['Cy', 3],
    ]);
  });

  it('toThreshold is the threshold minus the votes (L-k), null for plurality', () => {
    const events = [vote(1, 'Alice', 'Eve'), vote(2, 'Bob', 'Eve')];
    expect(wagon(count(events, witchhunt()), 'Eve')?.toThreshold).toBe(1);
    expect(wagon(count(events, plurality()), 'Eve')?.toThreshold).toBeNull();
  });

  it('notVoting lists living players without a vote, in roster order', () => {
    const t = count([vote(1, 'Eve', 'Alice'), vote(2, 'Bob', 'Alice')]);
    expect(t.notVoting).toEqual(['Alice', 'Cy', 'Dana']);
  });

  it('living, players and threshold come from the living slots', () => {
    const roster = Roster.parse([{ name: 'A' }, { name: 'B', alive: false }, { name: 'C' }, { name: 'D' }]);
    const t = count([], witchhunt(), roster);
    expect(t).toMatchObject({ living: 3, players: ['A', 'C', 'D'], threshold: { kind: 'majority', votes: 2 } });
  });

  it('posts are counted in post-number order whatever order they arrive in', () => {
    const ordered = count([vote(1, 'Bob', 'Alice'), vote(2, 'Bob', 'Cy')]);
    const shuffled = count([vote(2, 'Bob', 'Cy'), vote(1, 'Bob', 'Alice')]);
    expect(shuffled).toEqual(ordered);
  });

  it('a post read twice keeps its last reading', () => {
    const t = count([vote(1, 'Bob', 'Alice'), vote(1, 'Bob', 'Cy')]);
    expect(t.wagons.map((w) => w.target)).toEqual(['Cy']);
    expect(t.postsRead).toBe(1);
  });

  it('a GM manual vote counts like a posted vote, at its position', () => {
    const t = count([gm({ at: 4, kind: 'vote', player: 'Alice', target: 'Bob' }), vote(2, 'Cy', 'Bob')]);
    expect(wagon(t, 'Bob')?.voters.map((v) => [v.player, v.post])).toEqual([
      ['Cy', 2],
      ['Alice', 4],
    ]);
  });

  it('a GM manual vote with target null is an unvote', () => {
    const t = count([vote(1, 'Alice', 'Bob'), gm({ at: 2, kind: 'vote', player: 'Alice', target: null })]);
    expect(t.wagons).toEqual([]);
  });
});
