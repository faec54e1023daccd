import { CookieJar } from 'tough-cookie';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import type { EngineId } from '../../src/model/engine.js';
import { copyPublisher } from '../../src/publish/copy.js';
import { discourseApiPublisher } from '../../src/publish/discourse-api.js';
import { formPostPublisher } from '../../src/publish/form-post.js';
import { PublishHttp } from '../../src/publish/http.js';
import { markerLine, newMarker, withMarker } from '../../src/publish/marker.js';
import { confirmCopied, publishDraft, type PublishDeps } from '../../src/publish/publish-draft.js';
import { PublishError, type Publisher } from '../../src/publish/publisher.js';
import { lastPosts } from '../../src/publish/thread-scan.js';
import { xenforoApiPublisher } from '../../src/publish/xenforo-api.js';
import type { Store } from '../../src/store/open-store.js';
import { openTestStore, sampleTally } from '../web/support.js';
import { FakeThread } from './fake-thread.js';

/**
 * Each way of posting, against the fake forum: the reply lands on the thread's last page,
 * the marker is found there, and the publishing service never posts a votal twice, even
 * when the forum took the post but its answer came after our time limit.
 */

let forum: FakeForum;
let store: Store;
let closeStore: () => Promise<void>;

beforeAll(async () => {
  ({ store, close: closeStore } = await openTestStore('pglite'));
});
afterAll(async () => {
  await closeStore();
});
afterEach(async () => {
  await forum?.close();
});

const XF_KEY = 'xf-api-key-SECRET-1234567890';
const DC_KEY = 'discourse-api-key-SECRET-0987654321';
const SESSION = 'xf_session=SESSIONSECRET42';

async function threadOn(engine: EngineId, posts = 3): Promise<FakeThread> {
  forum = await startFakeForum();
  const thread = new FakeThread(forum, { engine, postsPerPage: 4 });
  thread.add({ author: 'Moderator', body: '[b]Day 1 begins.[/b]' });
  const voters = ['Alice', 'Bob', 'Carol', 'Dave'];
  for (let i = 1; i < posts; i++)
    thread.add({ author: voters[i % voters.length]!, body: `[b]Vote: ${voters[(i + 1) % voters.length]}[/b]` });
  return thread;
}

function http(timeoutMs = 5_000): PublishHttp {
  return new PublishHttp({ timeoutMs, allowPrivateHosts: true });
}

interface Case {
  name: string;
  engine: EngineId;
  dialect: string;
  make(thread: FakeThread, http: PublishHttp): Publisher;
}

const cases: Case[] = [
  {
    name: 'XenForo REST API',
    engine: 'xenforo2',
    dialect: 'bbcode-xenforo',
    make(thread, h) {
      thread.enableXenforoApi({ apiKey: XF_KEY, user: 'Moderator' });
      return xenforoApiPublisher({ threadUrl: thread.url, apiKey: XF_KEY, http: h });
    },
  },
  {
    name: 'Discourse API',
    engine: 'discourse',
    dialect: 'markdown',
    make(thread, h) {
      thread.enableDiscourseApi({ apiKey: DC_KEY, apiUsername: 'Moderator' });
      return discourseApiPublisher({ threadUrl: thread.url, apiKey: DC_KEY, apiUsername: 'Moderator', http: h });
    },
  },
  {
    name: 'XenForo 2 reply form with a stored login',
    engine: 'xenforo2',
    dialect: 'bbcode-xenforo',
    make(thread, h) {
      thread.enableReplyForm({ user: 'Moderator', cookie: SESSION });
      return formPostPublisher({ threadUrl: thread.url, engine: 'xenforo2', jar: jarWith(thread, SESSION), http: h });
    },
  },
  {
    name: 'phpBB reply form with a stored login',
    engine: 'phpbb',
    dialect: 'bbcode-phpbb',
    make(thread, h) {
      thread.enableReplyForm({ user: 'Moderator', cookie: 'phpbb3_sid=SIDSECRET' });
      return formPostPublisher({
        threadUrl: thread.url,
        engine: 'phpbb',
        jar: jarWith(thread, 'phpbb3_sid=SIDSECRET'),
        http: h,
      });
    },
  },
];

function jarWith(thread: FakeThread, cookie: string): CookieJar {
  const jar = new CookieJar(undefined, { allowSpecialUseDomain: true, rejectPublicSuffixes: false });
  jar.setCookieSync(`${cookie}; Path=/`, thread.forum.origin);
  return jar;
}

/** A game with one pending -> approved draft, ready to publish. */
async function approvedDraft(
  thread: FakeThread,
  dialect: string,
  body = '[b]Vote count - Day 1[/b]\nAlice - 1: Bob',
): Promise<number> {
  const game = await store.games.create(
    {
      threadUrl: thread.url,
      engine: thread.engine,
      ruleset: 'plurality',
      roster: [{ name: 'Alice' }, { name: 'Bob' }],
    },
    'test',
  );
  const tally = await store.tallies.save(game.id, sampleTally({ engine: thread.engine }));
  const draft = await store.drafts.create({ gameId: game.id, tallyId: tally.id, dialect, body }, 'test');
  await store.drafts.approve(draft.id, 'gm');
  return draft.id;
}

function deps(publisher: Publisher, extra: Partial<PublishDeps> = {}): PublishDeps {
  return { store, publisherFor: () => publisher, maxAttempts: 2, backoffMs: 10, recheckMs: [50, 400], ...extra };
}

describe.each(cases)('$name', (c) => {
  it('posts the reply, which lands on the last page with its marker; find sees it', async () => {
    const thread = await threadOn(c.engine, 6);
    const publisher = c.make(thread, http());
    const marker = newMarker(7);
    expect(await publisher.find(marker)).toBeNull();
    const remote = await publisher.post(withMarker('[b]Vote count[/b]\nAlice - 1', c.dialect, marker));
    expect(thread.replies).toHaveLength(1);
    expect(thread.replies[0]!.message).toContain(markerLine(c.dialect, marker));
    const found = await publisher.find(marker);
    expect(found).not.toBeNull();
    expect(found!.id).toBe(String(thread.replies[0]!.postId));
    if (remote.id !== null) expect(remote.id).toBe(String(thread.replies[0]!.postId));
    // The reader sees the new post as the thread's last one.
    const posts = await lastPosts({ threadUrl: thread.url, engine: c.engine, http: http() });
    expect(posts.at(-1)!.id).toBe(String(thread.replies[0]!.postId));
  });

  it('a votal is never posted twice, even when the first attempt times out after the forum accepted it', async () => {
    const thread = await threadOn(c.engine);
    thread.replyDelayMs = 1_500; // the forum saves the post, then answers after our 300 ms limit
    const publisher = c.make(thread, http(300));
    const draftId = await approvedDraft(thread, c.dialect);

    const first = await publishDraft(deps(publisher), draftId, 'gm');
    expect(first.status).toBe('published');
    expect(first.status === 'published' && first.foundExisting).toBe(true);
    expect(thread.replies).toHaveLength(1);

    // Approving again (a double click, a retry after a crash) posts nothing more.
    thread.replyDelayMs = 0;
    const again = await publishDraft(deps(publisher), draftId, 'gm');
    expect(again.status).toBe('published');
    expect(thread.replies).toHaveLength(1);

    const publication = await store.drafts.publicationOf(draftId);
    expect(publication!.status).toBe('published');
    expect(publication!.remotePostId).toBe(String(thread.replies[0]!.postId));
    expect((await store.drafts.get(draftId))!.status).toBe('published');
    const actions = (await store.audit.list({ limit: 50 }))
      .filter((a) => a.detail.draftId === draftId)
      .map((a) => a.action)
      .reverse();
    expect(actions).toEqual(
      expect.arrayContaining(['publication.start', 'publication.check', 'publication.attempt', 'publication.publish']),
    );
  });

  it('after a lost answer and a crash, the retry finds the post instead of posting again', async () => {
    const thread = await threadOn(c.engine);
    const publisher = c.make(thread, http());
    const draftId = await approvedDraft(thread, c.dialect);
    // A process posted, then died before recording it.
    const publication = await store.drafts.startPublication(
      draftId,
      { marker: newMarker(draftId), method: 'adapter' },
      'gm',
    );
    const draft = (await store.drafts.get(draftId))!;
    await publisher.post(withMarker(draft.body, draft.dialect, publication.marker));
    expect(thread.replies).toHaveLength(1);

    const result = await publishDraft(deps(publisher), draftId, 'gm');
    expect(result.status).toBe('published');
    expect(result.status === 'published' && result.foundExisting).toBe(true);
    expect(thread.replies).toHaveLength(1);
  });
});

describe('publishing service', () => {
  it('two approvals at the same moment post once', async () => {
    const thread = await threadOn('xenforo2');
    const publisher = cases[0]!.make(thread, http());
    const draftId = await approvedDraft(thread, 'bbcode-xenforo');
    const [a, b] = await Promise.all([
      publishDraft(deps(publisher), draftId, 'gm'),
      publishDraft(deps(publisher), draftId, 'gm'),
    ]);
    expect(a.status).toBe('published');
    expect(b.status).toBe('published');
    expect(thread.replies).toHaveLength(1);
  });

  it('a refused post (bad API key) fails at once, is audited, and is not retried', async () => {
    const thread = await threadOn('xenforo2');
    thread.enableXenforoApi({ apiKey: XF_KEY, user: 'Moderator' });
    const publisher = xenforoApiPublisher({ threadUrl: thread.url, apiKey: 'wrong-key', http: http() });
    const draftId = await approvedDraft(thread, 'bbcode-xenforo');
    const result = await publishDraft(deps(publisher), draftId, 'gm');
    expect(result.status).toBe('failed');
    // The check reads the API with the same key: refused, nothing posted.
    expect(result.status === 'failed' && result.error).toMatch(/refused our credentials|HTTP 401/);
    expect(thread.replies).toHaveLength(0);
    expect(forum.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    const publication = await store.drafts.publicationOf(draftId);
    expect(publication!.status).toBe('failed');
    expect(publication!.lastError).not.toContain('wrong-key');
    const actions = (await store.audit.list({ limit: 20 }))
      .filter((a) => a.detail.draftId === draftId)
      .map((a) => a.action);
    expect(actions).toContain('publication.fail');
  });

  it('a thread that cannot be read stops the post (it might be there already)', async () => {
    const thread = await threadOn('xenforo2');
    const publisher = cases[2]!.make(thread, http());
    const draftId = await approvedDraft(thread, 'bbcode-xenforo');
    forum.route(new URL(thread.url).pathname, { status: 500, body: 'down' });
    const result = await publishDraft(deps(publisher), draftId, 'gm');
    expect(result.status).toBe('failed');
    expect(result.status === 'failed' && result.error).toMatch(/could not check the thread before posting/);
    expect(thread.replies).toHaveLength(0);
  });

  it('a form page without the reply form (logged out) is a clear refusal', async () => {
    const thread = await threadOn('xenforo2');
    thread.enableReplyForm({ user: 'Moderator', cookie: SESSION });
    const publisher = formPostPublisher({
      threadUrl: thread.url,
      engine: 'xenforo2',
      jar: jarWith(thread, 'xf_session=EXPIRED'),
      http: http(),
    });
    await expect(publisher.post('hello')).rejects.toThrow(/no reply form on the page/);
    const error = await publisher.post('hello').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PublishError);
    expect((error as PublishError).outcome).toBe('rejected');
    expect(thread.replies).toHaveLength(0);
  });

  it('the form publisher copies hidden fields (CSRF token) and sends the session cookie', async () => {
    const thread = await threadOn('xenforo2');
    const publisher = cases[2]!.make(thread, http());
    await publisher.post('[b]count[/b]');
    const post = forum.requests.find((r) => r.method === 'POST')!;
    const form = new URLSearchParams(post.body);
    expect(form.get('_xfToken')).toBe('csrf-1772470800-5d41402abc');
    expect(form.get('watch_thread')).toBe('1');
    expect(form.has('notify')).toBe(false); // unchecked
    expect(form.get('message')).toBe('[b]count[/b]');
    expect(post.headers.cookie).toContain('xf_session=SESSIONSECRET42');
  });

  it('copy: nothing is posted; the GM gets the votal as drafted, with no marker', async () => {
    const thread = await threadOn('xenforo2');
    const publisher = copyPublisher({ threadUrl: thread.url, engine: 'xenforo2', http: http() });
    const draftId = await approvedDraft(thread, 'bbcode-xenforo');
    const result = await publishDraft(deps(publisher), draftId, 'gm');
    expect(result.status).toBe('copy');
    if (result.status !== 'copy') return;
    expect(result.text).toBe('[b]Vote count - Day 1[/b]\nAlice - 1: Bob');
    expect(thread.replies).toHaveLength(0);
    // The GM pastes it; Votal finds the GM's post by its words (pasted-votal.test.ts has the rules).
    const pasted = thread.add({ author: 'Moderator', body: result.text });
    const confirmed = await confirmCopied(deps(publisher), draftId, 'gm');
    expect(confirmed).toMatchObject({ status: 'published', remotePostId: String(pasted.id) });
  });

  it('marker lines per dialect', () => {
    const m = 'votal:12.0123abcd';
    expect(markerLine('bbcode-xenforo', m)).toBe('[color=transparent]votal:12.0123abcd[/color]');
    expect(markerLine('markdown', m)).toBe('<!-- votal:12.0123abcd -->');
    expect(markerLine('gog', m)).toBe('[i]votal:12.0123abcd[/i]');
    expect(() => markerLine('markdown', 'votal:x')).toThrow(/not a Votal marker/);
  });
});
