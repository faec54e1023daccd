import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { AuditAction } from '../../src/model/audit.js';
import { PageFetcher } from '../../src/fetch/page-fetcher.js';
import { createPoller, type Poller } from '../../src/jobs/poller.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { FakeThread } from '../publish/fake-thread.js';
import { ADMIN_TOKEN, eventually, testEnv } from '../web/support.js';
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
 * The whole story in Chromium, against the fake forum: a GM signs in, creates a game from
 * the thread URL, sees the count; a vote posted on the forum reaches an open live page
 * without a reload; an ambiguous vote is settled in the review queue; a draft is approved
 * and lands in the thread. Screenshots go to test-output/screenshots/ (docs/screenshots/ with
 * VOTAL_WRITE_SCREENSHOTS=1).
 */
describeBrowser('UI story (Chromium)', () => {
  let forum: FakeForum;
  let thread: FakeThread;
  let store: Store;
  let poller: Poller;
  let app: VotalApp;
  let server: { origin: string; close(): Promise<void> };
  let browser: Browser;
  let gm: BrowserContext;
  let page: Page;
  let watch: PageWatch;
  let gameId = 0;
  let slug = '';
  const data = tempDir('votal-ui-story-');

  beforeAll(async () => {
    forum = await startFakeForum();
    thread = new FakeThread(forum, {
      engine: 'xenforo2',
      title: 'Mafia 42 - Day 1',
      threadId: 4242,
      slug: 'mafia-42',
      postsPerPage: 10,
      users: { Moderator: 1, Alice: 11, Bob: 12, Carol: 13, Dave: 14, Davina: 15, Eve: 16, Frank: 17 },
    });
    thread.add({
      author: 'Moderator',
      body: '[b]Day 1 begins.[/b]\nPlayers:\nAlice\nBob\nCarol\nDave\nDavina\nEve\nFrank\n\nMajority is 4.',
    });
    thread.add({ author: 'Alice', body: 'Bob was quiet.\n[b]Vote: Bob[/b]' });
    thread.add({ author: 'Bob', body: '[b]Vote: Alice[/b]' });
    thread.add({ author: 'Carol', body: 'Hmm.\n[b]Vote: Dav[/b]' });
    thread.add({ author: 'Dave', body: '[b]Vote: Bob[/b]' });
    thread.enableReplyForm({ user: 'Moderator', cookie: 'xf_session=gm-session-1' });

    store = await openStore({ dataDir: 'memory://' });
    const source = new PageFetcher({ allowPrivateHosts: true, minIntervalMs: 0, retries: 0, respectRobots: false });
    poller = createPoller({ store, source, pollingIntervalSeconds: 0.5, minDelayMs: 1000 });
    await poller.start();
    app = createApp({
      store,
      poller,
      env: testEnv({ dataDir: data.path }),
      publish: { timeoutMs: 5_000, backoffMs: 10, recheckMs: [50] },
      live: { heartbeatMs: 5_000 },
    });
    server = await serveApp(app.fetch);
    browser = await launchBrowser();
    gm = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    gm.setDefaultTimeout(10_000);
    page = await gm.newPage();
    watch = watchPage(page);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.shutdown();
    await server?.close();
    await poller?.stop();
    await store?.close();
    await forum?.close();
    data.remove();
  });

  it('signs the GM in and refuses the dashboard without a session', async () => {
    await page.goto(`${server.origin}/gm`);
    expect(new URL(page.url()).pathname).toBe('/gm/login');
    await page.fill('#secret', 'wrong-token-wrong-token');
    await page.click('button[type=submit]');
    await expect.poll(() => page.textContent('#flash-error')).toContain('not the password');
    await page.fill('#secret', ADMIN_TOKEN);
    await page.click('button[type=submit]');
    await page.waitForURL(`${server.origin}/gm`);
    const cookies = await gm.cookies();
    const session = cookies.find((c) => c.name === 'votal_gm');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Strict');
  });

  it('creates a game from the thread URL: engine, title, GM and players read from the thread', async () => {
    await page.click('text=New game');
    await page.fill('#url', thread.url);
    await page.click('text=Read the thread');
    await page.waitForSelector('#step2-h');
    expect(await page.inputValue('#engine')).toBe('xenforo2');
    expect(await page.inputValue('#title')).toBe('Mafia 42 - Day 1');
    expect(await page.inputValue('#gm')).toBe('Moderator');
    expect((await page.inputValue('#players')).split('\n')).toEqual([
      'Alice',
      'Bob',
      'Carol',
      'Dave',
      'Davina',
      'Eve',
      'Frank',
    ]);
    await page.selectOption('#ruleset', 'mafiascum-majority');
    const deadline = new Date(Date.now() + 3 * 86_400_000);
    await page.fill('#deadline', `${deadline.toISOString().slice(0, 10)}T18:00`);
    await page.fill('#timeZone', 'Europe/Berlin');
    await page.click('text=Start watching');
    await page.waitForURL(/\/gm\/games\/\d+$/);
    gameId = Number(/\/gm\/games\/(\d+)/.exec(page.url())![1]);
    const game = (await store.games.get(gameId))!;
    slug = game.slug;
    expect(game.engine).toBe('xenforo2');
    expect(game.roster.map((s) => s.name)).toEqual(['Alice', 'Bob', 'Carol', 'Dave', 'Davina', 'Eve', 'Frank']);
    expect(game.settings.timeZone).toBe('Europe/Berlin');
    expect((game.settings.day as { deadline: string }).deadline).toMatch(/T17:00:00\.000Z$/); // 18:00 in Berlin (CET)
  });

  it('shows the count with evidence links once the thread is read', async () => {
    await eventually(async () => (await store.tallies.latest(gameId)) !== null, 20_000, 'the first count');
    await page.reload();
    const row = page.locator('#gm-wagons tr[data-target="Bob"]');
    await expect.poll(() => row.locator('td.num strong').textContent()).toBe('2');
    const hrefs = await row.locator('.voters a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(hrefs.length).toBe(2);
    for (const href of hrefs) expect(href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/threads\/mafia-42\.4242\//);
    await expect.poll(() => page.textContent('#review')).toContain('Ambiguous vote');
    await screenshot(page, 'dashboard-desktop');
    const phone = await gm.newPage();
    await phone.setViewportSize({ width: 360, height: 780 });
    await phone.goto(page.url());
    await screenshot(phone, 'dashboard-phone');
    const overflow = await phone.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await phone.close();
  });

  it('updates an open live page without a reload when a vote is posted on the forum', async () => {
    const players = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    players.setDefaultTimeout(10_000);
    const live = await players.newPage();
    const liveWatch = watchPage(live);
    await live.goto(`${server.origin}/g/${slug}`);
    await expect.poll(() => live.textContent('#live-status')).toBe('Live');
    await expect
      .poll(() => live.locator('#wagons tr[data-target="Bob"]').locator('td.num strong').textContent())
      .toBe('2');
    expect(await live.textContent('#wagons caption')).toContain('7 alive — majority 4');
    await live.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });

    thread.add({ author: 'Eve', body: 'Bob it is.\n[b]Vote: Bob[/b]' });
    const polled = await fetch(`${server.origin}/api/games/${gameId}/poll`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(polled.status).toBe(200);

    const bob = live.locator('#wagons tr[data-target="Bob"]');
    await expect.poll(() => bob.locator('td.num strong').textContent(), { timeout: 15_000 }).toBe('3');
    expect(await bob.getAttribute('class')).toBe('l1');
    expect(await bob.textContent()).toContain('L-1');
    expect(await live.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(await live.textContent('.changes')).toContain('Eve voted Bob');
    expect(await live.locator('svg.chart polyline').count()).toBeGreaterThan(0);
    await expect.poll(() => live.textContent('[data-countdown]')).toMatch(/\d+d \d\dh \d\dm \d\ds left/);
    await screenshot(live, 'live-desktop');

    await live.setViewportSize({ width: 360, height: 780 });
    await live.emulateMedia({ colorScheme: 'dark' });
    await screenshot(live, 'live-phone-dark');
    const overflow = await live.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await live.emulateMedia({ colorScheme: 'light' });
    await screenshot(live, 'live-phone');
    expect(liveWatch.errors).toEqual([]);
    expect(liveWatch.dialogs).toEqual([]);
    expect(liveWatch.console.filter((m) => /Content Security Policy|TrustedHTML|Trusted Type/i.test(m))).toEqual([]);
    await players.close();
  });

  it('settles the ambiguous vote in the review queue with one click, and the count follows', async () => {
    await page.goto(`${server.origin}/gm/games/${gameId}`);
    const item = page.locator('#review .queue > li', { hasText: 'Ambiguous vote' });
    expect(await item.textContent()).toContain('Vote: Dav');
    await item.locator('button', { hasText: 'Vote for Davina' }).click();
    await page.waitForURL(/\/gm\/games\/\d+#review$/);
    expect(await page.textContent('#flash')).toContain('counted as a vote for Davina');
    const davina = page.locator('#gm-wagons tr[data-target="Davina"]');
    await expect.poll(() => davina.locator('td.num strong').textContent()).toBe('1');
    expect(await page.locator('#review > .queue > li', { hasText: 'Vote: Dav' }).count()).toBe(0);
    const settled = await page.textContent('#review details');
    expect(settled).toContain('Vote: Dav');
    expect(settled).toContain('Counted as a vote for Davina');
    const events = await store.events.list(gameId);
    expect(events.map((e) => e.event)).toContainEqual({ kind: 'correct', post: 4, target: 'Davina' });
  });

  it('drafts a votal, shows it in the forum look, approves it and it lands in the thread', async () => {
    await page.goto(`${server.origin}/gm/games/${gameId}/settings`);
    await page.selectOption('#publishMethod', 'form');
    await page.fill(
      '#cookies',
      `# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\txf_session\tgm-session-1\n`,
    );
    await page.click('text=Save settings');
    await expect.poll(() => page.textContent('#flash')).toContain('Settings saved');
    expect(await page.textContent('form.panel')).toContain('reply form with a stored session');

    await page.goto(`${server.origin}/gm/games/${gameId}`);
    await page.click('text=Draft a votal from the current count');
    await page.waitForURL(/\/gm\/drafts\/\d+$/);
    expect(await page.textContent('.forum-post strong')).toContain('vote count');
    expect(await page.inputValue('#body')).toContain('[b]');
    // The deadline in the game's zone as the dashboard names it (issue #28): CET, not GMT+1.
    expect(await page.inputValue('#body')).toMatch(/\bCES?T\b/);
    expect(await page.inputValue('#body')).not.toMatch(/GMT\+[12]/);
    await screenshot(page, 'draft-desktop');
    await page.click('text=Approve and publish');
    await page.waitForURL(/\/gm\/drafts\/\d+$/);
    await expect.poll(() => page.textContent('#flash')).toContain('Approved and posted in the thread');
    expect(thread.replies).toHaveLength(1);
    expect(thread.replies[0]!.message).toContain('Bob');
    expect(thread.replies[0]!.message).toMatch(/votal:\d+\.[0-9a-f]{8}/);
    expect(thread.posts.at(-1)!.author).toBe('Moderator');

    await page.goto(`${server.origin}/gm/games/${gameId}`);
    expect(await page.textContent('#drafts-h + *, section[aria-labelledby=drafts-h]')).toContain('on the forum');
    expect(watch.errors).toEqual([]);
    expect(watch.dialogs).toEqual([]);
    expect(watch.console.filter((m) => /Content Security Policy|TrustedHTML|Trusted Type/i.test(m))).toEqual([]);
  });
  it("the GM's Day on a 360 px phone: the issue #28 fixes hold on every page of it", async () => {
    const phone = await gm.newPage();
    const phoneWatch = watchPage(phone);
    await phone.setViewportSize({ width: 360, height: 780 });
    const fits = async (name: string): Promise<void> => {
      const overflow = await phone.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${name} is wider than the phone`).toBeLessThanOrEqual(0);
      await screenshot(phone, `day-phone-${name}`);
    };
    await phone.goto(`${server.origin}/gm`);
    await fits('games');
    await phone.goto(`${server.origin}/gm/games/${gameId}`);
    // The heading is the game's title, never its slug; activity is in words, not audit codes.
    expect(await phone.locator('h1').innerText()).toBe('Mafia 42 - Day 1');
    const activity = await phone.locator('section[aria-labelledby="audit-h"]').innerText();
    for (const code of AuditAction.options) expect(activity, code).not.toContain(code);
    // The read is over: no progress is left showing.
    expect(await phone.locator('[data-read-progress]').isHidden()).toBe(true);
    await fits('game');
    const draft = (await store.drafts.list(gameId))[0]!;
    await phone.goto(`${server.origin}/gm/drafts/${draft.id}`);
    await fits('draft');
    await phone.goto(`${server.origin}/g/${slug}`);
    expect(await phone.locator('#read-progress').isHidden()).toBe(true);
    await fits('live');
    expect(phoneWatch.errors).toEqual([]);
    await phone.close();
  });
});
