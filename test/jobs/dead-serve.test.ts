import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import type { PollResult } from '../../src/game/poll-game.js';
import { createPoller, POLL_QUEUE, type Poller } from '../../src/jobs/poller.js';
import { migrate } from '../../src/store/migrate.js';
import { storeOn, type Store } from '../../src/store/open-store.js';
import { openPgliteSql } from '../../src/store/pglite-sql.js';
import { newGame, pagePath, ROOT, says, serve, standardScript, testSource, vote, withPosts } from '../game/support.js';
import { until } from './support.js';

/**
 * Issue #17 on the embedded database: `votal serve` killed mid-poll left the job `active`,
 * and the next `votal serve` on the folder did not poll the game for about 16 minutes.
 * PGlite has one process, so a job running since before this poller started is a dead
 * process's: it is failed at start and the game polled again.
 */
let forum: FakeForum;
let dir: string;
let poller: Poller | null = null;
let store: Store | null = null;

beforeAll(async () => {
  forum = await startFakeForum();
  dir = await mkdtemp(join(tmpdir(), 'votal-dead-serve-'));
});
afterAll(async () => {
  await poller?.stop();
  await store?.close();
  await forum?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Opens the folder, waiting for the dead process's lock to go stale (2 s). */
async function reopen(): Promise<Store> {
  const end = Date.now() + 30_000;
  for (;;) {
    try {
      const sql = await openPgliteSql({ dataDir: dir, lockStaleMs: 2_000 });
      return { sql, migrations: await migrate(sql), ...storeOn(sql), close: () => sql.close() };
    } catch (error) {
      if ((error as Error).name !== 'StoreLockedError' || Date.now() > end) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

describe('votal serve killed mid-poll (PGlite folder, child process)', () => {
  it('the next start fails the dead poll and polls the game again, without waiting for its expiry', {
    timeout: 180_000,
  }, async () => {
    const script = withPosts(
      standardScript(43_000),
      Array.from({ length: 38 }, (_v, i) =>
        i % 3 === 0 ? { author: 'Eve', body: vote('Bob') } : { author: 'Frank', body: says(`Thinking ${i}`) },
      ),
    );
    const url = serve(forum, script, { delayMs: 150 });
    store = await reopen();
    const game = await newGame(store, url);
    await store.close();
    store = null;

    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/jobs/fixtures/serve-poller.ts'), dir], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, VOTAL_ALLOW_PRIVATE_HOSTS: '1' },
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const answered = () =>
      forum.requests.filter((r) => r.path.startsWith(pagePath(script, 1)) && r.doneAt !== null).length;
    await until(() => answered() >= 2, 'the first poll to read two pages', 60_000);
    child.kill('SIGKILL');
    await exited;

    store = await reopen();
    const jobs = async () =>
      (
        await store!.sql.query<{ id: string; state: string; output: { reason?: string } | null }>(
          `SELECT id, state, output FROM pgboss.job WHERE name = $1 AND singleton_key = $2 ORDER BY created_on`,
          [POLL_QUEUE, String(game.id)],
        )
      ).rows;
    const [dead] = await jobs();
    expect(dead).toMatchObject({ state: 'active' });

    const polls: PollResult[] = [];
    // No reconciler after the start-up one: the start itself must free the game.
    poller = createPoller({
      store,
      source: testSource(),
      pollingIntervalSeconds: 0.5,
      minDelayMs: 60_000,
      reconcileEveryMs: 3_600_000,
      onPolled: (r) => polls.push(r),
    });
    await poller.start();
    await until(
      () => polls.some((r) => r.gameId === game.id && r.status === 'polled'),
      'a poll after the restart',
      60_000,
    );
    expect((await jobs()).find((j) => j.id === dead!.id)).toMatchObject({
      state: 'failed',
      output: { reason: expect.stringMatching(/gone/) },
    });
    expect(await store.posts.postsOf(game.id)).toHaveLength(60);
  });
});
