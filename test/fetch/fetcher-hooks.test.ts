import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { NetworkError, PrivateHostError, RobotsDisallowedError } from '../../src/fetch/errors.js';
import { rejectionOf, testFetcher, fakeClock } from './support.js';

let f: FakeForum | undefined;
let raw: Server | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
  if (raw) await new Promise((resolve) => raw!.close(resolve));
  raw = undefined;
});

describe('PageFetcher hooks for site profiles, sessions and the browser', () => {
  it("minIntervalFor gives a host its profile's pause; others keep minIntervalMs", async () => {
    f = await startFakeForum({ routes: { '/t/1': { body: 'one' }, '/t/2': { body: 'two' } } });
    const host = new URL(f.origin).host;
    const clock = fakeClock(f);
    const fetcher = testFetcher({
      minIntervalMs: 0,
      respectRobots: false,
      minIntervalFor: (url) => (url.host === host ? 200 : undefined),
      now: clock.now,
      sleep: clock.sleep,
    });
    await fetcher.get(f.url('/t/1'));
    await fetcher.get(f.url('/t/2'));
    expect(fetcher.pauseFor(f.origin)).toBe(200);
    expect(fetcher.pauseFor('http://elsewhere.example.com/')).toBe(0);
    expect(clock.waits).toEqual([200]);
    expect(clock.doneBefore).toEqual([true]);
  });

  it('storeCookies hears Set-Cookie of pages; a failing hook does not fail the page', async () => {
    f = await startFakeForum({
      routes: { '/t/1': { body: 'x', headers: { 'set-cookie': 'xf_session=abc; Path=/' } } },
    });
    const heard: string[][] = [];
    await testFetcher({ respectRobots: false, storeCookies: (_url, values) => heard.push(values) }).get(f.url('/t/1'));
    expect(heard).toEqual([['xf_session=abc; Path=/']]);
    const page = await testFetcher({
      respectRobots: false,
      storeCookies: () => {
        throw new Error('jar full');
      },
    }).get(f.url('/t/1'));
    expect(page.status).toBe(200);
  });

  it('politely runs a visit on the host lane, after robots.txt and the private-host check', async () => {
    f = await startFakeForum({ routes: { '/t/1': { body: 'x' } } });
    f.robots('User-agent: *\nDisallow: /private/');
    const clock = fakeClock(f);
    const fetcher = testFetcher({ minIntervalMs: 150, now: clock.now, sleep: clock.sleep });

    await fetcher.get(f.url('/t/1'));
    const waitsBefore = clock.waits.length;
    const seen = await fetcher.politely(f.url('/t/2'), async (target) => ({
      path: target.pathname,
      waited: clock.waits.slice(waitsBefore),
    }));
    expect(seen.path).toBe('/t/2');
    // The visit waited the host's full pause after the last request ended.
    expect(seen.waited).toEqual([150]);
    expect(clock.doneBefore.at(-1)).toBe(true);

    const visits: string[] = [];
    expect(await rejectionOf(fetcher.politely(f.url('/private/t/3'), async (t) => visits.push(t.href)))).toBeInstanceOf(
      RobotsDisallowedError,
    );
    expect(
      await rejectionOf(
        testFetcher({ allowPrivateHosts: false }).politely(f.url('/t/1'), async (t) => visits.push(t.href)),
      ),
    ).toBeInstanceOf(PrivateHostError);
    expect(visits).toEqual([]);
  });

  it('a connection closed mid-body is a retryable NetworkError, and the retry can succeed', async () => {
    let calls = 0;
    raw = createServer((_req, res) => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': '1000' });
        res.write('<html><body>half a page');
        setTimeout(() => res.destroy(), 20);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>whole</body></html>');
    });
    await new Promise<void>((resolve) => raw!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/t/1`;

    const once = await rejectionOf(testFetcher({ respectRobots: false, retries: 0 }).get(url));
    expect(once).toBeInstanceOf(NetworkError);
    expect(once.message).toContain('connection closed mid-response');
    expect((once as NetworkError).retryable).toBe(true);

    calls = 0;
    const page = await testFetcher({ respectRobots: false, retries: 1 }).get(url);
    expect(page.body).toContain('whole');
    expect(calls).toBe(2);
  });
});
