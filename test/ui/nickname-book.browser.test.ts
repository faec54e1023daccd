import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pollGame, type PollDeps } from '../../src/game/poll-game.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { newGame, serve, standardScript, testClock, testSource, vote, withPosts } from '../game/support.js';
import { ADMIN_TOKEN, recordingPoller, testEnv } from '../web/support.js';
import { describeBrowser, launchBrowser, screenshot, serveApp, tempDir, signedInPage } from './browser-support.js';

/**
 * Issue #24: the forum's nickname book on its own page, and forgetting one for every game of
 * the forum. Game 'Mini 12' taught "tyler" for Eve (the site's book, as an accepted lesson
 * leaves it); game 'Mini 13', running, reads Frank's "Vote: tyler" as Eve at its next poll,
 * marked on the GM's wagon list as read by a nickname from 'Mini 12'. The admin forgets it on
 * the book's page: the row goes, the game's roster loses it, and its next count sends Frank's
 * vote back to the GM.
 */
describeBrowser("the forum's nickname book page, and forget (Chromium)", () => {
  let forum: FakeForum;
  let store: Store;
  let app: VotalApp;
  let served: { origin: string; close(): Promise<void> };
  let browser: Browser;
  let page: Page;
  let deps: PollDeps;
  let taught = 0;
  let running = 0;
  const data = tempDir('votal-ui-book-');

  beforeAll(async () => {
    forum = await startFakeForum();
    store = await openStore({ dataDir: 'memory://' });
    deps = { store, source: testSource(), now: testClock('2026-03-03T19:00:00Z').now };
    taught = (await newGame(store, serve(forum, standardScript(8_200)), { title: 'Mini 12' })).id;
    const script = withPosts(standardScript(8_201), [{ author: 'Frank', body: vote('tyler') }]);
    const url = serve(forum, script);
    running = (await newGame(store, url, { title: 'Mini 13' })).id;
    await store.nicknames.learn(
      {
        site: new URL(url).hostname,
        forumName: 'Eve',
        forumKey: 'eve',
        nickname: 'tyler',
        nicknameKey: 'tyler',
        fromGame: taught,
        fromTitle: 'Mini 12',
      },
      'gm',
      new Date('2026-03-03T18:00:00Z'),
    );
    expect(await pollGame(deps, running)).toMatchObject({ status: 'polled', counted: true });
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

  it("marks the vote a book nickname decided on the running game's wagon list, with the game it came from", async () => {
    await page.goto(`${served.origin}/gm/games/${running}`);
    const frank = page.locator('#gm-wagons tr[data-target="Eve"] li', { hasText: 'Frank' });
    expect(await frank.locator('.marker.loose').innerText()).toBe(
      'read by a nickname: written "tyler", nickname from game \'Mini 12\'',
    );
  });

  it('lists the book from the nav: the nickname, the game it came from, the games reading it', async () => {
    await page.goto(`${served.origin}/gm`);
    await page.getByRole('link', { name: 'Nicknames' }).click();
    await page.waitForURL(`${served.origin}/gm/nicknames`);
    const row = page.locator('tr[data-nickname="Eve:tyler"]');
    expect(await row.locator('th').innerText()).toBe('"tyler" → Eve');
    expect(await row.getByRole('link', { name: 'Mini 12' }).getAttribute('href')).toBe(`/gm/games/${taught}`);
    expect(await row.getByRole('link', { name: 'Mini 13' }).getAttribute('href')).toBe(`/gm/games/${running}`);
    await screenshot(page, 'nickname-book');
  });

  it('forgets it with one click: gone from the page and the roster, and the next count no longer reads it', async () => {
    await page.goto(`${served.origin}/gm/nicknames`);
    await page.locator('tr[data-nickname="Eve:tyler"]').getByRole('button', { name: 'Forget' }).click();
    await page.waitForURL(`${served.origin}/gm/nicknames`);
    expect(await page.locator('#flash').innerText()).toContain('"tyler" is no longer read as Eve');
    expect(await page.locator('#flash').innerText()).toContain('counted again: Mini 13');
    expect(await page.locator('tr[data-nickname="Eve:tyler"]').count()).toBe(0);
    expect(await page.locator('section[data-site]').innerText()).toContain('No nicknames learned on this forum yet.');
    expect((await store.games.get(running))!.roster.flatMap((s) => s.nicknames ?? [])).toEqual([]);
    expect(await pollGame(deps, running)).toMatchObject({ status: 'polled', counted: true });
    await page.goto(`${served.origin}/gm/games/${running}`);
    expect(await page.locator('#gm-wagons tr[data-target="Eve"] li', { hasText: 'Frank' }).count()).toBe(0);
    expect(await page.locator('#nicknames').count()).toBe(0);
  });
});
