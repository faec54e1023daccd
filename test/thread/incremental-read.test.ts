import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { FileThreadCache } from '../../src/thread/file-thread-cache.js';
import { MemoryThreadCache } from '../../src/thread/memory-thread-cache.js';
import { readThread } from '../../src/thread/read-thread.js';
import { pageRequests, quickFetcher, serveGame, standardGame, withMorePosts } from './support.js';

let forum: FakeForum;
let dir: string;
beforeEach(async () => {
  forum = await startFakeForum();
  dir = mkdtempSync(join(tmpdir(), 'votal-cache-test-'));
});
afterEach(async () => {
  await forum.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('incremental reading with a thread cache', () => {
  it('a second read of an unchanged thread asks for the last page only, and gets a 304', async () => {
    const url = serveGame(forum, 'xenforo2', standardGame());
    const cache = new FileThreadCache(dir);
    const first = await readThread(url, { source: quickFetcher(), cache });
    expect(first.posts).toHaveLength(22);
    expect(first.summary).toEqual({ fromCache: [], unchanged: [], read: [1, 2, 3] });

    const mark = forum.requests.length;
    const second = await readThread(url, { source: quickFetcher(), cache });

    const asked = pageRequests(forum, mark);
    expect(asked.map((r) => [r.path, r.status])).toEqual([['/threads/standard-game.4242/page-3', 304]]);
    expect(asked[0]?.headers['if-none-match']).toMatch(/^"/);
    expect(second.summary).toEqual({ fromCache: [1, 2], unchanged: [3], read: [] });
    expect(second.posts).toEqual(first.posts);
    expect(second.pageCount).toBe(3);
    expect(second.title).toBe(first.title);
  });

  it('without validators from the forum, the same body hash means nothing new', async () => {
    const url = serveGame(forum, 'phpbb', standardGame(), { etag: false });
    const cache = new MemoryThreadCache();
    const first = await readThread(url, { source: quickFetcher(), cache });

    const mark = forum.requests.length;
    const second = await readThread(url, { source: quickFetcher(), cache });

    expect(pageRequests(forum, mark).map((r) => [r.path, r.status])).toEqual([
      ['/viewtopic.php?f=2&t=4242&start=16', 200],
    ]);
    expect(second.summary.unchanged).toEqual([3]);
    expect(second.posts).toEqual(first.posts);
  });

  it('after new posts, only the last known page and the new pages are fetched', async () => {
    const script = standardGame();
    const url = serveGame(forum, 'xenforo2', script);
    const cache = new FileThreadCache(dir);
    await readThread(url, { source: quickFetcher(), cache });

    // 22 posts + 12 = 34: page 3 fills up (8), pages 4 and 5 are new.
    serveGame(forum, 'xenforo2', withMorePosts(script, 12));
    const mark = forum.requests.length;
    const grown = await readThread(url, { source: quickFetcher(), cache });

    expect(pageRequests(forum, mark).map((r) => [r.path, r.status])).toEqual([
      ['/threads/standard-game.4242/page-3', 200],
      ['/threads/standard-game.4242/page-4', 200],
      ['/threads/standard-game.4242/page-5', 200],
    ]);
    expect(grown.summary).toEqual({ fromCache: [1, 2], unchanged: [], read: [3, 4, 5] });
    expect(grown.pageCount).toBe(5);
    expect(grown.posts.map((p) => p.number)).toEqual(Array.from({ length: 34 }, (_, i) => i + 1));

    // And the next count, with nothing new, is one conditional request again.
    const again = forum.requests.length;
    await readThread(url, { source: quickFetcher(), cache });
    expect(pageRequests(forum, again).map((r) => [r.path, r.status])).toEqual([
      ['/threads/standard-game.4242/page-5', 304],
    ]);
  });

  it('works with start-offset page URLs (phpBB), where page URLs need the posts per page', async () => {
    const script = standardGame();
    const url = serveGame(forum, 'phpbb', script);
    const cache = new MemoryThreadCache();
    await readThread(url, { source: quickFetcher(), cache });

    serveGame(forum, 'phpbb', withMorePosts(script, 4));
    const mark = forum.requests.length;
    const grown = await readThread(url, { source: quickFetcher(), cache });

    expect(pageRequests(forum, mark).map((r) => r.path)).toEqual([
      '/viewtopic.php?f=2&t=4242&start=16',
      '/viewtopic.php?f=2&t=4242&start=24',
    ]);
    expect(grown.posts).toHaveLength(26);
  });

  it('new posts on the last page only: that page is read again, nothing else', async () => {
    const script = standardGame();
    const url = serveGame(forum, 'xenforo2', script);
    const cache = new MemoryThreadCache();
    await readThread(url, { source: quickFetcher(), cache });

    serveGame(forum, 'xenforo2', withMorePosts(script, 1));
    const mark = forum.requests.length;
    const grown = await readThread(url, { source: quickFetcher(), cache });

    expect(pageRequests(forum, mark).map((r) => r.path)).toEqual(['/threads/standard-game.4242/page-3']);
    expect(grown.posts).toHaveLength(23);
    expect(grown.posts.at(-1)?.author).toBe('Alice');
  });

  it('a thread that shrank (the last page read is gone) is read again from page 1', async () => {
    const script = standardGame();
    const url = serveGame(forum, 'xenforo2', script);
    const cache = new MemoryThreadCache();
    await readThread(url, { source: quickFetcher(), cache });

    forum.remove('/threads/standard-game.4242/page-3');
    serveGame(forum, 'xenforo2', { ...script, posts: script.posts.slice(0, 16) });
    const notes: string[] = [];
    const read = await readThread(url, { source: quickFetcher({ retries: 0 }), cache, onNote: (n) => notes.push(n) });

    expect(read.posts).toHaveLength(16);
    expect(read.pageCount).toBe(2);
    expect(notes.join('\n')).toContain('reading the thread from page 1');
  });

  it('refresh: true reads every page again, and caches the result', async () => {
    const url = serveGame(forum, 'xenforo2', standardGame());
    const cache = new MemoryThreadCache();
    await readThread(url, { source: quickFetcher(), cache });
    const mark = forum.requests.length;
    const read = await readThread(url, { source: quickFetcher(), cache, refresh: true });
    expect(pageRequests(forum, mark)).toHaveLength(3);
    expect(read.summary.read).toEqual([1, 2, 3]);
  });

  it('a read cut off with lastPage never shortens what the cache holds', async () => {
    const url = serveGame(forum, 'xenforo2', standardGame());
    const cache = new MemoryThreadCache();
    await readThread(url, { source: quickFetcher(), cache });
    const partial = await readThread(url, { source: quickFetcher(), cache, lastPage: 1 });
    expect(partial.posts).toHaveLength(8);
    expect((await cache.get('http://' + new URL(url).host + '/threads/standard-game.4242/'))?.pages).toHaveLength(3);
  });
});
