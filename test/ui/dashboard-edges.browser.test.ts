import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeForum } from '../../src/fake-forum/server.js';
import { AuditAction } from '../../src/model/audit.js';
import { hashBody, type Post } from '../../src/model/post.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { listRulesets } from '../../src/rules/load-ruleset.js';
import { FakeThread } from '../publish/fake-thread.js';
import { ADMIN_TOKEN, recordingPoller, sampleTally, testEnv } from '../web/support.js';
import { describeBrowser, launchBrowser, screenshot, serveApp, tempDir, signedInPage } from './browser-support.js';

/**
 * Issue #28, dashboard rough edges, as a new GM meets them in Chromium on desktop and on a
 * 360 px phone (screenshots in test-output/screenshots): activity in words, a new game's
 * heading, a failed poll as a banner.
 */
describeBrowser("the GM's game page, rough edges (Chromium)", () => {
  let store: Store;
  let app: VotalApp;
  let served: { origin: string; close(): Promise<void> };
  let browser: Browser;
  let page: Page;
  let gameId = 0;
  let slug = '';
  const data = tempDir('votal-ui-edges-');

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    const game = await store.games.create(
      {
        threadUrl: 'http://127.0.0.1:9/threads/new-game.42/',
        engine: 'xenforo2',
        ruleset: 'plurality',
        roster: ['Alice', 'Bob'].map((name) => ({ name })),
      },
      'gm',
    );
    gameId = game.id;
    slug = game.slug;
    app = createApp({ store, poller: recordingPoller(), env: testEnv({ dataDir: data.path }) });
    served = await serveApp(app.fetch);
    browser = await launchBrowser();
    page = await signedInPage(browser, served.origin, ADMIN_TOKEN);
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await app?.shutdown();
    await store?.close();
    data.remove();
  });

  it('before the first read the heading is "New game", not the slug', async () => {
    await page.goto(`${served.origin}/gm/games/${gameId}`);
    expect(await page.locator('h1').innerText()).toBe('New game');
    expect(await page.title()).not.toContain(slug);
    await screenshot(page, 'edges-new-game-desktop');
  });

  it('recent activity reads as words for what the poller does, not audit codes', async () => {
    // What a real Day leaves: the poller reads pages and drafts votals with its reasons.
    await store.audit.record({
      gameId,
      actor: 'poller',
      action: 'poll.read',
      detail: { full: false, pages: [1], added: 3, edited: 1, deleted: 0, restored: 0 },
    });
    await store.audit.record({
      gameId,
      actor: 'poller',
      action: 'draft.reasons',
      detail: { draftId: 1, tallyId: 1, reasons: [{ kind: 'votes', text: '5 new votes since the last votal' }] },
    });
    await page.goto(`${served.origin}/gm/games/${gameId}`);
    const activity = await page.locator('section[aria-labelledby="audit-h"]').innerText();
    expect(activity).toContain('Thread read: 3 new posts, 1 edited');
    expect(activity).toContain('Votal drafted: 5 new votes since the last votal');
    for (const code of AuditAction.options) expect(activity, code).not.toContain(code);
  });

  it('a failed poll is a banner on the GM page, as on the live page', async () => {
    const error = 'Network error: connection refused (http://127.0.0.1:9/threads/new-game.42/)';
    await store.polls.finish(gameId, 'test/1', { ok: false, error, at: new Date() });
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${served.origin}/gm/games/${gameId}`);
      const banner = page.locator('[role="alert"][data-stale="poll-failed"]');
      expect(await banner.count()).toBe(1);
      expect(await banner.innerText()).toContain('The last poll failed, so the count may be behind the thread');
      expect(await banner.innerText()).toContain(error);
      await screenshot(page, `edges-poll-failed-${width}`);
    }
    const live = await (await fetch(`${served.origin}/g/${slug}`)).text();
    expect(live).toMatch(/class="notice stale" role="alert"/);
  });

  it('"I have posted it" takes only the address of a post in the game\'s own thread, not a player\'s', async () => {
    const thread = 'http://127.0.0.1:9/threads/new-game.42';
    const body = [{ t: 'text' as const, text: 'Vote: Alice' }];
    const bobs: Post = {
      id: '5001',
      number: 2,
      page: 1,
      author: 'Bob',
      authorId: null,
      postedAt: new Date().toISOString(),
      permalink: `${thread}/post-5001`,
      edit: null,
      bodyHash: hashBody(body),
      body,
    };
    await store.posts.recordPage(gameId, [bobs], new Date());
    const saved = await store.tallies.save(gameId, sampleTally());
    const draft = await store.drafts.create(
      { gameId, tallyId: saved.id, dialect: 'bbcode-xenforo', body: '[b]Vote count[/b]' },
      'poller',
    );
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${served.origin}/gm/drafts/${draft.id}`);
    await page.click('text=Approve (then copy it into the thread)');
    await page.waitForURL(/\/gm\/drafts\/\d+$/);
    const tell = async (url: string): Promise<string> => {
      await page.fill('#posted-url', url);
      await Promise.all([page.waitForEvent('load'), page.click('button:has-text("I have posted it")')]);
      return page.locator('body').innerText();
    };
    expect(await tell(`${thread}/post-5001`)).toContain("post #2 is Bob's, not the votal");
    expect(await tell('http://127.0.0.1:9/threads/another-game.43/post-7000')).toContain(
      "that is not a post in this game's thread",
    );
    expect((await store.drafts.get(draft.id))?.status).toBe('approved');
    await screenshot(page, 'edges-posted-url-refused');
    expect(await tell(`${thread}/post-5009`)).toContain('Marked as published.');
    expect((await store.drafts.get(draft.id))?.status).toBe('published');
  });

  it('the games table fits a 360 px phone, "1 to approve" included', async () => {
    const other = await store.games.create(
      {
        threadUrl: 'http://127.0.0.1:9/threads/a-very-long-thread-title-that-goes-on-and-on-for-a-while.77/',
        engine: 'xenforo2',
        ruleset: 'mafiascum-majority',
        roster: [{ name: 'Alice' }],
        settings: { title: 'Mafia LXXVII: The Extraordinarily Long-Named Village of Werewolves' },
      },
      'gm',
    );
    const saved = await store.tallies.save(other.id, sampleTally());
    await store.drafts.create({ gameId: other.id, tallyId: saved.id, dialect: 'bbcode-xenforo', body: 'x' }, 'poller');
    await store.polls.finish(other.id, 'test/2', {
      ok: false,
      error:
        'Network error: connection refused (http://127.0.0.1:9/threads/a-very-long-thread-title-that-goes-on-and-on-for-a-while.77/page-12)',
      at: new Date(),
    });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${served.origin}/gm`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    const chip = page.locator('span.chip', { hasText: '1 to approve' });
    const box = (await chip.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    await screenshot(page, 'edges-games-360');
  });
  it('the new-game form: the ruleset help names nothing outside the project, and a listed player who has not posted is proposed', async () => {
    const forum = await startFakeForum();
    try {
      const users = { Moderator: 1, Alice: 11, Bob: 12, Carol: 13, Dave: 14, Grace: 18 };
      const thread = new FakeThread(forum, { engine: 'xenforo2', users, title: 'Mafia 9 - Day 1' });
      thread.add({
        author: 'Moderator',
        body: 'Day 1 begins.\nPlayers: Alice, Bob, Carol, Dave, Grace - good luck to all of you\n',
      });
      thread.add({ author: 'Alice', body: 'Hello.' });
      thread.add({ author: 'Bob', body: '[b]Vote: Alice[/b]' });
      for (const width of [1280, 360]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(`${served.origin}/gm/new`);
        await page.fill('#url', thread.url);
        await page.click('text=Read the thread');
        await page.waitForSelector('#step2-h');
        // Grace is in the opening post's list and has not posted yet.
        expect((await page.inputValue('#players')).split('\n')).toEqual(['Alice', 'Bob', 'Carol', 'Dave', 'Grace']);
        await page.click('#rulesets-help summary');
        const help = await page.locator('#rulesets-help').innerText();
        for (const name of listRulesets()) expect(help).toContain(`(${name})`);
        // A user who cloned the project has no ../shared: the help names the rules' own words.
        expect(help).not.toMatch(/shared\/|\.\.\/|seeds|\.txt\b/);
        await screenshot(page, `edges-new-game-step2-${width}`);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
      await forum.close();
    }
  });
});
