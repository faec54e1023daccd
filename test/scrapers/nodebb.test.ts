import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ThreadPage } from '../../scrapers/adapter.js';
import { engineFromHtml, engineFromUrl } from '../../scrapers/identify.js';
import { nodebb } from '../../scrapers/nodebb.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { LayoutError, TruncatedPageError } from '../../src/fetch/errors.js';
import type { Post } from '../../src/model/post.js';
import { packageRoot } from '../../src/config/package-root.js';
import { bodyShape, flatText, nodesOf, textOutsideQuotes, type Shape } from '../support/game-script.js';
import { nodebbRenderer } from '../support/render/nodebb.js';
import { describeStandardGame, ORIGIN } from '../support/standard-game.js';

const root = packageRoot(import.meta.url);
const samples = resolve(root, '../shared/forum-samples');
const haveSamples = existsSync(join(samples, 'nodebb'));
if (!haveSamples) console.warn(`[nodebb] real samples not found at ${samples}/nodebb: skipping the real-page tests`);

const NOW = '2019-06-01T00:00:00Z';
const parse = (doc: string, url: string): ThreadPage =>
  nodebb.parsePage(doc, { url, profile: DEFAULT_PROFILE, now: NOW });

/** What the sample's own attributes say about each post: pid, data-index, author, uid, datePublished. */
const EXPECTED = [
  ['73812', 1, 'youhosi', '15372', '2019-03-24T19:54:11.505Z'],
  ['73814', 2, 'MJ', '6258', '2019-03-24T22:05:33.393Z'],
  ['73816', 3, 'fgallese', '10310', '2019-03-25T09:31:14.663Z'],
  ['73817', 4, 'youhosi', '15372', '2019-03-25T12:38:45.959Z'],
  ['73822', 5, 'arranka', '15135', '2019-03-25T21:22:24.890Z'],
  ['73853', 6, 'youhosi', '15372', '2019-03-28T18:23:08.180Z'],
  ['73864', 7, 'scottalanmiller', '932', '2019-03-29T17:18:52.504Z'],
  ['73868', 8, 'arranka', '15135', '2019-03-29T19:15:00.644Z'],
  ['73869', 9, 'scottalanmiller', '932', '2019-03-29T19:26:41.943Z'],
  ['73887', 10, 'JJSagan', '14561', '2019-04-01T05:48:21.920Z'],
  ['73898', 11, 'scottalanmiller', '932', '2019-04-01T18:17:12.405Z'],
  ['74017', 12, 'arranka', '15135', '2019-04-10T19:28:48.837Z'],
  ['74301', 13, 'tonylee123321', '17594', '2019-05-06T06:07:20.657Z'],
];
const EDITED = {
  2: ['MJ', '2019-03-24T22:07:47.669Z'],
  4: ['youhosi', '2019-03-25T12:50:35.903Z'],
  5: ['arranka', '2019-03-25T21:27:02.388Z'],
  8: ['arranka', '2019-03-29T19:15:44.059Z'],
} as const;

describe.skipIf(!haveSamples)('NodeBB real topic page (nettally-NodeBB.html, community.nodebb.org, Persona)', () => {
  const url = 'https://community.nodebb.org/topic/13803/new-desing-for-nodebb-chat';
  const html = haveSamples ? readFileSync(join(samples, 'nodebb', 'nettally-NodeBB.html'), 'utf8') : '';
  const page = haveSamples ? parse(html, url) : (null as unknown as ThreadPage);
  const post = (n: number): Post => page.posts.find((p) => p.number === n)!;

  it('reads all 13 posts: pid, data-index + 1, data-username, data-uid', () => {
    expect(page.posts.map((p) => [p.id, p.number, p.author, p.authorId])).toEqual(EXPECTED.map((e) => e.slice(0, 4)));
  });

  it('NodeBB: times come from data-timestamp in ms, exact UTC (as datePublished says)', () => {
    expect(page.posts.map((p) => p.postedAt)).toEqual(EXPECTED.map((e) => e[4]));
  });

  it('permalinks are /post/{pid}', () => {
    expect(page.posts.map((p) => p.permalink)).toEqual(
      EXPECTED.map((e) => `https://community.nodebb.org/post/${e[0]}`),
    );
  });

  it('page 1 of 1 (from the embedded ajaxify-data), and the topic title', () => {
    expect(page).toMatchObject({ title: 'New desing for NodeBB chat!', page: 1, pageCount: 1, postsPerPage: null });
  });

  it('an edited post shows as a filled dateModified although Persona hides the "last edited by" line', () => {
    expect(page.posts.filter((p) => p.edit).map((p) => p.number)).toEqual([2, 4, 5, 8]);
    for (const [n, [by, at]] of Object.entries(EDITED)) {
      expect(post(Number(n)).edit).toEqual({ at, by, text: `last edited by ${by}` });
    }
  });

  it('the "@MJ said in …:" line moves onto the quote: quote author MJ, the line is no text of the post', () => {
    const quotes = nodesOf(post(4).body, 'quote');
    expect(quotes.map((q) => q.author)).toEqual(['MJ']);
    expect(flatText(quotes[0]!.children)).toMatch(/^It's much better, more like other chat-apps/);
    expect(textOutsideQuotes(post(4).body)).toMatch(/^This is what it looks like on a mobile device/);
    for (const p of page.posts) expect(textOutsideQuotes(p.body)).not.toMatch(/said in/);
  });

  it('nested quotes keep each author (arranka quoting scottalanmiller)', () => {
    expect(nodesOf(post(9).body, 'quote').map((q) => q.author)).toEqual(['arranka', 'scottalanmiller']);
    expect(textOutsideQuotes(post(9).body)).toMatch(/^That really doesn't affect anything\./);
  });

  it('emoji are smilies, not images; markdown pictures are images', () => {
    expect(nodesOf(post(1).body, 'smilie')).toEqual([{ t: 'smilie', alt: '😄' }]);
    expect(nodesOf(post(1).body, 'image')).toEqual([{ t: 'image', src: 'https://i.imgur.com/Jl5XJid.png' }]);
    expect(nodesOf(post(2).body, 'smilie').map((s) => s.alt)).toEqual(['🙂', '😄']);
    expect(nodesOf(post(2).body, 'image')).toEqual([]);
    expect(nodesOf(post(5).body, 'image').map((i) => i.src)).toEqual([
      'https://i.imgur.com/qFWxun4.png',
      'https://i.imgur.com/R81t98v.png',
    ]);
    const images = page.posts.flatMap((p) => nodesOf(p.body, 'image'));
    expect(images.every((i) => i.src.startsWith('https://i.imgur.com/'))).toBe(true);
  });

  it('mentions are mention links; outside links are external; a GitHub embed card is not part of the post', () => {
    expect(nodesOf(post(10).body, 'link').map((l) => [l.kind, l.href])).toEqual([
      ['mention', 'https://community.nodebb.org/uid/15372'],
      ['mention', 'https://community.nodebb.org/uid/932'],
      ['mention', 'https://community.nodebb.org/uid/3076'],
      ['external', 'https://github.com/NodeBB/NodeBB/issues/7330'],
    ]);
    expect(flatText(post(10).body)).not.toMatch(/created this issue|Chat improvements/);
  });

  it('user chrome (avatars, group labels, vote counts, reply counts) never enters a body', () => {
    for (const p of page.posts) expect(flatText(p.body)).not.toMatch(/GNU\/Linux|Reply|Quote|1 Reply|Offline/);
  });

  it("the page's embedded API JSON (ajaxify-data) reads as the same posts", () => {
    const json = /<script id="ajaxify-data" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!;
    const api = parse(json, 'https://community.nodebb.org/api/topic/13803?page=1');
    expect(api.posts.map((p) => [p.id, p.number, p.author, p.authorId, p.postedAt])).toEqual(EXPECTED);
    expect(api.posts.filter((p) => p.edit).map((p) => [p.number, p.edit!.by, p.edit!.at])).toEqual(
      Object.entries(EDITED).map(([n, [by, at]]) => [Number(n), by, at]),
    );
    // Same bodies, up to the white space between paragraphs.
    const tidy = (b: Post['body']): Shape[] => bodyShape(b);
    expect(api.posts.map((p) => tidy(p.body))).toEqual(page.posts.map((p) => tidy(p.body)));
    expect(api).toMatchObject({ page: 1, pageCount: 1, title: 'New desing for NodeBB chat!' });
  });
});

describe('NodeBB URLs and identification', () => {
  it('the thread of a topic, post-index or API URL is /topic/{tid}/{slug}; pages are read from /api/topic/{tid}?page=N', () => {
    const ref = nodebb.threadRef(
      new URL('https://community.nodebb.org/topic/13803/new-desing-for-nodebb-chat/7?lang=en'),
    );
    expect(ref).toEqual({
      engine: 'nodebb',
      url: 'https://community.nodebb.org/topic/13803/new-desing-for-nodebb-chat',
      id: '13803',
    });
    expect(nodebb.pageUrl(ref, 1, null)).toBe('https://community.nodebb.org/api/topic/13803?page=1');
    expect(nodebb.pageUrl(ref, 4, null)).toBe('https://community.nodebb.org/api/topic/13803?page=4');
    expect(nodebb.threadRef(new URL('https://community.nodebb.org/api/topic/13803?page=2')).url).toBe(
      'https://community.nodebb.org/topic/13803',
    );
    expect(nodebb.pageOf(new URL('https://community.nodebb.org/topic/13803/x?page=3'), null)).toBe(3);
  });

  it('a board installed under a folder keeps it in API and post URLs', () => {
    const ref = nodebb.threadRef(new URL('https://example.org/forum/topic/5/day-1'));
    expect(nodebb.pageUrl(ref, 2, null)).toBe('https://example.org/forum/api/topic/5?page=2');
  });

  it("is recognised by /topic/{tid} URLs and by its post markup; Invision's /topic/{id}-slug is not NodeBB", () => {
    expect(engineFromUrl(new URL('https://community.nodebb.org/topic/13803/new-desing'))).toBe('nodebb');
    expect(engineFromUrl(new URL('https://invision.test/topic/13803-new-desing/'))).not.toBe('nodebb');
    if (haveSamples)
      expect(engineFromHtml(readFileSync(join(samples, 'nodebb', 'nettally-NodeBB.html'), 'utf8'))).toBe('nodebb');
  });

  it('a page without posts, an unrecognised or cut-off JSON document is an error naming the URL', () => {
    const url = 'https://forum.test/api/topic/1?page=1';
    expect(() =>
      parse(
        '<!DOCTYPE html><html><body class="page-topic"><p>Not found</p></body></html>',
        'https://forum.test/topic/1/x',
      ),
    ).toThrow(LayoutError);
    expect(() => parse('{"tid":1,"posts":[', url)).toThrow(TruncatedPageError);
    expect(() => parse('{"tid":1,"posts":[]}', url)).toThrow(/api\/topic\/1/);
    expect(() => parse('{"status":{"code":"not-found"}}', url)).toThrow(LayoutError);
  });
});

/** Typed smileys as the emoji NodeBB shows. */
const NODEBB_EMOJI: Record<string, string> = { ':)': '🙂', ':D': '😄' };

describeStandardGame(nodebb, nodebbRenderer, {
  name: 'NodeBB',
  read: parse,
  json: true,
  permalink: (s) => `${ORIGIN}/post/${s.id}`, // numbers: index + 1
  edit: { at: '2026-03-03T10:05:00.000Z', by: 'Dave', text: 'last edited by Dave' },
  // Smileys come back as the emoji NodeBB shows.
  shows: (shapes) => shapes.map((s) => (s.t === 'smilie' ? { t: 'smilie', alt: NODEBB_EMOJI[s.alt] ?? s.alt } : s)),
  smilies: ['🙂', '😄'],
  quoteChrome: /said in/,
  mention: { href: `${ORIGIN}/uid/12`, text: '@Bob' },
  also: {
    strike: ({ post }) => {
      expect(post(9).body.find((n) => n.t === 'block')).toMatchObject({
        children: [{ t: 'strike' }, { t: 'br' }, { t: 'text' }, { t: 'bold' }],
      });
    },
  },
});
