import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { PageFetcher } from '../../src/fetch/page-fetcher.js';
import { pollGame } from '../../src/game/poll-game.js';
import type { Slot } from '../../src/model/roster.js';
import type { Tally } from '../../src/model/tally.js';
import type { Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { FakeThread } from '../publish/fake-thread.js';
import { ADMIN_TOKEN, openTestStore, recordingPoller, testEnv } from './support.js';

/**
 * Issue #14 items 4 and 5 through the JSON API: deaths as the count knows them, and a game
 * that can be changed after it was created (players, ruleset, title, deadline), archived
 * and deleted. Every change that affects the count re-counts (a poll) before answering.
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

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  return app.request(path, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function ok<T = Record<string, unknown>>(res: Response | Promise<Response>, status = 200): Promise<T> {
  const r = await res;
  const text = await r.text();
  expect(r.status, text).toBe(status);
  return JSON.parse(text) as T;
}

type GameAnswer = {
  players: Slot[];
  roster: Slot[];
  alive: string[];
  dead: string[];
  ruleset: string;
  status: string;
  settings: Record<string, unknown>;
};
type PatchAnswer = GameAnswer & { recounted?: boolean; note?: string; tallyId?: number };

/** A game on the thread, counted once. One game follows a thread at a time: the earlier ones are finished first. */
async function newGame(players: unknown[] = ['Alice', 'Bob', 'Carol', 'Dave']): Promise<number> {
  for (const g of await store.games.list())
    if (g.status !== 'finished') await store.games.setStatus(g.id, 'finished', 'test');
  const { id } = await ok<{ id: number }>(
    call('POST', '/api/games', { url: thread.url, ruleset: 'plurality', players }),
    201,
  );
  await ok(call('POST', `/api/games/${id}/poll`));
  return id;
}

const tallyOf = (id: number) => ok<Tally>(call('GET', `/api/games/${id}/tally`));
const auditOf = async (id: number) =>
  (await ok<{ audit: { action: string; detail: Record<string, unknown> }[] }>(call('GET', `/api/games/${id}/audit`)))
    .audit;

beforeAll(async () => {
  ({ store, close: closeStore } = await openTestStore('pglite'));
  forum = await startFakeForum();
  thread = new FakeThread(forum, { engine: 'xenforo2', postsPerPage: 10 });
  thread.add({ author: 'Moderator', body: '[b]Day 1 begins.[/b]' });
  thread.add({ author: 'Alice', body: '[b]Vote: Bob[/b]' });
  thread.add({ author: 'Bob', body: '[b]Vote: Alice[/b]' });
  thread.add({ author: 'Carol', body: '[b]Vote: Bob[/b]' });
  thread.add({ author: 'Dave', body: '[b]Vote: Dee[/b]' });
  thread.add({ author: 'Lurker', body: 'Just watching, [b]vote: Carol[/b]' });
  app = createApp({ store, poller, env: testEnv() });
});

afterAll(async () => {
  await app?.shutdown();
  await forum?.close();
  await closeStore();
});

describe('deaths as the count knows them (GET /api/games/:id)', () => {
  it('before any death everyone on the roster is alive', async () => {
    const id = await newGame();
    const game = await ok<GameAnswer>(call('GET', `/api/games/${id}`));
    expect(game.alive).toEqual(['Alice', 'Bob', 'Carol', 'Dave']);
    expect(game.dead).toEqual([]);
  });

  it('"kill Dave after post 3": Dave is dead in the players, alive comes back with a revive', async () => {
    const id = await newGame();
    await ok(call('POST', `/api/games/${id}/events`, { kind: 'kill', player: 'Dave', at: 3 }), 201);
    const game = await ok<GameAnswer>(call('GET', `/api/games/${id}`));
    expect(game.players.map((p) => [p.name, p.alive])).toEqual([
      ['Alice', true],
      ['Bob', true],
      ['Carol', true],
      ['Dave', false],
    ]);
    expect(game.dead).toEqual(['Dave']);
    expect(game.roster.map((p) => p.alive)).toEqual([true, true, true, true]); // the list as set is not rewritten

    await ok(call('POST', `/api/games/${id}/events`, { kind: 'revive', player: 'Dave', at: 4 }), 201);
    expect((await ok<GameAnswer>(call('GET', `/api/games/${id}`))).dead).toEqual([]);
  });

  it('a mod-kill of a replaced slot names the slot by its new player', async () => {
    const id = await newGame();
    await ok(call('POST', `/api/games/${id}/events`, { kind: 'replace', player: 'Carol', by: 'Caroline', at: 1 }), 201);
    await ok(call('POST', `/api/games/${id}/events`, { kind: 'modkill', player: 'Caroline', at: 5 }), 201);
    const game = await ok<GameAnswer>(call('GET', `/api/games/${id}`));
    expect(game.players[2]).toMatchObject({ name: 'Caroline', formerNames: ['Carol'], alive: false });
    expect(game.dead).toEqual(['Caroline']);
  });
});

describe('PATCH /api/games/:id changes the game after it was created', () => {
  it('players: a non-player removed, a nickname added, a player added; the count is redone at once', async () => {
    const id = await newGame(['Alice', 'Bob', 'Carol', 'Dave', 'Lurker']);
    expect((await tallyOf(id)).wagons.map((w) => [w.target, w.total])).toEqual([
      ['Bob', 2],
      ['Alice', 1],
      ['Carol', 1],
    ]);
    expect((await tallyOf(id)).flags.map((f) => f.kind)).toContain('unknown-target'); // "Dee" means nobody yet

    const patched = await ok<PatchAnswer>(
      call('PATCH', `/api/games/${id}`, { players: ['Alice', 'Bob', 'Carol', 'Dave (Dee, D)', 'Erin'] }),
    );
    expect(patched.recounted).toBe(true);
    expect(patched.roster.map((p) => [p.name, p.aliases])).toEqual([
      ['Alice', []],
      ['Bob', []],
      ['Carol', []],
      ['Dave', ['Dee', 'D']],
      ['Erin', []],
    ]);
    const tally = await tallyOf(id);
    expect(tally.players).toEqual(['Alice', 'Bob', 'Carol', 'Dave', 'Erin']);
    expect(tally.wagons.map((w) => [w.target, w.total])).toEqual([
      ['Bob', 2],
      ['Alice', 1],
      ['Dave', 1],
    ]);
    expect(tally.flags.map((f) => f.kind)).toContain('vote-by-non-player'); // Lurker's vote no longer counts
    expect((await auditOf(id)).find((a) => a.action === 'game.roster')).toMatchObject({
      action: 'game.roster',
      detail: { players: ['Alice', 'Bob', 'Carol', 'Dave', 'Erin'] },
    });
  });

  it('players: a name listed twice is refused and nothing changes', async () => {
    const id = await newGame();
    const bad = await ok<{ issues: { field: string; message: string }[] }>(
      call('PATCH', `/api/games/${id}`, { players: ['Alice', 'Bob (alice)'], ruleset: 'witchhunt' }),
      400,
    );
    expect(bad.issues[0]).toMatchObject({ field: 'players' });
    const game = await ok<GameAnswer>(call('GET', `/api/games/${id}`));
    expect(game.roster.map((p) => p.name)).toEqual(['Alice', 'Bob', 'Carol', 'Dave']);
    expect(game.ruleset).toBe('plurality');
  });

  it('ruleset: re-counted under the new rules and audited with the old and the new name', async () => {
    const id = await newGame();
    expect((await tallyOf(id)).threshold.kind).toBe('plurality');
    const patched = await ok<PatchAnswer>(call('PATCH', `/api/games/${id}`, { ruleset: 'mafiascum-majority' }));
    expect(patched).toMatchObject({ ruleset: 'mafiascum-majority', recounted: true });
    const tally = await tallyOf(id);
    expect(tally.ruleset).toBe('mafiascum-majority');
    expect(tally.threshold).toEqual({ kind: 'majority', votes: 3 });
    expect((await auditOf(id)).find((a) => a.action === 'game.ruleset')).toMatchObject({
      action: 'game.ruleset',
      detail: { from: 'plurality', to: 'mafiascum-majority' },
    });
  });

  it('ruleset: an unknown one is refused, naming the field', async () => {
    const id = await newGame();
    const bad = await ok<{ issues: { field: string; message: string }[] }>(
      call('PATCH', `/api/games/${id}`, { ruleset: 'calvinball' }),
      400,
    );
    expect(bad.issues[0]).toMatchObject({ field: 'ruleset' });
    expect(bad.issues[0]!.message).toMatch(/unknown ruleset "calvinball"/);
  });

  it('title, deadline and time zone; a null deadline removes the Day clock', async () => {
    const id = await newGame();
    const patched = await ok<PatchAnswer>(
      call('PATCH', `/api/games/${id}`, {
        title: 'Mafia 42: Harbour Town',
        deadline: '2030-03-01T20:00:00+01:00',
        timeZone: 'Europe/Berlin',
      }),
    );
    expect(patched.settings).toMatchObject({
      title: 'Mafia 42: Harbour Town',
      timeZone: 'Europe/Berlin',
      day: { number: 1, deadline: '2030-03-01T19:00:00.000Z' },
    });
    expect(patched.recounted).toBe(true);
    expect((await auditOf(id)).find((a) => a.action === 'game.settings')?.detail).toMatchObject({
      title: 'Mafia 42: Harbour Town',
    });
    const cleared = await ok<PatchAnswer>(call('PATCH', `/api/games/${id}`, { deadline: null }));
    expect(cleared.settings.day).toBeUndefined();
    const bad = await ok<{ issues: { field: string }[] }>(
      call('PATCH', `/api/games/${id}`, { deadline: 'next friday' }),
      400,
    );
    expect(bad.issues[0]!.field).toBe('deadline');
  });

  it('a change that does not touch the count does not poll', async () => {
    const id = await newGame();
    const before = poller.calls.length;
    const patched = await ok<PatchAnswer>(call('PATCH', `/api/games/${id}`, { title: 'Renamed' }));
    expect(patched.recounted).toBeUndefined();
    expect(poller.calls.length).toBe(before);
  });
});

describe('archive', () => {
  it('an archived game keeps everything, is not polled, and comes back paused', async () => {
    const id = await newGame();
    const tallyBefore = await tallyOf(id);
    const archived = await ok<GameAnswer>(call('PATCH', `/api/games/${id}`, { action: 'archive' }));
    expect(archived.status).toBe('archived');
    expect((await call('POST', `/api/games/${id}/poll`)).status).toBe(409);
    expect(await tallyOf(id)).toEqual(tallyBefore);
    expect((await store.games.due(new Date(Date.now() + 86_400_000 * 365))).map((g) => g.id)).not.toContain(id);
    expect((await auditOf(id)).find((a) => a.action === 'game.status')).toMatchObject({
      action: 'game.status',
      detail: { status: 'archived' },
    });

    const back = await ok<GameAnswer>(call('PATCH', `/api/games/${id}`, { action: 'unarchive' }));
    expect(back.status).toBe('paused');
    expect((await call('PATCH', `/api/games/${id}`, { action: 'unarchive' })).status).toBe(409);
  });
});

describe('DELETE /api/games/:id', () => {
  it('refuses without the confirmation naming the game, and deletes nothing', async () => {
    const id = await newGame();
    const { slug } = await ok<{ slug: string }>(call('GET', `/api/games/${id}`));
    const none = await ok<{ issues: { field: string; message: string }[] }>(call('DELETE', `/api/games/${id}`), 400);
    expect(none.issues[0]).toMatchObject({ field: 'confirm' });
    expect(none.issues[0]!.message).toContain(`?confirm=${slug}`);
    const wrong = await ok<{ issues: { field: string; message: string }[] }>(
      call('DELETE', `/api/games/${id}?confirm=another-game`),
      400,
    );
    expect(wrong.issues[0]!.message).toMatch(/nothing was deleted/);
    expect((await store.games.get(id))?.id).toBe(id);
    expect((await store.posts.postsOf(id)).length).toBe(6);
  });

  it('waits for a poll that is reading the thread (409), then deletes', async () => {
    const id = await newGame();
    const { slug } = await ok<{ slug: string }>(call('GET', `/api/games/${id}`));
    expect(await store.polls.claim(id, 'test/poll-1', 60_000)).not.toBeNull();
    const busy = await ok<{ error: string }>(call('DELETE', `/api/games/${id}?confirm=${slug}`), 409);
    expect(busy.error).toMatch(/being read right now; nothing was deleted/);
    expect((await store.games.get(id))?.id).toBe(id);
    await store.polls.release(id, 'test/poll-1');
    await ok(call('DELETE', `/api/games/${id}?confirm=${slug}`));
    expect(await store.games.get(id)).toBeNull();
  });

  it('with the confirmation, the game and all its data are gone; the deletion is audited', async () => {
    const id = await newGame();
    await ok(call('POST', `/api/games/${id}/events`, { kind: 'kill', player: 'Dave', at: 3 }), 201);
    const { slug } = await ok<{ slug: string }>(call('GET', `/api/games/${id}`));
    expect(await ok(call('DELETE', `/api/games/${id}?confirm=${slug}`))).toEqual({ deleted: { id, slug } });
    expect((await call('GET', `/api/games/${id}`)).status).toBe(404);
    expect((await call('GET', `/g/${slug}`)).status).toBe(404);
    expect(await store.posts.postsOf(id)).toEqual([]);
    expect(await store.events.list(id)).toEqual([]);
    expect(await store.tallies.latest(id)).toBeNull();
    const trace = (await store.audit.list({ limit: 20 })).find((a) => a.action === 'game.delete');
    expect(trace).toMatchObject({ gameId: null, actor: 'gm', detail: { id, slug } });
    expect((await call('DELETE', `/api/games/${id}?confirm=${slug}`)).status).toBe(404);
  });
});
