import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from '../../src/cli/serve-command.js';
import type { VotalEnv } from '../../src/config/env.js';
import {
  ownLayoutPage,
  ownLayoutPages,
  ownLayoutPath,
  type OwnLayoutPost,
  type OwnLayoutThread,
} from '../../src/fake-forum/own-layout.js';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import type { Tally } from '../../src/model/tally.js';
import { FakeThread } from '../publish/fake-thread.js';
import { describePg, pgSchema, SECRET_KEY } from '../web/support.js';

/**
 * A whole game on a forum only the generic reader reads (issue #26), through `votal serve`
 * in-process on PGlite and on PostgreSQL, over real HTTP: the stand-in forum serves a
 * layout of its own (src/fake-forum/own-layout.ts) that no adapter claims. The GM adds the
 * game; Votal reads page 1 and waits for the GM's check (not polled, and says why); the GM
 * confirms; the host's learned selectors read every page after; new posts are counted;
 * the forum's redesign is a poll error naming the URL (the count stands, never short);
 * the votal is drafted without a word of the generic reader in it.
 */

interface Votal {
  url: string;
  token: string;
  stop(): Promise<void>;
}

async function inProcess(env: VotalEnv): Promise<Votal> {
  const v = await startServe({
    env,
    handleSignals: false,
    stdout: () => {},
    poller: { pollingIntervalSeconds: 0.5, minDelayMs: 500 },
    fetcher: { minIntervalMs: 0 },
  });
  return { url: v.url, token: v.adminToken, stop: () => v.close() };
}

function baseEnv(overrides: Partial<VotalEnv>): VotalEnv {
  return {
    databaseUrl: undefined,
    dataDir: 'memory://',
    adminToken: 'generic-e2e-admin-token-0123456789',
    secretKey: SECRET_KEY,
    port: 0,
    host: '127.0.0.1',
    allowPrivateHosts: true,
    logLevel: 'warn',
    ...overrides,
  };
}

function client(v: Votal) {
  const headers = { authorization: `Bearer ${v.token}`, 'content-type': 'application/json' };
  return async <T = Record<string, unknown>>(method: string, path: string, body?: unknown, status?: number) => {
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

const PLAYERS = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve'];
const at = (minute: number) => new Date(Date.UTC(2026, 2, 3, 12, minute)).toISOString();

/** The thread the forum serves, changed as the game goes on; every page is drawn when asked for. */
function serveThread(forum: FakeForum, path: string): OwnLayoutThread & { posts: OwnLayoutPost[] } {
  const posts: OwnLayoutPost[] = [{ author: 'Host', at: at(0), text: 'Welcome to Lantern Hall Mafia.\nDay 1 begins.' }];
  const chat = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Ann', 'Bob', 'Cy'];
  chat.forEach((author, i) => {
    posts.push({ author, at: at(5 + i * 5), text: `${author} here, reading the room (${i + 1}).` });
  });
  posts.push({ author: 'Ann', at: at(50), text: 'Bob is too quiet.\n[b]Vote: Bob[/b]' });
  posts.push({ author: 'Bob', at: at(55), text: 'Me? [b]Vote: Ann[/b]' });
  posts.push({ author: 'Cy', at: at(60), text: '[b]Vote: Bob[/b]' });
  const thread = { title: 'Lantern Hall Mafia I', posts, perPage: 10, path, layout: 'lantern' as const };
  const state: OwnLayoutThread & { posts: OwnLayoutPost[] } = thread;
  for (let n = 1; n <= 6; n++) {
    forum.route(ownLayoutPath(thread, n), () =>
      n <= ownLayoutPages(state) ? { body: ownLayoutPage(state, n) } : { status: 404, body: 'no such page' },
    );
  }
  return state;
}

async function playGame(votal: Votal, forum: FakeForum, path: string): Promise<void> {
  const api = client(votal);
  const thread = serveThread(forum, path);
  const asked = (query: string) => forum.requests.filter((r) => r.path === `${path}${query}`).length;

  // The GM adds the game, read generically: page 1 is read for the GM's check, nothing more.
  const game = await api<{ id: number; slug: string; engine: string }>(
    'POST',
    '/api/games',
    {
      url: forum.url(path),
      ruleset: 'plurality',
      players: PLAYERS,
      engine: 'generic',
      drafts: { everyNVotes: 2, everyHours: null },
    },
    201,
  );
  expect(game.engine).toBe('generic');
  type Standing = {
    generic: {
      state: string;
      note: string;
      check: {
        readAt: string;
        confirmedBy: string | null;
        finding: {
          posts: number;
          authors: number;
          message: string;
          samples: { number: number; author: string; postedAt: string; start: string }[];
        };
      } | null;
    };
  };
  const waiting = await until('page 1 read for the check', async () => {
    const r = await api<Standing>('GET', `/api/games/${game.id}/generic`);
    return r.generic.state === 'waiting' ? r.generic : null;
  });
  const finding = waiting.check!.finding;
  expect(finding).toMatchObject({ posts: 10, authors: 6 });
  expect(finding.message).toMatch(
    /^Votal found 10 posts by 6 authors on page 1: check three of them \(posts 1, 5, 10\)/,
  );
  expect(finding.samples).toEqual([
    {
      number: 1,
      author: 'Host',
      postedAt: '2026-03-03T12:00:00.000Z',
      permalink: expect.any(String),
      start: 'Welcome to Lantern Hall Mafia. Day 1 begins.',
    },
    {
      number: 5,
      author: 'Dee',
      postedAt: at(20),
      permalink: expect.any(String),
      start: 'Dee here, reading the room (4).',
    },
    {
      number: 10,
      author: 'Ann',
      postedAt: at(50),
      permalink: expect.any(String),
      start: 'Bob is too quiet. Vote: Bob',
    },
  ]);
  // Not polled until the GM checks it, and asked why: no post kept, no count, no page 2 asked for.
  expect(asked('?page=2')).toBe(0);
  expect((await api<{ posts: unknown[] }>('GET', `/api/games/${game.id}/posts`)).posts).toEqual([]);
  await api('GET', `/api/games/${game.id}/tally`, undefined, 404);
  const refused = await api<{ error: string }>('POST', `/api/games/${game.id}/poll`, undefined, 409);
  expect(refused.error).toMatch(/not polled until you check page 1/);
  await new Promise((r) => setTimeout(r, 1_500)); // the poller's rounds come and go: still one read of page 1
  expect(asked('')).toBe(1);
  const live = await (await fetch(`${votal.url}/g/${game.slug}`)).text();
  expect(live).toContain('Votal reads this forum generically');

  // A confirmation of another reading than the one kept (a page read again since) is refused.
  const stale = await api<{ error: string }>(
    'POST',
    `/api/games/${game.id}/generic/confirm`,
    { readAt: '2020-01-01T00:00:00Z' },
    409,
  );
  expect(stale.error).toMatch(/page 1 was read again since you looked/);

  // The GM confirms: the layout is kept as the host's profile, audited with the GM's name.
  const confirmed = await api<{
    learned: { host: string; profile: { engine: string; selectors: { post: string; author: string; body: string } } };
  }>('POST', `/api/games/${game.id}/generic/confirm`, { readAt: waiting.check!.readAt });
  expect(confirmed.learned.host).toBe('127.0.0.1');
  expect(confirmed.learned.profile.engine).toBe('generic');
  expect(confirmed.learned.profile.selectors.post).toMatch(/div\.reply$/);
  await api('POST', `/api/games/${game.id}/generic/confirm`, {}, 409); // once
  const audit = await api<{ audit: { action: string; actor: string; detail: Record<string, unknown> }[] }>(
    'GET',
    `/api/games/${game.id}/audit?limit=100`,
  );
  expect(audit.audit.find((a) => a.action === 'generic.confirm')).toMatchObject({
    actor: 'gm',
    detail: { host: '127.0.0.1', posts: 10, authors: 6, checked: [1, 5, 10] },
  });

  // Polled with the learned selectors: both pages, every vote.
  const first = await until('the first count', async () => {
    const res = await fetch(`${votal.url}/api/games/${game.id}/tally`, {
      headers: { authorization: `Bearer ${votal.token}` },
    });
    return res.status === 200 ? ((await res.json()) as Tally) : null;
  });
  expect(first.engine).toBe('generic');
  expect(first.postsRead).toBe(12);
  expect(wagons(first)).toEqual({ Bob: ['Ann', 'Cy'], Ann: ['Bob'] });
  expect(asked('?page=2')).toBeGreaterThan(0);

  // New posts on a new page are counted.
  thread.posts.push({ author: 'Dee', at: at(65), text: '[b]Vote: Ann[/b]' });
  thread.posts.push({ author: 'Eve', at: at(70), text: 'Bob, then.\n[b]Vote: Bob[/b]' });
  await api('POST', `/api/games/${game.id}/poll`);
  const second = await api<Tally>('GET', `/api/games/${game.id}/tally`);
  expect(second.postsRead).toBe(14);
  expect(wagons(second)).toEqual({ Bob: ['Ann', 'Cy', 'Eve'], Ann: ['Bob', 'Dee'] });

  // The votal: drafted by the triggers, with no word of the generic reader in the text players read.
  const { drafts } = await api<{ drafts: { id: number; body: string }[] }>('GET', `/api/games/${game.id}/drafts`);
  expect(drafts.length).toBeGreaterThan(0);
  expect(drafts[0]!.body).toMatch(/Bob/);
  expect(drafts[0]!.body).not.toMatch(/generic/i);

  // The forum's redesign: the learned selectors stop matching. A poll error naming the page, the count stands.
  thread.layout = 'lantern-2';
  thread.posts.push({ author: 'Ann', at: at(75), text: '[b]Vote: Dee[/b]' });
  const failed = await api<{ lastError: string | null }>('POST', `/api/games/${game.id}/poll`);
  expect(failed.lastError).toMatch(/layout changed/);
  expect(failed.lastError).toContain(forum.url(path));
  const after = await api<Tally>('GET', `/api/games/${game.id}/tally`);
  expect(after.postsRead).toBe(14);
  expect(wagons(after)).toEqual(wagons(second));
  const shown = await api<{ poll: { lastError: string; stale: { reason: string } | null } }>(
    'GET',
    `/api/games/${game.id}`,
  );
  expect(shown.poll.lastError).toMatch(/layout changed/);
  expect(shown.poll.stale).not.toBeNull();
  const livePage = await (await fetch(`${votal.url}/g/${game.slug}`)).text();
  expect(livePage).toMatch(/data-stale/);

  // The GM has page 1 read again: the kept layout is forgotten, the game waits for a new check.
  await api('POST', `/api/games/${game.id}/generic/recheck`);
  const again = await until('page 1 read again for the check', async () => {
    const r = await api<Standing>('GET', `/api/games/${game.id}/generic`);
    return r.generic.state === 'waiting' ? r.generic : null;
  });
  expect(again.check!.finding.posts).toBe(10);
  expect(again.check!.finding.samples.map((p) => [p.number, p.author])).toEqual([
    [1, 'Host'],
    [5, 'Dee'],
    [10, 'Ann'],
  ]);
  await api('POST', `/api/games/${game.id}/generic/confirm`, { readAt: again.check!.readAt });
  const relearned = await until('the count on the new layout', async () => {
    const t = await api<Tally>('GET', `/api/games/${game.id}/tally`);
    return t.postsRead === 15 ? t : null;
  });
  expect(wagons(relearned)).toEqual({ Bob: ['Cy', 'Eve'], Ann: ['Bob', 'Dee'], Dee: ['Ann'] });
  const actions = (
    await api<{ audit: { action: string }[] }>('GET', `/api/games/${game.id}/audit?limit=200`)
  ).audit.map((a) => a.action);
  expect(actions.filter((a) => a.startsWith('generic.'))).toEqual([
    'generic.confirm',
    'generic.recheck',
    'generic.confirm',
  ]);
}

/**
 * A game on a XenForo 2 forum whose theme changes to a layout no adapter knows (the stand-in
 * forum's `lantern`, same posts, same addresses, other anchors): the adapter's poll fails
 * offering the generic reader; the GM switches; page 1 is checked and confirmed; the game is
 * polled generically with no post counted twice; new votes count; the votal is drafted.
 */
async function switchGame(votal: Votal, forum: FakeForum, threadId: number): Promise<void> {
  const api = client(votal);
  const xf = new FakeThread(forum, { engine: 'xenforo2', threadId, slug: 'theme-mafia', postsPerPage: 4 });
  xf.add({ author: 'Moderator', body: 'Day 1 begins.' });
  xf.add({ author: 'Alice', body: 'Bob is quiet.\n[b]Vote: Bob[/b]' });
  xf.add({ author: 'Bob', body: '[b]Vote: Alice[/b]' });
  xf.add({ author: 'Carol', body: 'Thinking.' });
  xf.add({ author: 'Dave', body: '[b]Vote: Bob[/b]' });
  const game = await api<{ id: number }>(
    'POST',
    '/api/games',
    {
      url: xf.url,
      ruleset: 'plurality',
      players: ['Alice', 'Bob', 'Carol', 'Dave', 'Eve'],
      drafts: { everyNVotes: 1, everyHours: null },
    },
    201,
  );
  const posts = async () =>
    (await api<{ posts: { number: number; author: string }[] }>('GET', `/api/games/${game.id}/posts`)).posts;
  const byAdapter = await until('the adapter read the thread', async () => {
    const t = await fetch(`${votal.url}/api/games/${game.id}/tally`, {
      headers: { authorization: `Bearer ${votal.token}` },
    });
    return t.status === 200 ? ((await t.json()) as Tally) : null;
  });
  expect(byAdapter.engine).toBe('xenforo2');
  expect(wagons(byAdapter)).toEqual({ Bob: ['Alice', 'Dave'], Alice: ['Bob'] });
  type Reader = {
    engine: string;
    reader: { offer: string | null; canSwitchBack: boolean; adapterName: string | null };
  };
  expect((await api<Reader>('GET', `/api/games/${game.id}/generic`)).reader.offer).toBeNull();
  await api('POST', `/api/games/${game.id}/generic/switch`, undefined, 409); // nothing offered

  // The theme changes: the adapter finds no posts; the poll's error offers the generic reading.
  xf.layout = 'lantern';
  xf.add({ author: 'Carol', body: '[b]Vote: Bob[/b]' });
  const failed = await api<{ lastError: string | null }>('POST', `/api/games/${game.id}/poll`);
  expect(failed.lastError).toMatch(/the XenForo 2 layout was not found: read it generically\?/);
  const offered = await api<Reader>('GET', `/api/games/${game.id}/generic`);
  expect(offered.reader).toMatchObject({ offer: 'xenforo2', adapterName: 'XenForo 2', canSwitchBack: false });
  expect(await posts()).toHaveLength(5);

  // The GM takes it: page 1 is read for the check; nothing is polled until it is confirmed.
  const switched = await api<Reader & { generic: { state: string } }>('POST', `/api/games/${game.id}/generic/switch`);
  expect(switched.engine).toBe('generic');
  expect(switched.reader).toMatchObject({ offer: null, canSwitchBack: true });
  const waiting = await until('page 1 read for the check', async () => {
    const r = await api<{ generic: { state: string; check: { readAt: string; finding: { posts: number } } | null } }>(
      'GET',
      `/api/games/${game.id}/generic`,
    );
    return r.generic.state === 'waiting' ? r.generic : null;
  });
  expect(waiting.check!.finding.posts).toBe(4);
  await api('POST', `/api/games/${game.id}/generic/confirm`, { readAt: waiting.check!.readAt });

  // Polled generically: the adapter's five posts and the new one, none twice; Carol's vote counts.
  const generic = await until('the count read generically', async () => {
    const t = await api<Tally>('GET', `/api/games/${game.id}/tally`);
    return t.engine === 'generic' && t.postsRead === 6 ? t : null;
  });
  expect(wagons(generic)).toEqual({ Bob: ['Alice', 'Carol', 'Dave'], Alice: ['Bob'] });
  expect((await posts()).map((p) => [p.number, p.author])).toEqual([
    [1, 'Moderator'],
    [2, 'Alice'],
    [3, 'Bob'],
    [4, 'Carol'],
    [5, 'Dave'],
    [6, 'Carol'],
  ]);
  xf.add({ author: 'Eve', body: '[b]Vote: Alice[/b]' });
  await api('POST', `/api/games/${game.id}/poll`);
  const more = await api<Tally>('GET', `/api/games/${game.id}/tally`);
  expect(more.postsRead).toBe(7);
  expect(wagons(more)).toEqual({ Bob: ['Alice', 'Carol', 'Dave'], Alice: ['Bob', 'Eve'] });
  const { drafts } = await api<{ drafts: { body: string }[] }>('GET', `/api/games/${game.id}/drafts`);
  expect(drafts[0]!.body).toMatch(/Eve/);
  expect(drafts[0]!.body).not.toMatch(/generic/i);
  const actions = (
    await api<{ audit: { action: string; detail: Record<string, unknown> }[] }>(
      'GET',
      `/api/games/${game.id}/audit?limit=200`,
    )
  ).audit.filter((a) => a.action === 'game.engine' || a.action.startsWith('generic.'));
  expect(actions.map((a) => a.action).reverse()).toEqual(['game.engine', 'generic.confirm']);
  expect(actions.at(-1)!.detail).toMatchObject({ from: 'xenforo2', to: 'generic' });
}

let forum: FakeForum;
beforeAll(async () => {
  forum = await startFakeForum();
});
afterAll(async () => {
  await forum?.close();
});

describe('a game read generically, votal serve in-process on PGlite', () => {
  it('checked once, polled with the learned layout, a redesign told and learned again', async () => {
    const votal = await inProcess(baseEnv({}));
    try {
      await playGame(votal, forum, '/t/12-lantern-mafia');
    } finally {
      await votal.stop();
    }
  }, 180_000);
});

describe('a XenForo 2 game whose theme changed, switched to the generic reader, votal serve on PGlite', () => {
  it('offered, switched, checked, confirmed, polled; no post counted twice', async () => {
    const votal = await inProcess(baseEnv({}));
    try {
      await switchGame(votal, forum, 7101);
    } finally {
      await votal.stop();
    }
  }, 180_000);
});

await describePg('a XenForo 2 game whose theme changed, switched to the generic reader, on PostgreSQL', () => {
  it('offered, switched, checked, confirmed, polled; no post counted twice', async () => {
    const db = await pgSchema();
    const votal = await inProcess(baseEnv({ databaseUrl: db.url, queueSchema: `${db.schema}_boss` }));
    try {
      await switchGame(votal, forum, 7102);
    } finally {
      await votal.stop();
      await db.drop();
    }
  }, 180_000);
});

await describePg('a game read generically, votal serve in-process on PostgreSQL', () => {
  it('checked once, polled with the learned layout, a redesign told and learned again', async () => {
    const db = await pgSchema();
    const votal = await inProcess(baseEnv({ databaseUrl: db.url, queueSchema: `${db.schema}_boss` }));
    try {
      await playGame(votal, forum, '/t/13-lantern-mafia');
    } finally {
      await votal.stop();
      await db.drop();
    }
  }, 180_000);
});
