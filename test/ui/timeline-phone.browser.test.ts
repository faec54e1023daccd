import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hashBody, type Post } from '../../src/model/post.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { recordingPoller, sampleTally, testEnv } from '../web/support.js';
import { describeBrowser, launchBrowser, screenshot, serveApp, tempDir } from './browser-support.js';

/**
 * Issue #14, item 9: on a phone the vote timeline hid its vertical axis (the chart kept a
 * desktop width and scrolled sideways, taking the axis labels off screen). On a narrow
 * screen the whole chart, its axis included, fits the page.
 */
describeBrowser('the vote timeline on a phone (Chromium)', () => {
  let store: Store;
  let app: VotalApp;
  let served: { origin: string; close(): Promise<void> };
  let browser: Browser;
  let slug = '';
  const data = tempDir('votal-timeline-phone-');

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    const game = await store.games.create(
      {
        threadUrl: 'http://127.0.0.1:9/threads/phone.3/',
        engine: 'xenforo2',
        ruleset: 'plurality',
        roster: ['Alice', 'Bob', 'Carol', 'Dave'].map((name) => ({ name })),
      },
      'gm',
    );
    slug = game.slug;
    const posts: Post[] = [
      ['Alice', 'Bob'],
      ['Carol', 'Bob'],
      ['Bob', 'Alice'],
      ['Dave', 'Bob'],
    ].map(([author, target], i) => {
      const body = [{ t: 'bold' as const, children: [{ t: 'text' as const, text: `Vote: ${target}` }] }];
      return {
        id: String(7000 + i),
        number: i + 1,
        page: 1,
        author: author!,
        authorId: null,
        postedAt: new Date(Date.UTC(2026, 10, 30, 12, i)).toISOString(),
        permalink: `http://127.0.0.1:9/threads/phone.3/post-${7000 + i}`,
        edit: null,
        bodyHash: hashBody(body),
        body,
      };
    });
    await store.posts.recordPage(game.id, posts, new Date());
    await store.tallies.save(game.id, sampleTally({ asOfPost: 4, postsRead: 4 }));
    app = createApp({ store, poller: recordingPoller(), env: testEnv({ dataDir: data.path }) });
    served = await serveApp(app.fetch);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await app?.shutdown();
    await store?.close();
    data.remove();
  });

  it('shows the whole chart, vertical axis included, within a 360 px wide screen', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await page.goto(`${served.origin}/g/${slug}`);
    const chart = page.locator('svg.chart');
    await expect.poll(() => chart.count()).toBe(1);
    const box = (await chart.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    // The axis labels (the numbers left of the chart) are on screen and readable.
    const label = page.locator('svg.chart text[text-anchor="end"]').first();
    const at = (await label.boundingBox())!;
    expect(at.x).toBeGreaterThanOrEqual(0);
    expect(at.x + at.width).toBeLessThanOrEqual(360);
    expect(at.height).toBeGreaterThanOrEqual(9);
    // No label is clipped (issue #28): every text of the chart lies wholly inside the chart.
    const texts = await page.locator('svg.chart text').evaluateAll((ts) =>
      ts.map((t) => {
        const r = t.getBoundingClientRect();
        return { text: t.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      }),
    );
    expect(texts.length).toBeGreaterThan(2);
    for (const t of texts) {
      expect(t.left, `${t.text} left`).toBeGreaterThanOrEqual(box.x - 0.5);
      expect(t.right, `${t.text} right`).toBeLessThanOrEqual(box.x + box.width + 0.5);
      expect(t.top, `${t.text} top`).toBeGreaterThanOrEqual(box.y - 0.5);
      expect(t.bottom, `${t.text} bottom`).toBeLessThanOrEqual(box.y + box.height + 0.5);
    }
    await screenshot(page, 'edges-timeline-360');
    await page.close();
  });
});
