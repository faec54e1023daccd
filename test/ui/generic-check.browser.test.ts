import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ownLayoutPage, ownLayoutPath, type OwnLayoutThread } from '../../src/fake-forum/own-layout.js';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { genericGate } from '../../src/game/generic-check.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { testSource } from '../game/support.js';
import { ADMIN_TOKEN, recordingPoller, sampleTally, testEnv } from '../web/support.js';
import { describeBrowser, launchBrowser, serveApp, tempDir, watchPage, type PageWatch } from './browser-support.js';

/**
 * The GM's check of a generic reading on the game page, in Chromium (issue #26): page 1 as
 * the generic reader read it (from the stand-in forum's own layout, over HTTP), three posts
 * to compare, the game held until the GM confirms; the confirming click keeps the layout,
 * is audited with the GM's name and asks for a poll; the draft page then says the count is
 * read generically, outside the votal's text.
 */
describeBrowser('the generic reading checked on the game page (Chromium)', () => {
  let store: Store;
  let forum: FakeForum;
  let app: VotalApp;
  let server: { origin: string; close(): Promise<void> };
  let browser: Browser;
  let page: Page;
  let watch: PageWatch;
  const poller = recordingPoller();
  const data = tempDir('votal-ui-generic-');
  const names = ['Ann', 'Bob', 'Cy', 'Dee'];
  const thread: OwnLayoutThread = {
    title: 'Lantern Hall Mafia II',
    perPage: 20,
    path: '/t/21-lantern',
    layout: 'lantern',
    posts: Array.from({ length: 9 }, (_, i) => ({
      author: i === 0 ? 'Host' : names[i % names.length]!,
      at: new Date(Date.UTC(2026, 2, 3, 12, i * 5)).toISOString(),
      text: i === 0 ? 'Day 1 begins. <Be nice>' : `Post ${i + 1}.\n[b]Vote: ${names[(i + 1) % 4]}[/b]`,
    })),
  };

  beforeAll(async () => {
    forum = await startFakeForum();
    forum.route(ownLayoutPath(thread, 1), { body: ownLayoutPage(thread, 1) });
    store = await openStore({ dataDir: 'memory://' });
    app = createApp({ store, poller, env: testEnv({ dataDir: data.path }), pollWaitMs: 0 });
    server = await serveApp(app.fetch);
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
    await forum?.close();
    data.remove();
  });

  it('shows three posts of page 1, holds the game, and the GM confirms once', async () => {
    const game = await store.games.create(
      {
        threadUrl: forum.url(thread.path),
        engine: 'generic',
        ruleset: 'plurality',
        roster: names.map((name) => ({ name })),
      },
      'test',
    );
    // The poll's gate reads page 1 for the check and holds the game.
    const gate = await genericGate({ store, source: testSource(), now: () => '2026-03-03T13:00:00.000Z' }, game);
    expect(gate.hold).toMatch(/waiting for the GM's check of page 1/);

    await page.goto(`${server.origin}/gm/games/${game.id}`);
    const panel = page.locator('#generic-check');
    await expect.poll(() => panel.locator('h2').textContent()).toBe('Check page 1 before this game is polled');
    expect(await panel.locator('[data-generic-hold]').textContent()).toMatch(/It is not polled until you check/);
    expect(await panel.locator('[data-generic-message]').textContent()).toMatch(
      /^Votal found 9 posts by 5 authors on page 1 — check three of them against the thread\./,
    );
    const rows = await panel
      .locator('[data-sample]')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim())));
    expect(rows.map((r) => [r[0], r[1], r[3]])).toEqual([
      ['#1', 'Host', 'Day 1 begins. <Be nice>'],
      ['#5', 'Ann', 'Post 5. Vote: Bob'],
      ['#9', 'Ann', 'Post 9. Vote: Bob'],
    ]);
    const times = await panel
      .locator('[data-sample] time')
      .evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime')));
    expect(times).toEqual(['2026-03-03T12:00:00.000Z', '2026-03-03T12:20:00.000Z', '2026-03-03T12:40:00.000Z']);

    // The form as the GM saw it, for a second click from a stale page below.
    const stale = await panel
      .locator('form')
      .evaluate((f) => Object.fromEntries([...new FormData(f as HTMLFormElement)].map(([k, v]) => [k, String(v)])));
    await panel.locator('button[type=submit]').click();
    await page.waitForURL(`${server.origin}/gm/games/${game.id}`);
    expect(await page.locator('#flash').textContent()).toBe(
      "Confirmed: 127.0.0.1's layout is kept, and the game is polled now.",
    );
    expect(await page.locator('#generic-check').count()).toBe(0);
    expect(await page.locator('[data-generic=confirmed] p').first().textContent()).toMatch(
      /^This count is read by Votal's generic reader \(no adapter knows this forum's layout\) with the layout gm:admin confirmed for 127\.0\.0\.1 on 20\d\d-\d\d-\d\d\.$/,
    );
    const confirm = await store.audit.list({ gameId: game.id, action: 'generic.confirm' });
    expect(confirm.map((a) => a.actor)).toEqual(['gm:admin']);
    expect(poller.calls).toContain(String(game.id));
    expect((await store.siteProfiles.learned('127.0.0.1'))?.profile).toMatchObject({ engine: 'generic' });

    // A second click (a stale page) is refused, saying who confirmed it.
    await page.evaluate(
      ({ action, fields }) => {
        const form = document.createElement('form');
        form.method = 'post';
        form.action = action;
        for (const [name, value] of Object.entries(fields)) {
          const input = document.createElement('input');
          input.type = 'hidden';
          input.name = name;
          input.value = value;
          form.append(input);
        }
        document.body.append(form);
        form.submit();
      },
      { action: `/gm/games/${game.id}/generic`, fields: stale },
    );
    await page.waitForSelector('#flash-error');
    expect(await page.locator('#flash-error').textContent()).toMatch(/was confirmed already, by gm:admin/);

    // The layout changed: the GM has page 1 read again; the kept layout is forgotten, audited.
    const polls = poller.calls.length;
    await page.goto(`${server.origin}/gm/games/${game.id}`);
    await page.locator('[data-generic=confirmed] button[type=submit]').click();
    await page.waitForSelector('#flash');
    expect(await page.locator('#flash').textContent()).toBe(
      'The kept layout is forgotten: page 1 is read again for you to check.',
    );
    expect(await page.locator('[data-generic=unread]').textContent()).toMatch(
      /page 1 is read first for the GM to check/,
    );
    expect(await store.siteProfiles.learned('127.0.0.1')).toBeNull();
    expect((await store.audit.list({ gameId: game.id, action: 'generic.recheck' })).map((a) => a.actor)).toEqual([
      'gm:admin',
    ]);
    expect(poller.calls.length).toBe(polls + 1);

    // The draft page says how the count was read; the votal's text does not.
    const tally = await store.tallies.save(game.id, sampleTally({ engine: 'generic' }));
    const draft = await store.drafts.create(
      { gameId: game.id, tallyId: tally.id, dialect: 'bbcode-phpbb', body: '[b]Vote count[/b]\nBob (2): Ann, Cy' },
      'poller',
    );
    await page.goto(`${server.origin}/gm/drafts/${draft.id}`);
    expect(await page.locator('[data-generic]').textContent()).toMatch(
      /^This count was read by Votal's generic reader .* This note is for you: it is not in the votal\.$/,
    );
    expect(await page.locator('textarea').first().inputValue()).not.toMatch(/generic/);
    expect(watch.errors).toEqual([]);
  });
});
