import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashBody, type Post } from '../../src/model/post.js';
import type { Body } from '../../src/model/body.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { b, body } from '../parse/build.js';
import { ADMIN_TOKEN, recordingPoller, testEnv } from '../web/support.js';
import { tempDir } from './browser-support.js';
import { FORM, O, signIn } from './sign-in.js';

/**
 * Votal reads the GM's own posts and proposes what they announce on the GM's game page:
 * one click records the event, another dismisses it; nothing is applied unconfirmed.
 */
describe("the GM's posts on the game page", () => {
  let store: Store;
  let app: VotalApp;
  let gameId = 0;
  const data = tempDir('votal-ui-news-');
  const poller = recordingPoller();

  const post = (number: number, author: string, content: Body): Post => ({
    id: String(1000 + number),
    number,
    page: 1,
    author,
    authorId: null,
    postedAt: `2026-03-0${Math.min(number, 9)}T12:00:00.000Z`,
    permalink: `http://127.0.0.1:9/threads/game.1/post-${number}`,
    edit: null,
    bodyHash: hashBody(content),
    body: content,
  });

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    app = createApp({ store, poller, env: testEnv({ dataDir: data.path }), rateLimit: false, pollWaitMs: 0 });
    const game = await store.games.create(
      {
        threadUrl: 'http://127.0.0.1:9/threads/game.1/',
        engine: 'xenforo2',
        ruleset: 'witchhunt',
        roster: [{ name: 'Alice' }, { name: 'Bob' }, { name: 'Carol' }, { name: 'Dave' }],
      },
      'gm',
    );
    gameId = game.id;
    await store.posts.recordPage(
      game.id,
      [
        post(1, 'Host', body(b('Day 1'), { t: 'br' }, 'Day 1 has begun.')),
        post(2, 'Alice', body('Bob was lynched. (Just kidding.)')),
        post(3, 'Host', body('Bob has been lynched. He was a Witch!', { t: 'br' }, 'Zed was killed last night.')),
        post(4, 'Host', body('Night 1 begins.')),
      ],
      new Date('2026-03-05T00:00:00Z'),
    );
  });

  afterAll(async () => {
    await app.shutdown();
    await store.close();
    data.remove();
  });

  const page = async (cookie: string): Promise<string> =>
    (await app.request(`${O}/gm/games/${gameId}`, { headers: { cookie } })).text();
  /** The news panel of the game page ('' when there is none). */
  const newsPanel = (html: string): string =>
    /<section class="panel" aria-labelledby="news-h"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';

  it('proposes what the opening poster announced, never what a player wrote, and shows unread news with its reason', async () => {
    const res = await app.request(`/api/games/${gameId}/news`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.status).toBe(200);
    const news = (await res.json()) as {
      gms: string[];
      proposals: { event: unknown; flip?: string }[];
      unread: { reason: string }[];
    };
    expect(news.gms).toEqual(['Host']);
    expect(news.proposals.map((p) => [p.event, p.flip ?? null])).toEqual([
      [{ kind: 'day-start', day: 1, at: 1 }, null],
      [{ kind: 'kill', player: 'Bob', at: 3 }, 'Witch'],
      // The Day's lynch ends the Day; "Night 1 begins." after it is the same Night, not news again.
      [{ kind: 'day-end', at: 3 }, null],
    ]);
    expect(news.unread.map((u) => u.reason)).toEqual(['names no player of this game: "Zed"']);
  });

  it('records a proposal with one click, and then no longer proposes it', async () => {
    const { cookie, csrf } = await signIn(app);
    const before = newsPanel(await page(cookie));
    expect(before).toContain('From the GM');
    expect(before).toContain('kill Bob after post 3');
    expect(before).toContain('(lynch, Day 1; flipped Witch)');
    expect(before).toContain('Not read:');

    // The Record button of the kill: the news form, answered by the proposal's key.
    const item = /<li><strong>kill Bob after post 3<\/strong>[\s\S]*?<\/li>/.exec(before)?.[0] ?? '';
    const record =
      /<form method="post" action="\/gm\/games\/\d+\/news" class="inline">((?:(?!<\/form>)[\s\S])*?value="record"(?:(?!<\/form>)[\s\S])*?)<\/form>/.exec(
        item,
      );
    expect(record).not.toBeNull();
    const fields = Object.fromEntries(
      [...record![1]!.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    expect(fields).toMatchObject({ _csrf: csrf, answer: 'record', key: expect.stringMatching(/^[0-9a-f]{16}$/) });
    const res = await app.request(`${O}/gm/games/${gameId}/news`, {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { cookie, origin: O, 'content-type': FORM },
    });
    expect(res.status).toBe(303);
    expect((await store.events.list(gameId)).map((e) => e.event)).toEqual([{ kind: 'kill', player: 'Bob', at: 3 }]);
    expect(newsPanel(await page(cookie))).not.toContain('kill Bob after post 3');
    expect((await store.audit.list({ gameId, action: 'news.record' })).map((a) => a.detail)).toEqual([
      {
        key: fields['key'],
        post: 3,
        event: { kind: 'kill', player: 'Bob', at: 3 },
        cause: 'lynch',
        phase: { kind: 'day', number: 1 },
        flip: 'Witch',
      },
    ]);
  });

  it('records and dismisses a proposal through the JSON API, each audited, and refuses a key that is no proposal', async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const list = async () =>
      (await (await app.request(`/api/games/${gameId}/news`, { headers: auth })).json()) as {
        proposals: { key: string; event: { kind: string }; phase?: unknown }[];
        unread: { key: string }[];
        reading: unknown;
      };
    const before = await list();
    // Bob's lynch is recorded now (the test before): the Day ends at "Night 1 begins.", not at the lynch.
    const nightStart = before.proposals.find((p) => p.event.kind === 'day-end')!;
    expect(nightStart.phase).toEqual({ kind: 'night', number: 1 });
    const recorded = await app.request(`/api/games/${gameId}/news/${nightStart.key}`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ answer: 'record' }),
    });
    expect(recorded.status).toBe(201);
    expect(((await recorded.json()) as { event: { event: unknown } }).event.event).toEqual({ kind: 'day-end', at: 4 });
    expect((await list()).proposals.map((p) => p.key)).not.toContain(nightStart.key);

    const unreadKey = before.unread[0]!.key;
    const dismissed = await app.request(`/api/games/${gameId}/news/${unreadKey}`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ answer: 'dismiss' }),
    });
    expect(dismissed.status).toBe(200);
    expect((await list()).unread).toEqual([]);
    expect((await store.audit.list({ gameId, action: 'news.dismiss' })).map((a) => a.detail)).toEqual([
      { key: unreadKey },
    ]);
    const none = await app.request(`/api/games/${gameId}/news/${'0'.repeat(16)}`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ answer: 'record' }),
    });
    expect(none.status).toBe(404);
  });

  it('dismisses a proposal for good', async () => {
    const { cookie, csrf } = await signIn(app);
    const html = await page(cookie);
    const key = /action="\/gm\/games\/\d+\/news"[\s\S]*?name="key" value="([0-9a-f]{16})"/.exec(html)![1]!;
    const res = await app.request(`${O}/gm/games/${gameId}/news`, {
      method: 'POST',
      body: new URLSearchParams({ _csrf: csrf, key }).toString(),
      headers: { cookie, origin: O, 'content-type': FORM },
    });
    expect(res.status).toBe(303);
    expect(await page(cookie)).not.toContain(`value="${key}"`);
    // However much happens after it: the activity list shows only the latest entries, a dismissal lasts.
    for (let i = 0; i < 250; i++)
      await store.audit.record({ gameId, actor: 'poller', action: 'tally.save', detail: { i } });
    expect(await page(cookie)).not.toContain(`value="${key}"`);
    const bad = await app.request(`${O}/gm/games/${gameId}/news`, {
      method: 'POST',
      body: new URLSearchParams({ _csrf: csrf, key: '<script>' }).toString(),
      headers: { cookie, origin: O, 'content-type': FORM },
    });
    expect(bad.status).toBe(303);
    expect((await store.audit.list({ gameId, action: 'news.dismiss' })).map((a) => a.detail)).toContainEqual({ key });
  });

  it('shows how far the thread is read, in the API and on the page, until it is caught up', async () => {
    const { cookie } = await signIn(app);
    const reading = async () =>
      (
        (await (
          await app.request(`/api/games/${gameId}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
        ).json()) as {
          reading: unknown;
        }
      ).reading;
    expect(await reading()).toEqual({ pagesRead: 0, pagesKnown: null, caughtUp: false, lastReadAt: null });
    expect(await page(cookie)).toContain('Thread not read yet');
    await store.polls.setShape(gameId, { pageCount: 2 });
    const fetched = (page: number) => ({
      page,
      url: `http://127.0.0.1:9/threads/game.1/page-${page}`,
      etag: null,
      lastModified: null,
      bodyHash: null,
      postCount: 4,
    });
    await store.threadPages.saveFetched(gameId, fetched(1), new Date('2026-03-05T00:00:00Z'));
    expect(await reading()).toMatchObject({ pagesRead: 1, pagesKnown: 2, caughtUp: false });
    expect(await page(cookie)).toContain('1 of 2 pages read · still reading');
  });

  it("reads the names set as the game's GMs instead of the opening poster", async () => {
    await store.games.updateSettings(gameId, { settings: { gm: ['Alice'] } }, 'gm', {});
    const res = await app.request(`/api/games/${gameId}/news`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const news = (await res.json()) as { gms: string[]; proposals: { event: unknown }[] };
    expect(news.gms).toEqual(['Alice']);
    // "Bob was lynched. (Just kidding.)": Bob's kill is recorded already; nothing else is news.
    expect(news.proposals).toEqual([]);
  });
});
