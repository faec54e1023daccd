import { describe, expect, it } from 'vitest';
import { ALLOW_ALL, parseRobots, RobotsCache } from '../../src/fetch/robots.js';

const UA = 'Votal/0.1 (+https://github.com/votal/votal; forum vote counter)';

describe('robots.txt', () => {
  it('applies the group for our product token, else *', () => {
    const policy = parseRobots(
      'https://f.example/robots.txt',
      'User-agent: votal\nDisallow: /search\n\nUser-agent: *\nDisallow: /',
      UA,
    );
    expect(policy.isAllowed('https://f.example/threads/1')).toBe(true);
    expect(policy.isAllowed('https://f.example/search?q=vote')).toBe(false);
  });

  it('reads Crawl-delay in ms', () => {
    expect(parseRobots('https://f.example/robots.txt', 'User-agent: *\nCrawl-delay: 2.5', UA).crawlDelayMs).toBe(2500);
    expect(parseRobots('https://f.example/robots.txt', 'User-agent: *\nDisallow:', UA).crawlDelayMs).toBeNull();
  });

  it('the cache loads once per origin, shared by concurrent callers', async () => {
    let loads = 0;
    const cache = new RobotsCache(UA, async () => {
      loads += 1;
      return { status: 200, text: 'User-agent: *\nDisallow: /x' };
    });
    const url = new URL('https://f.example/t/1');
    const [a, b] = await Promise.all([cache.policyFor(url), cache.policyFor(url)]);
    await cache.policyFor(new URL('https://f.example/t/2'));
    expect(loads).toBe(1);
    expect(a).toBe(b);
    expect(a.isAllowed('https://f.example/x/1')).toBe(false);
  });

  it('no answer, a 4xx or a 5xx all mean no rules', async () => {
    for (const response of [null, { status: 404, text: '' }, { status: 503, text: 'Disallow: /' }]) {
      const cache = new RobotsCache(UA, async () => response);
      expect(await cache.policyFor(new URL('https://f.example/'))).toBe(ALLOW_ALL);
    }
    const throwing = new RobotsCache(UA, async () => {
      throw new Error('boom');
    });
    expect(await throwing.policyFor(new URL('https://f.example/'))).toBe(ALLOW_ALL);
  });

  it('a failed load is tried again after its shorter lifetime', async () => {
    let loads = 0;
    const cache = new RobotsCache(UA, async () => (loads++ === 0 ? null : { status: 200, text: '' }), {
      okMs: 60_000,
      failedMs: 0,
    });
    await cache.policyFor(new URL('https://f.example/'));
    await new Promise((resolve) => setTimeout(resolve, 2));
    await cache.policyFor(new URL('https://f.example/'));
    expect(loads).toBe(2);
  });
});
