import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureFiles, staleFiles } from '../../scripts/build-fixtures.js';
import type { ThreadPage } from '../../scrapers/adapter.js';
import { engineFromHtml, engineFromUrl } from '../../scrapers/identify.js';
import { invision } from '../../scrapers/invision.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { LayoutError, TruncatedPageError } from '../../src/fetch/errors.js';
import type { Post } from '../../src/model/post.js';
import { packageRoot } from '../../src/rules/package-root.js';
import { bodyShape, flatText, loadGameScript, nodesOf, scriptShape, textOutsideQuotes, type Shape } from '../support/game-script.js';
import { readFixtureThread } from '../support/render/index.js';

const root = packageRoot(import.meta.url);
const NOW = '2026-03-04T00:00:00Z';
const parse = (html: string, url: string): ThreadPage => invision.parsePage(html, { url, profile: DEFAULT_PROFILE, now: NOW });
const fixture = (file: string): string => readFileSync(join(root, 'fixtures/invision', file), 'utf8');

/**
 * fixtures/invision/day-thread: an Invision Community 4 topic of two pages (5 + 3 posts),
 * written by hand after the compiled topic templates and the markup notes in
 * ../shared/research/forum-engines.md.
 */
describe('Invision hand-written topic (fixtures/invision/day-thread)', () => {
  const TOPIC = 'https://harbour.example.com/topic/321-mafia-12-day-1/';
  const page1 = parse(fixture('day-thread/page-1.html'), TOPIC);
  const page2 = parse(fixture('day-thread/page-2.html'), `${TOPIC}page/2/`);
  const posts = [...page1.posts, ...page2.posts];
  const post = (n: number): Post => posts.find((p) => p.number === n)!;

  it('Invision: ids from data-commentID; no numbers are shown, so place in the thread (page size from the pagination)', () => {
    expect(posts.map((p) => [p.id, p.number, p.page])).toEqual([
      ['5001', 1, 1], ['5002', 2, 1], ['5003', 3, 1], ['5004', 4, 1], ['5005', 5, 1], ['5006', 6, 2], ['5007', 7, 2], ['5008', 8, 2],
    ]);
    expect([page1.postsPerPage, page2.postsPerPage]).toEqual([5, 5]);
  });

  it('Invision: author, user id and exact time from data-quoteData; a guest has no user id', () => {
    expect(posts.map((p) => [p.author, p.authorId])).toEqual([
      ['Moderator', '1'], ['Alice', '11'], ['Bob', '12'], ['Carol', '13'], ['Dave', '14'], ['Eve', '16'], ['Frank', '17'], ['Passerby', null],
    ]);
    expect(posts.map((p) => p.postedAt)).toEqual([
      '2026-03-02T18:00:00.000Z', '2026-03-02T18:05:00.000Z', '2026-03-02T18:20:00.000Z', '2026-03-02T19:00:00.000Z',
      '2026-03-02T19:30:00.000Z', '2026-03-03T08:00:00.000Z', '2026-03-03T08:30:00.000Z', '2026-03-03T09:00:00.000Z',
    ]);
  });

  it('without data-quoteData, time[datetime] and the author pane still give time, name and id', () => {
    const bare = parse(fixture('day-thread/page-1.html').replace(/ data-quoteData="[^"]*"/g, ''), TOPIC);
    expect(bare.posts.map((p) => [p.author, p.authorId, p.postedAt])).toEqual(page1.posts.map((p) => [p.author, p.authorId, p.postedAt]));
  });

  it('permalinks are ?do=findComment&comment=ID', () => {
    expect(posts.map((p) => p.permalink)).toEqual(posts.map((p) => `${TOPIC}?do=findComment&comment=${p.id}`));
  });

  it('Invision: the [data-excludequote] "Edited … by X" line is the edit marker and not post text', () => {
    expect(posts.filter((p) => p.edit).map((p) => p.number)).toEqual([5]);
    expect(post(5).edit).toEqual({ at: '2026-03-02T19:45:00.000Z', by: 'Dave', text: 'Edited March 2 by Dave' });
    expect(flatText(post(5).body)).not.toMatch(/Edited/);
  });

  it('pages from ul.ipsPagination, the title from the page header', () => {
    expect([page1.page, page1.pageCount, page2.page, page2.pageCount]).toEqual([1, 2, 2, 2]);
    expect(page1.title).toBe('Mafia 12: Day 1');
  });

  it('blockquote.ipsQuote names data-ipsquote-username; its citation is chrome', () => {
    expect(nodesOf(post(3).body, 'quote').map((q) => q.author)).toEqual(['Alice']);
    expect(textOutsideQuotes(post(3).body)).toBe('I was asleep, like everyone else. Vote: Alice Vote: Carol');
    expect(nodesOf(post(7).body, 'quote').map((q) => q.author)).toEqual(['Bob', 'Alice']);
    for (const p of posts) expect(flatText(p.body)).not.toMatch(/said:/);
  });

  it('Invision: img[data-emoticon] is a smilie; a lazy img.ipsImage is an image at its data-src', () => {
    expect(nodesOf(post(2).body, 'smilie')).toEqual([{ t: 'smilie', alt: ';)' }]);
    expect(nodesOf(post(4).body, 'image')).toEqual([{ t: 'image', src: 'https://i.imgur.com/harbour.png' }]);
  });

  it('spoiler, code, strike, colour, links and mentions', () => {
    expect(nodesOf(post(4).body, 'spoiler').map((s) => [s.title, flatText(s.children)])).toEqual([['Spoiler', 'Vote: Dave']]);
    expect(nodesOf(post(5).body, 'code')).toEqual([{ t: 'code', text: 'Vote: Frank' }]);
    expect(nodesOf(post(3).body, 'strike').map((s) => flatText(s.children))).toEqual(['Vote: Alice']);
    expect(nodesOf(post(8).body, 'color').map((c) => [c.color, flatText(c.children)])).toEqual([['#e74c3c', 'Vote: Alice']]);
    expect(nodesOf(post(4).body, 'link').map((l) => [l.kind, l.href])).toEqual([['external', 'https://wiki.example.org/mafia']]);
    expect(nodesOf(post(5).body, 'link').map((l) => [l.kind, l.href])).toEqual([['internal', `${TOPIC}?do=findComment&comment=5002`]]);
    expect(nodesOf(post(6).body, 'link').map((l) => [l.kind, l.href])).toEqual([['mention', 'https://harbour.example.com/profile/12-bob/']]);
  });
});

describe('Invision URLs and identification', () => {
  it('the thread is /topic/{id}-{slug}/; page N is page/N/', () => {
    const ref = invision.threadRef(new URL('https://harbour.example.com/topic/321-mafia-12-day-1/page/3/?do=findComment&comment=5009'));
    expect(ref).toEqual({ engine: 'invision', url: 'https://harbour.example.com/topic/321-mafia-12-day-1/', id: '321' });
    expect(invision.pageUrl(ref, 1, null)).toBe(ref.url);
    expect(invision.pageUrl(ref, 3, null)).toBe(`${ref.url}page/3/`);
    expect(invision.pageOf(new URL(`${ref.url}page/3/`), null)).toBe(3);
  });

  it('boards without URL rewriting (index.php?/topic/…) work too', () => {
    const ref = invision.threadRef(new URL('https://old.example.com/index.php?/topic/55-day-two/page/2/'));
    expect(ref.url).toBe('https://old.example.com/index.php?/topic/55-day-two/');
    expect(invision.pageUrl(ref, 2, null)).toBe('https://old.example.com/index.php?/topic/55-day-two/page/2/');
  });

  it('is recognised by /topic/{id}-slug URLs and by its comment controller', () => {
    expect(engineFromUrl(new URL('https://harbour.example.com/topic/321-mafia-12-day-1/'))).toBe('invision');
    expect(engineFromHtml(fixture('day-thread/page-1.html'))).toBe('invision');
  });

  it('a page without posts is a layout error; a cut-off page is a truncated page', () => {
    const url = 'https://harbour.example.com/topic/321-x/';
    expect(() => parse('<!DOCTYPE html><html><body><div id="comments"></div></body></html>', url)).toThrow(LayoutError);
    const whole = fixture('day-thread/page-1.html');
    expect(() => parse(whole.slice(0, Math.floor(whole.length * 0.7)), url)).toThrow(TruncatedPageError);
  });
});

describe('Invision standard game (fixtures/invision/standard-game)', () => {
  const ORIGIN = 'http://forum.test';
  const script = loadGameScript(join(root, 'fixtures/games/standard-game.yaml'));
  const thread = readFixtureThread(root, 'invision', 'standard-game');
  const pages = thread.pages.map((p) => ({ url: `${ORIGIN}${p.path}`, read: parse(p.body, `${ORIGIN}${p.path}`) }));
  const posts = pages.flatMap((p) => p.read.posts);
  const post = (n: number): Post => posts.find((p) => p.number === n)!;

  it('the committed fixture pages are what the renderer makes (no drift)', () => {
    expect(staleFiles(fixtureFiles(root, ['invision'])).map((f) => f.path), 'run: npx tsx scripts/build-fixtures.ts').toEqual([]);
  });

  it('three pages of 8, 8 and 6; page URLs are the fixture forum\'s', () => {
    expect(pages.map((p) => [p.read.page, p.read.pageCount, p.read.posts.length, p.read.postsPerPage])).toEqual([[1, 3, 8, 8], [2, 3, 8, 8], [3, 3, 6, 8]]);
    const ref = invision.threadRef(new URL(`${ORIGIN}${thread.manifest.path}`));
    expect(thread.manifest.pages.map((p) => invision.pageUrl(ref, p.page, null))).toEqual(thread.manifest.pages.map((p) => `${ORIGIN}${p.path}`));
  });

  it('every post has the script\'s number, id, author, user id, time and permalink', () => {
    expect(posts.map((p) => ({ n: p.number, id: p.id, author: p.author, authorId: p.authorId, at: p.postedAt, permalink: p.permalink }))).toEqual(
      script.posts.map((s) => ({
        n: s.n, id: String(s.id), author: s.author, authorId: String(script.thread.forumUserIds[s.author]),
        at: new Date(s.time).toISOString(), permalink: `${ORIGIN}/topic/4242-standard-game/?do=findComment&comment=${s.id}`,
      })),
    );
  });

  it('only the edited post carries an edit marker, at the edit time, by its editor', () => {
    expect(posts.filter((p) => p.edit).map((p) => p.number)).toEqual([13]);
    expect(post(13).edit).toMatchObject({ at: '2026-03-03T10:05:00.000Z', by: 'Dave' });
  });

  it('every body reads back as the script wrote it; IPS spoilers carry no title of their own', () => {
    const untitled = (shapes: Shape[]): Shape[] => shapes.map((s) => (s.t === 'spoiler' ? { ...s, title: 'Spoiler' } : s));
    for (const s of script.posts) {
      const page = pages.find((p) => p.read.posts.some((x) => x.number === s.n))!;
      expect(bodyShape(post(s.n).body), `post ${s.n}`).toEqual(untitled(scriptShape(s.body, page.url)));
    }
  });
});
