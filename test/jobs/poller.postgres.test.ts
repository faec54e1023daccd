import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { createPoller, type Poller } from '../../src/jobs/poller.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { newGame, pagePath, serve, standardScript, testSource } from '../game/support.js';
import { pollerContract } from './contract.js';
import { PG_URL, pgProblem, pgSchemas, pgUnavailable } from '../support/postgres.js';
import { overlaps, pollLog, threadRequests, until } from './support.js';

const problem = await pgProblem();

if (problem !== null) {
  pgUnavailable('the poller on PostgreSQL', problem);
} else {
  const schemas = pgSchemas();

  pollerContract(
    'PostgreSQL (pg-boss with its connection string)',
    async () => {
      const schema = await schemas.schema();
      const store = await openStore({ databaseUrl: PG_URL, schema });
      return { store, schema: `${schema}_boss`, databaseUrl: PG_URL, close: () => store.close() };
    },
    8_200,
  );

  describe('two pollers on one PostgreSQL', () => {
    // Threads on several forum hosts: one poll per host at a time is the rule (hosts.postgres.test.ts),
    // so with one host the polls would queue behind each other and the run would measure speed.
    let forums: FakeForum[] = [];
    let a: { store: Store; poller: Poller; log: ReturnType<typeof pollLog> };
    let b: { store: Store; poller: Poller; log: ReturnType<typeof pollLog> };
    let schema: string;
    const errors: string[] = [];

    // Two stores (two pools) and two pg-boss instances: what two `votal worker` processes have.
    const worker = async (): Promise<{ store: Store; poller: Poller; log: ReturnType<typeof pollLog> }> => {
      const store = await openStore({ databaseUrl: PG_URL, schema });
      const log = pollLog();
      const poller = createPoller({
        store,
        source: testSource(),
        concurrency: 3,
        pollingIntervalSeconds: 0.5,
        minDelayMs: 300,
        reconcileEveryMs: 500,
        schema: `${schema}_boss`,
        databaseUrl: PG_URL,
        onPolled: log.onPolled,
        log: { error: (fields, message) => errors.push(`${message}: ${JSON.stringify(fields)}`) },
      });
      return { store, poller, log };
    };

    beforeAll(async () => {
      forums = await Promise.all([1, 2, 3, 4].map(() => startFakeForum()));
      schema = await schemas.schema();
      a = await worker();
      b = await worker();
    });
    afterAll(async () => {
      await Promise.all([a?.poller.stop(), b?.poller.stop()]);
      await Promise.all([a?.store.close(), b?.store.close()]);
      await Promise.all(forums.map((f) => f.close()));
    });

    // 96 real polls by two processes through one PostgreSQL: genuinely slow work on a loaded machine
    // (the wait is for poll results, not a duration; see `until`).
    it('two pollers never poll one thread at the same time', { timeout: 240_000 }, async () => {
      const threads: {
        forum: FakeForum;
        script: ReturnType<typeof standardScript>;
        game: Awaited<ReturnType<typeof newGame>>;
      }[] = [];
      for (let i = 0; i < 24; i++) {
        const forum = forums[i % forums.length]!;
        const script = standardScript(8_300 + i);
        // Slow pages: a poll takes a while, so two polls of one thread would overlap.
        const url = serve(forum, script, { delayMs: 60 });
        const game = await newGame(a.store, url);
        await a.store.sql.query('UPDATE game SET poll_interval_seconds = 1 WHERE id = $1', [game.id]);
        threads.push({ forum, script, game });
      }
      await Promise.all([a.poller.start(), b.poller.start()]);
      // Both ask for polls of every game as well, while the queue runs them.
      const storm = setInterval(() => {
        const t = threads[Math.floor(Math.random() * threads.length)]!;
        void (Math.random() < 0.5 ? a : b).poller.pollNow(String(t.game.id)).catch(() => {});
      }, 20);
      try {
        await until(
          () => threads.every((t) => [...a.log.of(t.game.id), ...b.log.of(t.game.id)].length >= 4),
          'four polls of every thread',
          180_000,
        );
      } finally {
        clearInterval(storm);
      }
      await Promise.all([a.poller.stop(), b.poller.stop()]);

      for (const t of threads) {
        const asked = threadRequests(t.forum, pagePath(t.script, 1));
        expect(asked.length).toBeGreaterThanOrEqual(6);
        expect(overlaps(asked), `overlapping requests for game ${t.game.id}`).toEqual([]);
        expect(new Set(asked.filter((r) => r.path === pagePath(t.script, 1)).map((r) => r.status))).toEqual(
          new Set([200]),
        );
      }
      const results = [...a.log.results, ...b.log.results];
      // The queue alone kept polls apart: no poll found its game's lease taken.
      expect(results.filter((r) => r.status === 'busy')).toEqual([]);
      expect(results.every((r) => r.status === 'polled')).toBe(true);
      expect(errors).toEqual([]);
      // Both did a share of the work.
      expect(a.log.results.length).toBeGreaterThan(10);
      expect(b.log.results.length).toBeGreaterThan(10);
      // Every post once.
      for (const t of threads) expect(await a.store.posts.postsOf(t.game.id)).toHaveLength(22);
    });
  });
}
