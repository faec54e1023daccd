import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readingNews } from '../../src/game/reading-news.js';
import type { Store } from '../../src/store/open-store.js';
import type { ReadProgress } from '../../src/thread/read-progress.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { startHttpServer, type RunningServer } from '../../src/web/server.js';
import { SseClient } from './sse-client.js';
import { describePg, openTestStore, recordingPoller, sampleTally, testEnv } from './support.js';

/**
 * `GET /g/:slug/events` over a real socket (`serve({ fetch: app.fetch, port: 0 })`), on
 * both drivers: an update reaches a subscriber, ids resume with Last-Event-ID, heartbeats
 * keep an idle stream open, GM-only changes never reach the public stream.
 */

function sseSuite(driver: 'pglite' | 'pg'): void {
  let store: Store;
  let closeStore: () => Promise<void>;
  let app: VotalApp;
  let server: RunningServer;
  let gameId: number;
  const slug = `live-${driver}`;
  const clients: SseClient[] = [];

  const open = async (headers: Record<string, string> = {}, path = `/g/${slug}/events`): Promise<SseClient> => {
    const client = await SseClient.open(`${server.url}${path}`, headers);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    ({ store, close: closeStore } = await openTestStore(driver));
    app = createApp({ store, poller: recordingPoller(), env: testEnv(), live: { heartbeatMs: 300 } });
    server = await startHttpServer(app, { host: '127.0.0.1', port: 0 });
    const game = await store.games.create(
      { slug, threadUrl: 'https://forum.example/threads/live.1/', ruleset: 'plurality', roster: [{ name: 'Alice' }] },
      'test',
    );
    gameId = game.id;
  });

  afterAll(async () => {
    for (const c of clients) await c.close();
    await app?.shutdown();
    await server?.close();
    await closeStore?.();
  });

  it('a subscriber gets hello, then each update with an id, and heartbeats while idle', async () => {
    const client = await open();
    expect(client.status).toBe(200);
    expect(client.contentType).toMatch(/^text\/event-stream/);
    await client.waitFor((f) => f.some((x) => x.event === 'hello'), undefined, 'hello');
    const hello = client.events[0]!;
    expect(JSON.parse(hello.data)).toMatchObject({ slug, tallyId: null });
    expect(hello.id).toMatch(/^[a-z0-9]+-\d+$/);

    const saved = await store.tallies.save(gameId, sampleTally());
    await client.waitFor((f) => f.some((x) => x.event === 'tally'), undefined, 'tally event');
    const update = client.events.find((e) => e.event === 'tally')!;
    expect(JSON.parse(update.data)).toMatchObject({ kind: 'tally', id: saved.id });
    expect(update.id).not.toBe(hello.id);

    await client.waitFor(
      (f) => f.some((x) => x.event === 'comment' && x.comment === 'heartbeat'),
      undefined,
      'heartbeat',
    );
  });

  it('Last-Event-ID resumes: the changes missed while away arrive, in order, once', async () => {
    const first = await open();
    await first.waitFor((f) => f.some((x) => x.event === 'hello'));
    await store.tallies.save(gameId, sampleTally({ postsRead: 10 }));
    await first.waitFor((f) => f.some((x) => x.event === 'tally'));
    const lastSeen = first.events.filter((e) => e.event === 'tally').at(-1)!.id!;
    await first.close();

    const missed = [
      await store.tallies.save(gameId, sampleTally({ postsRead: 11 })),
      await store.tallies.save(gameId, sampleTally({ postsRead: 12 })),
    ];
    // Wait until the server has heard both (NOTIFY is asynchronous).
    const watcher = await open();
    await watcher.waitFor(
      () => app.live.since(gameId, lastSeen).events.length >= 2,
      undefined,
      'the server to hear the updates',
    );

    const again = await open({ 'last-event-id': lastSeen });
    await again.waitFor((f) => f.filter((x) => x.event === 'tally').length >= 2, undefined, 'replayed tallies');
    const replayed = again.events.filter((e) => e.event === 'tally').map((e) => JSON.parse(e.data).id as number);
    expect(replayed).toEqual(missed.map((t) => t.id));
    expect(again.events.some((e) => e.event === 'hello' || e.event === 'reset')).toBe(false);

    // A new update after the catch-up comes through once.
    const next = await store.tallies.save(gameId, sampleTally({ postsRead: 13 }));
    await again.waitFor((f) => f.some((x) => x.event === 'tally' && JSON.parse(x.data).id === next.id));
    expect(again.events.filter((e) => e.event === 'tally').map((e) => JSON.parse(e.data).id)).toEqual([
      ...missed.map((t) => t.id),
      next.id,
    ]);
  });

  it('an id from another run of the server gets a reset', async () => {
    const client = await open({ 'last-event-id': 'zzzzzz-5' });
    await client.waitFor((f) => f.some((x) => x.event === 'reset'));
  });

  it('GM-only changes (drafts, GM events) stay off the public stream', async () => {
    const client = await open();
    await client.waitFor((f) => f.some((x) => x.event === 'hello'));
    const tally = await store.tallies.latest(gameId);
    await store.drafts.create({ gameId, tallyId: tally!.id, dialect: 'bbcode-xenforo', body: 'secret draft' }, 'test');
    await store.events.append(gameId, { kind: 'kill', player: 'Alice', at: 1 }, 'gm');
    const marker = await store.tallies.save(gameId, sampleTally({ postsRead: 14 }));
    await client.waitFor((f) => f.some((x) => x.event === 'tally' && JSON.parse(x.data).id === marker.id));
    expect(client.events.map((e) => e.event)).toEqual(['hello', 'tally']);
  });

  it("a running read's progress: frames without an id, the latest to a stream that opens mid-read, none after the poll's end", async () => {
    const tell = readingNews(store.sql, gameId);
    const at = (page: number, phase: ReadProgress['phase']): ReadProgress => ({
      page,
      pageCount: 60,
      pageCountKnown: true,
      phase,
      pauseMs: 0,
      url: `https://forum.example/threads/live.1/page-${page}`,
    });
    const early = await open();
    await early.waitFor((f) => f.some((x) => x.event === 'hello'));
    tell(at(1, 'read'));
    await early.waitFor((f) => f.some((x) => x.event === 'progress'), undefined, 'progress');
    const frame = early.events.find((e) => e.event === 'progress')!;
    expect(frame.id).toBeNull();
    expect(JSON.parse(frame.data)).toMatchObject({
      page: 1,
      pageCount: 60,
      phase: 'read',
      text: expect.stringMatching(/^Read page 1 of 60/),
    });

    // A page opened while the read runs shows where it is at once.
    const late = await open();
    await late.waitFor((f) => f.some((x) => x.event === 'progress'), undefined, 'latest progress');
    expect(JSON.parse(late.events.find((e) => e.event === 'progress')!.data)).toMatchObject({ page: 1 });

    // The poll's end (a `game` change): a stream opened after it gets no progress.
    await store.polls.finish(gameId, 'test/progress', { ok: false, error: 'Network error (test)', at: new Date() });
    await early.waitFor((f) => f.some((x) => x.event === 'game'), undefined, 'game');
    const after = await open();
    await after.waitFor((f) => f.some((x) => x.event === 'hello'));
    await store.tallies.save(gameId, sampleTally({ postsRead: 99 }));
    await after.waitFor((f) => f.some((x) => x.event === 'tally'), undefined, 'tally after the poll');
    expect(after.events.filter((e) => e.event === 'progress')).toEqual([]);
  });

  it('an unknown game is 404', async () => {
    const res = await fetch(`${server.url}/g/nope/events`);
    expect(res.status).toBe(404);
  });
}

describe('live events (PGlite)', () => sseSuite('pglite'));
await describePg('live events (PostgreSQL)', () => sseSuite('pg'));
