import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { packageRoot } from '../../src/config/package-root.js';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { PageFetcher } from '../../src/fetch/page-fetcher.js';
import { pollGame, type PollResult } from '../../src/game/poll-game.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { FakeThread } from '../publish/fake-thread.js';
import { rendererFor } from '../support/render/index.js';
import { ADMIN_TOKEN, recordingPoller, testEnv } from '../web/support.js';
import { describeBrowser, launchBrowser, screenshot, serveApp, tempDir, watchPage } from './browser-support.js';

/**
 * Issue #28: a 60-page thread's first read shows its progress on the GM's game page and on
 * the live page while it runs ("Reading page 2 of 60, ..."), through the game's event
 * stream, from the same progress the CLI draws. The forum holds page 2 until both pages
 * show the progress, so "before the read ends" is an event, not a time.
 */
const PAGES = 60;

describeBrowser('a long first read shows its progress on the page (Chromium)', () => {
  let forum: FakeForum;
  let thread: FakeThread;
  let store: Store;
  let app: VotalApp;
  let served: { origin: string; close(): Promise<void> };
  let browser: Browser;
  let gm: Page;
  let live: Page;
  let gameId = 0;
  let slug = '';
  let releasePage2: () => void = () => {};
  const page2Held = new Promise<void>((resolve) => {
    releasePage2 = resolve;
  });
  let page2Asked: () => void = () => {};
  const page2AskedFor = new Promise<void>((resolve) => {
    page2Asked = resolve;
  });
  const data = tempDir('votal-ui-progress-');

  beforeAll(async () => {
    forum = await startFakeForum();
    thread = new FakeThread(forum, { engine: 'xenforo2', postsPerPage: 1, title: 'Long Game - Day 1' });
    thread.add({ author: 'Moderator', body: '[b]Day 1 begins.[/b]' });
    const talkers = ['Alice', 'Bob', 'Carol', 'Dave', 'Eve'];
    for (let n = 2; n <= PAGES; n++)
      thread.add({ author: talkers[n % talkers.length]!, body: n % 5 === 0 ? '[b]Vote: Bob[/b]' : `Post ${n}.` });
    // Page 2 waits until the test has seen the progress of page 1 on both pages.
    const page2 = rendererFor('xenforo2').render(thread.script)[1]!;
    forum.route(page2.path, async () => {
      page2Asked();
      await page2Held;
      return { body: page2.body };
    });

    store = await openStore({ dataDir: 'memory://' });
    app = createApp({ store, poller: recordingPoller(), env: testEnv({ dataDir: data.path }), rateLimit: false });
    const game = await store.games.create(
      {
        threadUrl: thread.url,
        engine: 'xenforo2',
        ruleset: 'plurality',
        roster: talkers.map((name) => ({ name })),
        settings: { title: 'Long Game' },
      },
      'gm',
    );
    gameId = game.id;
    slug = game.slug;
    served = await serveApp(app.fetch);
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(30_000);
    gm = await context.newPage();
    watchPage(gm);
    await gm.goto(`${served.origin}/gm/login`);
    await gm.fill('#secret', ADMIN_TOKEN);
    await gm.click('button[type=submit]');
    await gm.waitForURL(/\/gm$/);
    live = await (await browser.newContext({ viewport: { width: 360, height: 740 } })).newPage();
  });

  afterAll(async () => {
    releasePage2();
    await browser?.close();
    await served?.close();
    await app?.shutdown();
    await store?.close();
    await forum?.close();
    data.remove();
  });

  it('shows "page N of 60" on the GM page and the live page after the first page, before the read ends; gone when it ends', async () => {
    await gm.goto(`${served.origin}/gm/games/${gameId}`);
    await live.goto(`${served.origin}/g/${slug}`);
    await live.waitForFunction(() => document.getElementById('live-status')?.textContent === 'Live');
    const gmProgress = gm.locator('[data-read-progress]');
    const liveProgress = live.locator('#read-progress');
    expect(await gmProgress.isHidden()).toBe(true);
    expect(await liveProgress.isHidden()).toBe(true);

    const startedAt = performance.now();
    const source = new PageFetcher({ allowPrivateHosts: true, minIntervalMs: 0, respectRobots: false, retries: 0 });
    const polled: Promise<PollResult> = pollGame({ store, source, now: () => new Date().toISOString() }, gameId);
    await page2AskedFor;
    const ofSixty = new RegExp(`^(Read page 1|Reading page 2) of ${PAGES}(, about .+ left)?$`);
    await gm.waitForFunction(
      (re) => new RegExp(re).test(document.querySelector('[data-read-progress]:not([hidden])')?.textContent ?? ''),
      ofSixty.source,
    );
    const gmShownMs = performance.now() - startedAt;
    await live.waitForFunction(
      (re) => new RegExp(re).test(document.querySelector('#read-progress:not([hidden])')?.textContent ?? ''),
      ofSixty.source,
    );
    const liveShownMs = performance.now() - startedAt;
    // The read has not ended: page 2 is still held, nothing is counted yet.
    expect(await store.tallies.latest(gameId)).toBeNull();
    expect(await gmProgress.innerText()).toMatch(ofSixty);
    expect(await liveProgress.innerText()).toMatch(ofSixty);
    await screenshot(gm, 'read-progress-gm-desktop');
    await screenshot(live, 'read-progress-live-360');

    releasePage2();
    const result = await polled;
    expect(result.status, result.error?.message ?? '').toBe('polled');
    expect(result.pages.read).toHaveLength(PAGES);
    await gm.waitForSelector('[data-read-progress]', { state: 'hidden' });
    await live.waitForSelector('#read-progress', { state: 'hidden' });

    // For BENCHMARKS.md: the time from the poll's start to the progress on each page (not a bound).
    const out = join(packageRoot(), 'test-output');
    mkdirSync(out, { recursive: true });
    const figures = { pages: PAGES, gmShownMs: Math.round(gmShownMs), liveShownMs: Math.round(liveShownMs) };
    writeFileSync(join(out, 'first-progress-page.json'), `${JSON.stringify(figures)}\n`);
    console.log(`time to first progress, ${PAGES}-page first read:`, figures);
  });
});
