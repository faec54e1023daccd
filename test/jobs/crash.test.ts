import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pollGame } from '../../src/game/poll-game.js';
import { migrate } from '../../src/store/migrate.js';
import { storeOn, type Repos } from '../../src/store/open-store.js';
import { openPgliteSql } from '../../src/store/pglite-sql.js';
import type { Sql } from '../../src/store/sql.js';
import type { GameScript } from '../support/game-script.js';
import {
  newGame,
  pagePath,
  ROOT,
  says,
  serve,
  standardScript,
  testSource,
  vote,
  withBody,
  withPosts,
} from '../game/support.js';
import { until } from './support.js';

/**
 * A poll killed with SIGKILL half-way (a crash, an OOM kill) must leave the embedded
 * database openable and consistent: the next poll stores every post exactly once.
 */

const CHILD = join(ROOT, 'test/jobs/fixtures/poll-once.ts');
let forum: FakeForum;
let dir: string;

beforeAll(async () => {
  forum = await startFakeForum();
  dir = await mkdtemp(join(tmpdir(), 'votal-crash-'));
});
afterAll(async () => {
  await forum?.close();
  await rm(dir, { recursive: true, force: true });
});

type Store = Repos & { sql: Sql };

/** Opens the folder, waiting for the dead child's lock to go stale (2 s). */
async function reopen(): Promise<Store> {
  const end = Date.now() + 20_000;
  for (;;) {
    try {
      const sql = await openPgliteSql({ dataDir: dir, lockStaleMs: 2_000 });
      await migrate(sql);
      return { sql, ...storeOn(sql) };
    } catch (error) {
      if ((error as Error).name !== 'StoreLockedError' || Date.now() > end) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

function startChild(
  gameId: number,
  now: string,
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, String(gameId), now], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, VOTAL_ALLOW_PRIVATE_HOSTS: '1' },
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** The thread's responses that have been sent in full so far. */
const answered = (script: GameScript) =>
  forum.requests.filter((r) => r.path.startsWith(pagePath(script, 1)) && r.doneAt !== null);

async function expectExact(store: Store, gameId: number, script: GameScript): Promise<void> {
  const posts = await store.posts.postsOf(gameId);
  expect(posts.map((p) => p.number)).toEqual(script.posts.map((p) => p.n));
  expect(new Set(posts.map((p) => p.id)).size).toBe(posts.length);
  expect(posts.filter((p) => p.deleted)).toEqual([]);
  const pages = await store.threadPages.list(gameId);
  expect(pages.map((p) => p.page)).toEqual([...Array(Math.ceil(script.posts.length / 8)).keys()].map((i) => i + 1));
  const tally = await store.tallies.latest(gameId);
  expect(tally?.tally.postsRead).toBe(script.posts.length);
}

describe('a poll killed half-way (PGlite folder, child process)', () => {
  it('killing the process mid-poll loses no post and duplicates none', { timeout: 180_000 }, async () => {
    // A 60-post thread (8 pages) served slowly: the poll takes a while.
    let script = standardScript(9_100);
    script = withPosts(
      script,
      Array.from({ length: 38 }, (_v, i) =>
        i % 3 === 0
          ? { author: 'Eve', body: vote(i % 2 ? 'Alice' : 'Bob') }
          : { author: 'Frank', body: says(`Thinking ${i}`) },
      ),
    );
    const url = serve(forum, script, { delayMs: 120 });

    let store = await reopen();
    const game = await newGame(store, url);
    await store.sql.close();

    // 1. Killed while it records the first pages of the first read.
    let run = startChild(game.id, '2026-03-04T12:00:00Z');
    await until(() => answered(script).length >= 3, 'three pages served', 30_000);
    run.child.kill('SIGKILL');
    expect(await run.exited).toBeNull();

    store = await reopen(); // it must open
    const partial = await store.posts.postsOf(game.id);
    const partialPages = await store.threadPages.list(game.id);
    // Whatever was recorded is whole: pages 1..k, with their posts.
    expect(partialPages.map((p) => p.page)).toEqual([...Array(partialPages.length).keys()].map((i) => i + 1));
    expect(partial.length).toBeLessThanOrEqual(partialPages.length * 8 + 8);
    const first = await pollGame({ store, source: testSource(), now: () => '2026-03-04T12:05:00Z' }, game.id);
    expect(first.status).toBe('polled');
    await expectExact(store, game.id, script);
    expect(first.added).toBe(60 - partial.length);
    await store.sql.close();

    // 2. New posts on new pages and an edit of the last page; killed right as a page arrives.
    script = withBody(
      withPosts(
        script,
        Array.from({ length: 14 }, (_v, i) => ({ author: 'Dave', body: vote(i % 2 ? 'Carol' : 'Frank') })),
      ),
      60,
      vote('Davina'),
    );
    serve(forum, script, { delayMs: 120 });
    const mark = answered(script).length;
    run = startChild(game.id, '2026-03-04T12:10:00Z');
    await until(() => answered(script).length >= mark + 2, 'two more pages served', 30_000);
    run.child.kill('SIGKILL');
    await run.exited;

    store = await reopen();
    const second = await pollGame({ store, source: testSource(), now: () => '2026-03-04T12:15:00Z' }, game.id);
    expect(second.status).toBe('polled');
    await expectExact(store, game.id, script);
    const edited = (await store.posts.post(game.id, String(script.posts[59]!.id)))!;
    expect(edited.revisions).toBe(2);
    const revisions = await store.sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM post_revision r JOIN post p ON p.id = r.post_id WHERE p.game_id = $1',
      [game.id],
    );
    expect(revisions.rows[0]!.n).toBe(script.posts.length + 1);
    await store.sql.close();

    // 3. Killed after the last page, while it parses and counts: the next poll finishes the job.
    script = withPosts(script, [{ author: 'Alice', body: vote('Dave') }]);
    serve(forum, script, { delayMs: 0 });
    const before = answered(script).length;
    run = startChild(game.id, '2026-03-04T12:20:00Z');
    await until(
      () => answered(script).length > before || run.output().includes('"status"'),
      'the last page served',
      30_000,
    );
    await new Promise((r) => setTimeout(r, 30));
    run.child.kill('SIGKILL');
    await run.exited;
    store = await reopen();
    const third = await pollGame({ store, source: testSource(), now: () => '2026-03-04T12:25:00Z' }, game.id);
    expect(third.status).toBe('polled');
    await expectExact(store, game.id, script);
    expect((await store.tallies.latest(game.id))?.tally.asOfPost).toBe(script.posts.length);
    await store.sql.close();
  });
});
