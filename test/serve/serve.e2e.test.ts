import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from '../../src/cli/serve-command.js';
import type { VotalEnv } from '../../src/config/env.js';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import type { Tally } from '../../src/model/tally.js';
import { LOCK_NAME } from '../../src/store/pglite-sql.js';
import { FakeThread } from '../publish/fake-thread.js';
import { describePg, pgSchema, SECRET_KEY } from '../web/support.js';

/**
 * `votal serve` end to end, on PGlite and on PostgreSQL, in-process (the serve function)
 * and as the installed bin (`node bin/votal.js serve`, after `npm run build`): a game is
 * added on the fake forum through the API, polled, the forum changes (votes, an edit
 * without marker, a deletion), and the tally, the revisions, the violations, a draft, its
 * approval and the reply that lands on the forum exactly once are checked.
 */

const root = join(import.meta.dirname, '../..');
const XF_KEY = 'xf-e2e-api-key-SECRET-5551212';

interface Votal {
  url: string;
  token: string;
  output(): string;
  /** The output once it holds `text`: a child's lines after the first arrive in their own time. */
  outputWith(text: string): Promise<string>;
  stop(): Promise<number | null>;
}

async function inProcess(env: VotalEnv): Promise<Votal> {
  let out = '';
  const v = await startServe({
    env,
    handleSignals: false,
    stdout: (s) => {
      out += s;
    },
    poller: { pollingIntervalSeconds: 0.5, minDelayMs: 500 },
    fetcher: { minIntervalMs: 0 },
  });
  return {
    url: v.url,
    token: v.adminToken,
    output: () => out,
    outputWith: async () => out,
    stop: async () => {
      await v.close();
      return null;
    },
  };
}

async function childProcess(vars: Record<string, string>): Promise<Votal> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('VOTAL_') && k !== 'DATABASE_URL') env[k] = v;
  const child: ChildProcess = spawn(process.execPath, [join(root, 'bin/votal.js'), 'serve', '--port', '0'], {
    cwd: root,
    env: { ...env, ...vars },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => {
    out += String(d);
  });
  child.stderr!.on('data', (d) => {
    err += String(d);
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 + 15 : null))),
  );
  const until = Date.now() + 150_000;
  let m: RegExpExecArray | null = null;
  while (!(m = /Votal is running: dashboard (http:\/\/[^/\s]+)\/gm \(admin token: ([^)]+)\)/.exec(out))) {
    if (child.exitCode !== null || Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`votal serve did not start:\n${out}\n${err}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: m[1]!,
    token: m[2]!,
    output: () => out + err,
    async outputWith(text) {
      // Waits on the child's output, bounded by its exit and by the start's own limit.
      while (!(out + err).includes(text) && child.exitCode === null && Date.now() < until)
        await new Promise((r) => setTimeout(r, 100));
      return out + err;
    },
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The API, as the GM's tools use it. */
function client(v: { url: string; token: string }) {
  const headers = { authorization: `Bearer ${v.token}`, 'content-type': 'application/json' };
  return async <T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    status?: number,
  ): Promise<T> => {
    const res = await fetch(`${v.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (status !== undefined) expect(res.status, `${method} ${path}: ${text}`).toBe(status);
    else expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
    return JSON.parse(text) as T;
  };
}

async function until<T>(what: string, get: () => Promise<T | null>, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await get();
    if (value !== null) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const wagons = (t: Tally) => Object.fromEntries(t.wagons.map((w) => [w.target, w.voters.map((v) => v.player).sort()]));

/** The scenario, against a running Votal. */
async function playGame(votal: Votal, forum: FakeForum): Promise<void> {
  const api = client(votal);
  const thread = new FakeThread(forum, {
    engine: 'xenforo2',
    postsPerPage: 4,
    threadId: 5000 + Math.floor(Math.random() * 1000),
    slug: 'e2e-game',
  });
  thread.add({ author: 'Moderator', body: '[b]Day 1 begins.[/b]\nPlurality; five alive.' });
  thread.add({ author: 'Alice', body: 'Bob was quiet.\n[b]Vote: Bob[/b]' });
  thread.add({ author: 'Bob', body: 'Why me?\n[b]Vote: Alice[/b]' });
  thread.add({ author: 'Carol', body: 'Just chatting for now.' });
  thread.enableXenforoApi({ apiKey: XF_KEY, user: 'Moderator' });

  // Adding the game: the API validates, the poller reads the thread.
  const bad = await api<{ error: string }>(
    'POST',
    '/api/games',
    { url: thread.url, ruleset: 'plurality', players: [] },
    400,
  );
  expect(bad.error).toMatch(/^players: /);
  const game = await api<{ id: number; slug: string }>(
    'POST',
    '/api/games',
    {
      url: thread.url,
      ruleset: 'witchhunt',
      players: ['Alice', 'Bob', 'Carol', 'Dave', 'Eve'],
      engine: 'xenforo2',
      publish: { method: 'xenforo-api', apiKey: XF_KEY, apiUser: '1' },
      drafts: { everyNVotes: 3, everyHours: null, onLMinus1: false },
    },
    201,
  );
  const first = await until('the first count', async () => {
    const res = await fetch(`${votal.url}/api/games/${game.id}/tally`, {
      headers: { authorization: `Bearer ${votal.token}` },
    });
    return res.status === 200 ? ((await res.json()) as Tally) : null;
  });
  expect(first.engine).toBe('xenforo2');
  expect(first.postsRead).toBe(4);
  expect(wagons(first)).toEqual({ Bob: ['Alice'], Alice: ['Bob'] });
  expect(first.notVoting.sort()).toEqual(['Carol', 'Dave', 'Eve']);

  // The public live page and its event stream are up.
  expect((await fetch(`${votal.url}/g/${game.slug}`)).status).toBe(200);

  // More votes.
  thread.add({ author: 'Dave', body: '[b]Vote: Bob[/b]' });
  const carol = thread.add({ author: 'Carol', body: 'Fine.\n[b]Vote: Dave[/b]' });
  await api('POST', `/api/games/${game.id}/poll`);
  const second = await api<Tally>('GET', `/api/games/${game.id}/tally`);
  expect(second.postsRead).toBe(6);
  expect(wagons(second)).toEqual({ Bob: ['Alice', 'Dave'], Alice: ['Bob'], Dave: ['Carol'] });

  // An edit without the forum's marker, a deletion, a new vote.
  thread.edit(2, 'Bob was quiet.\n[b]Vote: Dave[/b]', { marked: false });
  thread.delete(carol.n);
  thread.add({ author: 'Eve', body: '[b]Vote: Carol[/b]' });
  await api('POST', `/api/games/${game.id}/poll`);
  // Twice: src/game/poll-game.ts takes the fold's `now` before the read stamps the edit's
  // first sighting, so a silent edit is counted from the poll after the one that saw it.
  await api('POST', `/api/games/${game.id}/poll`);
  const third = await api<Tally>('GET', `/api/games/${game.id}/tally`);
  expect(third.violations).toEqual([
    expect.objectContaining({ player: 'Alice', post: 2, kind: 'edit', consequence: 'flag' }),
  ]);
  expect(third.violations[0]!.detail).toMatch(
    /before: "Bob was quiet\. Vote: Bob"; after: "Bob was quiet\. Vote: Dave"/,
  );
  // Alice's edited vote counts (and is flagged); Carol's deleted post still counts; Eve's is #7.
  expect(wagons(third)).toEqual({ Dave: ['Alice', 'Carol'], Alice: ['Bob'], Bob: ['Dave'], Carol: ['Eve'] });
  expect(third.notes).toEqual(expect.arrayContaining([expect.stringMatching(/Post 6 by Carol was deleted/)]));
  expect(third.postsRead).toBe(7);

  const { posts } = await api<{
    posts: { id: string; number: number; author: string; deleted: boolean; revisions: number }[];
  }>('GET', `/api/games/${game.id}/posts`);
  expect(posts.find((p) => p.id === String(carol.id))).toMatchObject({ author: 'Carol', deleted: true });
  expect(posts.find((p) => p.number === 2)).toMatchObject({ author: 'Alice', revisions: 2, deleted: false });
  const { revisions } = await api<{ revisions: { current: boolean }[] }>(
    'GET',
    `/api/games/${game.id}/posts/2/revisions`,
  );
  expect(revisions.map((r) => r.current)).toEqual([false, true]);
  const audit = await api<{ audit: { action: string }[] }>('GET', `/api/games/${game.id}/audit?limit=500`);
  expect(audit.audit.map((a) => a.action)).toEqual(expect.arrayContaining(['post.edit', 'post.delete', 'tally.save']));

  // The draft the triggers made, approved and published exactly once.
  const { drafts } = await api<{ drafts: { id: number; status: string; body: string }[] }>(
    'GET',
    `/api/games/${game.id}/drafts?status=pending`,
  );
  expect(drafts.length).toBeGreaterThan(0);
  const draft = drafts[0]!;
  expect(draft.body).toMatch(/Bob/);
  // Eve's vote and Alice's edit came after it: approving asks first (issue #14, 2).
  const stale = await api<{ error: string }>('POST', `/api/drafts/${draft.id}/approve`, {}, 409);
  expect(stale.error).toMatch(new RegExp(`^draft ${draft.id} was made from an older count`));
  const approved = await api<{ status: string; remote: { id: string }; draft: { publication: { marker: string } } }>(
    'POST',
    `/api/drafts/${draft.id}/approve`,
    { confirm: true },
  );
  expect(approved.status).toBe('published');
  expect(thread.replies).toHaveLength(1);
  const marker = approved.draft.publication.marker;
  expect(thread.replies[0]!.message).toContain(marker);
  expect(approved.remote.id).toBe(String(thread.replies[0]!.postId));

  // Again (a double click): nothing more is posted. The next poll reads the votal as a post of the GM's.
  const again = await api<{ status: string }>('POST', `/api/drafts/${draft.id}/approve`);
  expect(again.status).toBe('published');
  await api('POST', `/api/games/${game.id}/poll`);
  expect(thread.replies).toHaveLength(1);
  const lastPage = await (await fetch(`${thread.url}page-${Math.ceil(thread.posts.length / 4)}`)).text();
  expect(lastPage.split(marker).length - 1).toBe(1);
  const after = await api<{ posts: { author: string; id: string }[] }>('GET', `/api/games/${game.id}/posts`);
  expect(after.posts.at(-1)).toMatchObject({ author: 'Moderator', id: String(thread.replies[0]!.postId) });
  const fourth = await api<Tally>('GET', `/api/games/${game.id}/tally`);
  expect(wagons(fourth)).toEqual(wagons(third));
}

let forum: FakeForum;
beforeAll(async () => {
  forum = await startFakeForum();
});
afterAll(async () => {
  await forum?.close();
});

function baseEnv(overrides: Partial<VotalEnv>): VotalEnv {
  return {
    databaseUrl: undefined,
    dataDir: 'memory://',
    adminToken: undefined,
    secretKey: SECRET_KEY,
    port: 0,
    host: '127.0.0.1',
    allowPrivateHosts: true,
    logLevel: 'warn',
    ...overrides,
  };
}

describe('votal serve in-process on PGlite', () => {
  it('plays a game end to end', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'votal-e2e-'));
    const votal = await inProcess(baseEnv({ dataDir: dir }));
    try {
      expect(votal.output()).toMatch(
        /^Votal is running: dashboard http:\/\/127\.0\.0\.1:\d+\/gm \(admin token: [\w-]{20,}\); players follow http:\/\/127\.0\.0\.1:\d+\/g\/<game>$/m,
      );
      expect((statSync(join(dir, 'admin-token')).mode & 0o777).toString(8)).toBe('600');
      await playGame(votal, forum);
    } finally {
      await votal.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

await describePg('votal serve in-process on PostgreSQL', () => {
  it('plays a game end to end', async () => {
    const db = await pgSchema();
    const votal = await inProcess(
      baseEnv({ databaseUrl: db.url, adminToken: 'e2e-admin-token-0123456789', queueSchema: `${db.schema}_boss` }),
    );
    try {
      expect(votal.output()).toContain('(admin token: from VOTAL_ADMIN_TOKEN)');
      expect(votal.output()).toMatch(/Data: PostgreSQL postgres:\/\//);
      await playGame(votal, forum);
    } finally {
      await votal.stop();
      await db.drop();
      await dropSchema(`${db.schema}_boss`);
    }
  }, 300_000);
});

describe('the votal bin (node bin/votal.js serve)', () => {
  beforeAll(() => {
    build();
  }, 300_000);

  it('on PGlite: plays a game, stops cleanly on SIGTERM, keeps its data and token', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'votal-e2e-bin-'));
    const vars = {
      VOTAL_DATA_DIR: dir,
      VOTAL_ALLOW_PRIVATE_HOSTS: '1',
      VOTAL_SECRET_KEY: SECRET_KEY.toString('base64'),
      VOTAL_LOG_LEVEL: 'warn',
    };
    try {
      const votal = await childProcess(vars);
      expect(votal.token).toMatch(/^[\w-]{20,}$/);
      expect(await votal.outputWith('kept in')).toContain(`kept in ${join(dir, 'admin-token')}`);
      await playGame(votal, forum);
      expect(await votal.stop()).toBe(143);
      expect(existsSync(join(dir, LOCK_NAME))).toBe(false);

      // Second run: same data, the token is not shown again.
      const again = await childProcess(vars);
      expect(again.token).toBe(`in ${join(dir, 'admin-token')}`);
      const games = await client({ url: again.url, token: votal.token })<{ games: unknown[] }>('GET', '/api/games');
      expect(games.games).toHaveLength(1);
      expect(again.output()).not.toContain(votal.token);
      expect(await again.stop()).toBe(143);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 400_000);

  it('votal worker refuses to run without PostgreSQL', () => {
    let failure: { status: number; stderr: string } | null = null;
    try {
      execFileSync(process.execPath, [join(root, 'bin/votal.js'), 'worker'], {
        cwd: root,
        env: { PATH: process.env.PATH ?? '' },
        stdio: 'pipe',
      });
    } catch (e) {
      const err = e as { status: number; stderr: Buffer };
      failure = { status: err.status, stderr: err.stderr.toString() };
    }
    expect(failure?.status).toBe(2);
    expect(failure?.stderr).toMatch(/votal worker needs PostgreSQL: set DATABASE_URL/);
  }, 180_000);
});

await describePg('the votal bin on PostgreSQL', () => {
  beforeAll(() => {
    build();
  }, 300_000);

  it('plays a game end to end', async () => {
    const db = await pgSchema();
    const token = `bin-pg-token-${randomBytes(16).toString('hex')}`;
    const votal = await childProcess({
      DATABASE_URL: db.url,
      VOTAL_ADMIN_TOKEN: token,
      VOTAL_ALLOW_PRIVATE_HOSTS: '1',
      VOTAL_SECRET_KEY: SECRET_KEY.toString('hex'),
      VOTAL_LOG_LEVEL: 'warn',
      VOTAL_QUEUE_SCHEMA: `${db.schema}_boss`,
      VOTAL_DATA_DIR: join(tmpdir(), `votal-unused-${db.schema}`),
    });
    try {
      expect(votal.token).toBe('from VOTAL_ADMIN_TOKEN');
      await playGame({ ...votal, token }, forum);
    } finally {
      expect(await votal.stop()).toBe(143);
      await db.drop();
      await dropSchema(`${db.schema}_boss`);
    }
  }, 400_000);
});

let built = false;
/** `npm run build`, once per run: the bin runs dist/. */
function build(): void {
  if (built) return;
  try {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'pipe' });
  } catch (e) {
    // Type errors elsewhere in the tree still emit dist/ (tsc emits on error); only a missing bin is fatal.
    if (!existsSync(join(root, 'dist/src/cli/serve-command.js'))) {
      const out = e as { stdout?: Buffer; stderr?: Buffer };
      throw new Error(`npm run build failed:\n${out.stdout?.toString() ?? ''}${out.stderr?.toString() ?? ''}`);
    }
    console.warn(
      `npm run build reported errors (dist/ was still written):\n${(e as { stdout?: Buffer }).stdout?.toString().slice(0, 2000) ?? ''}`,
    );
  }
  built = true;
}

async function dropSchema(schema: string): Promise<void> {
  const { default: pg } = await import('pg');
  const { PG_URL } = await import('../web/support.js');
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await c.end();
}
