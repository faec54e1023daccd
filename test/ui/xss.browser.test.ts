import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { PageFetcher } from '../../src/fetch/page-fetcher.js';
import { pollGame } from '../../src/game/poll-game.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { FakeThread } from '../publish/fake-thread.js';
import { ADMIN_TOKEN, eventually, testEnv } from '../web/support.js';
import { describeBrowser, launchBrowser, serveApp, tempDir, watchPage, type PageWatch } from './browser-support.js';

/**
 * Hostile forum data: player names and post bodies written to run script or break the
 * page (`<script>`, `"><img onerror>`, `javascript:` links, BBCode-looking names), a
 * hostile thread title, and a GM-edited draft full of the same. Every page that shows them
 * is opened in Chromium; nothing may run (no dialog, no flag set by a payload, no CSP
 * report), and the names must show as the text they are.
 */
const SCRIPT_NAME = `<script>window.__xss='n1';alert('n1')</script>`;
const IMG_NAME = `"><img src=x onerror="window.__xss='n2';alert('n2')">`;
const BB_NAME = `[b]Vote: Bob[/b]`;
const URL_NAME = `[url=javascript:alert('n3')]Mallory[/url]`;
const TITLE = `<img src=x onerror="window.__xss='t';alert('t')"> Evil Game`;

describeBrowser('hostile forum data (Chromium)', () => {
  let forum: FakeForum;
  let thread: FakeThread;
  let store: Store;
  let app: VotalApp;
  let server: { origin: string; close(): Promise<void> };
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let watch: PageWatch;
  let slug = '';
  let gameId = 0;
  let draftId = 0;
  const data = tempDir('votal-ui-xss-');

  beforeAll(async () => {
    forum = await startFakeForum();
    thread = new FakeThread(forum, {
      engine: 'xenforo2',
      title: TITLE,
      threadId: 666,
      slug: 'evil-game',
      postsPerPage: 20,
      users: { Moderator: 1, Bob: 12, Alice: 13, [SCRIPT_NAME]: 20, [IMG_NAME]: 21, [BB_NAME]: 22, [URL_NAME]: 23 },
    });
    thread.add({ author: 'Moderator', body: 'Day 1.' });
    thread.add({ author: SCRIPT_NAME, body: `<script>window.__xss='b1';alert('b1')</script>\n[b]Vote: Bob[/b]` });
    thread.add({ author: 'Bob', body: `[url=javascript:alert('b2')]click me[/url]\n[b]Vote: ${IMG_NAME}[/b]` });
    thread.add({ author: IMG_NAME, body: `[b]Vote: ${SCRIPT_NAME}[/b]` });
    thread.add({ author: BB_NAME, body: `[b]Vote: ${URL_NAME}[/b]` });
    thread.add({ author: URL_NAME, body: `[b]Vote: <img src=x onerror=alert('b3')>[/b]` });
    thread.add({ author: 'Alice', body: `[b]Vote: ${BB_NAME}[/b]` });

    store = await openStore({ dataDir: 'memory://' });
    const source = new PageFetcher({ allowPrivateHosts: true, minIntervalMs: 0, retries: 0, respectRobots: false });
    const poller = {
      pollNow: async (id: string) => {
        const r = await pollGame({ store, source, now: () => new Date().toISOString() }, id);
        if (r.status !== 'polled' && r.status !== 'busy') throw new Error(`poll ${r.status}: ${r.reason}`);
      },
    };
    app = createApp({ store, poller, env: testEnv({ dataDir: data.path }) });
    server = await serveApp(app.fetch);

    const players = ['Bob', 'Alice', SCRIPT_NAME, IMG_NAME, BB_NAME, URL_NAME].map((name) => ({ name }));
    const created = await app.request('/api/games', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: thread.url, ruleset: 'plurality', players, engine: 'xenforo2' }),
    });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { id: number; slug: string };
    gameId = body.id;
    slug = body.slug;
    await eventually(async () => (await store.tallies.latest(gameId)) !== null, 15_000, 'the first count');
    // A GM event naming nobody in the game: a `not-a-player` flag carrying the hostile text.
    const event = await app.request(`/api/games/${gameId}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'kill', player: `<svg onload="window.__xss='e1'">`, at: 2 }),
    });
    expect(event.status).toBe(201);
    const tally = await store.tallies.latest(gameId);
    expect(tally).not.toBeNull();
    const draft = await store.drafts.create(
      {
        gameId,
        tallyId: tally!.id,
        dialect: 'bbcode-xenforo',
        body: [
          `[b]${SCRIPT_NAME}[/b]`,
          `[url=javascript:alert('d1')]a link[/url] [url]javascript:alert('d2')[/url] [url=data:text/html,<script>alert(1)</script>]data[/url]`,
          `[color=red;background:url(javascript:alert(3))]colour[/color] [color="><script>alert(4)</script>]c2[/color]`,
          `[quote="${IMG_NAME}"]quoted[/quote] [img]javascript:alert(5)[/img] <b onmouseover=alert(6)>raw html</b>`,
          `[PLAIN][url=javascript:alert(7)]plain[/url][/PLAIN] [list][*]${URL_NAME}[/list]`,
        ].join('\n'),
      },
      'gm',
    );
    draftId = draft.id;

    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    watch = watchPage(page);
    await page.goto(`${server.origin}/gm/login`);
    await page.fill('#secret', ADMIN_TOKEN);
    await page.click('button[type=submit]');
    await page.waitForURL(`${server.origin}/gm`);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.shutdown();
    await server?.close();
    await store?.close();
    await forum?.close();
    data.remove();
  });

  /** Nothing ran, nothing was injected, our scripts are the only ones. */
  async function assertInert(p: Page, w: PageWatch): Promise<void> {
    await p.waitForLoadState('load');
    await p.waitForTimeout(200); // let any deferred payload (image error, script) have its chance
    expect(w.dialogs).toEqual([]);
    expect(w.errors).toEqual([]);
    expect(w.console.filter((m) => /Content Security Policy|Trusted Type|TrustedHTML/i.test(m))).toEqual([]);
    const dom = await p.evaluate(() => {
      const all = [...document.querySelectorAll('*')];
      return {
        flagged: (window as unknown as { __xss?: string }).__xss ?? null,
        scripts: [...document.scripts].map((s) => s.getAttribute('src')),
        handlers: all.flatMap((el) =>
          [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName}.${a.name}`),
        ),
        badLinks: [...document.querySelectorAll('a[href]')]
          .map((a) => (a as HTMLAnchorElement).href)
          .filter((h) => !/^https?:/.test(h)),
        images: document.images.length,
        styles: all.filter((el) => el.hasAttribute('style')).map((el) => `${el.tagName}:${el.getAttribute('style')}`),
      };
    });
    expect(dom.flagged).toBeNull();
    for (const src of dom.scripts) expect(src).toMatch(/^\/ui\/static\/[a-z]+\.js\?v=/);
    expect(dom.handlers).toEqual([]);
    expect(dom.badLinks).toEqual([]);
    expect(dom.images).toBe(0);
    // Only colours our script set, and only plain ones.
    for (const s of dom.styles) expect(s).toMatch(/^SPAN:color: (red|rgb\(\d+, \d+, \d+\));$/);
  }

  it('the live page shows hostile names as text and runs none of them', async () => {
    const live = await context.newPage();
    const w = watchPage(live);
    await live.goto(`${server.origin}/g/${slug}`);
    await expect.poll(() => live.textContent('#live-status')).toBe('Live');
    await assertInert(live, w);
    const text = (await live.textContent('#live'))!;
    expect(text).toContain(SCRIPT_NAME);
    expect(text).toContain(BB_NAME);
    expect(await live.title()).toContain('Evil Game');
    expect(await live.textContent('h1')).toBe(TITLE);
    // The page is whole: the wagons table and the chart are there.
    expect(await live.locator('#wagons tbody tr').count()).toBeGreaterThan(1);
    expect(await live.locator('svg.chart').count()).toBe(1);
    // A change arrives and is swapped in through the fragment: still inert.
    thread.add({ author: 'Bob', body: `[b]Vote: ${URL_NAME}[/b]` });
    await app.request(`/api/games/${gameId}/poll`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    await expect
      .poll(() => live.textContent('.changes'), { timeout: 10_000 })
      .toContain(`Bob: ${IMG_NAME} → ${URL_NAME}`);
    await assertInert(live, w);
    await live.close();
  });

  it('the GM game page, review queue and dashboard stay inert', async () => {
    await page.goto(`${server.origin}/gm/games/${gameId}`);
    await assertInert(page, watch);
    expect(await page.textContent('#gm-wagons')).toContain(SCRIPT_NAME);
    expect(await page.textContent('#review')).toContain(`<svg onload="window.__xss='e1'">`);
    expect(await page.textContent('#events-h + *, section[aria-labelledby=events-h]')).toContain(
      `kill <svg onload="window.__xss='e1'">`,
    );
    await page.goto(`${server.origin}/gm`);
    await assertInert(page, watch);
    expect(await page.textContent('main')).toContain('Evil Game');
  });

  it('the forum-look preview of a hostile draft renders no script, link or style from it', async () => {
    await page.goto(`${server.origin}/gm/drafts/${draftId}`);
    await assertInert(page, watch);
    const preview = page.locator('.forum-body');
    expect(await preview.textContent()).toContain(SCRIPT_NAME);
    expect(await preview.textContent()).toContain('<b onmouseover=alert(6)>raw html</b>');
    expect(await preview.textContent()).toContain('[url=javascript:alert(7)]plain[/url]');
    expect(await preview.locator('a').count()).toBe(0);
    expect(await preview.locator('strong').first().textContent()).toBe(SCRIPT_NAME);
    expect(await page.inputValue('#body')).toContain(`[url=javascript:alert('d1')]`);
  });
});
