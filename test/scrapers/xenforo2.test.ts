import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { xenforo2 } from '../../scrapers/xenforo2.js';
import type { ThreadPage } from '../../scrapers/adapter.js';
import type { Post } from '../../src/model/post.js';
import { packageRoot } from '../../src/config/package-root.js';
import { flatText, nodesOf, textOutsideQuotes } from '../support/game-script.js';
import { xenforo2Renderer } from '../support/render/xenforo2.js';
import { describeStandardGame, ORIGIN } from '../support/standard-game.js';

const root = packageRoot(import.meta.url);
const samples = resolve(root, '../shared/forum-samples');
const haveSamples = existsSync(join(samples, 'xenforo2'));
if (!haveSamples)
  console.warn(`[xenforo2] real forum samples not found at ${samples}/xenforo2: skipping the real-page tests`);

const NOW = '2024-06-19T12:00:00Z';
const parse = (html: string, url: string): ThreadPage =>
  xenforo2.parsePage(html, { url, profile: DEFAULT_PROFILE, now: NOW });
const sample = (file: string): string => readFileSync(join(samples, 'xenforo2', file), 'utf8');
const isIso = (s: string | null): boolean =>
  s !== null && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(s) && !Number.isNaN(Date.parse(s));

describe.skipIf(!haveSamples)('XenForo 2.0 real page (nettally-Xenforo2.html, xenforo.com)', () => {
  const url = 'https://xenforo.com/community/threads/a-dark-theme-option.8276/';
  const page = haveSamples ? parse(sample('nettally-Xenforo2.html'), url) : (null as unknown as ThreadPage);

  it('reads every post on the page, in order, with the forum\'s ids and "#N" numbers', () => {
    expect(page.posts.map((p) => p.id)).toEqual([
      '114210',
      '114243',
      '114249',
      '114253',
      '115610',
      '1091229',
      '1091230',
      '1358710',
    ]);
    expect(page.posts.map((p) => p.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(page.posts.every((p) => p.page === 1)).toBe(true);
  });

  it('takes the author from data-author and the user id from the name link', () => {
    expect(page.posts.map((p) => p.author)).toEqual([
      'dieketzer',
      'krstep',
      'dieketzer',
      'anotheralias',
      'T3G Silas',
      'Azofan',
      'AndyB',
      'sub_ubi',
    ]);
    expect(page.posts.map((p) => p.authorId)).toEqual(['496', '1029', '496', '693', '3362', '85474', '1327', '53960']);
  });

  it('reads post times from data-time as exact UTC instants', () => {
    expect(page.posts.map((p) => p.postedAt)).toEqual([
      '2010-11-21T10:51:58.000Z',
      '2010-11-21T13:24:47.000Z',
      '2010-11-21T13:39:28.000Z',
      '2010-11-21T13:47:23.000Z',
      '2010-11-23T23:42:24.000Z',
      '2016-08-21T06:09:15.000Z',
      '2016-08-21T06:22:26.000Z',
      '2019-06-26T09:25:09.000Z',
    ]);
  });

  it('gives each post its absolute permalink', () => {
    expect(page.posts[0]!.permalink).toBe('https://xenforo.com/community/threads/a-dark-theme-option.8276/post-114210');
    for (const p of page.posts) expect(p.permalink).toBe(`${url}post-${p.id}`);
  });

  it('reads the title and a single page with no page navigation', () => {
    expect(page.title).toBe('a dark theme option');
    expect(page).toMatchObject({ page: 1, pageCount: 1, postsPerPage: null });
  });

  it('has no edit markers where the page shows no "Last edited"', () => {
    expect(page.posts.every((p) => p.edit === null)).toBe(true);
  });

  it('bold text is a bold node', () => {
    expect(nodesOf(page.posts[2]!.body, 'bold').map((b) => flatText(b.children))).toEqual(['OPTION']);
  });

  it('a link marked link--internal is internal', () => {
    const links = nodesOf(page.posts[6]!.body, 'link');
    expect(links).toEqual([
      expect.objectContaining({
        kind: 'internal',
        href: 'https://xenforo.com/community/resources/default-style-dark.3656/',
      }),
    ]);
  });

  it('user chrome (avatar, user title, reactions) never enters a body', () => {
    const all = page.posts.map((p) => flatText(p.body)).join('\n');
    expect(all).not.toMatch(/Well-known member|Reactions|Niro, Dadparvar/);
    expect(page.posts.flatMap((p) => nodesOf(p.body, 'image'))).toEqual([]);
  });
});

describe.skipIf(!haveSamples)('XenForo 2.2 real page (revioos-rpgcodex-thread-dom.html, rpgcodex.net)', () => {
  const url = 'https://rpgcodex.net/forums/threads/a-repository-for-codexian-reviews.150342/';
  const html = haveSamples ? sample('revioos-rpgcodex-thread-dom.html') : '';
  const page = haveSamples ? parse(html, url) : (null as unknown as ThreadPage);
  const post = (n: number): Post => page.posts.find((p) => p.number === n)!;

  it('reads all 6 posts with ids, numbers, authors and user ids', () => {
    expect(page.posts.map((p) => [p.id, p.number, p.author, p.authorId])).toEqual([
      ['8996546', 1, 'behold_a_man', '31509'],
      ['8996673', 2, 'vitellus', '31665'],
      ['8997016', 3, 'behold_a_man', '31509'],
      ['8997853', 4, 'behold_a_man', '31509'],
      ['8997882', 5, 'Late Bloomer', '30728'],
      ['8998100', 6, 'Hag', '28902'],
    ]);
  });

  it('reads times in UTC although the page prints them at +0200', () => {
    expect(post(1).postedAt).toBe('2024-05-22T00:19:17.000Z'); // datetime="2024-05-22T02:19:17+0200"
    expect(post(2).postedAt).toBe('2024-05-22T04:59:43.000Z');
    expect(post(6).postedAt).toBe('2024-05-23T10:06:49.000Z');
    expect(page.posts.every((p) => isIso(p.postedAt))).toBe(true);
  });

  it('permalinks are absolute /threads/…/post-ID links', () => {
    expect(page.posts.map((p) => p.permalink)).toEqual(page.posts.map((p) => `${url}post-${p.id}`));
  });

  it('reads the title and page 1 of 1', () => {
    expect(page.title).toBe('A repository for codexian reviews');
    expect(page).toMatchObject({ page: 1, pageCount: 1, postsPerPage: null });
  });

  it('sees every "Last edited" marker (2 on this page) with its exact time', () => {
    expect((html.match(/class="message-lastEdit"/g) ?? []).length).toBe(2);
    const edited = page.posts.filter((p) => p.edit !== null);
    expect(edited.map((p) => p.number)).toEqual([1, 6]);
    // "Yesterday at 5:17 AM" on screen; the marker's data-time is exact.
    expect(post(1).edit).toEqual({
      at: '2024-06-18T03:17:32.000Z',
      by: null,
      text: 'Last edited: Yesterday at 5:17 AM',
    });
    expect(post(6).edit?.at).toBe('2024-05-23T12:18:09.000Z');
  });

  it('a named quote is a quote node with the quoted author; an anonymous [QUOTE] has none', () => {
    expect(nodesOf(post(3).body, 'quote').map((q) => q.author)).toEqual(['vitellus']);
    expect(nodesOf(post(1).body, 'quote').map((q) => q.author)).toEqual([null]);
    expect(nodesOf(post(4).body, 'quote').map((q) => q.author)).toEqual([null]);
    expect(nodesOf(post(5).body, 'quote').map((q) => q.author)).toEqual([null]);
    expect(nodesOf(post(2).body, 'quote')).toEqual([]);
  });

  it("a quote's text never appears outside its quote node", () => {
    expect(flatText(nodesOf(post(3).body, 'quote')[0]!.children)).toContain('battle bros clone #11');
    expect(textOutsideQuotes(post(3).body)).not.toContain('battle bros clone');
    expect(textOutsideQuotes(post(3).body)).toMatch(/^Yes, for any post over here/);
    for (const p of page.posts) {
      for (const q of nodesOf(p.body, 'quote')) {
        expect(textOutsideQuotes(p.body)).not.toContain(flatText(q.children).slice(0, 60));
      }
    }
  });

  it('quote chrome ("X said:", "Click to expand...") is not text', () => {
    for (const p of page.posts) expect(flatText(p.body)).not.toMatch(/said:|Click to expand/);
  });

  it('one spoiler is one spoiler node, titled, holding the code block', () => {
    const spoilers = nodesOf(post(1).body, 'spoiler');
    expect(spoilers.map((s) => s.title)).toEqual(['script']);
    const code = nodesOf(spoilers[0]!.children, 'code');
    expect(code).toHaveLength(1);
    expect(code[0]!.text.trim()).toMatch(/^_delimiter = chr\(61\)\+'===='/);
  });

  it('a code block\'s title ("Python:") is not part of its code', () => {
    expect(nodesOf(post(1).body, 'code')[0]!.text).not.toContain('Python:');
  });

  it('smilies are not images', () => {
    expect(nodesOf(post(5).body, 'smilie')).toEqual([{ t: 'smilie', alt: ':abyssgazer:' }]);
    expect(page.posts.flatMap((p) => nodesOf(p.body, 'image'))).toEqual([]);
  });

  it("links keep the forum's internal/external marking and resolve to absolute URLs", () => {
    const links = nodesOf(post(1).body, 'link').map((l) => [l.kind, l.href]);
    expect(links).toEqual([
      [
        'internal',
        'https://rpgcodex.net/forums/threads/rpg-codexs-best-rpgs-2024-voting-is-closed.150010/page-22#post-8988410',
      ],
      [
        'external',
        'https://docs.google.com/spreadsheets/d/1u4xRHlx2P7PXxMoY9hmtOvbRRY8Fx9HwmsBqY1XwQyQ/edit?usp=sharing',
      ],
      ['internal', 'https://rpgcodex.net/forums/threads/a-list-of-rpgs-a-codex-collaboration.146323/'],
      ['external', 'https://mybinder.org/v2/gh/codexianbeholdaman/Revioos/HEAD'],
      ['external', 'https://github.com/codexianbeholdaman/Revioos/tree/main'],
    ]);
  });

  it('adverts placed inside the message body are not part of the post', () => {
    expect(html).toContain('samCodeUnit');
    for (const p of page.posts) {
      expect(
        nodesOf(p.body, 'link')
          .map((l) => l.href)
          .join(' '),
      ).not.toMatch(/cpmstar|tribalfusion/);
      expect(flatText(p.body)).not.toMatch(/cpmstar|e9\.size/);
    }
  });

  it('user extras ("Joined", "Messages") never enter a body', () => {
    for (const p of page.posts) expect(flatText(p.body)).not.toMatch(/\bJoined\b|\bMessages\b/);
  });

  it('bold and italic nest as written', () => {
    expect(nodesOf(post(6).body, 'bold')).toEqual([
      { t: 'bold', children: [{ t: 'italic', children: [{ t: 'text', text: 'MORROWIND' }] }] },
    ]);
  });
});

describe('XenForo 2 thread URLs', () => {
  it('the thread of any page or post anchor is its page 1', () => {
    const ref = xenforo2.threadRef(
      new URL('https://xenforo.com/community/threads/a-dark-theme-option.8276/page-3#post-114243'),
    );
    expect(ref).toEqual({
      engine: 'xenforo2',
      url: 'https://xenforo.com/community/threads/a-dark-theme-option.8276/',
      id: '8276',
    });
    expect(xenforo2.threadRef(new URL('https://forum.test/threads/standard-game.4242/post-9002')).url).toBe(
      'https://forum.test/threads/standard-game.4242/',
    );
  });

  it('page N is /page-N; page 1 is the thread URL', () => {
    const ref = xenforo2.threadRef(new URL('https://forum.test/threads/standard-game.4242/'));
    expect(xenforo2.pageUrl(ref, 1, null)).toBe('https://forum.test/threads/standard-game.4242/');
    expect(xenforo2.pageUrl(ref, 3, null)).toBe('https://forum.test/threads/standard-game.4242/page-3');
    expect(xenforo2.pageOf(new URL('https://forum.test/threads/standard-game.4242/page-3'), null)).toBe(3);
    expect(xenforo2.pageOf(new URL('https://forum.test/threads/standard-game.4242/'), null)).toBe(1);
  });
});

describeStandardGame(xenforo2, xenforo2Renderer, {
  name: 'XenForo 2',
  read: parse,
  bareBodies: true,
  permalink: (s) => `${ORIGIN}/threads/standard-game.4242/post-${s.id}`,
  edit: { at: '2026-03-03T10:05:00.000Z', text: expect.stringMatching(/^Last edited:/) },
  mention: { href: `${ORIGIN}/members/bob.12/`, text: '@Bob' },
  noPosts: {
    html: '<!DOCTYPE html><html id="XF"><body><p>Nothing here</p></body></html>',
    url: `${ORIGIN}/threads/x.1/`,
  },
});
