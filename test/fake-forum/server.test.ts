import { afterEach, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';

let forum: FakeForum;

afterEach(async () => {
  await forum?.close();
});

describe('fake forum', () => {
  it('listens on 127.0.0.1 with a random port', async () => {
    forum = await startFakeForum();
    expect(forum.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(forum.url('/t/1?page=2')).toBe(`${forum.origin}/t/1?page=2`);
  });

  it('serves a routed page with its status, headers and content type', async () => {
    forum = await startFakeForum();
    forum.route('/t/1?page=2', { body: '<p>page two</p>', status: 200, headers: { 'x-forum': 'yes' } });
    const res = await fetch(forum.url('/t/1?page=2'));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-forum')).toBe('yes');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe('<p>page two</p>');
  });

  // A server that closes idle connections resets a request sent just as its timeout expires
  // (ECONNRESET), and a busy machine lands requests there (undici#3141): the client closes them.
  it('sets no idle timeout on keep-alive connections: the client closes them', async () => {
    forum = await startFakeForum();
    forum.route('/t/1', { body: 'one' });
    const res = await fetch(forum.url('/t/1'));
    await res.text();
    expect(res.headers.get('connection')).toBe('keep-alive');
    expect(res.headers.get('keep-alive')).toBeNull(); // Node's default server says "timeout=5"
  });

  it('answers unknown paths with 404', async () => {
    forum = await startFakeForum();
    forum.route('/t/1', { body: 'one' });
    expect((await fetch(forum.url('/t/2'))).status).toBe(404);
    expect((await fetch(forum.url('/t/1?page=9'))).status).toBe(404);
  });

  it('serves a sequence in order and repeats the last step', async () => {
    forum = await startFakeForum();
    forum.route('/t/1', [{ status: 429, headers: { 'retry-after': '1' } }, { body: 'ok' }]);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(forum.url('/t/1'))).status);
    expect(statuses).toEqual([429, 200, 200]);
  });

  it('lets a handler compute the response from the request', async () => {
    forum = await startFakeForum();
    forum.route('/whoami', (req) => ({ body: `ua=${req.headers['user-agent']}` }));
    const res = await fetch(forum.url('/whoami'), { headers: { 'user-agent': 'Tester/1' } });
    expect(await res.text()).toBe('ua=Tester/1');
  });

  it('removes a route', async () => {
    forum = await startFakeForum({ routes: { '/t/1': { body: 'one' } } });
    expect((await fetch(forum.url('/t/1'))).status).toBe(200);
    forum.remove('/t/1');
    expect((await fetch(forum.url('/t/1'))).status).toBe(404);
  });

  it('adds an ETag and answers a matching If-None-Match with 304', async () => {
    forum = await startFakeForum();
    forum.route('/t/1', { body: 'same' });
    const first = await fetch(forum.url('/t/1'));
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    const second = await fetch(forum.url('/t/1'), { headers: { 'if-none-match': etag ?? '' } });
    expect(second.status).toBe(304);
    expect(await second.text()).toBe('');
  });

  it('sends no ETag when the route turns it off', async () => {
    forum = await startFakeForum();
    forum.route('/t/1', { body: 'same' }, { etag: false });
    expect((await fetch(forum.url('/t/1'))).headers.get('etag')).toBeNull();
  });

  it('answers If-Modified-Since with 304 when the page has not changed since', async () => {
    forum = await startFakeForum();
    const lastModified = 'Wed, 01 Jan 2025 00:00:00 GMT';
    forum.route('/t/1', { body: 'old', headers: { 'last-modified': lastModified } }, { etag: false });
    const res = await fetch(forum.url('/t/1'), { headers: { 'if-modified-since': lastModified } });
    expect(res.status).toBe(304);
  });

  it('serves robots.txt', async () => {
    forum = await startFakeForum();
    forum.robots('User-agent: *\nDisallow: /private');
    const res = await fetch(forum.url('/robots.txt'));
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toContain('Disallow: /private');
  });

  it('logs each request with its validators and User-Agent', async () => {
    forum = await startFakeForum({ routes: { '/t/1': { body: 'x' } } });
    await fetch(forum.url('/t/1'), { headers: { 'user-agent': 'Tester/1', 'if-none-match': '"abc"' } });
    expect(forum.requests).toHaveLength(1);
    const [logged] = forum.requests;
    expect(logged).toMatchObject({ method: 'GET', path: '/t/1', status: 200 });
    expect(logged?.headers).toEqual({ 'user-agent': 'Tester/1', 'if-none-match': '"abc"' });
    expect(logged?.at).toBeGreaterThan(0);
  });

  it('tracks the most requests in flight at once', async () => {
    forum = await startFakeForum();
    forum.route('/slow', { body: 'zzz' }, { delayMs: 100 });
    await Promise.all([fetch(forum.url('/slow')), fetch(forum.url('/slow')), fetch(forum.url('/slow'))]);
    expect(forum.maxConcurrentPerHost).toBe(3);
  });

  it('delays a route by delayMs', async () => {
    forum = await startFakeForum();
    forum.route('/slow', { body: 'zzz' }, { delayMs: 120 });
    const started = performance.now();
    await (await fetch(forum.url('/slow'))).text();
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('streams a chunked body without Content-Length', async () => {
    forum = await startFakeForum();
    forum.route('/big', { body: 'x'.repeat(100_000), chunked: true });
    const res = await fetch(forum.url('/big'));
    expect(res.headers.get('content-length')).toBeNull();
    expect((await res.text()).length).toBe(100_000);
  });

  it('accepts POST routes and hands the body to the handler', async () => {
    forum = await startFakeForum();
    let received = '';
    forum.route(
      '/post/reply',
      (req) => {
        received = req.body;
        return { status: 303, headers: { location: '/t/1' } };
      },
      { method: 'POST' },
    );
    const res = await fetch(forum.url('/post/reply'), {
      method: 'POST',
      body: 'message=Vote%3A+Alice',
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(received).toBe('message=Vote%3A+Alice');
    expect(forum.requests[0]).toMatchObject({ method: 'POST', body: 'message=Vote%3A+Alice' });
  });

  it('closes promptly even with a request still waiting on a slow route', async () => {
    forum = await startFakeForum();
    forum.route('/hang', { body: 'late' }, { delayMs: 10_000 });
    const pending = fetch(forum.url('/hang')).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await forum.close();
    // Cut off, not answered: a close that waited for the slow route would have let it answer.
    expect(await pending).toBeInstanceOf(Error);
    forum = await startFakeForum(); // afterEach closes this one
  });
});
