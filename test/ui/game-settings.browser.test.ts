import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { PageFetcher } from '../../src/fetch/page-fetcher.js';
import { pollGame } from '../../src/game/poll-game.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { FakeThread } from '../publish/fake-thread.js';
import { ADMIN_TOKEN, recordingPoller, testEnv } from '../web/support.js';
import { describeBrowser, launchBrowser, serveApp, tempDir, watchPage, type PageWatch } from './browser-support.js';

/**
 * Issue #14 items 4 and 5 in Chromium: the GM kills a player and sees the death, fixes the
 * player list (a non-player out, a nickname in) and the ruleset, and deletes the game after
 * typing its short name. No script error, no CSP refusal on the way.
 */
describeBrowser('running a game from the dashboard (Chromium)', () => {
  let forum: FakeForum;
  let store: Store;
  let app: VotalApp;
  let server: { origin: string; close(): Promise<void> };
  let browser: Browser;
  let page: Page;
  let watch: PageWatch;
  let gameId = 0;
  const data = tempDir('votal-ui-settings-browser-');

  beforeAll(async () => {
    forum = await startFakeForum();
    const thread = new FakeThread(forum, { engine: 'xenforo2', postsPerPage: 10 });
    thread.add({ author: 'Moderator', body: '[b]Day 1 begins.[/b]' });
    thread.add({ author: 'Alice', body: '[b]Vote: Bob[/b]' });
    thread.add({ author: 'Dave', body: '[b]Vote: Dee[/b]' });
    thread.add({ author: 'Lurker', body: '[b]vote: Alice[/b]' });
    store = await openStore({ dataDir: 'memory://' });
    const poller = recordingPoller((id) =>
      pollGame(
        {
          store,
          source: new PageFetcher({ allowPrivateHosts: true, minIntervalMs: 0, respectRobots: false, retries: 0 }),
          now: () => new Date().toISOString(),
        },
        id,
      ).then(() => undefined),
    );
    app = createApp({ store, poller, env: testEnv({ dataDir: data.path }), rateLimit: false });
    const game = await store.games.create(
      {
        threadUrl: thread.url,
        engine: 'xenforo2',
        ruleset: 'plurality',
        roster: ['Alice', 'Bob', 'Dave', 'Lurker'].map((name) => ({ name })),
        settings: { title: 'Mafia 7' },
      },
      'gm',
    );
    gameId = game.id;
    await poller.pollNow(String(game.id));
    server = await serveApp(app.fetch);
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    watch = watchPage(page);
    await page.goto(`${server.origin}/gm/login`);
    await page.fill('#secret', ADMIN_TOKEN);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/gm$/);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.shutdown();
    await server?.close();
    await store?.close();
    await forum?.close();
    data.remove();
  });

  it('a kill shows the player among the dead', async () => {
    await page.goto(`${server.origin}/gm/games/${gameId}`);
    await page.click('text=Kill, revive, modkill');
    await page.selectOption('#life-kind', 'kill');
    await page.selectOption('#life-player', 'Dave');
    await page.fill('#life-at', '2');
    await page.click('details[open] button[type=submit]');
    await page.waitForURL(new RegExp(`/gm/games/${gameId}$`));
    expect(await page.textContent('#dead-h')).toBe('Dead (1)');
    expect(await page.textContent('ul[aria-labelledby="dead-h"]')).toBe('Dave');
    expect(await page.textContent('ul[aria-labelledby="alive-h"]')).toBe('AliceBobLurker');
  });

  it('players and ruleset are changed on the settings page and the game is counted again', async () => {
    await page.click('text=Edit players');
    await page.waitForURL(new RegExp(`/gm/games/${gameId}/settings`));
    await page.fill('#players', 'Alice\nBob (Bobby)\nDave (Dee)\nErin');
    await page.selectOption('#ruleset', 'mafiascum-majority');
    await page.click('text=Save settings');
    await expect.poll(() => page.textContent('#flash')).toContain('The game was counted again.');
    const tally = (await store.tallies.latest(gameId))!.tally;
    expect(tally.ruleset).toBe('mafiascum-majority');
    expect(tally.dead).toEqual(['Dave']);
    expect(tally.players).toEqual(['Alice', 'Bob', 'Erin']);
    await page.goto(`${server.origin}/gm/games/${gameId}`);
    expect(await page.textContent('#audit-h + ol')).toContain(
      'Ruleset changed from plurality to mafiascum-majority (recounted)',
    );
  });

  it('the game is deleted only after its short name is typed', async () => {
    const { slug } = (await store.games.get(gameId))!;
    await page.goto(`${server.origin}/gm/games/${gameId}/settings`);
    await page.click('text=Delete this game…');
    expect(await page.textContent('h1')).toBe('Delete “Mafia 7”?');
    await page.fill('#confirm', 'mafia 7');
    await page.click('text=Delete this game and all its data');
    await expect
      .poll(() => page.textContent('#flash-error'))
      .toContain(`Nothing was deleted: type ${slug} to confirm.`);
    expect(await store.games.get(gameId)).not.toBeNull();
    await page.fill('#confirm', slug);
    await page.click('text=Delete this game and all its data');
    await page.waitForURL(/\/gm$/);
    expect(await page.textContent('#flash')).toBe('“Mafia 7” and all its data were deleted.');
    expect(await store.games.get(gameId)).toBeNull();
    expect(watch.errors).toEqual([]);
    expect(watch.console.filter((m) => /Content Security Policy|TrustedHTML|Refused/.test(m))).toEqual([]);
  });
});
