import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { draftStep } from '../../src/game/draft-step.js';
import { gameRuleset } from '../../src/game/game-ruleset.js';
import { pollSettings } from '../../src/game/poll-settings.js';
import type { Tally } from '../../src/model/tally.js';
import type { Store } from '../../src/store/open-store.js';
import { openTestStore, sampleTally } from '../web/support.js';

/** The poller's draft step (issue #14): drafts say what is still open, and one waits at a time. */

let store: Store;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ store, close } = await openTestStore('pglite'));
});
afterAll(async () => {
  await close?.();
});

let n = 0;
async function step(gameId: number, tally: Tally) {
  const game = (await store.games.get(gameId))!;
  const after = await store.tallies.save(gameId, tally);
  const result = await draftStep({
    store,
    game,
    ruleset: gameRuleset(game),
    engine: 'xenforo2',
    settings: pollSettings(game.settings),
    state: await store.polls.get(gameId),
    after,
    newPosts: [],
    now: '2026-03-03T19:00:00.000Z',
    deadline: null,
  });
  return result;
}

async function game(): Promise<number> {
  n++;
  return (
    await store.games.create(
      {
        threadUrl: `https://forum.example/threads/draft-step.${n}/`,
        engine: 'xenforo2',
        ruleset: 'plurality',
        roster: [{ name: 'Alice' }, { name: 'Bob' }, { name: 'Carol' }],
        settings: { drafts: { everyNVotes: 1 } },
      },
      'test',
    )
  ).id;
}

describe('draft step', () => {
  it('the votal counts only the review items still open: accepted and corrected ones are settled (issue #14, 3)', async () => {
    const gameId = await game();
    await store.audit.record({
      gameId,
      actor: 'gm',
      action: 'review.accept',
      detail: { key: 'flag:9:vote-by-non-player', post: 9 },
    });
    const drafted = await step(
      gameId,
      sampleTally({
        flags: [
          { post: 9, player: 'Zed', kind: 'vote-by-non-player', raw: 'vote: bob', candidates: [] },
          { post: 11, player: 'Carol', kind: 'gm-correction', raw: 'vote: b -> Bob', candidates: [] },
          { post: 12, player: 'Carol', kind: 'ambiguous-target', raw: 'vote: a', candidates: ['Alice'] },
        ],
      }),
    );
    expect(drafted.draft?.body).toContain('1 vote left for the GM to check.');
  });

  it('drafts the poller makes one after another leave one pending; the older ones are superseded (issue #14, 2)', async () => {
    const gameId = await game();
    const made: number[] = [];
    for (const post of [22, 26, 29, 32])
      made.push((await step(gameId, sampleTally({ postsRead: post, asOfPost: post }))).draft!.id);
    expect((await store.drafts.list(gameId, { status: 'pending' })).map((d) => d.id)).toEqual([made[3]]);
    expect((await store.drafts.list(gameId, { status: 'superseded' })).map((d) => [d.id, d.supersededBy])).toEqual([
      [made[2], made[3]],
      [made[1], made[2]],
      [made[0], made[1]],
    ]);
  });
});
