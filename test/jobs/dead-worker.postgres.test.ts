import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import {
  createPoller,
  POLL_LEASE_MS,
  POLL_QUEUE,
  POLLING_INTERVAL_SECONDS,
  RECONCILE_EVERY_MS,
  type Poller,
} from '../../src/jobs/poller.js';
import type { PollResult } from '../../src/game/poll-game.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import type { GameScript } from '../support/game-script.js';
import { newGame, pagePath, ROOT, says, serve, standardScript, testSource, vote, withPosts } from '../game/support.js';
import { PG_URL, pgProblem, pgSchemas, pgUnavailable } from '../support/postgres.js';
import { pollLog, until } from './support.js';

/**
 * Issue #17: a worker killed with SIGKILL mid-poll left its job `active` until pg-boss
 * expired it (15 minutes): the reconciler skipped the game and "Poll now" did nothing.
 * Now the poll's lease on its game is its heartbeat: once it lapses, the reconciler, or
 * "Poll now", fails the dead job and the game is polled again.
 */
const problem = await pgProblem();

describe('a dead worker is noticed within a minute with the default timings', () => {
  it('lease + reconciler period + idle polling interval stay under a minute', () => {
    // The worst case: killed just after renewing its lease, the lapse seen one reconciler
    // period later, the new job taken one idle polling interval after that.
    expect(POLL_LEASE_MS + RECONCILE_EVERY_MS + POLLING_INTERVAL_SECONDS * 1000).toBeLessThanOrEqual(60_000);
  });
});

if (problem !== null) {
  pgUnavailable('a worker killed mid-poll (PostgreSQL)', problem);
} else {
  const schemas = pgSchemas();
  let forum: FakeForum;
  const children: ChildProcess[] = [];
  const open: { store?: Store; poller?: Poller }[] = [];
  beforeAll(async () => {
    forum = await startFakeForum();
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const o of open) {
      await o.poller?.stop();
      await o.store?.close();
    }
    await forum?.close();
  });

  /** A 60-post thread (8 pages), served slowly: a first read takes a while. */
  function slowThread(id: number): { script: GameScript; url: string } {
    const script = withPosts(
      standardScript(id),
      Array.from({ length: 38 }, (_v, i) =>
        i % 3 === 0 ? { author: 'Eve', body: vote('Bob') } : { author: 'Frank', body: says(`Thinking ${i}`) },
      ),
    );
    return { script, url: serve(forum, script, { delayMs: 150 }) };
  }

  /** A `votal worker` child polling the schema; killed with SIGKILL once it has read two pages of the thread. */
  async function killedMidPoll(schema: string, script: GameScript, leaseMs: number): Promise<void> {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'test/jobs/fixtures/worker.ts'), PG_URL, schema, String(leaseMs)],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, VOTAL_ALLOW_PRIVATE_HOSTS: '1' },
      },
    );
    children.push(child);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const answered = () =>
      forum.requests.filter((r) => r.path.startsWith(pagePath(script, 1)) && r.doneAt !== null).length;
    await until(() => answered() >= 2, 'the worker to read two pages', 60_000);
    child.kill('SIGKILL');
    await exited;
  }

  async function setUp(id: number) {
    const schema = await schemas.schema();
    const store = await openStore({ databaseUrl: PG_URL, schema });
    const { script, url } = slowThread(id);
    const game = await newGame(store, url);
    const jobs = async () =>
      (
        await store.sql.query<{
          id: string;
          state: string;
          output: { reason?: string } | null;
          started_on: Date | null;
        }>(
          `SELECT id, state, output, started_on FROM ${schema}_boss.job WHERE name = $1 AND singleton_key = $2 ORDER BY created_on`,
          [POLL_QUEUE, String(game.id)],
        )
      ).rows;
    const leaseLapsed = async () =>
      (
        await store.sql.query<{ lapsed: boolean }>(
          'SELECT lease_until IS NOT NULL AND lease_until < now() AS lapsed FROM game_poll WHERE game_id = $1',
          [game.id],
        )
      ).rows[0]?.lapsed === true;
    return { schema, store, script, game, jobs, leaseLapsed };
  }

  const poller = (store: Store, schema: string, o: { reconcileEveryMs: number; onPolled: (r: PollResult) => void }) =>
    createPoller({
      store,
      source: testSource(),
      schema: `${schema}_boss`,
      databaseUrl: PG_URL,
      pollingIntervalSeconds: 0.5,
      minDelayMs: 1_000,
      leaseMs: 3_000,
      reconcileEveryMs: o.reconcileEveryMs,
      onPolled: o.onPolled,
    });

  describe('a worker killed mid-poll (PostgreSQL, child process)', () => {
    it('the reconciler fails the dead poll once its lease lapses, and the game is polled again', {
      timeout: 120_000,
    }, async () => {
      const t = await setUp(41_000);
      open.push({ store: t.store });
      await killedMidPoll(t.schema, t.script, 3_000);
      const [dead] = await t.jobs();
      expect(dead).toMatchObject({ state: 'active' });

      const polls = pollLog();
      const p = poller(t.store, t.schema, { reconcileEveryMs: 500, onPolled: polls.onPolled });
      open.push({ poller: p });
      await p.start();
      await until(
        () => polls.of(t.game.id).some((r) => r.status === 'polled'),
        'a poll of the game after the crash',
        60_000,
      );

      const all = await t.jobs();
      expect(all.find((j) => j.id === dead!.id)).toMatchObject({
        state: 'failed',
        output: { reason: expect.stringMatching(/worker .* is gone/) },
      });
      expect(all.filter((j) => j.state === 'active').length).toBeLessThanOrEqual(1);
      // Every post once, the read resumed where the dead worker left off.
      expect(await t.store.posts.postsOf(t.game.id)).toHaveLength(60);
      expect(polls.of(t.game.id).filter((r) => r.status !== 'polled')).toEqual([]);
    });

    it('"Poll now" on a game whose poll died polls it, with no reconciler to help', { timeout: 120_000 }, async () => {
      const t = await setUp(42_000);
      open.push({ store: t.store });
      // A long lease: the poller below starts while the dead worker's lease still looks live.
      await killedMidPoll(t.schema, t.script, 20_000);
      const polls = pollLog();
      const p = poller(t.store, t.schema, { reconcileEveryMs: 3_600_000, onPolled: polls.onPolled });
      open.push({ poller: p });
      await p.start();
      const [dead] = await t.jobs();
      expect(dead, 'the dead poll is still running as far as the queue knows').toMatchObject({ state: 'active' });

      await until(t.leaseLapsed, "the dead worker's lease to lapse", 60_000);
      expect((await t.jobs())[0]).toMatchObject({ state: 'active' }); // nobody else freed it
      await p.pollNow(String(t.game.id));
      await until(() => polls.of(t.game.id).some((r) => r.status === 'polled'), 'the poll asked for', 60_000);
      expect((await t.jobs()).find((j) => j.id === dead!.id)).toMatchObject({ state: 'failed' });
      expect(await t.store.posts.postsOf(t.game.id)).toHaveLength(60);
    });
  });
}
