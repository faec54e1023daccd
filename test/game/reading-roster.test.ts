import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pollGame, type PollDeps } from '../../src/game/poll-game.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { PLAYERS, serve, standardScript, testClock, testSource, vote, withPosts } from './support.js';

/**
 * A post is read (post-histories) under the roster as the GM's record has it at that post:
 * the deaths recorded before it too, not only the replacements (issue #24). Through the
 * product's path: the stand-in forum, pollGame, the store (PGlite), the fold.
 */

let forum: FakeForum;
let store: Store;
const source = testSource();

beforeAll(async () => {
  forum = await startFakeForum();
  store = await openStore({ dataDir: 'memory://' });
});
afterAll(async () => {
  await store?.close();
  await forum?.close();
});

describe('the reading roster knows who died', () => {
  // mafiascum game 1671 (t=61783) posts #1110-#1114 (github.com/Computational-Mafia/donbot data/posts @739243d):
  // "VOTE: PB" on Day 4, after Prolapsed Brain's death, counted for PeaceBringer.
  it('"Vote: PB" after the GM recorded Prolapsed Brain\'s death counts for the living PeaceBringer', async () => {
    const script = withPosts(standardScript(7100), [
      { author: 'Dave', body: vote('PB') },
      { author: 'Eve', body: vote('Prolapsed Brain') },
    ]);
    const game = await store.games.create(
      {
        threadUrl: serve(forum, script),
        engine: null,
        ruleset: 'fixtures/games/standard-ruleset.yaml',
        rulesetOverrides: {},
        roster: [...PLAYERS, 'PeaceBringer', 'Prolapsed Brain'].map((name) => ({ name })),
        settings: {},
      },
      'gm:test',
    );
    const clock = testClock('2026-03-03T19:00:00Z');
    const deps: PollDeps = { store, source, now: clock.now };
    const daveOn = async () => {
      const tally = (await store.tallies.latest(game.id))!.tally;
      const wagon = tally.wagons.find((w) => w.voters.some((v) => v.player === 'Dave'));
      const flag = tally.flags.find((f) => f.player === 'Dave' && f.post === 23);
      return { wagon: wagon?.target ?? null, flag: flag?.kind ?? null, candidates: flag?.candidates ?? [] };
    };

    // Both alive: "PB" fits two players, and goes to the GM.
    await pollGame(deps, game.id);
    expect(await daveOn()).toEqual({
      wagon: null,
      flag: 'ambiguous-target',
      candidates: ['PeaceBringer', 'Prolapsed Brain'],
    });

    // The GM records the death after post 22: post 23 is read again, under the new roster.
    await store.events.append(game.id, { kind: 'kill', player: 'Prolapsed Brain', at: 22 }, 'gm:test');
    clock.advance(60_000);
    await pollGame(deps, game.id);
    expect(await daveOn()).toEqual({ wagon: 'PeaceBringer', flag: null, candidates: [] });
    // A vote for the dead by name: the reading sends it to the GM, and the tally says so once.
    const tally = (await store.tallies.latest(game.id))!.tally;
    expect(tally.flags.filter((f) => f.post === 24).map((f) => [f.player, f.kind])).toEqual([['Eve', 'vote-for-dead']]);
    expect(tally.wagons.some((w) => w.target === 'Prolapsed Brain')).toBe(false);
  });
});
