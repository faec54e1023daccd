import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { PageFetcher } from '../../src/fetch/page-fetcher.js';
import { pollGame } from '../../src/game/poll-game.js';
import type { Tally } from '../../src/model/tally.js';
import type { Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { FakeThread } from '../publish/fake-thread.js';
import { ADMIN_TOKEN, eventually, openTestStore, recordingPoller, sampleTally, testEnv } from './support.js';

/**
 * The HTTP API contract (DESIGN.md), through `app.request()`: every GM route needs the
 * admin token, validation errors name the field, a GM event re-counts, approving a draft
 * publishes it.
 */

let store: Store;
let closeStore: () => Promise<void>;
let forum: FakeForum;
let thread: FakeThread;
let app: VotalApp;
const poller = recordingPoller((id) =>
  pollGame(
    {
      store,
      source: new PageFetcher({ allowPrivateHosts: true, minIntervalMs: 0, respectRobots: false, retries: 0 }),
      now: () => new Date().toISOString(),
    },
    id,
  ).then(() => undefined),
);

const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = auth,
): Promise<Response> {
  return app.request(path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

async function ok<T = Record<string, unknown>>(res: Response | Promise<Response>, status = 200): Promise<T> {
  const r = await res;
  const text = await r.text();
  expect(r.status, text).toBe(status);
  return JSON.parse(text) as T;
}

beforeAll(async () => {
  ({ store, close: closeStore } = await openTestStore('pglite'));
  forum = await startFakeForum();
  thread = new FakeThread(forum, { engine: 'xenforo2', postsPerPage: 4 });
  thread.add({ author: 'Moderator', body: '[b]Day 1 begins.[/b]' });
  thread.add({ author: 'Alice', body: '[b]Vote: Bob[/b]' });
  thread.add({ author: 'Bob', body: 'Why me?\n[b]Vote: Alice[/b]' });
  thread.add({ author: 'Carol', body: '[b]Vote: Bob[/b]' });
  app = createApp({ store, poller, env: testEnv(), publish: { timeoutMs: 2_000, backoffMs: 10, recheckMs: [50] } });
});

afterAll(async () => {
  await app?.shutdown();
  await forum?.close();
  await closeStore();
});

describe('authentication', () => {
  const routes: [string, string][] = [
    ['GET', '/api/games'],
    ['POST', '/api/games'],
    ['GET', '/api/games/1'],
    ['PATCH', '/api/games/1'],
    ['GET', '/api/games/1/tally'],
    ['GET', '/api/games/1/events'],
    ['POST', '/api/games/1/events'],
    ['GET', '/api/games/1/drafts'],
    ['POST', '/api/games/1/poll'],
    ['GET', '/api/games/1/posts'],
    ['GET', '/api/games/1/posts/1/revisions'],
    ['GET', '/api/games/1/audit'],
    ['GET', '/api/drafts/1'],
    ['POST', '/api/drafts/1/approve'],
    ['POST', '/api/drafts/1/discard'],
    ['POST', '/api/drafts/1/published'],
    ['GET', '/api/nothing-here'],
  ];
  it.each(routes)('%s %s needs the admin token', async (method, path) => {
    const variants: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token' },
      { authorization: ADMIN_TOKEN },
      { authorization: `Basic ${ADMIN_TOKEN}` },
      { authorization: `Bearer ${ADMIN_TOKEN}x` },
    ];
    for (const headers of variants) {
      const res = await call(method, path, method === 'GET' ? undefined : {}, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('wrong tokens are throttled per client address: 429 with Retry-After, and then even the right token waits (issue #17)', async () => {
    let clock = 0;
    const throttled = createApp({
      store,
      poller,
      env: testEnv(),
      authRateLimit: { now: () => clock, keyOf: (c) => c.req.header('x-test-client') ?? '?' },
    });
    try {
      const attempt = (token: string, client = 'attacker') =>
        throttled.request('/api/games', { headers: { authorization: `Bearer ${token}`, 'x-test-client': client } });
      const statuses: number[] = [];
      for (let i = 0; i < 300; i++) statuses.push((await attempt(`guess-${i}`)).status);
      expect(statuses.slice(0, 100).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(100).every((s) => s === 429)).toBe(true);
      const refused = await attempt(ADMIN_TOKEN);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBe(10);
      expect((await refused.json()).error).toMatch(/too many wrong admin tokens/);
      // Another address is not held back by this one.
      expect((await attempt(ADMIN_TOKEN, 'the-gm')).status).toBe(200);
      clock += 10_000;
      expect((await attempt(ADMIN_TOKEN)).status).toBe(200);
    } finally {
      await throttled.shutdown();
    }
  });

  it('public routes need no token', async () => {
    expect((await app.request('/g/no-such-game')).status).toBe(404);
    expect((await app.request('/')).status).toBe(200);
  });
});

describe('POST /api/games', () => {
  const valid = () => ({ url: thread.url, ruleset: 'plurality', players: ['Alice', 'Bob', 'Carol', 'Dave'] });

  it.each([
    ['url', { url: undefined }, /url: required/],
    ['url', { url: 'not a url' }, /url: not a URL/],
    ['url', { url: 'ftp://forum.example/threads/a.1/' }, /url: must be an http or https URL/],
    ['ruleset', { ruleset: 'no-such-rules' }, /ruleset: unknown ruleset "no-such-rules" \(known: .*plurality/],
    ['ruleset', { ruleset: '../../etc/passwd' }, /ruleset: unknown ruleset/],
    ['players', { players: [] }, /players: must name at least one player/],
    ['players', { players: 'Alice' }, /players: must be a list/],
    ['players', { players: ['Alice', 'alice'] }, /players: "alice" is listed twice/],
    ['players.1', { players: ['Alice', ''] }, /players\.1: a player name cannot be empty/],
    ['engine', { engine: 'vbulletin9' }, /engine: unknown engine "vbulletin9"/],
    ['slug', { slug: 'Not A Slug!' }, /slug: /],
    ['colour', { colour: 'red' }, /unknown field\(s\) "colour"/],
  ])('a bad %s is a 400 naming it', async (field, change, message) => {
    const body = await ok<{ error: string; issues: { field: string }[] }>(
      call('POST', '/api/games', { ...valid(), ...change }),
      400,
    );
    expect(body.error).toMatch(message);
    expect(body.issues.map((i) => i.field)).toContain(field === 'colour' ? '(body)' : field);
  });

  it('a body over 1 MB is refused (413)', async () => {
    const res = await call('POST', '/api/games', { ...valid(), players: ['x'.repeat(2 * 1024 * 1024)] });
    expect(res.status).toBe(413);
  });

  it('a body that is not JSON is a 400', async () => {
    const body = await ok<{ error: string }>(call('POST', '/api/games', '{nope'), 400);
    expect(body.error).toMatch(/not valid JSON/);
  });

  it('private and loopback hosts are refused unless allowed', async () => {
    const strict = createApp({ store, poller: recordingPoller(), env: testEnv({ allowPrivateHosts: false }) });
    for (const url of [
      thread.url,
      'http://10.0.0.8/threads/a.1/',
      'http://[::1]/threads/a.1/',
      'http://169.254.169.254/latest/',
    ]) {
      const res = await strict.request('/api/games', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ ...valid(), url }),
      });
      const body = (await res.json()) as { error: string };
      expect(res.status).toBe(400);
      expect(body.error).toMatch(/^url: .*private and loopback addresses are refused/);
    }
    await strict.shutdown();
  });

  it('adds a game: id and slug, a first poll (which tells the engine: XenForo 1 and 2 share the URL form)', async () => {
    const calls = poller.calls.length;
    const body = await ok<{ id: number; slug: string; engine: string | null }>(
      call('POST', '/api/games', valid()),
      201,
    );
    expect(body.id).toBeGreaterThan(0);
    expect(body.slug).toMatch(/^fake-game-4242-[0-9a-f]{8}$/);
    expect(body.engine).toBeNull();
    await eventually(
      async () => (await store.games.get(body.id))!.engine === 'xenforo2',
      30_000,
      'engine from the page',
    );
    // One game per thread: the next one on this thread may start once this one is finished.
    await ok(call('PATCH', `/api/games/${body.id}`, { action: 'finish' }));
    const named = await ok<{ id: number; engine: string }>(
      call('POST', '/api/games', { ...valid(), engine: 'xenforo2' }),
      201,
    );
    expect(named.engine).toBe('xenforo2');
    expect(poller.calls.slice(calls)).toEqual([String(body.id), String(named.id)]);
    await ok(call('PATCH', `/api/games/${named.id}`, { action: 'finish' }));
    const game = await store.games.get(body.id);
    expect(game!.roster.map((s) => s.name)).toEqual(['Alice', 'Bob', 'Carol', 'Dave']);
    expect((await store.audit.list({ gameId: body.id })).map((a) => a.action)).toContain('game.create');
  });

  it('one game per thread: the same thread again, however written, is a 409 naming the game that has it (issue #16)', async () => {
    const other = new FakeThread(forum, { engine: 'xenforo2', postsPerPage: 4, threadId: 777 });
    other.add({ author: 'Moderator', body: 'Day 1' });
    const first = await ok<{ id: number; slug: string }>(
      call('POST', '/api/games', { ...valid(), url: other.url, engine: 'xenforo2' }),
      201,
    );
    const base = new URL(other.url);
    const sameThread = [
      ['the URL as given', other.url],
      ['host in capitals', other.url.replace(base.hostname, base.hostname.toUpperCase())],
      ['no trailing slash', other.url.replace(/\/$/, '')],
      ['a later page', `${other.url}page-3`],
      ['a post anchor', `${other.url}post-7#post-7`],
      ['a fragment', `${other.url}#posts`],
    ];
    for (const [how, url] of sameThread) {
      const res = await ok<{ error: string; game: { id: number; slug: string } }>(
        call('POST', '/api/games', { ...valid(), url, engine: 'xenforo2' }),
        409,
      );
      expect(res.game, how).toEqual({ id: first.id, slug: first.slug });
      expect(res.error, how).toContain(`game ${first.id} (${first.slug}) already follows this thread`);
    }
    const scheme = await ok<{ game: { id: number } }>(
      call('POST', '/api/games', { ...valid(), url: other.url.replace(/^http:/, 'HTTP:'), engine: 'xenforo2' }),
      409,
    );
    expect(scheme.game.id).toBe(first.id);
    expect((await store.games.list()).filter((g) => g.threadUrl.includes('.777'))).toHaveLength(1);
    // A finished game lets the thread go; resuming it while another game has the thread is refused the same way.
    await ok(call('PATCH', `/api/games/${first.id}`, { action: 'finish' }));
    const second = await ok<{ id: number }>(
      call('POST', '/api/games', { ...valid(), url: `${other.url}page-2`, engine: 'xenforo2' }),
      201,
    );
    const resume = await ok<{ game: { id: number } }>(
      call('PATCH', `/api/games/${first.id}`, { action: 'resume' }),
      409,
    );
    expect(resume.game.id).toBe(second.id);
    expect((await store.games.get(first.id))!.status).toBe('finished');
    await ok(call('PATCH', `/api/games/${second.id}`, { action: 'finish' }));
  });

  it('takes the engine when the URL does not tell, and players with aliases', async () => {
    const body = await ok<{ id: number; engine: string }>(
      call('POST', '/api/games', {
        url: forum.url('/board/show.php?id=9'),
        ruleset: 'witchhunt',
        engine: 'phpbb',
        players: ['Alice (Ali, A)', { name: 'Bob', aliases: ['Bobby'] }],
      }),
      201,
    );
    expect(body.engine).toBe('phpbb');
    const game = await store.games.get(body.id);
    expect(game!.roster).toEqual([
      { name: 'Alice', aliases: ['Ali', 'A'], formerNames: [], alive: true },
      { name: 'Bob', aliases: ['Bobby'], formerNames: [], alive: true },
    ]);
  });
});

describe('a game through the API', () => {
  let id: number;

  beforeAll(async () => {
    const body = await ok<{ id: number }>(
      call('POST', '/api/games', {
        url: thread.url,
        ruleset: 'plurality',
        players: ['Alice', 'Bob', 'Carol', 'Dave'],
        slug: 'api-game',
      }),
      201,
    );
    id = body.id;
    await eventually(
      async () => (await store.tallies.latest(id)) !== null && (await store.polls.get(id)).leaseOwner === null,
      30_000,
      'first tally',
    );
  });

  it('GET /api/games/:id/tally is the count (the `votal count --format json` object)', async () => {
    const res = await call('GET', `/api/games/${id}/tally`);
    const tally = await ok<Tally>(res);
    expect(tally.engine).toBe('xenforo2');
    expect(tally.ruleset).toBe('plurality');
    expect(tally.postsRead).toBe(4);
    expect(tally.wagons.map((w) => [w.target, w.total])).toEqual([
      ['Bob', 2],
      ['Alice', 1],
    ]);
    expect(tally.notVoting).toEqual(['Dave']);
    expect(tally).toHaveProperty('threshold');
    expect(tally).toHaveProperty('outcome.status', 'open');
    expect(res.headers.get('x-votal-tally-id')).toMatch(/^\d+$/);
  });

  it('a missing game is 404; a game without a count yet says so', async () => {
    expect((await call('GET', '/api/games/999999/tally')).status).toBe(404);
    expect((await call('GET', '/api/games/abc/tally')).status).toBe(404);
    const other = await store.games.create(
      { threadUrl: thread.url, ruleset: 'plurality', roster: [{ name: 'A' }] },
      'test',
    );
    const body = await ok<{ error: string }>(call('GET', `/api/games/${other.id}/tally`), 404);
    expect(body.error).toMatch(/no count yet/);
  });

  it('POST /api/games/:id/events validates the event, naming the field', async () => {
    const missing = await ok<{ error: string; issues: { field: string }[] }>(
      call('POST', `/api/games/${id}/events`, { kind: 'kill', at: 3 }),
      400,
    );
    expect(missing.issues[0]!.field).toBe('player');
    const kind = await ok<{ issues: { field: string }[] }>(
      call('POST', `/api/games/${id}/events`, { kind: 'explode', player: 'Bob' }),
      400,
    );
    expect(kind.issues[0]!.field).toBe('kind');
    const extra = await ok<{ error: string }>(
      call('POST', `/api/games/${id}/events`, { kind: 'kill', player: 'Bob', at: 3, color: 'red' }),
      400,
    );
    expect(extra.error).toMatch(/unknown field/);
    expect(await store.events.list(id)).toEqual([]);
  });

  it('a GM event re-counts', async () => {
    // The GM rules that Bob's post 3 holds no vote: Alice's wagon goes.
    const body = await ok<{ recounted: boolean; tallyChanged: boolean; tally: Tally; event: { id: number } }>(
      call('POST', `/api/games/${id}/events`, { kind: 'correct', post: 3, target: null }),
      201,
    );
    expect(body.event.id).toBeGreaterThan(0);
    expect(body.recounted).toBe(true);
    expect(body.tallyChanged).toBe(true);
    expect(body.tally.wagons.map((w) => [w.target, w.total])).toEqual([['Bob', 2]]);
    const tally = await ok<Tally>(call('GET', `/api/games/${id}/tally`));
    expect(tally.wagons.map((w) => w.target)).toEqual(['Bob']);
    const events = await ok<{ events: { event: unknown }[] }>(call('GET', `/api/games/${id}/events`));
    expect(events.events.map((e) => e.event)).toEqual([{ kind: 'correct', post: 3, target: null }]);
  });

  it('POST /api/games/:id/poll polls now', async () => {
    thread.add({ author: 'Dave', body: '[b]Vote: Carol[/b]' });
    const body = await ok<{ polled: boolean; tallyId: number }>(call('POST', `/api/games/${id}/poll`));
    expect(body.polled).toBe(true);
    const tally = await ok<Tally>(call('GET', `/api/games/${id}/tally`));
    expect(tally.postsRead).toBe(5);
    expect(tally.wagons.map((w) => w.target)).toEqual(['Bob', 'Carol']);
  });

  it('PATCH /api/games/:id pauses, sets the interval, draft settings and webhook; secrets never come back', async () => {
    const paused = await ok<{ status: string; pollIntervalSeconds: number; settings: Record<string, unknown> }>(
      call('PATCH', `/api/games/${id}`, {
        action: 'pause',
        pollIntervalSeconds: 120,
        drafts: { everyNVotes: 2, onLMinus1: false },
        webhookUrl: forum.url('/hook'),
        publish: { method: 'xenforo-api', apiKey: 'xf-key-SECRET-777', apiUser: '1' },
      }),
    );
    expect(paused.status).toBe('paused');
    expect(paused.pollIntervalSeconds).toBe(120);
    expect(paused.settings).toMatchObject({
      drafts: { everyNVotes: 2, onLMinus1: false },
      webhookUrl: forum.url('/hook'),
      publish: { method: 'xenforo-api', apiKey: '(stored)' },
    });
    const game = await store.games.get(id);
    expect(JSON.stringify(game!.settings)).not.toContain('xf-key-SECRET-777');
    const audit = await store.audit.list({ gameId: id });
    expect(JSON.stringify(audit)).not.toContain('xf-key-SECRET-777');
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['game.settings', 'game.status']));
    expect(JSON.stringify(await ok(call('GET', `/api/games/${id}`)))).not.toContain('xf-key-SECRET-777');

    expect((await call('POST', `/api/games/${id}/poll`)).status).toBe(409);
    const bad = await ok<{ issues: { field: string }[] }>(
      call('PATCH', `/api/games/${id}`, { drafts: { everyNVotes: -1 } }),
      400,
    );
    expect(bad.issues[0]!.field).toBe('drafts.everyNVotes');
    const badStatus = await ok<{ issues: { field: string }[] }>(
      call('PATCH', `/api/games/${id}`, { status: 'asleep' }),
      400,
    );
    expect(badStatus.issues[0]!.field).toBe('status');
    const badPublish = await ok<{ issues: { field: string }[] }>(
      call('PATCH', `/api/games/${id}`, { publish: { method: 'carrier-pigeon' } }),
      400,
    );
    expect(badPublish.issues[0]!.field).toBe('publish.method');

    const resumed = await ok<{ status: string }>(
      call('PATCH', `/api/games/${id}`, { action: 'resume', webhookUrl: null }),
    );
    expect(resumed.status).toBe('active');
    expect((await store.games.get(id))!.settings.webhookUrl).toBeUndefined();
  });

  it('PATCH refuses a votal template that would not render, naming the placeholder; nothing is stored (issue #17)', async () => {
    const before = (await store.games.get(id))!.settings.votalTemplate;
    const unknown = await ok<{ error: string; issues: { field: string; message: string }[] }>(
      call('PATCH', `/api/games/${id}`, { votalTemplate: '{{header}}\n{{wagonz}}\n' }),
      400,
    );
    expect(unknown.issues[0]!.field).toBe('votalTemplate');
    expect(unknown.error).toContain('{{wagonz}}');
    const huge = await ok<{ issues: { field: string; message: string }[] }>(
      call('PATCH', `/api/games/${id}`, { votalTemplate: `{{header}}\n${'x'.repeat(64 * 1024)}` }),
      400,
    );
    expect(huge.issues[0]!.field).toBe('votalTemplate');
    expect(huge.issues[0]!.message).toMatch(/longer than 65536/);
    expect((await store.games.get(id))!.settings.votalTemplate).toBe(before);
    const good = await ok<{ settings: Record<string, unknown> }>(
      call('PATCH', `/api/games/${id}`, { votalTemplate: '{{header}}\n{{wagons}}\n' }),
    );
    expect(good.settings.votalTemplate).toBe('{{header}}\n{{wagons}}\n');
    await ok(call('PATCH', `/api/games/${id}`, { votalTemplate: null }));
  });

  it('publishing credentials need VOTAL_SECRET_KEY', async () => {
    const keyless = createApp({ store, poller: recordingPoller(), env: testEnv({ secretKey: undefined }) });
    const res = await keyless.request(`/api/games/${id}`, {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ publish: { method: 'discourse-api', apiKey: 'k', apiUsername: 'gm' } }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/^publish: .*needs VOTAL_SECRET_KEY/);
    await keyless.shutdown();
  });

  describe('drafts', () => {
    async function draft(body = '[b]Vote count - Day 1[/b]\nBob - 2: Alice, Carol'): Promise<number> {
      const latest = await store.tallies.latest(id);
      const d = await store.drafts.create(
        { gameId: id, tallyId: latest!.id, dialect: 'bbcode-xenforo', body },
        'poller',
      );
      return d.id;
    }

    it('GET /api/games/:id/drafts lists them, newest first, with their publication', async () => {
      const a = await draft();
      const b = await draft();
      const body = await ok<{ drafts: { id: number; status: string; publication: unknown }[] }>(
        call('GET', `/api/games/${id}/drafts`),
      );
      expect(body.drafts.map((d) => d.id).slice(0, 2)).toEqual([b, a]);
      expect(body.drafts[0]).toMatchObject({ status: 'pending', publication: null, dialect: 'bbcode-xenforo' });
      // One draft is pending at a time: the newer one supersedes the older (issue #14, 2).
      expect(body.drafts[1]).toMatchObject({ status: 'superseded', supersededBy: b });
      const pending = await ok<{ drafts: { id: number }[] }>(call('GET', `/api/games/${id}/drafts?status=pending`));
      expect(pending.drafts.map((d) => d.id)).toEqual([b]);
    });

    it('approve -> publish: the reply lands on the forum once, with its marker', async () => {
      thread.enableXenforoApi({ apiKey: 'xf-key-SECRET-777', user: 'Moderator' });
      const before = thread.replies.length;
      const d = await draft();
      const body = await ok<{
        status: string;
        remote: { id: string };
        draft: { status: string; publication: { status: string; marker: string } };
      }>(call('POST', `/api/drafts/${d}/approve`));
      expect(body.status).toBe('published');
      expect(body.draft.status).toBe('published');
      expect(body.draft.publication.status).toBe('published');
      expect(thread.replies.length).toBe(before + 1);
      const reply = thread.replies.at(-1)!;
      expect(reply.message).toContain('Bob - 2: Alice, Carol');
      expect(reply.message).toContain(`[color=transparent]${body.draft.publication.marker}[/color]`);
      expect(body.remote.id).toBe(String(reply.postId));
      // Approving again publishes nothing more.
      const again = await ok<{ status: string }>(call('POST', `/api/drafts/${d}/approve`));
      expect(again.status).toBe('published');
      expect(thread.replies.length).toBe(before + 1);
    });

    it('approve with an edited body publishes the edit as a new draft; the original is discarded', async () => {
      const d = await draft('original text');
      const body = await ok<{ status: string; draft: { id: number; body: string } }>(
        call('POST', `/api/drafts/${d}/approve`, { body: 'edited by the GM' }),
      );
      expect(body.status).toBe('published');
      expect(body.draft.id).not.toBe(d);
      expect(body.draft.body).toBe('edited by the GM');
      expect((await store.drafts.get(d))!.status).toBe('discarded');
      expect(thread.replies.at(-1)!.message).toMatch(/^edited by the GM\n\n\[color=transparent\]votal:/);
      const actions = (await store.audit.list({ gameId: id, limit: 30 })).map((a) => a.action);
      expect(actions).toContain('draft.edit');
    });

    it('discard; a discarded draft cannot be approved (409); a missing one is 404', async () => {
      const d = await draft();
      const discarded = await ok<{ status: string }>(call('POST', `/api/drafts/${d}/discard`));
      expect(discarded.status).toBe('discarded');
      expect((await call('POST', `/api/drafts/${d}/approve`)).status).toBe(409);
      expect((await call('POST', `/api/drafts/${d}/discard`)).status).toBe(409);
      expect((await call('POST', '/api/drafts/987654/approve')).status).toBe(404);
    });

    it('a stored forum login (cookie export) posts through the reply form', async () => {
      thread.enableReplyForm({ user: 'Moderator', cookie: 'xf_session=FORMSESSION99' });
      const cookies = [
        '# Netscape HTTP Cookie File',
        ['127.0.0.1', 'FALSE', '/', 'FALSE', '0', 'xf_session', 'FORMSESSION99'].join('\t'),
        '',
      ].join('\n');
      const bad = await ok<{ issues: { field: string }[]; error: string }>(
        call('PATCH', `/api/games/${id}`, { publish: { method: 'form', cookies: 'not a cookie file' } }),
        400,
      );
      expect(bad.issues[0]!.field).toBe('publish.cookies');
      expect(bad.error).not.toContain('/tmp/');
      const game = await ok<{ settings: { publish: unknown } }>(
        call('PATCH', `/api/games/${id}`, { publish: { method: 'form', cookies } }),
      );
      expect(game.settings.publish).toEqual({ method: 'form', cookies: '(stored)' });
      expect(JSON.stringify((await store.games.get(id))!.settings)).not.toContain('FORMSESSION99');
      const before = thread.replies.length;
      const d = await draft('[b]Vote count[/b] by form');
      const body = await ok<{ status: string }>(call('POST', `/api/drafts/${d}/approve`));
      expect(body.status).toBe('published');
      expect(thread.replies.length).toBe(before + 1);
      expect(thread.replies.at(-1)).toMatchObject({ via: 'form' });
      expect(thread.replies.at(-1)!.message).toMatch(/^\[b\]Vote count\[\/b\] by form\n\n\[color=transparent\]votal:/);
    });

    it('without a way to post, approving hands the GM the text to copy; pasting it is then recorded', async () => {
      await ok(call('PATCH', `/api/games/${id}`, { publish: { method: 'copy' } }));
      const before = thread.replies.length;
      const d = await draft('copy me');
      const body = await ok<{
        status: string;
        copy: string;
        draft: { publication: { method: string; status: string } };
      }>(call('POST', `/api/drafts/${d}/approve`));
      expect(body.status).toBe('copy');
      expect(body.copy).toBe('copy me'); // no marker: a player quoting the post would see it
      expect(body.draft.publication).toMatchObject({ method: 'copy', status: 'pending' });
      expect(thread.replies.length).toBe(before);
      expect((await call('POST', `/api/drafts/${d}/published`)).status).toBe(409); // not pasted yet
      const pasted = thread.add({ author: 'Moderator', body: body.copy });
      const confirmed = await ok<{ status: string; publication: { status: string; remotePostId: string | null } }>(
        call('POST', `/api/drafts/${d}/published`),
      );
      expect(confirmed.status).toBe('published');
      expect(confirmed.publication.status).toBe('published');
      expect(confirmed.publication.remotePostId).toBe(String(pasted.id));
    });
  });

  it('posts, revisions and audit are readable', async () => {
    const posts = await ok<{ posts: { number: number; revisions: number; deleted: boolean }[] }>(
      call('GET', `/api/games/${id}/posts`),
    );
    expect(posts.posts.length).toBeGreaterThanOrEqual(5);
    const revisions = await ok<{ revisions: unknown[] }>(call('GET', `/api/games/${id}/posts/2/revisions`));
    expect(revisions.revisions).toHaveLength(1);
    const audit = await ok<{ audit: { action: string }[] }>(call('GET', `/api/games/${id}/audit?limit=500`));
    expect(audit.audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['game.create', 'tally.save', 'event.append']),
    );
  });
});

describe('a GM event without a place', () => {
  it('happens now, after every post read, not from the start of the Day', async () => {
    const day = new FakeThread(forum, { engine: 'xenforo2', postsPerPage: 10, threadId: 5151, slug: 'kill-now' });
    day.add({ author: 'Moderator', body: '[b]Day 1 begins.[/b]' });
    day.add({ author: 'Alice', body: '[b]Vote: Bob[/b]' });
    day.add({ author: 'Carol', body: '[b]Vote: Bob[/b]' });
    day.add({ author: 'Alice', body: '[b]Unvote[/b]' });
    const clockApp = createApp({ store, poller, env: testEnv(), now: () => new Date('2030-01-01T12:00:00Z') });
    const created = await clockApp.request('/api/games', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        url: day.url,
        ruleset: 'witchhunt',
        players: ['Alice', 'Bob', 'Carol', 'Dave'],
        slug: 'kill-now',
      }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    await eventually(
      async () => (await store.tallies.latest(id)) !== null && (await store.polls.get(id)).leaseOwner === null,
      30_000,
      'first tally',
    );

    const res = await clockApp.request(`/api/games/${id}/events`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'kill', player: 'Dave' }),
    });
    const body = (await res.json()) as { event: { event: unknown }; tally: Tally };
    expect(res.status).toBe(201);
    expect(body.event.event).toEqual({ kind: 'kill', player: 'Dave', time: '2030-01-01T12:00:00.000Z' });
    // Alice's unvote (post 4) stands: one vote on Bob of three living, no majority.
    expect(body.tally.living).toBe(3);
    expect(body.tally.wagons.map((w) => [w.target, w.total])).toEqual([['Bob', 1]]);
    expect(body.tally.outcome.status).toBe('open');
    await clockApp.shutdown();
  });
});

describe('public pages', () => {
  it('GET /g/:slug is an HTML page (the live page) that escapes what it shows', async () => {
    const game = await store.games.create(
      { slug: 'public-game', threadUrl: `${thread.url}?x=<b>`, ruleset: 'plurality', roster: [{ name: 'A' }] },
      'test',
    );
    await store.tallies.save(game.id, sampleTally());
    const res = await app.request('/g/public-game');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain('public-game');
    expect(html).not.toContain('<b>');
    expect(html).toContain('/events');
  });

  it('public routes are rate-limited per client', async () => {
    const limited = createApp({
      store,
      poller: recordingPoller(),
      env: testEnv(),
      rateLimit: { capacity: 3, perSecond: 0.001 },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await limited.request('/g/public-game')).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const res = await limited.request('/g/public-game');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    // The GM API is not limited by the public bucket.
    expect((await limited.request('/api/games', { headers: auth })).status).toBe(200);
    await limited.shutdown();
  });
});
