import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Tally } from '../../src/model/tally.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { ADMIN_TOKEN, recordingPoller, sampleTally, testEnv } from '../web/support.js';
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
 * The GM's draft page in Chromium (issue #14, 2 and 6): approving an unedited draft
 * approves that draft (the text box sends CRLF line ends: that is no edit), and a draft
 * older than the count shows what changed and asks for a confirming click.
 */
describeBrowser('GM draft page (Chromium)', () => {
  let store: Store;
  let app: VotalApp;
  let server: { origin: string; close(): Promise<void> };
  let browser: Browser;
  let page: Page;
  let watch: PageWatch;
  let gameId = 0;
  const data = tempDir('votal-ui-drafts-');

  const count = (asOfPost: number, aliceVoters: string[]): Tally =>
    sampleTally({
      postsRead: asOfPost,
      asOfPost,
      wagons: [
        {
          target: 'Alice',
          votes: aliceVoters.length,
          penalty: 0,
          total: aliceVoters.length,
          toThreshold: null,
          voters: aliceVoters.map((player, i) => ({ player, post: i + 2, weight: 1, permalink: null })),
        },
      ],
    });
  const draftOf = async (tally: Tally): Promise<number> => {
    const saved = await store.tallies.save(gameId, tally);
    const body =
      '[b]Vote count — Day 1[/b]\n[i]As of post 3.[/i]\n\n[b]Alice[/b] (1): Bob\n\nWith 3 alive, the most votes at the deadline decide.';
    return (await store.drafts.create({ gameId, tallyId: saved.id, dialect: 'bbcode-xenforo', body }, 'poller')).id;
  };

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    app = createApp({ store, poller: recordingPoller(), env: testEnv({ dataDir: data.path }) });
    server = await serveApp(app.fetch);
    gameId = (
      await store.games.create(
        {
          threadUrl: 'https://forum.example/threads/mafia-7.7/',
          engine: 'xenforo2',
          ruleset: 'plurality',
          roster: [{ name: 'Alice' }, { name: 'Bob' }, { name: 'Carol' }],
        },
        'test',
      )
    ).id;
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
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
    data.remove();
  });

  it('approving an unedited multi-line draft approves that draft, not a new one (issue #14, 6)', async () => {
    const id = await draftOf(count(3, ['Bob']));
    await page.goto(`${server.origin}/gm/drafts/${id}`);
    await page.click('text=Approve (then copy it into the thread)');
    await page.waitForURL(/\/gm\/drafts\/\d+$/);
    expect(page.url()).toBe(`${server.origin}/gm/drafts/${id}`);
    expect((await store.drafts.get(id))?.status).toBe('approved');
    expect((await store.drafts.list(gameId)).map((d) => d.id)).toEqual([id]);
    // The GM copies the votal as drafted: no marker (a player quoting the post would see one).
    const body = (await store.drafts.get(id))!.body;
    expect(await page.inputValue('#copy-text')).toBe(body.replace(/\s+$/, ''));
    expect(await page.inputValue('#copy-text')).not.toMatch(/votal:\d+\.[0-9a-f]{8}|\[color=transparent\]/);
  });

  it('a draft older than the count shows what changed and needs "Approve anyway" (issue #14, 2)', async () => {
    const id = await draftOf(count(3, ['Bob']));
    await page.goto(`${server.origin}/gm/drafts/${id}`);
    expect(await page.locator('#stale-warning').count()).toBe(0);
    // The poller counts on while the GM reads the draft.
    await store.tallies.save(gameId, count(9, ['Bob', 'Carol']));
    await page.click('text=Approve (then copy it into the thread)');
    await page.waitForURL(`${server.origin}/gm/drafts/${id}`);
    expect(await page.textContent('#flash-error')).toContain(`draft ${id} was made from an older count (as of post 3)`);
    expect((await store.drafts.get(id))?.status).toBe('pending');
    const warning = await page.textContent('#stale-warning');
    expect(warning).toContain('Posts read: 3 → 9 (now as of post 9).');
    expect(warning).toContain('Alice: 1 vote → 2 votes.');

    expect(await page.getByRole('button', { name: 'Draft again from the current count' }).count()).toBe(1);
    await page.click('text=Approve anyway');
    await page.waitForURL(`${server.origin}/gm/drafts/${id}`);
    expect((await store.drafts.get(id))?.status).toBe('approved');
    expect(await page.locator('#stale-warning').count()).toBe(0);
    expect(watch.errors).toEqual([]);
  });

  it('a recount of the same posts lists only what changed, no "Posts read: 3 → 3" (issue #28)', async () => {
    const id = await draftOf(count(3, ['Bob']));
    // A GM event or a ruleset change counts the same posts again, with another result.
    await store.tallies.save(gameId, count(3, ['Bob', 'Carol']));
    await page.goto(`${server.origin}/gm/drafts/${id}`);
    const warning = (await page.textContent('#stale-warning')) ?? '';
    expect(warning).toContain('Alice: 1 vote → 2 votes.');
    expect(warning).not.toContain('Posts read');
    expect(warning).not.toMatch(/(\d+) → \1\b/);
    await screenshot(page, 'draft-stale-only-changes-desktop');
  });

  it("a draft names the game's time zone as the dashboard does: CET, not GMT+1 (issue #28)", async () => {
    const berlin = await store.games.create(
      {
        threadUrl: 'https://forum.example/threads/mafia-8.8/',
        engine: 'xenforo2',
        ruleset: 'plurality',
        roster: [{ name: 'Alice' }, { name: 'Bob' }, { name: 'Carol' }],
        settings: {
          timeZone: 'Europe/Berlin',
          day: { number: 1, start: '2026-03-02T18:00:00.000Z', deadline: '2026-03-06T17:00:00.000Z' },
        },
      },
      'test',
    );
    await store.tallies.save(berlin.id, count(3, ['Bob']));
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${server.origin}/gm/games/${berlin.id}`);
      await page.getByRole('button', { name: 'Draft a votal from the current count' }).click();
      await page.waitForURL(/\/gm\/drafts\/\d+$/);
      // The pending draft's markup, and its preview as the forum will show it.
      const text = await page.inputValue('#body');
      expect(text).toContain('18:00 CET');
      expect(await page.locator('section[aria-labelledby="preview-h"]').innerText()).toContain('18:00 CET');
      expect(text).not.toContain('GMT+1');
      await screenshot(page, `draft-time-zone-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('or the GM drafts again from the current count, which replaces the old draft', async () => {
    const id = await draftOf(count(3, ['Bob']));
    await store.tallies.save(gameId, count(12, ['Bob', 'Carol']));
    await page.goto(`${server.origin}/gm/drafts/${id}`);
    await page.getByRole('button', { name: 'Draft again from the current count' }).click();
    await page.waitForURL((url) => url.pathname !== `/gm/drafts/${id}`);
    await page.waitForURL(/\/gm\/drafts\/\d+$/);
    const fresh = Number(/\/gm\/drafts\/(\d+)$/.exec(page.url())![1]);
    expect(fresh).not.toBe(id);
    expect(await store.drafts.get(id)).toMatchObject({ status: 'superseded', supersededBy: fresh });
    expect(await page.locator('#stale-warning').count()).toBe(0);
    await page.goto(`${server.origin}/gm/drafts/${id}`);
    expect(await page.textContent('main, body')).toContain(`Replaced by draft #${fresh}`);
  });
});
