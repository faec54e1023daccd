import { describe, expect, it } from 'vitest';
import { foldGame, type PostHistory } from '../../src/game/fold-game.js';
import { foldWithOwnDeaths } from '../../src/game/reading-events.js';
import { reviewQueue } from '../../src/game/review-queue.js';
import type { Game } from '../../src/model/game.js';
import type { HeadOrPost } from '../../src/store/posts-repo.js';
import type { GmEvent } from '../../src/model/event.js';
import { readPost } from '../../src/parse/read-post.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { rosterAt } from '../../src/tally/slot-names.js';
import { players } from '../tally/log-builders.js';

/**
 * foldWithOwnDeaths: the posts are read with the deaths the count itself caused, whatever
 * the rounds start from (issue #24). "Vote: PB" with PeaceBringer and Prolapsed Brain both
 * playing is MafiaScum game 1671 post #1110 (donbot data 739243d).
 */
const ruleset = loadRuleset('mafiascum-majority');
const roster = players('Alice', 'Bob', 'Carol', 'Dave', 'Eve', 'PeaceBringer', 'Prolapsed Brain');
const gmEvents: GmEvent[] = [{ kind: 'day-start', day: 2, at: 5 }];
const votes: [string, string][] = [
  ['Alice', 'Prolapsed Brain'],
  ['Bob', 'Prolapsed Brain'],
  ['Carol', 'Prolapsed Brain'],
  ['Dave', 'Prolapsed Brain'], // #4: the hammer, 4 of 7
  ['Moderator', ''],
  ['Eve', 'PB'], // #6, Day 2
];

/** Reads the posts under the events given, counting the reads. */
function reader(posts: readonly [string, string][] = votes) {
  const reads: number[] = [];
  const read = (events: readonly GmEvent[]): PostHistory[] => {
    reads.push(events.length);
    return posts.map(([author, target], i) => {
      const body = target ? [{ t: 'bold' as const, children: [{ t: 'text' as const, text: `Vote: ${target}` }] }] : [];
      const reading = readPost(
        { body, edit: null },
        rosterAt(roster, events, { number: i + 1, postedAt: null }),
        ruleset,
      );
      const revision = { reading, firstSeen: '1970-01-01T00:00:00.000Z', edit: null, text: '' };
      return { number: i + 1, author, postedAt: null, permalink: null, deleted: false, revisions: [revision] };
    });
  };
  return { reads, read };
}
const fold = (posts: PostHistory[]) =>
  foldGame({ ruleset, roster, engine: null, posts, gmEvents, now: '2026-03-02T18:00:00.000Z', hosts: ['Moderator'] });
const eveOn = (r: Awaited<ReturnType<typeof foldWithOwnDeaths>>) =>
  r.folded.tally.wagons.find((w) => w.voters.some((v) => v.player === 'Eve'))?.target ?? null;

describe('foldWithOwnDeaths', () => {
  it("reads Day 2 with Day 1's hammered player dead: two rounds the first time", async () => {
    const { reads, read } = reader();
    const r = await foldWithOwnDeaths(gmEvents, read, fold, { maxRounds: 9 });
    expect(eveOn(r)).toBe('PeaceBringer');
    expect(r.readingEvents).toEqual([...gmEvents, { kind: 'kill', player: 'Prolapsed Brain', at: 5 }]);
    // The events each round read with: the GM's alone, then the hammered player's death too.
    expect(reads).toEqual([1, 2]);
  });

  it("the game's next count starts from the deaths its stored count found: one round", async () => {
    const first = await foldWithOwnDeaths(gmEvents, reader().read, fold, { maxRounds: 9 });
    const next = reader();
    const from = first.folded.tally.ownDeaths;
    const r = await foldWithOwnDeaths(gmEvents, next.read, fold, { maxRounds: 9, from });
    expect(eveOn(r)).toBe('PeaceBringer');
    expect(next.reads).toEqual([2]);
  });

  it('a start that names the wrong deaths still ends at the count (it is only a start)', async () => {
    // A stored count from before the posts changed: its Day 1 hammered Alice.
    const other = reader(votes.map(([author, target], i) => [author, i < 4 && target ? 'Alice' : target]));
    const alice = await foldWithOwnDeaths(gmEvents, other.read, fold, { maxRounds: 9 });
    expect(alice.readingEvents).toEqual([...gmEvents, { kind: 'kill', player: 'Alice', at: 5 }]);
    const { reads, read } = reader();
    const from = alice.folded.tally.ownDeaths;
    const r = await foldWithOwnDeaths(gmEvents, read, fold, { maxRounds: 9, from });
    const fresh = await foldWithOwnDeaths(gmEvents, reader().read, fold, { maxRounds: 9 });
    expect(eveOn(r)).toBe('PeaceBringer');
    expect(r.folded.tally).toEqual(fresh.folded.tally);
    expect(r.readingEvents).toEqual(fresh.readingEvents);
    // Round 1 read with Alice dead (the start), round 2 with Prolapsed Brain dead.
    expect(reads).toEqual([2, 2]);
  });

  it("the review queue reads Day 2 with the count's own deaths, as the count does", async () => {
    // Eve's "Vote: PB" (#6) is deleted on the forum: the queue re-reads its body for "Keep counting it".
    const r = await foldWithOwnDeaths(gmEvents, reader().read, fold, { maxRounds: 9 });
    expect(r.folded.tally.ownDeaths).toEqual([{ player: 'Prolapsed Brain', at: 5 }]);
    const pb = { t: 'bold' as const, children: [{ t: 'text' as const, text: 'Vote: PB' }] };
    const deleted: HeadOrPost = {
      id: '1006',
      number: 6,
      page: 1,
      author: 'Eve',
      authorId: null,
      postedAt: null,
      permalink: 'https://forum.example/posts/1006',
      edit: null,
      bodyHash: '',
      body: [pb],
      key: 6,
      revisionId: 6,
      deleted: true,
      deletedAt: '2026-03-02T12:00:00.000Z',
      firstSeen: '2026-03-02T10:00:00.000Z',
      lastSeen: '2026-03-02T11:00:00.000Z',
      revisions: 1,
    };
    const items = reviewQueue({
      game: { id: 1, roster } as unknown as Game,
      ruleset,
      tally: r.folded.tally,
      posts: [deleted],
      events: gmEvents.map((event, i) => ({ id: i + 1, gameId: 1, event, createdAt: '', createdBy: 'gm' })),
      audit: [],
      previousBodies: new Map(),
    });
    expect(eveOn(r)).toBe('PeaceBringer');
    expect(items.find((i) => i.kind === 'deleted')!.choices).toEqual([
      { label: 'Keep counting it (PeaceBringer)', action: 'correct', target: 'PeaceBringer' },
      { label: 'Ignore its vote', action: 'correct', target: null },
    ]);
  });
});
