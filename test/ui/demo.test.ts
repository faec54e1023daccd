import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAddresses, startDemoService, type DemoService } from '../../src/web/ui/demo.js';

/** `votal demo`'s service: the stand-in forum, and Votal already watching its sample game. */
describe('demo service', () => {
  let demo: DemoService;

  beforeAll(async () => {
    demo = await startDemoService();
  }, 90_000);

  afterAll(async () => {
    await demo?.close();
  });

  it('serves the sample game counted on the live page, and the dashboard behind sign-in', async () => {
    expect(demo.liveUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/g\/standard-game-4242-[0-9a-f]{8}$/);
    expect(demo.threadUrl).toBe(demo.threads.xenforo2);
    const live = await fetch(demo.liveUrl);
    expect(live.status).toBe(200);
    const html = await live.text();
    expect(html).toContain('Standard Game - Day 1');
    expect(html).toMatch(/<tr[^>]*data-target="Bob"/);
    const dashboard = await fetch(demo.dashboardUrl, { redirect: 'manual' });
    expect(dashboard.status).toBe(303);
    expect(dashboard.headers.get('location')).toBe('/gm/login?next=%2Fgm');
    const tally = await fetch(`${demo.origin}/api/games/${demo.gameId}/tally`, {
      headers: { authorization: `Bearer ${demo.adminToken}` },
    });
    expect(tally.status).toBe(200);
    expect(((await tally.json()) as { flags: { kind: string }[] }).flags.map((f) => f.kind)).toContain(
      'ambiguous-target',
    );
  });

  it('gives every post link on the live page a page to land on', async () => {
    const html = await (await fetch(demo.liveUrl)).text();
    const links = [
      ...new Set([...html.matchAll(/href="(http:\/\/127\.0\.0\.1:\d+\/threads\/[^"#]*)"/g)].map((m) => m[1]!)),
    ];
    expect(links.length).toBeGreaterThan(3);
    for (const link of links) {
      const res = await fetch(link);
      expect(res.status, link).toBe(200);
      expect(await res.text(), link).toContain('Standard Game');
    }
    const first = await fetch(links.find((l) => /post-\d+/.test(l))!, { redirect: 'manual' });
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toMatch(/^\/threads\/standard-game\.4242\/(page-\d+)?#post-\d+$/);
  });

  it('prints the thread URL of every engine the stand-in forum serves', async () => {
    const printed = demoAddresses(demo);
    const engines = Object.keys(demo.threads);
    expect(engines.length).toBeGreaterThanOrEqual(13);
    for (const engine of engines) {
      expect(printed).toMatch(
        new RegExp(`^  ${engine} +${demo.threads[engine]!.replace(/[.?*+^$()[\]\\]/g, '\\$&')}$`, 'm'),
      );
      expect(demo.threads[engine]!.startsWith(demo.forum.origin), engine).toBe(true);
    }
    expect(printed).toContain(demo.liveUrl);
    expect(printed).toContain(demo.adminToken);
  });
});
