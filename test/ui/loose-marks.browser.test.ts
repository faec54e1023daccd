import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pollGame, type PollDeps } from '../../src/game/poll-game.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { newGame, says, serve, standardScript, testClock, testSource, withPosts } from '../game/support.js';
import { ADMIN_TOKEN, recordingPoller, testEnv } from '../web/support.js';
import { describeBrowser, launchBrowser, screenshot, serveApp, tempDir, signedInPage } from './browser-support.js';

/**
 * Issue #24: a vote counted on a loose reading of a name is marked on the GM's wagon list
 * with its one-click correction (the review queue's own answer); issue #25: the review
 * items and the GM's news are one queue on the page. The standard game: Eve's "Vote: Carl"
 * is read as Carol (fuzzy); the Moderator announces a lynch.
 */
describeBrowser('loose readings on the wagon list, and the one queue (Chromium)', () => {
  let forum: FakeForum;
  let store: Store;
  let app: VotalApp;
  let served: { origin: string; close(): Promise<void> };
  let browser: Browser;
  let page: Page;
  let deps: PollDeps;
  let gameId = 0;
  const data = tempDir('votal-ui-loose-');

  beforeAll(async () => {
    forum = await startFakeForum();
    store = await openStore({ dataDir: 'memory://' });
    deps = { store, source: testSource(), now: testClock('2026-03-03T19:00:00Z').now };
    const script = withPosts(standardScript(8_100), [
      { author: 'Moderator', body: says('Dave has been lynched. He was a Villager.') },
    ]);
    gameId = (await newGame(store, serve(forum, script))).id;
    expect(await pollGame(deps, gameId)).toMatchObject({ status: 'polled', counted: true });
    app = createApp({ store, poller: recordingPoller(), env: testEnv({ dataDir: data.path }), pollWaitMs: 0 });
    served = await serveApp(app.fetch);
    browser = await launchBrowser();
    page = await signedInPage(browser, served.origin, ADMIN_TOKEN);
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await app?.shutdown();
    await store?.close();
    await forum?.close();
    data.remove();
  });

  it("marks Eve's vote read loosely on the GM's wagon list, and nowhere on the live page", async () => {
    await page.goto(`${served.origin}/gm/games/${gameId}`);
    const eve = page.locator('#gm-wagons tr[data-target="Carol"] li', { hasText: 'Eve' });
    expect(await eve.locator('.marker.loose').innerText()).toBe('read loosely: written "Carl", fuzzy');
    // Exact readings carry no mark.
    expect(await page.locator('#gm-wagons .marker.loose').count()).toBe(1);
    await screenshot(page, 'loose-mark-wagons');
    const slug = (await store.games.get(gameId))!.slug;
    await page.goto(`${served.origin}/g/${slug}`);
    expect(await page.locator('.marker.loose').count()).toBe(0);
  });

  it('shows the review items and the news as one queue, counted together', async () => {
    await page.goto(`${served.origin}/gm/games/${gameId}`);
    const queue = page.locator('#review');
    expect(await queue.locator('#news').innerText()).toContain('kill Dave after post');
    expect(await queue.locator('.queue > li', { hasText: 'Name read loosely' }).count()).toBe(1);
    const chip = await queue.locator('#review-h .chip').innerText();
    // Open items: the review queue's own list (settled ones are folded away) and the news part's.
    const items =
      (await page.locator('#review > .queue > li').count()) + (await queue.locator('#news .queue > li').count());
    expect(chip).toBe(`${items} open`);
  });

  it("corrects the reading with one click from the wagon list: the review queue's correction, and the count follows", async () => {
    await page.goto(`${served.origin}/gm/games/${gameId}`);
    const eve = page.locator('#gm-wagons tr[data-target="Carol"] li', { hasText: 'Eve' });
    await eve.getByRole('button', { name: 'Not meant: ignore' }).click();
    await page.waitForURL(/#review$/);
    expect(await page.locator('.notice:not([hidden])').first().innerText()).toContain('vote ignored');
    const post = (await store.events.list(gameId)).map((e) => e.event).find((e) => e.kind === 'correct');
    expect(post).toMatchObject({ kind: 'correct', target: null });
    // The recount is a poll (the test's poller only notes the ask): once it runs, Eve is off Carol.
    expect(await pollGame(deps, gameId)).toMatchObject({ status: 'polled' });
    await page.goto(`${served.origin}/gm/games/${gameId}`);
    expect(await page.locator('#gm-wagons tr[data-target="Carol"] li', { hasText: 'Eve' }).count()).toBe(0);
    expect(await page.locator('#gm-wagons .marker.loose').count()).toBe(0);
  });
});
