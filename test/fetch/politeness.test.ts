import { afterEach, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { RobotsDisallowedError } from '../../src/fetch/errors.js';
import { DEFAULT_USER_AGENT } from '../../src/fetch/fetcher-options.js';
import { fakeClock, rejectionOf, testFetcher } from './support.js';

const forums: FakeForum[] = [];
async function forum(): Promise<FakeForum> {
  const started = await startFakeForum();
  forums.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(forums.splice(0).map((f) => f.close()));
});

const pagePaths = (f: FakeForum) => f.requests.filter((r) => r.path !== '/robots.txt');

describe('PageFetcher politeness', () => {
  it('sends a descriptive User-Agent with a contact URL', async () => {
    const f = await forum();
    f.route('/t/1', { body: 'x' });
    await testFetcher().get(f.url('/t/1'));
    const ua = f.requests.at(-1)?.headers['user-agent'];
    expect(ua).toBe(DEFAULT_USER_AGENT);
    expect(ua).toMatch(/^Votal\/\S+ \(\+https:\/\/\S+/);
  });

  it('one request at a time per host with the configured pause', async () => {
    const f = await forum();
    for (const n of [1, 2, 3]) f.route(`/t/${n}`, { body: `page ${n}` }, { delayMs: 30 });
    const clock = fakeClock(f);
    const fetcher = testFetcher({ minIntervalMs: 100, respectRobots: false, now: clock.now, sleep: clock.sleep });

    await Promise.all([1, 2, 3].map((n) => fetcher.get(f.url(`/t/${n}`))));

    expect(f.maxConcurrentPerHost).toBe(1);
    // The full pause before the second and the third, each from the end of the request before it.
    expect(clock.waits).toEqual([100, 100]);
    expect(clock.doneBefore).toEqual([true, true]);
  });

  it('two hosts are fetched in parallel', async () => {
    const [one, two] = [await forum(), await forum()];
    one.route('/t/1', { body: 'one' }, { delayMs: 300 });
    two.route('/t/1', { body: 'two' }, { delayMs: 300 });
    const fetcher = testFetcher({ minIntervalMs: 100, respectRobots: false });

    await Promise.all([fetcher.get(one.url('/t/1')), fetcher.get(two.url('/t/1'))]);

    // Each forum was still answering when the other's request arrived.
    const [a, b] = [one.requests[0], two.requests[0]];
    expect(a && b && a.at < (b.doneAt ?? 0) && b.at < (a.doneAt ?? 0)).toBe(true);
  });

  it('robots.txt disallow is refused with RobotsDisallowedError naming the URL', async () => {
    const f = await forum();
    f.robots('User-agent: *\nDisallow: /private/');
    f.route('/private/t/1', { body: 'secret' });
    const url = f.url('/private/t/1');

    const error = await rejectionOf(testFetcher().get(url));

    expect(error).toBeInstanceOf(RobotsDisallowedError);
    expect(error.message).toContain(url);
    expect(pagePaths(f)).toHaveLength(0);
  });

  it('robots.txt rules for our product token apply to us', async () => {
    const f = await forum();
    f.robots('User-agent: Votal\nDisallow: /\n\nUser-agent: *\nAllow: /');
    f.route('/t/1', { body: 'x' });
    expect(await rejectionOf(testFetcher().get(f.url('/t/1')))).toBeInstanceOf(RobotsDisallowedError);
  });

  it('robots.txt is fetched once per origin', async () => {
    const f = await forum();
    f.robots('User-agent: *\nAllow: /');
    for (const n of [1, 2, 3]) f.route(`/t/${n}`, { body: `page ${n}` });
    const fetcher = testFetcher();

    await Promise.all([1, 2, 3].map((n) => fetcher.get(f.url(`/t/${n}`))));

    expect(f.requests.filter((r) => r.path === '/robots.txt')).toHaveLength(1);
    expect(f.requests[0]?.path).toBe('/robots.txt');
  });

  it('Crawl-delay raises the pause', async () => {
    const f = await forum();
    f.robots('User-agent: *\nCrawl-delay: 0.3');
    f.route('/t/1', { body: 'one' });
    f.route('/t/2', { body: 'two' });
    const clock = fakeClock(f);
    const fetcher = testFetcher({ minIntervalMs: 20, now: clock.now, sleep: clock.sleep });

    await fetcher.get(f.url('/t/1'));
    await fetcher.get(f.url('/t/2'));

    expect(fetcher.pauseFor(f.origin)).toBe(300);
    // robots.txt, then each page after the raised pause.
    expect(f.requests.map((r) => r.path)).toEqual(['/robots.txt', '/t/1', '/t/2']);
    expect(clock.waits).toEqual([300, 300]);
  });

  it('a missing robots.txt (404) allows everything', async () => {
    const f = await forum();
    f.route('/t/1', { body: 'x' });
    const page = await testFetcher().get(f.url('/t/1'));
    expect(page.status).toBe(200);
    expect(f.requests.map((r) => [r.path, r.status])).toEqual([
      ['/robots.txt', 404],
      ['/t/1', 200],
    ]);
  });

  it('a failing robots.txt (5xx) allows everything, without retrying it', async () => {
    const f = await forum();
    f.route('/robots.txt', { status: 500, body: 'oops' });
    f.route('/t/1', { body: 'x' });
    const page = await testFetcher().get(f.url('/t/1'));
    expect(page.status).toBe(200);
    expect(f.requests.filter((r) => r.path === '/robots.txt')).toHaveLength(1);
  });

  it('respectRobots: false skips robots.txt', async () => {
    const f = await forum();
    f.robots('User-agent: *\nDisallow: /');
    f.route('/t/1', { body: 'x' });
    await testFetcher({ respectRobots: false }).get(f.url('/t/1'));
    expect(f.requests.map((r) => r.path)).toEqual(['/t/1']);
  });
});
