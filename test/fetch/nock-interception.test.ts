import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PrivateHostError } from '../../src/fetch/errors.js';
import { PageFetcher } from '../../src/fetch/page-fetcher.js';

// Proves the fetcher goes through global fetch (which nock 14 intercepts), so adapter
// tests may use nock instead of the fake forum. No DNS: the resolver is injected.
const publicDns = async () => ['93.184.216.34'];

beforeAll(() => {
  nock.disableNetConnect();
});
afterEach(() => {
  nock.cleanAll();
});
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});

describe('PageFetcher with nock', () => {
  it('global fetch is intercepted by nock', async () => {
    const scope = nock('https://forum.example')
      .get('/robots.txt')
      .reply(404)
      .get('/threads/mafia-42/page-2')
      .matchHeader('user-agent', /^Votal\//)
      .reply(200, '<p>Vote: Alice</p>', { ETag: '"v2"', 'Content-Type': 'text/html; charset=utf-8' });
    const fetcher = new PageFetcher({ allowPrivateHosts: false, resolveHost: publicDns, minIntervalMs: 0 });

    const page = await fetcher.get('https://forum.example/threads/mafia-42/page-2');

    expect(page).toMatchObject({ status: 200, body: '<p>Vote: Alice</p>', etag: '"v2"' });
    expect(scope.isDone()).toBe(true);
  });

  it('a redirect to a private address is refused before it is followed', async () => {
    nock('https://forum.example').get('/go').reply(302, '', { Location: 'http://10.0.0.1/admin' });
    const fetcher = new PageFetcher({
      allowPrivateHosts: false,
      resolveHost: publicDns,
      minIntervalMs: 0,
      respectRobots: false,
    });

    const error = await fetcher.get('https://forum.example/go').catch((e: unknown) => e as Error);

    expect(error).toBeInstanceOf(PrivateHostError);
    expect((error as Error).message).toContain('http://10.0.0.1/admin');
  });
});
