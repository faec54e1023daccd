import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { PageNotFoundError, RobotsDisallowedError } from '../../src/fetch/errors.js';
import { readThread } from '../../src/thread/read-thread.js';
import { rendererFor } from '../support/render/index.js';
import { fakeClock } from '../fetch/support.js';
import { pageRequests, quickFetcher, serveGame, standardGame } from './support.js';

let forum: FakeForum;
beforeEach(async () => {
  forum = await startFakeForum();
});
afterEach(async () => {
  await forum.close();
});

describe('reading a thread politely', () => {
  it('robots.txt disallow stops the read before any page is asked for', async () => {
    forum.robots('User-agent: *\nDisallow: /threads/');
    const url = serveGame(forum, 'xenforo2', standardGame());
    const error = await readThread(url, { source: quickFetcher(), engine: 'xenforo2' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RobotsDisallowedError);
    expect(String(error)).toContain(url);
    expect(pageRequests(forum)).toHaveLength(0);
  });

  it('Retry-After on a 429 is waited out before the page is asked again, then the read goes on', async () => {
    const pages = rendererFor('xenforo2').render(standardGame());
    serveGame(forum, 'xenforo2', standardGame());
    forum.route('/threads/standard-game.4242/page-2', [
      { status: 429, headers: { 'retry-after': '1' } },
      { body: pages[1]!.body },
    ]);
    const clock = fakeClock(forum);
    const read = await readThread(forum.url('/threads/standard-game.4242/'), {
      source: quickFetcher({ now: clock.now, sleep: clock.sleep }),
    });

    expect(read.posts).toHaveLength(22);
    const asked = pageRequests(forum).filter((r) => r.path.endsWith('page-2'));
    expect(asked.map((r) => r.status)).toEqual([429, 200]);
    // The Retry-After (1 s) before page 2 is asked again, then the pause the 429 raised (1 s) before page 3.
    expect(clock.waits).toEqual([1000, 1000]);
    expect(clock.doneBefore).toEqual([true, true]);
  });

  it('a 503 with Retry-After is throttling too: waited out, then read', async () => {
    const pages = rendererFor('xenforo2').render(standardGame());
    serveGame(forum, 'xenforo2', standardGame());
    forum.route('/threads/standard-game.4242/page-3', [
      { status: 503, headers: { 'retry-after': '1' }, body: 'busy' },
      { body: pages[2]!.body },
    ]);
    const read = await readThread(forum.url('/threads/standard-game.4242/'), { source: quickFetcher() });
    expect(read.posts).toHaveLength(22);
  });

  it('a 404 page is asked for once, never retried', async () => {
    serveGame(forum, 'xenforo2', standardGame());
    forum.remove('/threads/standard-game.4242/page-2');
    const error = await readThread(forum.url('/threads/standard-game.4242/'), { source: quickFetcher() }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PageNotFoundError);
    expect(pageRequests(forum).filter((r) => r.path.endsWith('page-2'))).toHaveLength(1);
  });
});
