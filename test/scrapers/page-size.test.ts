import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { MemoryThreadCache } from '../../src/thread/memory-thread-cache.js';
import { readThread } from '../../src/thread/read-thread.js';
import { pageSizeFor, type PageSizeEvidence } from '../../scrapers/post-number.js';
import { DEFAULT_PROFILE, SiteProfile } from '../../scrapers/site-profile.js';
import { xenforo2 } from '../../scrapers/xenforo2.js';
import { packageRoot } from '../../src/config/package-root.js';
import { readFixtureThread } from '../support/render/index.js';
import type { GameScript } from '../support/game-script.js';
import { renderProboardsPages } from '../support/render/proboards.js';
import { pageRequests, quickFetcher, standardGame, withMorePosts } from '../thread/support.js';

/*
 * Issue #12 item 4: ProBoards shows no post numbers, so a post's number is its place in
 * the thread, which needs the page size. The last page cannot show it; it fell back to
 * ProBoards' default of 20, so on a board of another size every post of the last page
 * (and every GM event "after post N") was off. The size a full page showed numbers every
 * later page, also when a later poll reads the last page on its own from the cache.
 */
let forum: FakeForum;
beforeEach(async () => {
  forum = await startFakeForum();
});
afterEach(async () => {
  await forum.close();
});

/** Serves the thread as a ProBoards board of `per` posts a page; returns page 1's URL. */
function serve(script: GameScript, per: number): string {
  const pages = renderProboardsPages(script, per);
  for (const page of pages) forum.route(page.path, { body: page.body });
  return forum.url(pages[0]!.path);
}

describe.each([15, 25])('ProBoards board of %i posts a page (no site profile)', (per) => {
  // Three pages: two full ones and a last one of 7.
  const script = withMorePosts(standardGame(), 2 * per + 7 - standardGame().posts.length);

  it('every post, on every page, has its place in the thread as its number', async () => {
    const url = serve(script, per);
    const read = await readThread(url, { source: quickFetcher(), engine: 'proboards' });
    expect(read.pageCount).toBe(3);
    expect(read.posts.map((p) => [p.id, p.number])).toEqual(script.posts.map((s) => [String(s.id), s.n]));
  });

  it('the last page read on its own after a resume is numbered by the size the cache learned', async () => {
    const url = serve(script, per);
    const cache = new MemoryThreadCache();
    await readThread(url, { source: quickFetcher(), engine: 'proboards', cache });

    // One new post: only the last page changed, and it is the only page read.
    const grown = withMorePosts(script, 1);
    serve(grown, per);
    const mark = forum.requests.length;
    const again = await readThread(url, { source: quickFetcher(), engine: 'proboards', cache });

    expect(pageRequests(forum, mark).map((r) => r.path)).toEqual([`/thread/4242/standard-game?page=3`]);
    expect(again.summary).toEqual({ fromCache: [1, 2], unchanged: [], read: [3] });
    expect(again.posts.map((p) => [p.id, p.number])).toEqual(grown.posts.map((s) => [String(s.id), s.n]));
  });
});

describe('the page size posts are numbered by, where they show no number (every adapter asks pageSizeFor)', () => {
  const last: PageSizeEvidence = { page: 3, pageCount: 3, postsOnPage: 7 };
  const full: PageSizeEvidence = { page: 2, pageCount: 3, postsOnPage: 15 };
  const noProfile = { profile: {} };
  it.each<[string, PageSizeEvidence, { profile: { postsPerPage?: number }; postsPerPage?: number | null }, number]>([
    [
      'the size the page states (phpBB start offsets) comes first',
      { ...last, stated: 25 },
      { profile: { postsPerPage: 10 }, postsPerPage: 15 },
      25,
    ],
    ['then the site profile', last, { profile: { postsPerPage: 10 }, postsPerPage: 15 }, 10],
    ['then a full page (any before the last) by its post count', full, { ...noProfile, postsPerPage: 30 }, 15],
    [
      'then what an earlier page showed (passed along by the reader, from its cache too)',
      last,
      { ...noProfile, postsPerPage: 15 },
      15,
    ],
    ["the engine's default only when nothing said otherwise", last, noProfile, 20],
    ['the last page never teaches its post count as the size', last, { ...noProfile, postsPerPage: null }, 20],
  ])('%s', (_, evidence, ctx, size) => {
    expect(pageSizeFor(evidence, ctx, 20)).toBe(size);
  });
});

describe('XenForo 2 posts that show no "#N" are numbered by the same page size (it ignored the profile)', () => {
  const last = readFixtureThread(packageRoot(import.meta.url), 'xenforo2', 'standard-game').pages[2]!;
  const bare = last.body.replace(/>\s*#\d+\s*</g, '><');
  const read = (ctx: { profile: SiteProfile; postsPerPage?: number | null }): number[] =>
    xenforo2
      .parsePage(bare, { url: `http://forum.test${last.path}`, now: '2026-03-03T12:00:00Z', ...ctx })
      .posts.map((p) => p.number);
  const script = standardGame()
    .posts.slice(16)
    .map((p) => p.n);

  it.each([
    ["the site profile's page size", { profile: SiteProfile.parse({ postsPerPage: 8 }) }],
    ['the page size earlier pages showed', { profile: DEFAULT_PROFILE, postsPerPage: 8 }],
  ] as const)('%s', (_, ctx) => {
    expect(bare).not.toMatch(/>\s*#\d+\s*</);
    expect(read(ctx)).toEqual(script);
  });
});
