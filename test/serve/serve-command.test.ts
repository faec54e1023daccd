import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminTokenFor, startServe, startWorker, type RunningVotal } from '../../src/cli/serve-command.js';
import { CliError } from '../../src/cli/exit-codes.js';
import type { VotalEnv } from '../../src/config/env.js';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { openStore } from '../../src/store/open-store.js';
import { FakeThread } from '../publish/fake-thread.js';
import { describePg, eventually, pgSchema, SECRET_KEY } from '../web/support.js';

function env(overrides: Partial<VotalEnv>): VotalEnv {
  return {
    databaseUrl: undefined,
    dataDir: 'memory://',
    adminToken: undefined,
    secretKey: SECRET_KEY,
    port: 0,
    host: '127.0.0.1',
    allowPrivateHosts: true,
    logLevel: 'silent',
    ...overrides,
  };
}

describe('the admin token', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'votal-token-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('comes from VOTAL_ADMIN_TOKEN when set', async () => {
    expect(await adminTokenFor(env({ dataDir: dir, adminToken: 'x'.repeat(20) }))).toEqual({
      token: 'x'.repeat(20),
      source: 'env',
      file: null,
    });
  });

  it('is made once, kept 0600 in the data folder, and read back after', async () => {
    const first = await adminTokenFor(env({ dataDir: join(dir, 'data') }));
    expect(first.source).toBe('new');
    expect(first.token).toMatch(/^[\w-]{32}$/);
    const file = join(dir, 'data', 'admin-token');
    expect(first.file).toBe(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(first.token);
    const again = await adminTokenFor(env({ dataDir: join(dir, 'data') }));
    expect(again).toEqual({ token: first.token, source: 'file', file });
  });
});

describe('votal serve, in-process', () => {
  let dir: string;
  let running: RunningVotal | null = null;
  let out = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'votal-serve-'));
    running = await startServe({
      env: env({ dataDir: dir }),
      handleSignals: false,
      stdout: (s) => {
        out += s;
      },
    });
  });
  afterAll(async () => {
    await running?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints where it runs and the new admin token, once', () => {
    expect(out).toContain(`Votal is running: dashboard ${running!.url}/gm (admin token: ${running!.adminToken})`);
    expect(out).toContain(`PGlite in ${dir}`);
  });

  it('answers the API with that token only', async () => {
    expect((await fetch(`${running!.url}/api/games`)).status).toBe(401);
    const res = await fetch(`${running!.url}/api/games`, {
      headers: { authorization: `Bearer ${running!.adminToken}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ games: [] });
  });

  it('a second serve on the same data folder is refused with a plain message', async () => {
    const error = await startServe({ env: env({ dataDir: dir }), handleSignals: false, stdout: () => {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toMatch(/already open in another process/);
  });

  it('a port in use is a plain error, and nothing is left open', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    const other = await mkdtemp(join(tmpdir(), 'votal-serve-port-'));
    try {
      const error = await startServe({
        env: env({ dataDir: other, port }),
        handleSignals: false,
        stdout: () => {},
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CliError);
      expect((error as Error).message).toMatch(new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: it is in use`));
      // The store was closed again: the folder opens.
      const store = await openStore({ dataDir: other });
      await store.close();
    } finally {
      blocker.close();
      await rm(other, { recursive: true, force: true });
    }
  }, 120_000);

  it('closes cleanly (twice is fine)', async () => {
    const r = running!;
    running = null;
    await r.close();
    await r.close();
    await expect(fetch(`${r.url}/api/games`)).rejects.toThrow();
  });
});

describe('votal worker', () => {
  it('needs PostgreSQL', async () => {
    const error = await startWorker({ env: env({}), handleSignals: false, stdout: () => {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(2);
    expect((error as Error).message).toMatch(/votal worker needs PostgreSQL: set DATABASE_URL/);
  });
});

await describePg('votal worker on PostgreSQL', () => {
  let forum: FakeForum;
  let db: Awaited<ReturnType<typeof pgSchema>>;
  beforeAll(async () => {
    forum = await startFakeForum();
    db = await pgSchema();
  });
  afterAll(async () => {
    await forum?.close();
    await db?.drop();
    const { default: pg } = await import('pg');
    const { PG_URL } = await import('../web/support.js');
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${db.schema}_boss CASCADE`);
    await c.end();
  });

  it('polls the active games it finds (only polling: no web server)', async () => {
    const thread = new FakeThread(forum, { engine: 'xenforo2' });
    thread.add({ author: 'Moderator', body: 'Day 1' });
    thread.add({ author: 'Alice', body: '[b]Vote: Bob[/b]' });
    const store = await openStore({ databaseUrl: db.url });
    const game = await store.games.create(
      {
        threadUrl: thread.url,
        engine: 'xenforo2',
        ruleset: 'plurality',
        roster: [{ name: 'Alice' }, { name: 'Bob' }],
        nextPollAt: new Date(),
      },
      'test',
    );
    let out = '';
    const worker = await startWorker({
      env: env({ databaseUrl: db.url, queueSchema: `${db.schema}_boss` }),
      handleSignals: false,
      stdout: (s) => {
        out += s;
      },
      poller: { pollingIntervalSeconds: 0.5 },
      fetcher: { minIntervalMs: 0 },
    });
    try {
      expect(out).toMatch(/^Votal worker is polling \(PostgreSQL postgres:\/\//);
      await eventually(async () => (await store.tallies.latest(game.id)) !== null, 60_000, 'the worker to poll');
      const tally = (await store.tallies.latest(game.id))!.tally;
      expect(tally.wagons.map((w) => [w.target, w.total])).toEqual([['Bob', 1]]);
    } finally {
      await worker.close();
      await store.close();
    }
  }, 120_000);
});
