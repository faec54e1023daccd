import { afterEach, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import type { RequestInfo } from '../../src/fetch/fetcher-options.js';
import { recordingSleep, rejectionOf, testFetcher } from './support.js';

const SECRET = 'S3CR3T-session-value';
const cookieHeader = () => `xf_session=${SECRET}; xf_user=42`;

let f: FakeForum;
afterEach(async () => {
  await f?.close();
});

/** Everything an error could show when logged: message, stack, own fields, causes. */
function everythingShown(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    parts.push(String(e), (e as Error).stack ?? '', JSON.stringify(e, Object.getOwnPropertyNames(e)));
  }
  return parts.join('\n');
}

describe('secrets stay secret', () => {
  it('sends the cookie from the cookieHeader hook', async () => {
    f = await startFakeForum({ routes: { '/t/1': { body: 'x' } } });
    await testFetcher({ cookieHeader, respectRobots: false }).get(f.url('/t/1'));
    expect(f.requests[0]?.headers.cookie).toBe(cookieHeader());
  });

  it('cookie values never appear in error messages', async () => {
    f = await startFakeForum();
    f.route('/forbidden', { status: 403 });
    f.route('/login', { status: 401 });
    f.route('/broken', { status: 500 });
    f.route('/slow', { body: 'x' }, { delayMs: 1000 });
    // Only the slow page meets the short timeout: on a loaded machine a 403 may take longer
    // than 100 ms to arrive, and must still be read as a 403.
    const options = { cookieHeader, respectRobots: false, retries: 1, sleep: recordingSleep().sleep };
    const fetcher = testFetcher({ ...options, timeoutMs: 30_000 });
    const impatient = testFetcher({ ...options, timeoutMs: 100 });

    const errors = await Promise.all([
      ...['/forbidden', '/login', '/broken'].map((p) => rejectionOf(fetcher.get(f.url(p)))),
      rejectionOf(impatient.get(f.url('/slow'))),
    ]);
    const closed = f.url('/t/1');
    await f.close();
    errors.push(await rejectionOf(fetcher.get(closed)));
    f = await startFakeForum();

    expect(errors.map((e) => e.name)).toEqual([
      'ForbiddenError',
      'LoginRequiredError',
      'ServerError',
      'TimeoutError',
      'NetworkError',
    ]);
    for (const error of errors) expect(everythingShown(error)).not.toContain(SECRET);
  });

  it('an invalid cookie value is refused without quoting it', async () => {
    f = await startFakeForum({ routes: { '/t/1': { body: 'x' } } });
    const bad = () => `sid=${SECRET}\r\nX-Injected: yes`;
    const error = await rejectionOf(testFetcher({ cookieHeader: bad, respectRobots: false }).get(f.url('/t/1')));
    expect(error.message).toContain('not a valid header');
    expect(everythingShown(error)).not.toContain(SECRET);
    expect(f.requests).toHaveLength(0);
  });

  it('onRequest hears url, status and time, never headers', async () => {
    f = await startFakeForum({ routes: { '/t/1': { body: 'x' } } });
    const infos: RequestInfo[] = [];
    await testFetcher({ cookieHeader, onRequest: (info) => infos.push(info) }).get(f.url('/t/1'));
    expect(infos.map((i) => [i.kind, i.status])).toEqual([
      ['robots', 404],
      ['page', 200],
    ]);
    for (const info of infos) {
      expect(Object.keys(info).sort()).toEqual(expect.arrayContaining(['kind', 'ms', 'status', 'url']));
      expect(Object.keys(info).every((k) => ['url', 'kind', 'status', 'ms', 'error'].includes(k))).toBe(true);
      expect(JSON.stringify(info)).not.toContain(SECRET);
    }
  });

  it('session ids in the URL are redacted from errors', async () => {
    f = await startFakeForum();
    const error = await rejectionOf(
      testFetcher({ respectRobots: false }).get(f.url(`/viewtopic.php?t=1&sid=${SECRET}`)),
    );
    expect(error.name).toBe('PageNotFoundError');
    expect(error.message).toContain('sid=REDACTED');
    expect(everythingShown(error)).not.toContain(SECRET);
  });

  it('a throwing onRequest hook does not break the fetch', async () => {
    f = await startFakeForum({ routes: { '/t/1': { body: 'x' } } });
    const fetcher = testFetcher({
      respectRobots: false,
      onRequest: () => {
        throw new Error('metrics down');
      },
    });
    expect((await fetcher.get(f.url('/t/1'))).body).toBe('x');
  });
});
