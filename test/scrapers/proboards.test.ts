import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ThreadPage } from '../../scrapers/adapter.js';
import { engineFromHtml, engineFromUrl } from '../../scrapers/identify.js';
import { descriptor, proboards } from '../../scrapers/proboards.js';
import { DEFAULT_PROFILE, SiteProfile } from '../../scrapers/site-profile.js';
import { LayoutError, TruncatedPageError } from '../../src/fetch/errors.js';
import type { Post } from '../../src/model/post.js';
import { packageRoot } from '../../src/config/package-root.js';
import { flatText, nodesOf, textOutsideQuotes } from '../support/game-script.js';
import { proboardsRenderer } from '../support/render/proboards.js';
import { describeStandardGame, ORIGIN } from '../support/standard-game.js';

const root = packageRoot(import.meta.url);
const NOW = '2026-03-04T00:00:00Z';
const parse = (html: string, url: string, profile = DEFAULT_PROFILE): ThreadPage =>
  proboards.parsePage(html, { url, profile, now: NOW });

/**
 * fixtures/proboards/day-thread: two pages (5 + 3 posts) written by hand after the
 * ProBoards markup in ../shared/research/forum-engines.md; times are shown to a viewer at
 * GMT -8 while data-timestamp is UTC milliseconds.
 */
describe('ProBoards hand-written thread (fixtures/proboards/day-thread)', () => {
  const THREAD = 'https://harbourmafia.proboards.com/thread/321/mafia-12-day';
  // The board shows 5 posts a page: a site profile says so.
  const PROFILE = SiteProfile.parse({ postsPerPage: 5 });
  const html1 = readFileSync(join(root, 'fixtures/proboards/day-thread/page-1.html'), 'utf8');
  const html2 = readFileSync(join(root, 'fixtures/proboards/day-thread/page-2.html'), 'utf8');
  const page1 = parse(html1, THREAD, PROFILE);
  const page2 = parse(html2, `${THREAD}?page=2`, PROFILE);
  const posts = [...page1.posts, ...page2.posts];
  const post = (n: number): Post => posts.find((p) => p.number === n)!;

  it("ProBoards: no post numbers are shown, so a post's number is its place in the thread", () => {
    expect(posts.map((p) => [p.id, p.number, p.page])).toEqual([
      ['5001', 1, 1],
      ['5002', 2, 1],
      ['5003', 3, 1],
      ['5004', 4, 1],
      ['5005', 5, 1],
      ['5006', 6, 2],
      ['5007', 7, 2],
      ['5008', 8, 2],
    ]);
  });

  it("a full page before the last says the page size; the last page needs the site profile's", () => {
    expect(parse(html1, THREAD).postsPerPage).toBe(5);
    const last = parse(html2, `${THREAD}?page=2`);
    expect(last.postsPerPage).toBeNull();
    // Without a profile, ProBoards' default page size is assumed for the last page.
    expect(last.posts.map((p) => p.number)).toEqual([1, 2, 3].map((i) => descriptor.postsPerPage + i));
  });

  it('reads authors from a.user-link with data-id; a guest from span.user-guest', () => {
    expect(posts.map((p) => [p.author, p.authorId])).toEqual([
      ['Moderator', '1'],
      ['Alice', '11'],
      ['Bob', '12'],
      ['Carol', '13'],
      ['Dave', '14'],
      ['Eve', '16'],
      ['Frank', '17'],
      ['Passerby', null],
    ]);
  });

  it('ProBoards: times come from data-timestamp in ms, not from the viewer-zone title', () => {
    expect(posts.map((p) => p.postedAt)).toEqual([
      '2026-03-02T18:00:00.000Z',
      '2026-03-02T18:05:00.000Z',
      '2026-03-02T18:20:00.000Z',
      '2026-03-02T19:00:00.000Z',
      '2026-03-02T19:30:00.000Z',
      '2026-03-03T08:00:00.000Z',
      '2026-03-03T08:30:00.000Z',
      '2026-03-03T09:00:00.000Z',
    ]);
  });

  it('permalinks are the post links /post/{id}/thread', () => {
    expect(posts.map((p) => p.permalink)).toEqual(
      posts.map((p) => `https://harbourmafia.proboards.com/post/${p.id}/thread`),
    );
  });

  it('div.edited_by is the edit marker: exact time from its timestamp, editor from its user link', () => {
    expect(posts.filter((p) => p.edit).map((p) => p.number)).toEqual([5]);
    expect(post(5).edit).toEqual({
      at: '2026-03-02T19:45:00.000Z',
      by: 'Dave',
      text: 'Last Edit: Mar 2, 2026 11:45:00 GMT -8 by Dave',
    });
  });

  it('pages and title come from ul.ui-pagination and the title bar', () => {
    expect([page1.page, page1.pageCount, page2.page, page2.pageCount]).toEqual([1, 2, 2, 2]);
    expect(page1.title).toBe('Mafia 12: Day 1');
  });

  it('div.quote names the quoted player from "X said:"; header and quote_clear are chrome', () => {
    const [q] = nodesOf(post(3).body, 'quote');
    expect(q!.author).toBe('Alice');
    expect(flatText(q!.children)).toBe('Bob was far too quiet last night. Vote: Bob');
    expect(textOutsideQuotes(post(3).body)).toBe('I was asleep, like everyone else. Vote: Alice Vote: Carol');
    expect(nodesOf(post(7).body, 'quote').map((x) => x.author)).toEqual(['Bob', 'Alice']);
    expect(textOutsideQuotes(post(7).body)).toBe('Sure you were. Noted. Vote: Eve Vote: Bob');
    for (const p of posts) expect(flatText(p.body)).not.toMatch(/said:/);
  });

  it('strike (<s>, <strike>), bold (<b>, <strong>), italic, underline and colour keep their nodes', () => {
    expect(nodesOf(post(3).body, 'strike').map((s) => flatText(s.children))).toEqual(['Vote: Alice']);
    expect(nodesOf(post(7).body, 'strike').map((s) => flatText(s.children))).toEqual(['Vote: Eve']);
    expect(
      nodesOf(post(7).body, 'bold')
        .map((s) => flatText(s.children))
        .pop(),
    ).toBe('Vote: Bob');
    expect(nodesOf(post(7).body, 'italic')).toHaveLength(1);
    expect(nodesOf(post(7).body, 'underline')).toHaveLength(1);
    expect(post(8).body).toEqual([
      { t: 'color', color: '#ff0000', children: [{ t: 'bold', children: [{ t: 'text', text: 'Vote: Alice' }] }] },
    ]);
  });

  it('a smiley from the ProBoards set is a smilie; a posted picture is an image', () => {
    expect(nodesOf(post(2).body, 'smilie')).toEqual([{ t: 'smilie', alt: ';)' }]);
    expect(nodesOf(post(2).body, 'image')).toEqual([]);
    expect(nodesOf(post(4).body, 'image')).toEqual([{ t: 'image', src: 'https://i.imgur.com/harbour.png' }]);
  });

  it('spoiler, code, links and mentions', () => {
    expect(nodesOf(post(4).body, 'spoiler').map((s) => [s.title, flatText(s.children)])).toEqual([
      ['Spoiler', 'Vote: Dave'],
    ]);
    expect(nodesOf(post(5).body, 'code').map((c) => c.text)).toEqual(['Vote: Frank']);
    expect(nodesOf(post(4).body, 'link').map((l) => [l.kind, l.href])).toEqual([
      ['external', 'https://wiki.example.org/mafia'],
    ]);
    expect(nodesOf(post(5).body, 'link').map((l) => [l.kind, l.href])).toEqual([
      ['internal', 'https://harbourmafia.proboards.com/post/5002/thread'],
    ]);
    expect(nodesOf(post(6).body, 'link').map((l) => [l.kind, flatText(l.children)])).toEqual([['mention', '@bob']]);
  });

  it('the mini-profile and signature are not part of the body', () => {
    expect(flatText(post(1).body)).toBe('Day 1 has begun. With 7 alive it takes 4 to lynch. Deadline: Friday.');
    for (const p of posts) expect(flatText(p.body)).not.toMatch(/Posts:|Host of|Avatar/);
  });
});

describe('ProBoards URLs and identification', () => {
  it('the thread is /thread/{id}/{slug}; page N is ?page=N', () => {
    const ref = proboards.threadRef(
      new URL('https://harbourmafia.proboards.com/thread/321/mafia-12-day?page=3#post-5009'),
    );
    expect(ref).toEqual({
      engine: 'proboards',
      url: 'https://harbourmafia.proboards.com/thread/321/mafia-12-day',
      id: '321',
    });
    expect(proboards.pageUrl(ref, 1, null)).toBe(ref.url);
    expect(proboards.pageUrl(ref, 3, null)).toBe(`${ref.url}?page=3`);
    expect(proboards.pageOf(new URL(`${ref.url}?page=3`), null)).toBe(3);
    expect(proboards.pageOf(new URL(ref.url), null)).toBe(1);
  });

  it('is recognised by *.proboards.com, and on its own domain by its post rows', () => {
    expect(engineFromUrl(new URL('https://harbourmafia.proboards.com/thread/321/x'))).toBe('proboards');
    expect(engineFromHtml(readFileSync(join(root, 'fixtures/proboards/day-thread/page-1.html'), 'utf8'))).toBe(
      'proboards',
    );
  });

  it('a page without post rows is a layout error; a cut-off page is a truncated page', () => {
    const url = 'https://harbourmafia.proboards.com/thread/321/x';
    expect(() => parse('<!DOCTYPE html><html><body><div class="container posts"></div></body></html>', url)).toThrow(
      LayoutError,
    );
    const whole = readFileSync(join(root, 'fixtures/proboards/day-thread/page-1.html'), 'utf8');
    expect(() => parse(whole.slice(0, Math.floor(whole.length * 0.7)), url)).toThrow(TruncatedPageError);
  });
});

describeStandardGame(proboards, proboardsRenderer, {
  name: 'ProBoards',
  read: parse,
  bareBodies: true,
  // Pages hold ProBoards' default page size, so positions give the script's numbers with no profile.
  perPage: proboards.descriptor.postsPerPage,
  permalink: (s) => `${ORIGIN}/post/${s.id}/thread`,
  edit: { at: '2026-03-03T10:05:00.000Z', by: 'Dave' },
  mention: { href: `${ORIGIN}/user/12`, text: '@Bob' },
});

/**
 * No real ProBoards page was at hand. The best evidence of its live markup is a scraper
 * written against live boards: nrsyed/proboards-scraper (proboards_scraper/scraper/
 * scrape.py @ 09c2667, ../shared/forum-samples/SOURCES.md). A page made of exactly the
 * selectors it reads, and nothing the adapter's own notes add, must still read.
 */
describe('ProBoards: the selectors a scraper of live boards reads', () => {
  const url = 'https://mafia.proboards.com/thread/77/mafia-3';
  const html = `<!DOCTYPE html><html><head><title>Mafia 3</title></head><body><div class="container posts"><table><tbody>
<tr class="post" id="post-501"><td class="left-panel"><a class="user-link" href="/user/7">Ann</a></td>
<td class="content"><div class="info"><span class="date"><abbr data-timestamp="1772474400000" title="Mar 2, 2026 10:00:00 GMT -8">Mar 2, 2026 at 10:00am</abbr></span></div><article><div class="message"><b>Vote: Ben</b></div></article></td></tr>
<tr class="post" id="post-502"><td class="left-panel"><span class="user-guest">Passerby</span></td>
<td class="content"><div class="info"><span class="date"><abbr data-timestamp="1772478000000">Mar 2, 2026 at 11:00am</abbr></span></div><article><div class="message">Hello</div></article></td></tr>
</tbody></table></div><ul><li class="next"><a href="/thread/77/mafia-3?page=2">Next &raquo;</a></li></ul></body></html>`;
  const page = parse(html, url);

  it('tr.post#post-N, td.left-panel a.user-link[href=/user/N] or span.user-guest, span.date abbr[data-timestamp] (ms), article div.message', () => {
    expect(page.posts.map((p) => [p.id, p.number, p.author, p.authorId, p.postedAt, flatText(p.body)])).toEqual([
      ['501', 1, 'Ann', '7', '2026-03-02T18:00:00.000Z', 'Vote: Ben'],
      ['502', 2, 'Passerby', null, '2026-03-02T19:00:00.000Z', 'Hello'],
    ]);
  });

  it('a live li.next link means another page, even where no page numbers show', () => {
    expect([page.page, page.pageCount]).toEqual([1, 2]);
    const last = parse(
      html
        .replace('<li class="next">', '<li class="next state-disabled">')
        .replace('href="/thread/77/mafia-3?page=2"', 'href="javascript:void(0)"'),
      url,
    );
    expect(last.pageCount).toBe(1);
  });
});

/**
 * What the evidence corrects or leaves open (../shared/research/proboards-gog-evidence.md §1):
 * quotes with `author="@name"` and a header ending "said:", mentions as `a.user-link` around
 * `span[itemprop=name]`, the pager's `li.ui-pagination-next` with an absolute href. One case each.
 */
describe('ProBoards against the evidence (proboards-gog-evidence.md §1)', () => {
  const url = 'https://mafia.proboards.com/thread/77/mafia-3';
  const page = (message: string, pager = ''): ThreadPage =>
    parse(
      `<!DOCTYPE html><html><head><title>Mafia 3</title></head><body><div class="container posts"><table><tbody>
<tr class="item post first" id="post-501"><td class="left-panel"><div class="mini-profile"><a class="user-link o-user-link user-7" data-id="7" href="/user/7">Ann</a></div></td>
<td class="content"><div class="info"><span class="date"><abbr class="o-timestamp time" data-timestamp="1772474400000">Mar 2, 2026 10:00:00 GMT -8</abbr></span></div><article><div class="message">${message}</div></article></td></tr>
</tbody></table>${pager}</div></body></html>`,
      url,
    );

  it('a quote with its .quote_header: the author is the "Name said:" of the header, which is chrome', () => {
    const p = page(
      '<div author="@ben_login" class="quote"><div class="quote_header">Ben said:</div><div class="quote_body"><b>Vote: Ann</b><div class="quote_clear"></div></div></div>No.',
    ).posts[0]!;
    expect(nodesOf(p.body, 'quote').map((q) => [q.author, flatText(q.children)])).toEqual([['Ben', 'Vote: Ann']]);
    expect(textOutsideQuotes(p.body)).toBe('No.');
  });

  it('the v5 quote as a ProBoards plugin rebuilds it: header inside div.quote_body after the avatar, both chrome', () => {
    // Tcll's "Real-Time Post Preview" plugin (2013-2014), which draws a [quote] as ProBoards does
    // (a public GitHub file, code index id 31950102849): quote_body > avatar, header with the
    // quoted time and a user-link, "said:", the text, quote_clear. A bare [quote] is `no_header`.
    const p = page(
      '<div class="quote" source="/post/480/thread" timestamp="1772470000" author="@ben_login"><div class="quote_body"><div class="quote_avatar_container"><div class="avatar-wrapper avatar_size_quote avatar-1"><img src="http://images.proboards.com/v5/defaultavatar.png" alt="@ben_login Avatar"></div></div><div class="quote_header"><a href="/post/480/thread"><abbr data-timestamp="1772470000" class="time" title="Mar 2, 2026">Mar 2, 2026</abbr></a><span itemscope="" itemtype="http://schema.org/Person"><a href="/user/1" class="user-link" itemprop="url" title="@ben_login"><span itemprop="name"> Ben</span></a></span> said:</div><b>Vote: Ann</b><div class="quote_clear"></div></div></div>No.' +
        '<div class="quote no_header"><div class="quote_body"><b>Vote: Cy</b><div class="quote_clear"></div></div></div>',
    ).posts[0]!;
    expect(nodesOf(p.body, 'quote').map((q) => [q.author, flatText(q.children)])).toEqual([
      ['Ben', 'Vote: Ann'],
      [null, 'Vote: Cy'],
    ]);
    expect(nodesOf(p.body, 'image')).toEqual([]);
    expect(textOutsideQuotes(p.body)).toBe('No.');
  });

  it('quoteAuthorFromAttribute: no .quote_header (its name is unconfirmed), so the author is author="@name"', () => {
    const p = page(
      '<div author="@Ben" class="quote"><div class="quote_body"><b>Vote: Ann</b><div class="quote_clear"></div></div></div><b>Vote: Cy</b>',
    ).posts[0]!;
    expect(nodesOf(p.body, 'quote').map((q) => [q.author, flatText(q.children)])).toEqual([['Ben', 'Vote: Ann']]);
    expect(textOutsideQuotes(p.body)).toBe('Vote: Cy');
  });

  it('a mention is a user-link around span[itemprop=name]: a mention link, not plain text', () => {
    const p = page(
      '<b>Vote: <span class="mention"><a class="user-link user-8" data-id="8" href="/user/8" title="@ben"><span itemprop="name">Ben</span></a></span></b>',
    ).posts[0]!;
    expect(nodesOf(p.body, 'link').map((l) => [l.kind, l.href, flatText(l.children)])).toEqual([
      ['mention', 'https://mafia.proboards.com/user/8', 'Ben'],
    ]);
  });

  it('an edit by a guest names the guest (span.user-guest in div.edited_by)', () => {
    expect(page('Hi').posts[0]!.edit).toBeNull();
    const edited = parse(
      `<!DOCTYPE html><html><body><table><tr class="item post" id="post-9"><td class="left-panel"><span class="user-guest">Passerby</span></td><td class="content"><div class="info"><span class="date"><abbr data-timestamp="1772474400000">x</abbr></span></div><article><div class="message">Hi</div></article><div class="edited_by">Last Edit: <abbr data-timestamp="1772478000000">x</abbr> by <span class="user-guest">Passerby</span></div></td></tr></table></body></html>`,
      url,
    ).posts[0]!;
    expect(edited.edit).toMatchObject({ at: '2026-03-02T19:00:00.000Z', by: 'Passerby' });
  });

  it('the pager: li.ui-pagination-next with an absolute href means another page; state-disabled means the last', () => {
    const pager = (cls: string): string =>
      `<div class="control-bar"><ul class="ui-pagination"><li class="ui-pagination-page ui-pagination-slot state-selected"><a>1</a></li><li class="ui-pagination-next${cls}"><a href="https://mafia.proboards.com/thread/77/mafia-3?page=2">Next</a></li></ul></div>`;
    expect([page('Hi', pager('')).page, page('Hi', pager('')).pageCount]).toEqual([1, 2]);
    expect(page('Hi', pager(' state-disabled')).pageCount).toBe(1);
  });
});
