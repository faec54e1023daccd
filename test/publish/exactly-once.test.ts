import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { newMarker, withMarker } from '../../src/publish/marker.js';
import { publishDraft, type PublishDeps } from '../../src/publish/publish-draft.js';
import { PublishHttp } from '../../src/publish/http.js';
import { xenforoApiPublisher } from '../../src/publish/xenforo-api.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import {
  ADMIN_TOKEN,
  describePg,
  eventually,
  openTestStore,
  pgSchema,
  PG_URL,
  recordingPoller,
  sampleTally,
  testEnv,
} from '../web/support.js';
import { FakeThread } from './fake-thread.js';

/**
 * Nothing is published twice (issue #17, 3 and 4): the claim on a publication lives in the
 * database, so two `votal serve` processes on one PostgreSQL post a votal once; a discard
 * while the forum is taking the post is refused; after a crash the thread decides.
 * The forum is slow on purpose: its reply endpoint holds every post until the test lets go.
 */

const XF_KEY = 'xf-api-key-SECRET-exactly-once';
const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

let forum: FakeForum;
afterEach(async () => {
  await forum?.close();
});

async function slowThread(): Promise<{ thread: FakeThread; release: () => void }> {
  forum = await startFakeForum();
  const thread = new FakeThread(forum, { engine: 'xenforo2', postsPerPage: 4 });
  thread.add({ author: 'Moderator', body: '[b]Day 1 begins.[/b]' });
  thread.add({ author: 'Alice', body: '[b]Vote: Bob[/b]' });
  thread.enableXenforoApi({ apiKey: XF_KEY, user: 'Moderator' });
  let release = (): void => {};
  thread.replyGate = new Promise<void>((r) => {
    release = r;
  });
  return { thread, release };
}

function appOn(store: Store): VotalApp {
  return createApp({
    store,
    poller: recordingPoller(),
    env: testEnv(),
    publish: { timeoutMs: 10_000, maxAttempts: 1, recheckMs: [] },
  });
}

const approve = (app: VotalApp, draftId: number, body: unknown = {}) =>
  app.request(`/api/drafts/${draftId}/approve`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
const discard = (app: VotalApp, draftId: number) =>
  app.request(`/api/drafts/${draftId}/discard`, { method: 'POST', headers: auth, body: '{}' });

/** A game on `thread` that posts through the XenForo API, with one pending draft of its current count. */
async function gameWithDraft(app: VotalApp, store: Store, thread: FakeThread): Promise<number> {
  const created = await app.request('/api/games', {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      url: thread.url,
      ruleset: 'plurality',
      players: ['Alice', 'Bob'],
      engine: 'xenforo2',
      publish: { method: 'xenforo-api', apiKey: XF_KEY, apiUser: '1' },
    }),
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const tally = await store.tallies.save(id, sampleTally());
  return (
    await store.drafts.create(
      { gameId: id, tallyId: tally.id, dialect: 'bbcode-xenforo', body: '[b]Vote count - Day 1[/b]\nBob - 1: Alice' },
      'poller',
    )
  ).id;
}

/** Resolves with the answers in the order they arrive. */
function inArrivalOrder(requests: (Response | Promise<Response>)[]): {
  arrived: { status: number; json: Record<string, unknown> }[];
  all: Promise<void>;
} {
  const arrived: { status: number; json: Record<string, unknown> }[] = [];
  const all = Promise.all(
    requests.map(async (r) => {
      const res = await r;
      arrived.push({ status: res.status, json: (await res.json()) as Record<string, unknown> });
    }),
  ).then(() => undefined);
  return { arrived, all };
}

await describePg('two Votal servers on one PostgreSQL', () => {
  let schema: Awaited<ReturnType<typeof pgSchema>>;
  let one: Store;
  let two: Store;
  beforeAll(async () => {
    schema = await pgSchema();
    one = await openStore({ databaseUrl: PG_URL, schema: schema.schema });
    two = await openStore({ databaseUrl: PG_URL, schema: schema.schema });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await schema?.drop();
  });

  it('both approve one draft at once: exactly one post; one answers published, the other that it is being posted', async () => {
    const { thread, release } = await slowThread();
    const [appOne, appTwo] = [appOn(one), appOn(two)];
    const draftId = await gameWithDraft(appOne, one, thread);

    const { arrived, all } = inArrivalOrder([approve(appOne, draftId), approve(appTwo, draftId)]);
    // One server is posting (the forum holds it); the other has answered, or (without a claim) posts as well.
    await eventually(() => arrived.length === 1 || thread.replyRequests > 1, 20_000, 'one answer or a second post');
    release();
    await all;

    expect(thread.replyRequests).toBe(1);
    expect(thread.replies).toHaveLength(1);
    expect(arrived[0]).toMatchObject({
      status: 202,
      json: { status: 'in-progress', note: expect.stringMatching(/another Votal process is posting/) },
    });
    expect(arrived[1]).toMatchObject({ status: 200, json: { status: 'published', draft: { status: 'published' } } });
    expect(await two.drafts.get(draftId)).toMatchObject({ status: 'published' });

    // Approving again on either server posts nothing more.
    const again = await approve(appTwo, draftId);
    expect(((await again.json()) as { status: string }).status).toBe('published');
    expect(thread.replies).toHaveLength(1);
  });

  it('approve on one, discard on the other while the forum is slow: the discard is refused, the votal is posted once', async () => {
    const { thread, release } = await slowThread();
    const [appOne, appTwo] = [appOn(one), appOn(two)];
    const draftId = await gameWithDraft(appOne, one, thread);
    const approving = approve(appOne, draftId);
    await eventually(() => thread.replyRequests === 1, 20_000, 'the post to reach the forum');
    const refused = await discard(appTwo, draftId);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      new RegExp(`draft ${draftId} is being posted to the forum right now.*wait for the result`),
    );
    release();
    const approved = await approving;
    expect(approved.status).toBe(200);
    expect(((await approved.json()) as { status: string }).status).toBe('published');
    expect(await one.drafts.get(draftId)).toMatchObject({ status: 'published' });
    expect(thread.replies).toHaveLength(1);
  });
});

describe('one server (PGlite)', () => {
  let store: Store;
  let close: () => Promise<void>;
  let app: VotalApp;
  beforeAll(async () => {
    ({ store, close } = await openTestStore('pglite'));
    app = appOn(store);
  });
  afterAll(async () => {
    await app?.shutdown();
    await close?.();
  });

  it('approve, then discard while the forum is slow: the discard is refused with a reason, the approver gets the post', async () => {
    const { thread, release } = await slowThread();
    const draftId = await gameWithDraft(app, store, thread);
    const approving = approve(app, draftId);
    await eventually(() => thread.replyRequests === 1, 20_000, 'the post to reach the forum');
    const refused = await discard(app, draftId);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toMatch(/being posted to the forum right now/);
    release();
    const approved = await approving;
    expect(approved.status).toBe(200);
    expect((await approved.json()) as Record<string, unknown>).toMatchObject({
      status: 'published',
      draft: { status: 'published', publication: { status: 'published' } },
    });
    expect(thread.replies).toHaveLength(1);
    // Once posted, it stays published.
    expect((await discard(app, draftId)).status).toBe(409);
  });

  it('discard first, then approve: nothing is posted and the approver is told why', async () => {
    const { thread, release } = await slowThread();
    release();
    const draftId = await gameWithDraft(app, store, thread);
    expect((await discard(app, draftId)).status).toBe(200);
    const refused = await approve(app, draftId);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toMatch(/was discarded/);
    expect(thread.replyRequests).toBe(0);
  });

  describe('after a crash, the thread decides', () => {
    const T = new Date('2026-03-02T18:00:00Z');
    const at = (ms: number) => () => new Date(T.getTime() + ms);

    async function crashedWhilePosting(
      thread: FakeThread,
    ): Promise<{ draftId: number; deps: (now: () => Date) => PublishDeps; post: () => Promise<void> }> {
      const draftId = await gameWithDraft(app, store, thread);
      await store.drafts.approve(draftId, 'gm');
      const publisher = xenforoApiPublisher({
        threadUrl: thread.url,
        apiKey: XF_KEY,
        http: new PublishHttp({ timeoutMs: 10_000, allowPrivateHosts: true }),
      });
      const publication = await store.drafts.startPublication(
        draftId,
        { marker: newMarker(draftId), method: 'adapter' },
        'gm',
      );
      // The dead process claimed it at T for a minute.
      expect(
        (await store.drafts.claimPublication(publication.id, { owner: 'dead/1', now: T, leaseMs: 60_000 }, 'gm'))
          .claimed,
      ).toBe(true);
      const draft = (await store.drafts.get(draftId))!;
      return {
        draftId,
        deps: (now) => ({ store, publisherFor: () => publisher, maxAttempts: 1, recheckMs: [], claimMs: 60_000, now }),
        post: async () => {
          await publisher.post(withMarker(draft.body, draft.dialect, publication.marker));
        },
      };
    }

    it('while the dead claim holds, nobody posts; once it ends, the post it made is found, not posted again', async () => {
      const { thread, release } = await slowThread();
      release();
      const crashed = await crashedWhilePosting(thread);
      await crashed.post(); // the dead process's post reached the forum
      expect(await publishDraft(crashed.deps(at(30_000)), crashed.draftId, 'gm')).toMatchObject({
        status: 'in-progress',
      });
      expect(thread.replies).toHaveLength(1);
      const result = await publishDraft(crashed.deps(at(60_000)), crashed.draftId, 'gm');
      expect(result).toMatchObject({ status: 'published', foundExisting: true });
      expect(thread.replies).toHaveLength(1);
      const actions = (await store.audit.list({ gameId: result.draft.gameId })).map((a) => a.action);
      expect(actions).toContain('publication.takeover');
    });

    it('a dead process that never reached the forum: the next one posts it, once', async () => {
      const { thread, release } = await slowThread();
      release();
      const crashed = await crashedWhilePosting(thread);
      const result = await publishDraft(crashed.deps(at(61_000)), crashed.draftId, 'gm');
      expect(result).toMatchObject({ status: 'published', foundExisting: false });
      expect(thread.replies).toHaveLength(1);
    });
  });
});
