import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Post } from '../../src/model/post.js';
import { hashBody } from '../../src/model/post.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { recordingPoller, sampleTally, testEnv } from '../web/support.js';
import { describeBrowser, launchBrowser, tempDir, watchPage } from './browser-support.js';

/**
 * The live page in Chromium (issue #14): a dozen tabs of one page from one address all
 * update (one stream per browser, above the server's 8-streams-per-address limit); a tab
 * closing hands the stream on; a server restart is survived; the page refreshes itself
 * without JavaScript; the countdown stops when a majority decides the Day.
 */

let n = 0;
const post = (author: string, text: string): Post => {
  n += 1;
  const body = [{ t: 'bold' as const, children: [{ t: 'text' as const, text }] }];
  return {
    id: String(5000 + n),
    number: n,
    page: 1,
    author,
    authorId: null,
    postedAt: new Date(Date.UTC(2026, 10, 30, 12, n)).toISOString(),
    permalink: `http://127.0.0.1:9/threads/live.9/post-${5000 + n}`,
    edit: null,
    bodyHash: hashBody(body),
    body,
  };
};

describeBrowser('live page (Chromium)', () => {
  let store: Store;
  let app: VotalApp;
  let server: ServerType;
  let port = 0;
  let browser: Browser;
  let players: BrowserContext;
  let gameId = 0;
  let slug = '';
  const data = tempDir('votal-live-browser-');
  const deadline = new Date(Date.now() + 2 * 86_400_000).toISOString();

  const start = async (at: number): Promise<void> => {
    app = createApp({
      store,
      poller: recordingPoller(),
      env: testEnv({ dataDir: data.path }),
      live: { heartbeatMs: 5_000, noscriptRefreshSeconds: 1 },
    });
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: at, hostname: '127.0.0.1' }, () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
  };
  const stop = async (): Promise<void> => {
    await app.shutdown();
    (server as unknown as { closeAllConnections(): void }).closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  /** Posts a vote in the thread and records the count that follows (NOTIFY reaches the live pages). */
  const vote = async (author: string, target: string): Promise<void> => {
    await store.posts.recordPage(gameId, [post(author, `Vote: ${target}`)], new Date());
    await store.tallies.save(gameId, sampleTally({ ruleset: 'mafiascum-majority', asOfPost: n, postsRead: n }));
  };
  const votesOn = (page: Page, target: string) =>
    page
      .locator(`#wagons tr[data-target="${target}"] td.num strong`)
      .textContent({ timeout: 1_000 })
      .catch(() => null);

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    const game = await store.games.create(
      {
        threadUrl: 'http://127.0.0.1:9/threads/live.9/',
        engine: 'xenforo2',
        ruleset: 'mafiascum-majority',
        roster: ['Alice', 'Bob', 'Carol', 'Dave', 'Eve', 'Frank', 'Gina'].map((name) => ({ name })),
        settings: { day: { number: 1, start: '2026-11-01T00:00:00.000Z', deadline } },
      },
      'gm',
    );
    gameId = game.id;
    slug = game.slug;
    await vote('Alice', 'Bob');
    await start(0);
    browser = await launchBrowser();
    players = await browser.newContext();
    players.setDefaultTimeout(15_000);
  });

  afterAll(async () => {
    await browser?.close();
    await stop().catch(() => {});
    await store?.close();
    data.remove();
  });

  it('12 tabs of one live page from one address all update, on one stream; closing the streaming tab hands it on', async () => {
    const tabs: Page[] = [];
    const watches = [];
    for (let i = 0; i < 12; i++) {
      const tab = await players.newPage();
      watches.push(watchPage(tab));
      await tab.goto(`http://127.0.0.1:${port}/g/${slug}`);
      tabs.push(tab);
    }
    for (const tab of tabs) await expect.poll(() => tab.textContent('#live-status')).toBe('Live');
    expect(app.live.streamCount).toBe(1);
    await vote('Carol', 'Bob');
    for (const tab of tabs) await expect.poll(() => votesOn(tab, 'Bob'), { timeout: 15_000 }).toBe('2');

    // The leader (the tab that took the lock first) goes: another tab streams in its place.
    await tabs.shift()!.close();
    await expect.poll(() => app.live.streamCount, { timeout: 15_000 }).toBe(1);
    await vote('Dave', 'Alice');
    for (const tab of tabs) await expect.poll(() => votesOn(tab, 'Alice'), { timeout: 15_000 }).toBe('1');
    for (const w of watches.slice(1)) expect(w.errors).toEqual([]);
    for (const tab of tabs) await tab.close();
  });

  it('reconnects by itself after the server restarts, and catches up', async () => {
    const tab = await players.newPage();
    await tab.goto(`http://127.0.0.1:${port}/g/${slug}`);
    await expect.poll(() => tab.textContent('#live-status')).toBe('Live');
    await stop();
    await expect.poll(() => tab.textContent('#live-status')).not.toBe('Live');
    await vote('Eve', 'Alice'); // while the server is down
    await start(port);
    await expect.poll(() => tab.textContent('#live-status'), { timeout: 30_000 }).toBe('Live');
    await expect.poll(() => votesOn(tab, 'Alice'), { timeout: 30_000 }).toBe('2');
    await vote('Frank', 'Alice'); // and live again after it
    await expect.poll(() => votesOn(tab, 'Alice'), { timeout: 15_000 }).toBe('3');
    await tab.close();
  });

  it('without JavaScript, the page reloads itself and shows the new count', async () => {
    const noJs = await browser.newContext({ javaScriptEnabled: false });
    const tab = await noJs.newPage();
    let loads = 0;
    tab.on('load', () => {
      loads += 1;
    });
    await tab.goto(`http://127.0.0.1:${port}/g/${slug}`);
    expect(await votesOn(tab, 'Alice')).toBe('3');
    await vote('Gina', 'Bob');
    await expect.poll(() => loads, { timeout: 20_000 }).toBeGreaterThan(1);
    await expect.poll(() => votesOn(tab, 'Bob'), { timeout: 20_000 }).toBe('3');
    await noJs.close();
  });

  it('the countdown runs while the Day is open and stops at a majority, which it shows instead', async () => {
    const tab = await players.newPage();
    await tab.goto(`http://127.0.0.1:${port}/g/${slug}`);
    await expect.poll(() => tab.textContent('[data-countdown]')).toMatch(/^1d \d\dh \d\dm \d\ds left$/);
    await vote('Carol', 'Alice'); // a change of vote: Bob 2, Alice 4 of 7: majority
    await expect
      .poll(() => tab.locator('[data-day-over]').textContent(), { timeout: 15_000 })
      .toMatch(/^Day over\. Majority reached on Alice/);
    expect(await tab.locator('[data-countdown]').count()).toBe(0);
    await tab.close();
  });
});
