import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileThreadCache } from '../../src/thread/file-thread-cache.js';
import type { CachedThread } from '../../src/thread/thread-cache.js';

const THREAD = 'https://forum.example.com/threads/game.1/';
const entry = (title = 'Game'): CachedThread => ({
  threadUrl: THREAD,
  engine: 'xenforo2',
  title,
  pageCount: 1,
  postsPerPage: null,
  savedAt: '2026-03-03T00:00:00.000Z',
  pages: [
    {
      page: 1,
      url: THREAD,
      validators: { etag: '"abc"', lastModified: null, hash: 'f00' },
      posts: [
        {
          id: '1',
          number: 1,
          page: 1,
          author: 'GM',
          authorId: null,
          postedAt: null,
          permalink: `${THREAD}post-1`,
          edit: null,
          bodyHash: 'x',
          body: [{ t: 'text', text: 'Day 1 begins' }],
        },
      ],
    },
  ],
});

let base: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'votal-file-cache-'));
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('FileThreadCache', () => {
  it('round-trips an entry; a thread never read is null', async () => {
    const cache = new FileThreadCache(join(base, 'cache'));
    expect(await cache.get(THREAD)).toBeNull();
    await cache.put(entry());
    expect(await cache.get(THREAD)).toEqual(entry());
  });

  it('writes files 0600 in a 0700 folder, and leaves no temp files', async () => {
    const dir = join(base, 'cache');
    const cache = new FileThreadCache(dir);
    await cache.put(entry());
    await cache.put(entry('Game, again'));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(cache.fileFor(THREAD)).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual([cache.fileFor(THREAD).split('/').at(-1)]);
    expect((await cache.get(THREAD))?.title).toBe('Game, again');
  });

  it('an unreadable file is no entry, with a note saying so', async () => {
    const notes: string[] = [];
    const cache = new FileThreadCache(base, (n) => notes.push(n));
    writeFileSync(cache.fileFor(THREAD), '{"half": ');
    expect(await cache.get(THREAD)).toBeNull();
    writeFileSync(cache.fileFor(THREAD), JSON.stringify({ threadUrl: THREAD, pages: [] }));
    expect(await cache.get(THREAD)).toBeNull();
    expect(notes).toHaveLength(2);
    expect(notes[0]).toContain('reading the thread afresh');
  });

  it('pages must be 1..n: a gap would hide posts', async () => {
    const cache = new FileThreadCache(base);
    const gappy = entry();
    gappy.pages[0]!.page = 2;
    await expect(cache.put(gappy)).rejects.toThrow(/pages must be 1..n/);
  });
});
