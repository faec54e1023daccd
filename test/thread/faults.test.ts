import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum, type RouteResponse } from '../../src/fake-forum/server.js';
import {
  ChallengeError,
  FetchError,
  LayoutError,
  LoginRequiredError,
  ServerError,
  ThrottledError,
  TimeoutError,
  TruncatedPageError,
} from '../../src/fetch/errors.js';
import type { PageFetcherOptions } from '../../src/fetch/fetcher-options.js';
import { FileThreadCache } from '../../src/thread/file-thread-cache.js';
import { readThread } from '../../src/thread/read-thread.js';
import { ScriptShellError } from '../../src/thread/script-shell-error.js';
import { rendererFor } from '../support/render/index.js';
import { quickFetcher, serveGame, standardGame, withMorePosts } from './support.js';

const PAGE_3 = '/threads/standard-game.4242/page-3';
const PAGE_4 = '/threads/standard-game.4242/page-4';

/** A real page 3 of the grown thread, to make broken variants of. */
function grownPage(n: number): string {
  return rendererFor('xenforo2')
    .render(withMorePosts(standardGame(), 8))
    .find((p) => p.page === n)!.body;
}

const loginWall = `<!DOCTYPE html><html id="XF"><head><title>Log in | Votal Test Forum</title></head><body>
<div class="p-body"><h1>Log in</h1><form action="/login/login" method="post">
<input type="text" name="login"><input type="password" name="password"><input type="hidden" name="_xfToken" value="1">
<button type="submit">Log in</button></form><noscript>JavaScript is disabled.</noscript><script>var x=1;</script></div></body></html>`;
const challenge =
  '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script>window._cf_chl_opt={};</script></body></html>';
const shell =
  '<!DOCTYPE html><html id="XF"><head><title>Loading</title></head><body><noscript>Please enable JavaScript.</noscript><div id="app"></div><script src="/app.js"></script></body></html>';

interface Fault {
  name: string;
  response: () => RouteResponse;
  fetcher?: PageFetcherOptions;
  error: new (...args: never[]) => FetchError;
  says: RegExp;
}

const faults: Fault[] = [
  {
    name: '429 Too Many Requests',
    response: () => ({ status: 429, headers: { 'retry-after': '3600' } }),
    error: ThrottledError,
    says: /Throttled by the forum: HTTP 429, Retry-After 3600 s/,
  },
  {
    name: '503 Service Unavailable',
    response: () => ({ status: 503, body: 'down for maintenance' }),
    fetcher: { retries: 1 },
    error: ServerError,
    says: /HTTP 503/,
  },
  {
    name: 'a timeout',
    response: () => ({ body: grownPage(3), delayMs: 400 }),
    fetcher: { timeoutMs: 100, retries: 1 },
    error: TimeoutError,
    says: /No complete response within 100 ms/,
  },
  { name: 'a challenge page', response: () => ({ body: challenge }), error: ChallengeError, says: /challenge/ },
  {
    name: 'a login wall',
    response: () => ({ body: loginWall }),
    error: LoginRequiredError,
    says: /Login required: the forum answered with a login form/,
  },
  {
    name: 'a truncated page',
    response: () => ({ body: grownPage(3).slice(0, Math.floor(grownPage(3).length * 0.6)) }),
    error: TruncatedPageError,
    says: /truncated/,
  },
  {
    name: 'a changed layout',
    response: () => ({
      body: grownPage(3).replaceAll('message--post', 'post-card').replaceAll('data-content="post-', 'data-id="'),
    }),
    error: LayoutError,
    says: /no post containers/,
  },
  {
    name: 'a script shell (no browser allowed)',
    response: () => ({ body: shell }),
    error: ScriptShellError,
    says: /draws its posts with JavaScript/,
  },
];

let forum: FakeForum;
let dir: string;
beforeEach(async () => {
  forum = await startFakeForum();
  dir = mkdtempSync(join(tmpdir(), 'votal-faults-'));
});
afterEach(async () => {
  await forum.close();
  rmSync(dir, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<FetchError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FetchError);
    return error as FetchError;
  }
  throw new Error('expected the read to fail');
}

describe('a failed re-read is a clear error and leaves the cache as it was', () => {
  for (const fault of faults) {
    describe(fault.name, () => {
      it('on the last known page', async () => {
        const url = serveGame(forum, 'xenforo2', standardGame());
        const cache = new FileThreadCache(dir);
        await readThread(url, { source: quickFetcher(), cache });
        const file = cache.fileFor(new URL('/threads/standard-game.4242/', url).href);
        const before = readFileSync(file, 'utf8');

        serveGame(forum, 'xenforo2', withMorePosts(standardGame(), 8));
        forum.route(PAGE_3, fault.response(), { etag: false });
        const error = await failure(readThread(url, { source: quickFetcher(fault.fetcher), cache }));

        expect(error).toBeInstanceOf(fault.error);
        expect(error.message).toMatch(fault.says);
        expect(error.message).toContain(forum.url(PAGE_3));
        expect(readFileSync(file, 'utf8')).toBe(before);
      });

      it('on a new page after it', async () => {
        const url = serveGame(forum, 'xenforo2', standardGame());
        const cache = new FileThreadCache(dir);
        const first = await readThread(url, { source: quickFetcher(), cache });
        const file = cache.fileFor(first.thread.url);
        const before = readFileSync(file, 'utf8');

        serveGame(forum, 'xenforo2', withMorePosts(standardGame(), 8));
        forum.route(PAGE_4, fault.response(), { etag: false });
        const error = await failure(readThread(url, { source: quickFetcher(fault.fetcher), cache }));

        expect(error).toBeInstanceOf(fault.error);
        expect(error.message).toContain(forum.url(PAGE_4));
        expect(readFileSync(file, 'utf8')).toBe(before);
      });

      it('on a first read: an error, never an empty thread, and nothing cached', async () => {
        const url = serveGame(forum, 'xenforo2', standardGame());
        forum.route('/threads/standard-game.4242/', fault.response(), { etag: false });
        const cache = new FileThreadCache(dir);
        const error = await failure(readThread(url, { source: quickFetcher(fault.fetcher), cache }));
        expect(error).toBeInstanceOf(fault.error);
        expect(await cache.get(new URL('/threads/standard-game.4242/', url).href)).toBeNull();
      });
    });
  }
});
