import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { BrowserUnavailableError } from '../../src/browser/errors.js';
import { LoginRequiredError } from '../../src/fetch/errors.js';
import type { FetchedPage } from '../../src/fetch/fetched-page.js';
import type { PageRenderer } from '../../src/browser/page-renderer.js';
import { readThread } from '../../src/thread/read-thread.js';
import { ScriptShellError } from '../../src/thread/script-shell-error.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { rendererFor } from '../support/render/index.js';
import { quickFetcher, serveGame, standardGame } from './support.js';

/**
 * The ladder without a real browser (RSSHub's official.test.ts style): a stand-in
 * renderer records what it was asked and answers with the real page.
 */
const pages = new Map(
  rendererFor('xenforo2')
    .render(standardGame())
    .map((p) => [p.path, p.body]),
);
const shell =
  '<!DOCTYPE html><html><head><title>Loading</title></head><body><div id="app"></div><script src="/app.js"></script></body></html>';

class StandInRenderer implements PageRenderer {
  readonly asked: string[] = [];
  constructor(private readonly available = true) {}
  async render(url: string, opts: { ready: (html: string) => boolean }): Promise<FetchedPage> {
    this.asked.push(new URL(url).pathname);
    if (!this.available) throw new BrowserUnavailableError(url, 'no Chromium at /nowhere');
    const body = pages.get(new URL(url).pathname) ?? '';
    expect(opts.ready(body)).toBe(true);
    return {
      url,
      finalUrl: url,
      status: 200,
      body,
      etag: null,
      lastModified: null,
      hash: createHash('sha256').update(body).digest('hex'),
      notModified: false,
      fetchedAt: new Date().toISOString(),
    };
  }
}

let forum: FakeForum;
beforeEach(async () => {
  forum = await startFakeForum();
});
afterEach(async () => {
  await forum.close();
});

function serveShells(): string {
  for (const path of pages.keys()) forum.route(path, { body: shell });
  return forum.url('/threads/standard-game.4242/');
}

describe('the browser fallback ladder', () => {
  it('uses the plain HTTP page without asking the browser when it has posts', async () => {
    const url = serveGame(forum, 'xenforo2', standardGame());
    const renderer = new StandInRenderer();
    const read = await readThread(url, { source: quickFetcher(), renderer });
    expect(read.posts).toHaveLength(22);
    expect(renderer.asked).toEqual([]);
  });

  it('renders a script shell and reads the rendered page with the same adapter', async () => {
    const url = serveShells();
    const renderer = new StandInRenderer();
    const read = await readThread(url, { source: quickFetcher(), renderer });
    expect(read.posts).toHaveLength(22);
    expect(read.engine).toBe('xenforo2');
    // Page 1 once to identify the engine (no fingerprint in the shell), then each page.
    expect(renderer.asked).toEqual([
      '/threads/standard-game.4242/',
      '/threads/standard-game.4242/page-2',
      '/threads/standard-game.4242/page-3',
    ]);
  });

  it('needsBrowser: straight to the browser, no plain HTTP request for pages', async () => {
    const url = serveShells();
    const renderer = new StandInRenderer();
    const read = await readThread(url, {
      source: quickFetcher(),
      renderer,
      engine: 'xenforo2',
      profile: { ...DEFAULT_PROFILE, needsBrowser: true },
    });
    expect(read.posts).toHaveLength(22);
    expect(forum.requests.filter((r) => r.path !== '/robots.txt')).toHaveLength(0);
  });

  it('keeps the original error when the browser is unavailable', async () => {
    const url = serveShells();
    const notes: string[] = [];
    const error = await readThread(url, {
      source: quickFetcher(),
      renderer: new StandInRenderer(false),
      engine: 'xenforo2',
      onNote: (n) => notes.push(n),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScriptShellError);
    expect(notes).toEqual([expect.stringContaining('Browser fallback unavailable')]);
  });

  it('without a browser, a shell that names no engine is still explained', async () => {
    const url = serveShells();
    expect(await readThread(url, { source: quickFetcher() }).catch((e: unknown) => e)).toBeInstanceOf(ScriptShellError);
  });

  it('a login wall that names no engine is explained too', async () => {
    forum.route('/threads/standard-game.4242/', {
      body: '<html><body><form><input name="u"><input type="password" name="p"></form></body></html>',
    });
    const error = await readThread(forum.url('/threads/standard-game.4242/'), { source: quickFetcher() }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LoginRequiredError);
  });
});
