import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum, type LoggedRequest } from '../../src/fake-forum/server.js';
import { PageFetcher } from '../../src/fetch/page-fetcher.js';
import { createPoller, type Poller } from '../../src/jobs/poller.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { newGame, serve, standardScript } from '../game/support.js';
import { PG_URL, pgProblem, pgSchemas, pgUnavailable } from '../support/postgres.js';
import { pollLog, until } from './support.js';

/**
 * Issue #16: a forum host gets one request at a time with its pause between them, whoever
 * asks. Two pollers (two `votal worker` processes: two stores, two pg-boss instances, two
 * fetchers with their own lanes) share one queue; four games on one forum host, one on another.
 * Then: a freed host is announced to every process, so the one that ran its last poll does
 * not keep it to itself.
 */
const problem = await pgProblem();
/** The fetchers' pause between two requests to one host. */
const PAUSE_MS = 250;

if (problem !== null) {
  pgUnavailable('forum hosts shared by two pollers on PostgreSQL', problem);
} else {
  const schemas = pgSchemas();

  describe('forum hosts shared by two pollers on PostgreSQL', () => {
    let busy: FakeForum;
    let other: FakeForum;
    let schema: string;
    const workers: { name: string; store: Store; poller: Poller; log: ReturnType<typeof pollLog> }[] = [];
    const errors: string[] = [];

    const worker = async (name: string, pollingIntervalSeconds = 0.5) => {
      const store = await openStore({ databaseUrl: PG_URL, schema });
      const log = pollLog();
      const poller = createPoller({
        store,
        // Each process has its own fetcher, so its own lane per host: only the queue keeps them apart.
        source: new PageFetcher({
          allowPrivateHosts: true,
          minIntervalMs: PAUSE_MS,
          retries: 0,
          timeoutMs: 30_000,
          userAgent: `votal-test-${name}`,
        }),
        concurrency: 2,
        pollingIntervalSeconds,
        minDelayMs: 300,
        reconcileEveryMs: 500,
        schema: `${schema}_boss`,
        databaseUrl: PG_URL,
        onPolled: log.onPolled,
        log: { error: (fields, message) => errors.push(`${name} ${message}: ${JSON.stringify(fields)}`) },
      });
      workers.push({ name, store, poller, log });
    };

    beforeAll(async () => {
      busy = await startFakeForum();
      other = await startFakeForum();
      schema = await schemas.schema();
      await worker('a');
      await worker('b');
    });
    afterAll(async () => {
      await Promise.all(workers.map((w) => w.poller.stop()));
      await Promise.all(workers.map((w) => w.store.close()));
      await busy?.close();
      await other?.close();
    });

    /** Which process asked (its fetcher's user agent). */
    const asker = (r: LoggedRequest) => r.headers['user-agent'];
    const inOrder = (f: FakeForum) => [...f.requests].sort((x, y) => x.at - y.at);
    /** Consecutive requests to the forum from different processes. */
    const handOvers = (f: FakeForum) => inOrder(f).filter((r, i, all) => i > 0 && asker(all[i - 1]!) !== asker(r));

    it('one request at a time per host across processes, the pause kept between them, other hosts polled meanwhile', {
      timeout: 90_000,
    }, async () => {
      const { store } = workers[0]!;
      const games: { forum: FakeForum; gameId: number }[] = [];
      for (let i = 0; i < 5; i++) {
        const forum = i < 4 ? busy : other;
        // Slow pages: a request of the other host and one of the busy host would overlap if both are polled at once.
        const game = await newGame(store, serve(forum, standardScript(9_100 + i), { delayMs: 200 }));
        // The busy host is not always busy, so either process may find its next due poll.
        await store.sql.query('UPDATE game SET poll_interval_seconds = $2 WHERE id = $1', [game.id, i < 4 ? 2 : 1]);
        games.push({ forum, gameId: game.id });
      }
      const pollsOf = (gameId: number) => workers.flatMap((w) => w.log.of(gameId));

      await Promise.all(workers.map((w) => w.poller.start()));
      await until(
        () => games.every((g) => pollsOf(g.gameId).length >= 3) && handOvers(busy).length >= 2,
        'three polls of every game, and the busy host handed over between the processes twice',
        75_000,
      );
      await Promise.all(workers.map((w) => w.poller.stop()));

      expect(workers.flatMap((w) => w.log.results).filter((r) => r.status !== 'polled')).toEqual([]);
      expect(errors).toEqual([]);

      // Never two requests to one host in flight at once (the forum's own count).
      expect(busy.maxConcurrentPerHost).toBe(1);
      expect(other.maxConcurrentPerHost).toBe(1);
      // The pause between the end of one request and the start of the next, by the forum's clock.
      // Within a process that is the lane's own wait (a timer may fire a millisecond early).
      const asked = inOrder(busy);
      const gaps = asked.slice(1).map((r, i) => r.at - asked[i]!.doneAt!);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(PAUSE_MS - 5);
      // From one process to the other: the job rested for the pause before the other could take the host.
      const handed = handOvers(busy);
      expect(handed.length).toBeGreaterThanOrEqual(2);
      for (const r of handed) {
        const before = asked[asked.indexOf(r) - 1]!;
        expect(r.at - before.doneAt!, `${asker(before)} -> ${asker(r)}`).toBeGreaterThanOrEqual(PAUSE_MS);
      }

      // The other host was not held up by the busy one: some of its requests ran while the busy host answered one.
      const overlapping = other.requests.filter((o) =>
        asked.some((r) => r.at < (o.doneAt ?? Infinity) && o.at < (r.doneAt ?? Infinity)),
      );
      expect(overlapping.length).toBeGreaterThan(0);
    });

    it('a freed host is offered to every process: one that asks rarely still takes its share', {
      timeout: 60_000,
    }, async () => {
      for (const w of workers.splice(0)) {
        await w.poller.stop();
        await w.store.close();
      }
      // Idle processes ask the queue only every 30 s here: the other one hears of each freed host at once.
      // Each hand-over is a race between the two, so twelve polls all in one process are a 1-in-2,048 chance.
      await worker('c', 30);
      await worker('d', 30);
      const { store } = workers[0]!;
      const host = await startFakeForum();
      const games: number[] = [];
      for (let i = 0; i < 12; i++) {
        const game = await newGame(store, serve(host, standardScript(9_200 + i)));
        await store.sql.query('UPDATE game SET poll_interval_seconds = 3600 WHERE id = $1', [game.id]);
        games.push(game.id);
      }
      try {
        await Promise.all(workers.map((w) => w.poller.start()));
        await until(
          () => games.every((g) => workers.some((w) => w.log.of(g).length > 0)),
          'a poll of every game',
          45_000,
        );
        await Promise.all(workers.map((w) => w.poller.stop()));
        expect(host.maxConcurrentPerHost).toBe(1);
        for (const w of workers) expect(games.filter((g) => w.log.of(g).length > 0).length, w.name).toBeGreaterThan(0);
      } finally {
        await host.close();
      }
    });
  });
}
