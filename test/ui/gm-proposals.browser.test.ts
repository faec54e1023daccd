import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pollGame, type PollDeps } from '../../src/game/poll-game.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import {
  countPost,
  newGame,
  PLAYERS,
  serve,
  standardScript,
  testClock,
  testSource,
  withPosts,
} from '../game/support.js';
import type { ScriptNode } from '../support/game-script.js';
import { ADMIN_TOKEN, recordingPoller, testEnv } from '../web/support.js';
import { describeBrowser, launchBrowser, screenshot, serveApp, tempDir, signedInPage } from './browser-support.js';

/**
 * Issue #24: what the GM's own counts propose, one click away on the GM's game page. The
 * standard game with an eighth player, Gina, who never posts; the Moderator's counts at #23
 * and #24 say "With 8 alive, it takes 4 to lynch" (half the living, not the ruleset's
 * majority), and #25 says "With 7 alive" and leaves Gina off. The GM sets the threshold with
 * one click (the count is refolded: 4 to lynch) and dismisses the death. The GM's one
 * queue (the review queue panel) lists both with the same answers.
 */
const count = (notVoting: string, stated: string): ScriptNode[] => [
  ...countPost(
    ['Bob', ' (2): Carol, Bob'],
    ['Carol', ' (1): Eve'],
    ['Frank', ' (1): Alice'],
    ['Davina', ' (1): Frank'],
    ['Eve', ' (1): Davina'],
    ['Not Voting', `: ${notVoting}`],
  ),
  { op: 'br' },
  { op: 'br' },
  { op: 'text', text: stated },
];

describeBrowser("the GM's counts' proposals answered on the game page (Chromium)", () => {
  let forum: FakeForum;
  let store: Store;
  let app: VotalApp;
  let served: { origin: string; close(): Promise<void> };
  let browser: Browser;
  let page: Page;
  let deps: PollDeps;
  let gameId = 0;
  const data = tempDir('votal-ui-proposals-');

  beforeAll(async () => {
    forum = await startFakeForum();
    store = await openStore({ dataDir: 'memory://' });
    deps = { store, source: testSource(), now: testClock('2026-03-03T19:00:00Z').now };
    const script = withPosts(standardScript(8_180), [
      { author: 'Moderator', body: count('Dave, Gina', 'With 8 alive, it takes 4 to lynch.') },
      { author: 'Moderator', body: count('Dave, Gina', 'With 8 alive, it takes 4 to lynch.') },
      { author: 'Moderator', body: count('Dave', 'With 7 alive, it takes 4 to lynch.') },
    ]);
    gameId = (await newGame(store, serve(forum, script), {}, { roster: [...PLAYERS, 'Gina'] })).id;
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

  it("lists the threshold and the death in the GM's one queue, with the checks panel's answers, counted in its chip", async () => {
    await page.goto(`${served.origin}/gm/games/${gameId}`);
    const queue = page.locator('#review');
    const threshold = queue.locator('li[data-count-offer]', { hasText: 'The threshold your counts state' });
    expect(await threshold.getByRole('button', { name: "Set the game's threshold so" }).count()).toBe(1);
    const death = queue.locator('li[data-count-offer]', { hasText: 'leaves off Gina' });
    expect(await death.getByRole('button', { name: "Record Gina's death (after #24)" }).count()).toBe(1);
    expect(await death.getByRole('button', { name: 'Dismiss' }).count()).toBe(1);
    const items =
      (await page.locator('#review > .queue > li').count()) + (await queue.locator('#news .queue > li').count());
    expect(await queue.locator('#review-h .chip').innerText()).toBe(`${items} open`);
    await screenshot(page, 'queue-count-offers');
  });

  it("sets the game's threshold as the counts state it with one click; refolded, it is not proposed again", async () => {
    await page.goto(`${served.origin}/gm/games/${gameId}`);
    const offer = page.locator('#threshold-proposal');
    expect(await offer.innerText()).toContain('Your counts state a threshold of half of the living, rounded up');
    await screenshot(page, 'threshold-proposal');
    await offer.getByRole('button', { name: "Set the game's threshold so" }).click();
    await page.waitForURL(/#checks$/);
    expect(await page.locator('.notice:not([hidden])').first().innerText()).toContain(
      "The game's threshold is set as your counts state it",
    );
    expect((await store.games.get(gameId))!.rulesetOverrides).toEqual({
      threshold: { kind: 'fraction', numerator: 1, denominator: 2 },
    });
    // The refold is a poll (the test's poller only notes the ask).
    expect(await pollGame(deps, gameId, { full: true })).toMatchObject({ status: 'polled', counted: true });
    await page.goto(`${served.origin}/gm/games/${gameId}`);
    expect(await page.locator('#threshold-proposal').count()).toBe(0);
    expect(await page.locator('#review li[data-count-offer]', { hasText: 'threshold' }).count()).toBe(0);
    expect((await store.tallies.latest(gameId))!.tally.threshold.votes).toBe(4);
  });

  it('dismisses the death a count implies: audited, not offered again, nothing recorded', async () => {
    await page.goto(`${served.origin}/gm/games/${gameId}`);
    const death = page.locator('#death-proposals li', { hasText: 'leaves off Gina' });
    expect(await death.getByRole('button', { name: "Record Gina's death (after #24)" }).count()).toBe(1);
    await death.getByRole('button', { name: 'Dismiss' }).click();
    await page.waitForURL(/#checks$/);
    expect(await page.locator('#death-proposals').count()).toBe(0);
    expect(await store.audit.list({ gameId, action: 'check.death-dismiss', limit: 5 })).toHaveLength(1);
    expect((await store.events.list(gameId)).filter((e) => e.event.kind === 'kill')).toEqual([]);
  });
});
