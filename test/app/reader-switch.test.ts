import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock, CommandDeps } from '../../src/app/deps.js';
import { Conflict } from '../../src/app/errors.js';
import { confirmGenericReading, genericReading, recheckGenericReading } from '../../src/app/generic.js';
import { createGame } from '../../src/app/games.js';
import { readerChoice, switchToAdapter, switchToGeneric } from '../../src/app/reader-switch.js';
import { ownLayoutPage, ownLayoutPath, type OwnLayoutThread } from '../../src/fake-forum/own-layout.js';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { PageFetcher } from '../../src/fetch/page-fetcher.js';
import { pollGame, type PollResult } from '../../src/game/poll-game.js';
import { PublishHttp } from '../../src/publish/http.js';
import { publisherFor } from '../../src/publish/publisher-for.js';
import type { Store } from '../../src/store/open-store.js';
import { FakeThread } from '../publish/fake-thread.js';
import { describePg, openTestStore, recordingPoller } from '../web/support.js';

/**
 * A game whose adapter stops finding posts may switch to the generic reader, and back
 * (issue #26; src/app/reader-switch.ts), on PGlite and PostgreSQL through the same code:
 * the stand-in forum serves a XenForo 2 thread whose theme then changes to a layout no
 * adapter knows (test/publish/fake-thread.ts `layout`, src/fake-forum/own-layout.ts).
 * Polls run when the test says (the poller port only records), on one fake clock.
 */

function fakeClock(start = '2026-12-01T12:00:00Z'): Clock & { tick(ms?: number): void } {
  let t = Date.parse(start);
  return {
    now: () => new Date(t),
    sleep: async (ms: number) => {
      t += ms;
    },
    tick: (ms = 60_000) => {
      t += ms;
    },
  };
}

let forum: FakeForum;
beforeAll(async () => {
  forum = await startFakeForum();
});
afterAll(async () => {
  await forum?.close();
});

let thread = 0;

/** A store of its own for the suite (a host's learned layout is the store's), opened once. */
function suiteStore(driver: 'pglite' | 'pg'): () => Store {
  let store: Store;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await openTestStore(driver));
  });
  afterAll(async () => {
    await close?.();
  });
  return () => store;
}

/** The commands' deps on one fake clock, and a poll as the poller runs it (each a minute later). */
function harness(store: Store) {
  const clock = fakeClock();
  const http = new PublishHttp({ timeoutMs: 1_000, allowPrivateHosts: true });
  const deps: CommandDeps = {
    store,
    poller: recordingPoller(),
    clock,
    box: null,
    allowPrivateHosts: true,
    publish: { store, publisherFor: async (g) => publisherFor(g, g.engine, { http, box: null }), now: clock.now },
    pollWaitMs: 0,
  };
  const source = new PageFetcher({ allowPrivateHosts: true, minIntervalMs: 0, respectRobots: false, retries: 0 });
  const poll = (id: number, full = false): Promise<PollResult> => {
    clock.tick();
    return pollGame({ store, source, now: () => clock.now().toISOString() }, id, { full });
  };
  return { deps, poll };
}

const refusal = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

function suite(driver: 'pglite' | 'pg'): void {
  const storeOf = suiteStore(driver);
  const stored = async (gameId: number) =>
    (await storeOf().posts.postsOf(gameId)).map((p) => ({
      id: p.id,
      n: p.number,
      author: p.author,
      revisions: p.revisions,
    }));

  it('a XenForo 2 thread whose theme changed: offered, switched, checked, confirmed, polled; no post twice, none edited', async () => {
    const store = storeOf();
    const { deps, poll } = harness(store);
    const id = 5000 + ++thread;
    const xf = new FakeThread(forum, { engine: 'xenforo2', threadId: id, slug: `switch-${driver}`, postsPerPage: 3 });
    xf.add({ author: 'Moderator', body: 'Day 1 begins.' });
    xf.add({ author: 'Alice', body: 'Bob is quiet.\n[b]Vote: Bob[/b]' });
    xf.add({ author: 'Bob', body: '[b]Vote: Alice[/b]' });
    xf.add({ author: 'Carol', body: 'Hm.' });
    const game = await createGame(deps, 'gm:ann', {
      url: xf.url,
      ruleset: 'plurality',
      players: ['Alice', 'Bob', 'Carol'],
    });
    expect((await poll(game.id)).status).toBe('polled');
    const byAdapter = await stored(game.id);
    expect(byAdapter.map((p) => p.author)).toEqual(['Moderator', 'Alice', 'Bob', 'Carol']);
    expect((await store.games.get(game.id))!.engine).toBe('xenforo2');

    // Read by its adapter: nothing is offered, and the switch is refused.
    expect((await readerChoice(deps, game.id)).choice).toEqual({
      offer: null,
      switchedFrom: null,
      canSwitchBack: false,
      adapterName: null,
    });
    const early = await refusal(switchToGeneric(deps, 'gm:ann', game.id));
    expect(early).toBeInstanceOf(Conflict);
    expect((early as Error).message).toMatch(/offered only when the engine's adapter finds no posts/);

    // The theme changes: the adapter finds no posts; the poll's error offers the generic reader.
    xf.layout = 'lantern';
    xf.add({ author: 'Carol', body: '[b]Vote: Bob[/b]' });
    const failed = await poll(game.id);
    expect(failed.status).toBe('failed');
    expect(failed.reason).toMatch(/the XenForo 2 layout was not found: read it generically\?/);
    expect((await readerChoice(deps, game.id)).choice).toMatchObject({ offer: 'xenforo2', adapterName: 'XenForo 2' });
    expect(await stored(game.id)).toEqual(byAdapter);

    // The GM switches: audited, the gate holds the game for the check of page 1.
    const { game: switched } = await switchToGeneric(deps, 'gm:ann', game.id);
    expect(switched.engine).toBe('generic');
    const [audit] = await store.audit.list({ gameId: game.id, action: 'game.engine' });
    expect(audit).toMatchObject({
      actor: 'gm:ann',
      detail: { from: 'xenforo2', to: 'generic', offeredFor: 'xenforo2' },
    });
    expect((await readerChoice(deps, game.id)).choice).toMatchObject({
      offer: null,
      canSwitchBack: true,
      switchedFrom: { engine: 'xenforo2' },
      adapterName: 'XenForo 2',
    });
    expect(await refusal(switchToGeneric(deps, 'gm:ann', game.id))).toBeInstanceOf(Conflict);
    const held = await poll(game.id);
    expect(held).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/waiting for the GM's check/) });
    const { standing } = await genericReading(deps, game.id);
    expect(standing!.state).toBe('waiting');
    expect(standing!.check!.finding).toMatchObject({ posts: 3, authors: 3 });
    expect(await stored(game.id)).toEqual(byAdapter);

    // Confirmed: polled generically. The adapter's posts keep their ids and their one
    // revision (the generic reader's ids are the layout's anchors, not XenForo's); only the new post is added.
    await confirmGenericReading(deps, 'gm:ann', game.id);
    const read = await poll(game.id);
    expect(read).toMatchObject({ status: 'polled', added: 1, edited: 0 });
    const after = await stored(game.id);
    expect(after.slice(0, 4)).toEqual(byAdapter);
    expect(after).toHaveLength(5);
    expect(after[4]).toMatchObject({ n: 5, author: 'Carol', revisions: 1 });
    expect(read.tally!.tally.engine).toBe('generic');
    // A full read of every page reads the adapter's posts again: none doubled, edited or deleted.
    const full = await poll(game.id, true);
    expect(full).toMatchObject({ status: 'polled', added: 0, edited: 0, deleted: 0 });
    expect(await stored(game.id)).toEqual(after);

    // A post edited on the forum after the switch is an edit, shown as any edit is.
    xf.edit(2, 'Bob is quiet.\n[b]Vote: Carol[/b]');
    const edited = await poll(game.id, true);
    expect(edited).toMatchObject({ added: 0, edited: 1 });
    expect((await stored(game.id))[1]).toMatchObject({ id: byAdapter[1]!.id, revisions: 2 });

    // The way back: the adapter reads the thread again; the post the generic reader stored keeps its id.
    const genericId = after[4]!.id;
    const { game: back } = await switchToAdapter(deps, 'gm:ann', game.id);
    expect(back.engine).toBe('xenforo2');
    expect(await refusal(switchToAdapter(deps, 'gm:ann', game.id))).toBeInstanceOf(Conflict);
    xf.layout = 'engine';
    xf.publish();
    const again = await poll(game.id, true);
    expect(again).toMatchObject({ status: 'polled', added: 0, deleted: 0 });
    const last = await stored(game.id);
    expect(last).toHaveLength(5);
    expect(last[4]!.id).toBe(genericId);
    expect((await store.audit.list({ gameId: game.id, action: 'game.engine' })).map((a) => a.detail.to)).toEqual(
      expect.arrayContaining(['generic', 'xenforo2']),
    );
  }, 180_000);

  it('a game added to be read generically has no way back to an adapter', async () => {
    const { deps } = harness(storeOf());
    const path = `/t/${5000 + ++thread}-own`;
    const game = await createGame(deps, 'gm:ann', {
      url: forum.url(path),
      ruleset: 'plurality',
      players: ['Alice', 'Bob'],
      engine: 'generic',
    });
    const error = await refusal(switchToAdapter(deps, 'gm:ann', game.id));
    expect(error).toBeInstanceOf(Conflict);
    expect((error as Error).message).toMatch(/added to be read generically/);
  });
}

/** Recheck on one game of a host: the host's layout is forgotten for every game read with it, each told. */
function recheckSuite(driver: 'pglite' | 'pg'): void {
  const storeOf = suiteStore(driver);

  it('every other game read with the forgotten layout is held for its own check, audited and told why', async () => {
    const store = storeOf();
    const { deps, poll } = harness(store);
    const serve = (path: string): OwnLayoutThread => {
      const t: OwnLayoutThread = {
        title: 'Lantern Mafia',
        perPage: 10,
        path,
        layout: 'lantern',
        posts: ['Host', 'Ann', 'Bob', 'Ann'].map((author, i) => ({
          author,
          at: new Date(Date.UTC(2026, 10, 30, 12, i)).toISOString(),
          text: `${author} says ${i}`,
        })),
      };
      forum.route(ownLayoutPath(t, 1), () => ({ body: ownLayoutPage(t, 1) }));
      return t;
    };
    const add = (path: string) =>
      createGame(deps, 'gm:ann', {
        url: forum.url(path),
        ruleset: 'plurality',
        players: ['Ann', 'Bob'],
        engine: 'generic',
      });
    const [pa, pb, pc] = [1, 2, 3].map(() => `/t/${6000 + ++thread}-${driver}`);
    serve(pa!);
    serve(pb!);
    serve(pc!);
    const a = await add(pa!);
    const b = await add(pb!);
    const c = await add(pc!);
    // A confirms; B and C are then read with the host's learned layout without a check of their own.
    expect((await poll(a.id)).status).toBe('skipped');
    await confirmGenericReading(deps, 'gm:ann', a.id);
    for (const g of [a, b, c]) expect((await poll(g.id)).status).toBe('polled');
    await store.games.setStatus(c.id, 'paused', 'gm:cy');

    const { held } = await recheckGenericReading(deps, 'gm:ann', a.id);
    expect(held.map((g) => g.id).sort()).toEqual([b.id, c.id].sort());
    const [recheck] = await store.audit.list({ gameId: a.id, action: 'generic.recheck' });
    expect(recheck!.detail).toMatchObject({ host: '127.0.0.1', held: expect.arrayContaining([b.id, c.id]) });
    for (const g of [b, c]) {
      const [told] = await store.audit.list({ gameId: g.id, action: 'generic.held' });
      expect(told).toMatchObject({
        actor: 'gm:ann',
        detail: { host: '127.0.0.1', askedIn: a.id, confirmedBy: 'gm:ann' },
      });
      const { standing } = await genericReading(deps, g.id);
      expect(standing).toMatchObject({ state: 'unread', learned: null });
      expect(standing!.note).toMatch(
        /127\.0\.0\.1's kept layout was forgotten by gm:ann on \d{4}-\d{2}-\d{2} \(the forum's layout changed\)/,
      );
    }
    // B's next poll does not read with a forgotten layout: page 1 is read for B's own GM.
    expect(await poll(b.id)).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/waiting for the GM's check/),
    });
    expect((await genericReading(deps, b.id)).standing!.state).toBe('waiting');
  }, 180_000);
}

describe('switching the reader (PGlite)', () => {
  suite('pglite');
  recheckSuite('pglite');
});
await describePg('switching the reader (PostgreSQL)', () => {
  suite('pg');
  recheckSuite('pg');
});
