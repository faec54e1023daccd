import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { phpbb } from '../../scrapers/phpbb.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import type { FetchedPage } from '../../src/fetch/fetched-page.js';
import { readPage } from '../../src/thread/read-page.js';
import { root } from './support.js';

/**
 * A post whose time cannot be read is said, naming the post, and that clock rules cannot
 * apply to it: never a silent null. The phpBB standard-game page, its second post's time
 * made unreadable (a theme printing neither a machine time nor a date Votal reads).
 */
const url = 'https://forum.example.org/viewtopic.php?f=2&t=4242';
const html = readFileSync(join(root, 'fixtures/phpbb/standard-game/page-1.html'), 'utf8').replace(
  '<time datetime="2026-03-02T18:05:00+00:00">Mon Mar 02, 2026 6:05 pm</time>',
  '<span>a while back</span>',
);
const fetched: FetchedPage = {
  url,
  finalUrl: url,
  status: 200,
  body: html,
  etag: null,
  lastModified: null,
  hash: 'x',
  notModified: false,
  fetchedAt: '2026-03-03T12:00:00.000Z',
};

describe('posts without a readable time', () => {
  it('are warned about on the page and to the reader, naming each post and the clock rules', async () => {
    const notes: string[] = [];
    const source = { get: async () => fetched };
    const out = await readPage(
      { source, adapter: phpbb, profile: DEFAULT_PROFILE, onNote: (n) => notes.push(n) },
      url,
      {},
      fetched,
    );
    if (out.kind !== 'read') throw new Error('a fresh page is read');
    const untimed = out.page.posts.filter((p) => p.postedAt === null);
    expect(untimed.map((p) => p.id)).toEqual(['9002']);
    expect(out.page.warnings).toEqual([expect.stringContaining('#2 (id 9002)')]);
    expect(out.page.warnings?.[0]).toContain('clock rules (deadline, Hammer check, votes after the end) cannot apply');
    expect(notes).toEqual(out.page.warnings);
  });

  it('a page whose every post has a time carries no warning', async () => {
    const page = { ...fetched, body: readFileSync(join(root, 'fixtures/phpbb/standard-game/page-1.html'), 'utf8') };
    const out = await readPage(
      { source: { get: async () => page }, adapter: phpbb, profile: DEFAULT_PROFILE },
      url,
      {},
      page,
    );
    expect(out.kind === 'read' && out.page.warnings).toBeFalsy();
  });
});
