import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { FakeThread } from '../publish/fake-thread.js';
import { ADMIN_TOKEN, recordingPoller, testEnv } from '../web/support.js';
import {
  describeBrowser,
  launchBrowser,
  screenshot,
  serveApp,
  tempDir,
  watchPage,
  type PageWatch,
} from './browser-support.js';

/**
 * Issue #14, co-hosts, in Chromium: the admin invites Alice, Bob and Carol; each makes a
 * game from a thread on the stand-in forum; Alice adds Bob as co-host of her game. Bob
 * sees his game and Alice's, Alice only hers, and a co-host cannot see another GM's game
 * (Carol's): not in the list, and 404 when its address is typed.
 */
describeBrowser('co-hosts: each GM sees their own games (Chromium)', () => {
  let forum: FakeForum;
  let store: Store;
  let app: VotalApp;
  let server: { origin: string; close(): Promise<void> };
  let browser: Browser;
  const threads: Record<string, FakeThread> = {};
  const gms: Record<string, { context: BrowserContext; page: Page; watch: PageWatch }> = {};
  const games: Record<string, number> = {};
  const data = tempDir('votal-ui-cohosts-browser-');

  beforeAll(async () => {
    forum = await startFakeForum();
    for (const [i, gm] of ['Alice', 'Bob', 'Carol'].entries()) {
      const thread = new FakeThread(forum, {
        engine: 'xenforo2',
        title: `${gm}'s Mafia`,
        threadId: 700 + i,
        slug: `mafia-${gm.toLowerCase()}`,
        postsPerPage: 10,
      });
      thread.add({ author: gm, body: '[b]Day 1 begins.[/b]\nPlayers:\nAnn\nBen\nCy' });
      thread.add({ author: 'Ann', body: '[b]Vote: Ben[/b]' });
      threads[gm] = thread;
    }
    store = await openStore({ dataDir: 'memory://' });
    app = createApp({
      store,
      poller: recordingPoller(),
      env: testEnv({ dataDir: data.path }),
      rateLimit: false,
      pollWaitMs: 0,
    });
    server = await serveApp(app.fetch);
    browser = await launchBrowser();
    for (const name of ['admin', 'Alice', 'Bob', 'Carol']) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      gms[name] = { context, page, watch: watchPage(page) };
    }
  });

  afterAll(async () => {
    await browser?.close();
    await app?.shutdown();
    await server?.close();
    await store?.close();
    await forum?.close();
    data.remove();
  });

  const pageOf = (name: string): Page => gms[name]!.page;
  /** The games in the GM's dashboard list, by their owner's name. */
  const listed = async (name: string): Promise<string[]> => {
    const page = pageOf(name);
    await page.goto(`${server.origin}/gm`);
    const hrefs = await page
      .locator('table th[scope=row] > a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    const owners = new Map(Object.entries(games).map(([owner, id]) => [`/gm/games/${id}`, `${owner}'s Mafia`]));
    return hrefs.map((h) => owners.get(h ?? '') ?? `unknown ${h}`).sort();
  };

  it('the admin signs in with the token and makes one invite link per GM', async () => {
    const page = pageOf('admin');
    await page.goto(`${server.origin}/gm/login`);
    await page.fill('#secret', ADMIN_TOKEN);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/gm$/);
    await page.click('text=Game masters and invites');
    await page.waitForURL(/\/gm\/gms$/);
    for (const name of ['Alice', 'Bob', 'Carol']) {
      await page.click('text=Create an invite link');
      await page.waitForSelector('#invite-link');
      const link = await page.inputValue('#invite-link');
      expect(link).toMatch(new RegExp(`^${server.origin}/gm/invite/[A-Za-z0-9_-]{40,}$`));
      // The link has a Copy button (issue #28): the link is on the clipboard, the button says so.
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
      await page.click('button[data-copy="invite-link"]');
      await expect.poll(() => page.textContent('button[data-copy="invite-link"]')).toBe('Copied');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
      if (name === 'Alice') await screenshot(page, 'edges-invite-copy');
      // Each GM opens their link in their own browser, picks a name and a password, and is in.
      const gm = pageOf(name);
      await gm.goto(link);
      await gm.fill('#gm-name', name);
      await gm.fill('#password', `${name}-secret-pass`);
      await gm.fill('#confirm', `${name}-secret-pass`);
      await gm.click('button:text-is("Join")');
      await gm.waitForURL(/\/gm$/);
      expect(await gm.textContent('#flash')).toContain(`Welcome, ${name}.`);
      expect(await gm.textContent('#signed-in')).toBe(`Signed in as ${name}`);
    }
    await page.goto(`${server.origin}/gm/gms`);
    expect(await page.locator('#gms-h + table tbody th').allTextContents()).toEqual([
      'admin (instance admin)',
      'Alice',
      'Bob',
      'Carol',
    ]);
    await screenshot(page, 'co-hosts-admin');
  });

  it('each GM makes a game from their thread and becomes its owner', async () => {
    for (const name of ['Alice', 'Bob', 'Carol']) {
      const page = pageOf(name);
      await page.click('text=New game');
      await page.fill('#url', threads[name]!.url);
      await page.click('text=Read the thread');
      await page.waitForSelector('#step2-h');
      await page.selectOption('#ruleset', 'plurality');
      await page.click('text=Start watching');
      await page.waitForURL(/\/gm\/games\/\d+$/);
      games[name] = Number(/\/gm\/games\/(\d+)/.exec(page.url())![1]);
      expect((await store.gms.ofGame(games[name]!)).map((m) => [m.gm.name, m.role])).toEqual([[name, 'owner']]);
    }
  });

  it("Alice adds Bob as a co-host on her game's settings page", async () => {
    const page = pageOf('Alice');
    await page.goto(`${server.origin}/gm/games/${games.Alice}/settings`);
    await page.fill('#cohost', 'Bob');
    await page.click('text=Add co-host');
    await expect.poll(() => page.textContent('#flash')).toBe('Bob co-hosts this game.');
    expect(await page.locator('#cohosts li').allTextContents()).toEqual([
      'Alice — owner',
      expect.stringContaining('Bob — co-host'),
    ]);
  });

  it("Bob sees his game and Alice's; Alice sees only hers; the admin sees all three", async () => {
    expect(await listed('Bob')).toEqual(["Alice's Mafia", "Bob's Mafia"]);
    expect(await listed('Alice')).toEqual(["Alice's Mafia"]);
    expect(await listed('admin')).toEqual(["Alice's Mafia", "Bob's Mafia", "Carol's Mafia"]);
    const bob = pageOf('Bob');
    const res = await bob.goto(`${server.origin}/gm/games/${games.Alice}`);
    expect(res?.status()).toBe(200);
    await screenshot(bob, 'co-hosts-bob');
  });

  it("a co-host cannot see another GM's game: not listed, and 404 by its address", async () => {
    const bob = pageOf('Bob');
    expect(await listed('Bob')).not.toContain("Carol's Mafia");
    for (const path of [`/gm/games/${games.Carol}`, `/gm/games/${games.Carol}/settings`]) {
      const res = await bob.goto(`${server.origin}${path}`);
      expect({ path, status: res?.status() }).toEqual({ path, status: 404 });
      expect(await bob.textContent('h1')).toBe('Not found');
      const carols = (await store.games.get(games.Carol!))!;
      expect(await bob.content()).not.toContain(carols.slug);
      expect(await bob.content()).not.toContain(carols.threadUrl);
    }
    // Nor does the owner see a game she does not run.
    const alice = pageOf('Alice');
    expect((await alice.goto(`${server.origin}/gm/games/${games.Bob}`))?.status()).toBe(404);
    for (const { watch } of Object.values(gms)) {
      expect(watch.errors).toEqual([]);
      expect(watch.console.filter((m) => /Content Security Policy|TrustedHTML|Refused/.test(m))).toEqual([]);
    }
  });
});
