import { CookieJar } from 'tough-cookie';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { publishAad } from '../../src/config/publish-settings.js';
import { SecretBox } from '../../src/config/secrets.js';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { browserPublisher, markerOf } from '../../src/publish/browser-post.js';
import { formFactsFor, formNeedsJavaScript } from '../../src/publish/form-facts.js';
import { PublishHttp } from '../../src/publish/http.js';
import { newMarker, withMarker } from '../../src/publish/marker.js';
import { publishDraft, type PublishDeps } from '../../src/publish/publish-draft.js';
import { publisherFor, type PublisherForDeps } from '../../src/publish/publisher-for.js';
import { PublishError, type Publisher } from '../../src/publish/publisher.js';
import type { Game } from '../../src/model/game.js';
import type { Store } from '../../src/store/open-store.js';
import { describeWithChromium } from '../browser/support.js';
import { openTestStore, sampleTally } from '../web/support.js';
import { FakeThread } from './fake-thread.js';

/**
 * The browser publisher (the `form` method's last resort) against the fake forum in
 * Debian's Chromium: a reply form built by JavaScript is filled and posted once; a retry
 * after a lost answer finds the marker instead of posting again; the session cookie is sent
 * and never shows up in an error. Skipped loudly without Chromium unless VOTAL_REQUIRE_BROWSER=1.
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

const SESSION_VALUE = 'SESSIONSECRET42';
const SESSION = `xf_session=${SESSION_VALUE}`;
const box = new SecretBox(Buffer.alloc(32, 7));
const http = (): PublishHttp => new PublishHttp({ timeoutMs: 5_000, allowPrivateHosts: true });
/** Short limits: a test waits seconds, not minutes. */
const FAST = {
  allowPrivateHosts: true,
  stepTimeoutMs: 5_000,
  navigationTimeoutMs: 10_000,
  readyTimeoutMs: 3_000,
  submitTimeoutMs: 5_000,
};

async function scriptedThread(): Promise<FakeThread> {
  forum = await startFakeForum();
  const thread = new FakeThread(forum, { engine: 'xenforo2', postsPerPage: 4 });
  thread.add({ author: 'Moderator', body: '[b]Day 1 begins.[/b]' });
  thread.add({ author: 'Alice', body: '[b]Vote: Bob[/b]' });
  thread.add({ author: 'Bob', body: '[b]Vote: Carol[/b]' });
  thread.enableScriptedReplyForm({ user: 'Moderator', cookie: SESSION });
  return thread;
}

function jarWith(thread: FakeThread, cookie: string): CookieJar {
  const jar = new CookieJar(undefined, { allowSpecialUseDomain: true, rejectPublicSuffixes: false });
  jar.setCookieSync(`${cookie}; Path=/; HttpOnly`, thread.forum.origin);
  return jar;
}

/** A game whose settings hold the sealed login (`method: 'form'`), with one approved draft. */
async function gameWithDraft(thread: FakeThread, cookie = SESSION): Promise<{ game: Game; draftId: number }> {
  const jarJson = JSON.stringify(jarWith(thread, cookie).serializeSync());
  const game = await store.games.create(
    {
      threadUrl: thread.url,
      engine: 'xenforo2',
      ruleset: 'plurality',
      roster: [{ name: 'Alice' }, { name: 'Bob' }],
      settings: { publish: { method: 'form', jar: box.seal(jarJson, publishAad(thread.url, 'form')) } },
    },
    'test',
  );
  const tally = await store.tallies.save(game.id, sampleTally({ engine: 'xenforo2' }));
  const draft = await store.drafts.create(
    {
      gameId: game.id,
      tallyId: tally.id,
      dialect: 'bbcode-xenforo',
      body: '[b]Vote count - Day 1[/b]\nBob - 1: Alice',
    },
    'test',
  );
  await store.drafts.approve(draft.id, 'gm');
  return { game, draftId: draft.id };
}

function deps(make: (game: Game) => Publisher): PublishDeps {
  return { store, publisherFor: make, maxAttempts: 2, backoffMs: 10, recheckMs: [50, 400] };
}

const forDeps = (browser: PublisherForDeps['browser'] = FAST): PublisherForDeps => ({ http: http(), box, browser });
const posts = () => forum.requests.filter((r) => r.method === 'POST');

describe('deciding that a reply form needs JavaScript', () => {
  const facts = formFactsFor('xenforo2')!;
  it('a page whose form is in the HTML does not; a script-built one does; a login page does not', () => {
    expect(
      formNeedsJavaScript(
        '<html><body><form action="/t/1/add-reply" method="post"><textarea name="message"></textarea></form></body></html>',
        facts,
      ),
    ).toBe(false);
    expect(
      formNeedsJavaScript(
        '<html><body><noscript>enable JS</noscript><div id="box"></div><script>build()</script></body></html>',
        facts,
      ),
    ).toBe(true);
    expect(
      formNeedsJavaScript(
        '<html><body><form action="/login"><input type="password" name="password"></form><script>x()</script></body></html>',
        facts,
      ),
    ).toBe(false);
    expect(formNeedsJavaScript('<html><body>This thread is locked.</body></html>', facts)).toBe(false);
  });

  it('the marker is taken from the message', () => {
    expect(markerOf(withMarker('count', 'bbcode-xenforo', 'votal:3.0123abcd'))).toBe('votal:3.0123abcd');
    expect(markerOf('no marker')).toBeNull();
  });

  it('without Chromium, a form that needs JavaScript fails as "copy instead", nothing sent, no cookie in the error', async () => {
    const thread = await scriptedThread();
    const { draftId } = await gameWithDraft(thread);
    const result = await publishDraft(
      deps((g) => publisherFor(g, 'xenforo2', forDeps({ ...FAST, executablePath: '/nonexistent/chromium' }))),
      draftId,
      'gm',
    );
    expect(result.status).toBe('failed');
    const error = result.status === 'failed' ? result.error : '';
    expect(error).toMatch(/needs JavaScript.*Browser fallback unavailable.*copy the votal/);
    expect(error).not.toContain(SESSION_VALUE);
    expect(thread.replies).toHaveLength(0);
    expect(posts()).toHaveLength(0);
  });
});

describeWithChromium('publishing through Chromium (reply form built by JavaScript)', () => {
  it('a votal lands once through the browser when the reply form needs JavaScript', async () => {
    const thread = await scriptedThread();
    const { draftId } = await gameWithDraft(thread);
    const result = await publishDraft(
      deps((g) => publisherFor(g, 'xenforo2', forDeps())),
      draftId,
      'gm',
    );
    expect(result.status).toBe('published');
    if (result.status !== 'published') return;
    expect(result.foundExisting).toBe(false);
    expect(thread.replies).toHaveLength(1);
    const reply = thread.replies[0]!;
    expect(reply.via).toBe('form');
    expect(reply.message).toContain('[b]Vote count - Day 1[/b]');
    expect(reply.message).toContain(`[color=transparent]${result.publication.marker}[/color]`);
    expect(result.remote.id).toBe(String(reply.postId));
    // One POST, from the browser (the plain form publisher found no form and sent nothing).
    expect(posts()).toHaveLength(1);
    expect(new URLSearchParams(posts()[0]!.body).get('_xfToken')).toBe('csrf-1772470800-5d41402abc');

    // Approving again posts nothing more.
    const again = await publishDraft(
      deps((g) => publisherFor(g, 'xenforo2', forDeps())),
      draftId,
      'gm',
    );
    expect(again.status).toBe('published');
    expect(thread.replies).toHaveLength(1);
    expect(posts()).toHaveLength(1);
  });

  it('a retry after a timeout finds the marker and does not post again', async () => {
    const thread = await scriptedThread();
    const jar = jarWith(thread, SESSION);
    // The forum saves the post, then answers long after our time limit.
    thread.replyDelayMs = 4_000;
    const publisher = browserPublisher({
      ...FAST,
      submitTimeoutMs: 1_000,
      threadUrl: thread.url,
      engine: 'xenforo2',
      jar,
      http: http(),
    });
    const message = withMarker('[b]Vote count - Day 1[/b]', 'bbcode-xenforo', newMarker(77));
    const marker = markerOf(message)!;

    // The navigation times out; the thread-scan after it finds the post.
    const first = await publisher.post(message);
    expect(thread.replies).toHaveLength(1);
    expect(first.id).toBe(String(thread.replies[0]!.postId));

    // A retry of the same message: the scan before the attempt finds it; no browser, no POST.
    thread.replyDelayMs = 0;
    const before = forum.requests.length;
    const retry = await publisher.post(message);
    expect(retry).toEqual(first);
    expect(await publisher.find(marker)).toEqual(first);
    expect(thread.replies).toHaveLength(1);
    expect(forum.requests.slice(before).filter((r) => r.method === 'POST' || r.path.endsWith('/reply'))).toHaveLength(
      0,
    );
  });

  it('a sent post whose answer never comes and that is not in the thread is an unknown outcome', async () => {
    const thread = await scriptedThread();
    const publisher = browserPublisher({
      ...FAST,
      submitTimeoutMs: 1_000,
      threadUrl: thread.url,
      engine: 'xenforo2',
      jar: jarWith(thread, SESSION),
      http: http(),
    });
    // A forum that drops the post and never answers in time.
    forum.route(
      new URL(thread.url).pathname + 'add-reply',
      { status: 200, body: '<html><body>ok</body></html>', delayMs: 4_000 },
      { method: 'POST', etag: false },
    );
    const lost = await publisher.post(withMarker('count', 'bbcode-xenforo', newMarker(79))).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(PublishError);
    expect((lost as PublishError).outcome).toBe('unknown');
    expect((lost as PublishError).message).toMatch(/no answer page within 1000 ms; the post is not in the thread/);
    expect(thread.replies).toHaveLength(0);
  });

  it('cookies are sent and never appear in errors', async () => {
    const thread = await scriptedThread();
    const publisher = browserPublisher({
      ...FAST,
      threadUrl: thread.url,
      engine: 'xenforo2',
      jar: jarWith(thread, SESSION),
      http: http(),
    });
    await publisher.post(withMarker('count', 'bbcode-xenforo', newMarker(80)));
    const formPage = forum.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/reply'));
    expect(formPage.length).toBeGreaterThan(0);
    for (const r of [...formPage, ...posts()]) expect(r.headers.cookie).toContain(SESSION);

    // An expired session: the forum shows its login page; the error says so, without the cookie.
    const expired = 'xf_session=EXPIREDSECRET77';
    const stale = browserPublisher({
      ...FAST,
      readyTimeoutMs: 1_000,
      threadUrl: thread.url,
      engine: 'xenforo2',
      jar: jarWith(thread, expired),
      http: http(),
    });
    const error = await stale.post(withMarker('count', 'bbcode-xenforo', newMarker(81))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PublishError);
    expect((error as PublishError).outcome).toBe('rejected');
    expect((error as PublishError).message).toMatch(/no reply editor on the page \(the login may have expired/);
    const shown = `${(error as Error).message} ${(error as Error).stack ?? ''} ${JSON.stringify(error)}`;
    expect(shown).not.toContain('EXPIREDSECRET77');
    expect(shown).not.toContain(SESSION_VALUE);

    // Through publisherFor: the plain form publisher sees the login page (not a script-built form): its own refusal.
    const { draftId } = await gameWithDraft(thread, expired);
    const result = await publishDraft(
      deps((g) => publisherFor(g, 'xenforo2', forDeps())),
      draftId,
      'gm',
    );
    expect(result.status).toBe('failed');
    expect(result.status === 'failed' && result.error).toMatch(/no reply form on the page/);
    expect(JSON.stringify(result)).not.toContain('EXPIREDSECRET77');
    expect(thread.replies).toHaveLength(1);
  });
});
