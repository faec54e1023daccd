import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum, type LoggedRequest } from '../../src/fake-forum/server.js';
import { createPoller, type Poller } from '../../src/jobs/poller.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import type { GameScript } from '../support/game-script.js';
import { PageFetcher } from '../../src/fetch/page-fetcher.js';
import { newGame, pagePath, serve, standardScript } from '../game/support.js';
import { pollLog, until } from './support.js';

/**
 * Issue #16: the service polls as many threads at once as it watches forum hosts, one poll
 * per host at a time, and takes the next due poll at once (no idle wait between jobs).
 * Three hosts (three stand-in forums), three games on each, pages served slowly.
 */
const HOSTS = 3;
const GAMES_PER_HOST = 3;

describe('polls across forum hosts (PGlite, one process)', () => {
  const forums: FakeForum[] = [];
  const games: { forum: FakeForum; script: GameScript; gameId: number }[] = [];
  const polls = pollLog();
  let store: Store;
  let poller: Poller;

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    for (let h = 0; h < HOSTS; h++) forums.push(await startFakeForum());
    for (let i = 0; i < HOSTS * GAMES_PER_HOST; i++) {
      const forum = forums[i % HOSTS]!;
      const script = standardScript(31_000 + i);
      const game = await newGame(store, serve(forum, script, { delayMs: 80 }));
      // Polled once in this test: the next poll is an hour away.
      await store.sql.query('UPDATE game SET poll_interval_seconds = 3600 WHERE id = $1', [game.id]);
      games.push({ forum, script, gameId: game.id });
    }
    poller = createPoller({
      // An idle process would ask the queue once a minute: every poll here is due, so none waits for that.
      // No pause of the fetcher's own; a patient timeout, so a busy machine does not fail a read.
      store,
      source: new PageFetcher({ allowPrivateHosts: true, minIntervalMs: 0, retries: 0, timeoutMs: 30_000 }),
      pollingIntervalSeconds: 60,
      onPolled: polls.onPolled,
    });
  });
  afterAll(async () => {
    await poller?.stop();
    await store?.close();
    for (const f of forums) await f.close();
  });

  it('polls different hosts at once, never two polls of one host, and takes due polls without an idle wait', async () => {
    await poller.start();
    await until(() => games.every((g) => polls.of(g.gameId).length >= 1), 'a first poll of every game', 45_000);
    expect(
      polls.results.filter((r) => r.status !== 'polled').map((r) => `${r.gameId} ${r.status} ${r.reason}`),
    ).toEqual([]);

    const pages = (f: FakeForum) => f.requests.filter((r) => !r.path.startsWith('/robots'));
    // One request at a time per host.
    for (const f of forums) expect(f.maxConcurrentPerHost).toBe(1);
    // One poll at a time per host: a first read (pages 1-3 in order) is never cut by another thread's page.
    for (const f of forums) {
      const asked = [...pages(f)].sort((a, b) => a.at - b.at);
      for (const g of games.filter((x) => x.forum === f)) {
        const mine = asked.map((r, i) => ({ r, i })).filter(({ r }) => r.path.startsWith(pagePath(g.script, 1)));
        expect(mine.map(({ r }) => r.path)).toEqual([1, 2, 3].map((p) => pagePath(g.script, p)));
        expect(mine.at(-1)!.i - mine[0]!.i, `game ${g.gameId}'s read was cut`).toBe(2);
      }
    }
    // Different hosts at once: some request of one host was in flight while another host answered.
    const all: (LoggedRequest & { host: number })[] = forums.flatMap((f, host) =>
      pages(f).map((r) => ({ ...r, host })),
    );
    const overlapping = all.filter((a) =>
      all.some((b) => b.host !== a.host && b.at < (a.doneAt ?? Infinity) && a.at < (b.doneAt ?? Infinity)),
    );
    expect(new Set(overlapping.map((r) => r.host)).size).toBe(HOSTS);
  }, 180_000);
});
