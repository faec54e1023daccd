import { expect } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pollGame, type PollDeps } from '../../src/game/poll-game.js';
import type { Game } from '../../src/model/game.js';
import type { Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import type { GameScript } from '../support/game-script.js';
import { newGame, serve, testClock, testSource } from '../game/support.js';
import { recordingPoller, testEnv } from './support.js';

/** A game of the GM's tests: the stand-in forum serving its thread, the store, the poll's deps, the app. */
export interface PolledGame {
  forum: FakeForum;
  store: Store;
  game: Game;
  deps: PollDeps;
  clock: ReturnType<typeof testClock>;
  app: VotalApp;
}

/**
 * The set-up of the GM's API tests: `script` served by the stand-in forum, its game created
 * and polled once at `start` (counted), and the app with a poller that only notes the
 * asks (a test polls when it means to). `now`: the app's clock, when a test fixes it;
 * `roster`: the players, when not the standard game's.
 */
export async function polledGame(
  open: () => Promise<Store>,
  script: GameScript,
  opts: { start?: string; now?: () => Date; roster?: readonly string[] } = {},
): Promise<PolledGame> {
  const forum = await startFakeForum();
  const store = await open();
  const clock = testClock(opts.start ?? '2026-03-03T19:00:00Z');
  const deps: PollDeps = { store, source: testSource(), now: clock.now };
  const game = await newGame(store, serve(forum, script), {}, opts.roster ? { roster: opts.roster } : {});
  expect(await pollGame(deps, game.id)).toMatchObject({ status: 'polled', counted: true });
  const app = createApp({
    store,
    poller: recordingPoller(),
    env: testEnv(),
    rateLimit: false,
    pollWaitMs: 0,
    ...(opts.now ? { now: opts.now } : {}),
  });
  return { forum, store, game, deps, clock, app };
}

/** Everything `polledGame` opened, closed. */
export async function closeGame(g: Partial<PolledGame>): Promise<void> {
  await g.app?.shutdown();
  await g.store?.close();
  await g.forum?.close();
}
