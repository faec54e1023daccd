import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ThreadPage } from '../../scrapers/adapter.js';
import { engineFromHtml, engineFromUrl } from '../../scrapers/identify.js';
import { mybb } from '../../scrapers/mybb.js';
import { DEFAULT_PROFILE, SiteProfile } from '../../scrapers/site-profile.js';
import { LayoutError, TruncatedPageError } from '../../src/fetch/errors.js';
import type { Post } from '../../src/model/post.js';
import { packageRoot } from '../../src/config/package-root.js';
import {
  bodyShape,
  flatText,
  loadGameScript,
  nodesOf,
  scriptShape,
  textOutsideQuotes,
} from '../support/game-script.js';
import { minified, readVariant, templateVariants, variantFile } from '../support/render/template-fixtures.js';
import { whyNoPosts } from '../../src/thread/empty-page.js';
import { mybbRenderer } from '../support/render/mybb.js';
import { describeStandardGame, ORIGIN } from '../support/standard-game.js';

const root = packageRoot(import.meta.url);
const NOW = '2026-03-03T12:00:00Z';
const parse = (html: string, url: string, profile = DEFAULT_PROFILE): ThreadPage =>
  mybb.parsePage(html, { url, profile, now: NOW });
const fixture = (file: string): string => readFileSync(join(root, 'fixtures/mybb', file), 'utf8');

/**
 * fixtures/mybb/day-thread: a MyBB 1.8 thread of two pages (5 + 3 posts), written by hand
 * after the default postbit templates; page 2 was fetched on 2026-03-03 at 12:00 UTC and
 * shows relative dates ("Today", "3 hours ago") with the real date in a title.
 */
describe('MyBB hand-written thread (fixtures/mybb/day-thread)', () => {
  const page1 = parse(fixture('day-thread/page-1.html'), 'https://harbour.example.org/showthread.php?tid=321');
  const page2 = parse(fixture('day-thread/page-2.html'), 'https://harbour.example.org/showthread.php?tid=321&page=2');
  const posts = [...page1.posts, ...page2.posts];
  const post = (n: number): Post => posts.find((p) => p.number === n)!;

  it('MyBB: ids from div.post#post_PID, numbers from the "#N" link', () => {
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
    expect(posts.map((p) => p.permalink)).toEqual(
      posts.map((p) => `https://harbour.example.org/showthread.php?tid=321&pid=${p.id}#pid${p.id}`),
    );
  });

  it('authors and uids from .author_information .largetext; a guest has no link', () => {
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

  it('MyBB: dates are text (m-d-Y, board zone); "Today" and "3 hours ago" read the date in their title', () => {
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
    const dmy = parse(
      fixture('day-thread/page-1.html'),
      'https://harbour.example.org/showthread.php?tid=321',
      SiteProfile.parse({ dateOrder: 'dmy' }),
    );
    expect(dmy.posts[0]!.postedAt).toBe('2026-02-03T18:00:00.000Z');
  });

  it('MyBB: .edited_post "(This post was last modified: DATE by X.)" is the edit marker, and not part of the date', () => {
    expect(posts.filter((p) => p.edit).map((p) => p.number)).toEqual([5]);
    expect(post(5).edit).toEqual({
      at: '2026-03-02T19:45:00.000Z',
      by: 'Dave',
      text: '(This post was last modified: 03-02-2026, 07:45 PM by Dave.)',
    });
    expect(post(5).postedAt).toBe('2026-03-02T19:30:00.000Z');
  });

  it('pages from div.pagination ("Pages (2):"), the subject from the thread head', () => {
    expect([page1.page, page1.pageCount, page2.page, page2.pageCount]).toEqual([1, 2, 2, 2]);
    expect(page1.title).toBe('Mafia 12: Day 1');
  });

  it('MyBB: span.mycode_b is bold, span.mycode_s strike, i/u spans italic and underline', () => {
    expect(nodesOf(post(3).body, 'strike').map((s) => s.children)).toEqual([
      [{ t: 'bold', children: [{ t: 'text', text: 'Vote: Alice' }] }],
    ]);
    expect(nodesOf(post(7).body, 'italic').map((s) => flatText(s.children))).toEqual(['Sure you were.']);
    expect(nodesOf(post(7).body, 'underline').map((s) => flatText(s.children))).toEqual(['Noted.']);
    expect(post(8).body.filter((n) => n.t !== 'text')).toEqual([
      { t: 'color', color: 'red', children: [{ t: 'bold', children: [{ t: 'text', text: 'Vote: Alice' }] }] },
    ]);
  });

  it('blockquote.mycode_quote names the author from "X Wrote:" (date and jump link are chrome)', () => {
    expect(nodesOf(post(3).body, 'quote').map((q) => q.author)).toEqual(['Alice']);
    expect(textOutsideQuotes(post(3).body)).toBe('I was asleep, like everyone else. Vote: Alice Vote: Carol');
    expect(nodesOf(post(7).body, 'quote').map((q) => q.author)).toEqual(['Bob', 'Alice']);
    for (const p of posts) expect(flatText(p.body)).not.toMatch(/Wrote:/);
  });

  it('img.smilie is a smilie, img.mycode_img an image; "Code:" is a label, not code', () => {
    expect(nodesOf(post(2).body, 'smilie')).toEqual([{ t: 'smilie', alt: 'Wink' }]);
    expect(nodesOf(post(4).body, 'image')).toEqual([{ t: 'image', src: 'https://i.imgur.com/harbour.png' }]);
    expect(nodesOf(post(5).body, 'code')).toEqual([{ t: 'code', text: 'Vote: Frank' }]);
    expect(flatText(post(5).body)).not.toMatch(/Code:/);
  });

  it('spoiler (plugin), links and mentions (plugin)', () => {
    expect(nodesOf(post(4).body, 'spoiler').map((s) => flatText(s.children))).toEqual(['Vote: Dave']);
    expect(nodesOf(post(4).body, 'link').map((l) => [l.kind, l.href])).toEqual([
      ['external', 'https://wiki.example.org/mafia'],
    ]);
    expect(nodesOf(post(5).body, 'link').map((l) => [l.kind, l.href])).toEqual([
      ['internal', 'https://harbour.example.org/showthread.php?pid=5002#pid5002'],
    ]);
    expect(nodesOf(post(6).body, 'link').map((l) => [l.kind, flatText(l.children)])).toEqual([['mention', '@Bob']]);
  });

  it('profile chrome (avatar, statistics, buttons) is not part of a body', () => {
    for (const p of posts) expect(flatText(p.body)).not.toMatch(/Posts:|Joined|Find|Member/);
    expect(posts.flatMap((p) => nodesOf(p.body, 'image')).map((i) => i.src)).toEqual([
      'https://i.imgur.com/harbour.png',
    ]);
  });
});

describe('MyBB URLs and identification', () => {
  it('the thread is showthread.php?tid=ID; page N adds &page=N', () => {
    const ref = mybb.threadRef(new URL('https://harbour.example.org/showthread.php?tid=321&pid=5007#pid5007'));
    expect(ref).toEqual({ engine: 'mybb', url: 'https://harbour.example.org/showthread.php?tid=321', id: '321' });
    expect(mybb.pageUrl(ref, 1, null)).toBe(ref.url);
    expect(mybb.pageUrl(ref, 2, null)).toBe(`${ref.url}&page=2`);
    expect(mybb.pageOf(new URL(`${ref.url}&page=2`), null)).toBe(2);
  });

  it('the SEO form thread-ID-page-N.html works too', () => {
    const ref = mybb.threadRef(new URL('https://seo.example.org/thread-321-page-3.html'));
    expect(ref).toEqual({ engine: 'mybb', url: 'https://seo.example.org/thread-321.html', id: '321' });
    expect(mybb.pageUrl(ref, 2, null)).toBe('https://seo.example.org/thread-321-page-2.html');
    expect(mybb.pageOf(new URL('https://seo.example.org/thread-321-page-3.html'), null)).toBe(3);
  });

  it('showthread.php is shared with vBulletin, so the page itself says MyBB', () => {
    expect(engineFromUrl(new URL('https://harbour.example.org/showthread.php?tid=321'))).toBeNull();
    expect(engineFromHtml(fixture('day-thread/page-1.html'))).toBe('mybb');
  });

  it('a page without posts is a layout error; a cut-off page is a truncated page', () => {
    const url = 'https://harbour.example.org/showthread.php?tid=321';
    expect(() => parse('<!DOCTYPE html><html><body><div id="posts"></div></body></html>', url)).toThrow(LayoutError);
    const whole = fixture('day-thread/page-1.html');
    expect(() => parse(whole.slice(0, Math.floor(whole.length * 0.7)), url)).toThrow(TruncatedPageError);
  });
});

describeStandardGame(mybb, mybbRenderer, {
  name: 'MyBB',
  read: parse,
  permalink: (s) => `${ORIGIN}/showthread.php?tid=4242&pid=${s.id}#pid${s.id}`,
  mountable: true,
  edit: { at: '2026-03-03T10:05:00.000Z', by: 'Dave' },
  mention: { href: `${ORIGIN}/member.php?action=profile&uid=12`, text: '@Bob' },
});

/**
 * MyBB 1.8.37's own default-theme templates (showthread, postbit / postbit_classic,
 * postbit_posturl, postbit_editedby, multipage; ../shared/forum-samples/templates) filled
 * with the standard game by test/support/render/mybb-template.ts, as served and minified.
 * Two URL forms: showthread.php?tid=N with the default postbit, and the search-engine-
 * friendly thread-N.html with the classic postbit.
 */
describe('MyBB 1.8.37 template-rendered standard game (fixtures/mybb/template-1.8.37*)', () => {
  const ORIGIN = 'http://forum.test';
  const script = loadGameScript(join(root, 'fixtures/games/standard-game.yaml'));
  const variants = [
    {
      dir: 'template-1.8.37',
      threadPath: '/showthread.php?tid=4242',
      pagePath: (n: number) => `/showthread.php?tid=4242${n > 1 ? `&page=${n}` : ''}`,
      postLink: (id: number) => `/showthread.php?tid=4242&pid=${id}#pid${id}`,
    },
    {
      dir: 'template-1.8.37-seo-classic',
      threadPath: '/thread-4242.html',
      pagePath: (n: number) => `/thread-4242${n > 1 ? `-page-${n}` : ''}.html`,
      postLink: (id: number) => `/post-${id}.html#pid${id}`,
    },
  ];

  it('the committed pages are what the templates make (no drift; skipped without the templates)', () => {
    const rendered = templateVariants(root).filter((x) => x.engine === 'mybb');
    if (rendered.length === 0)
      return void console.warn('[mybb] templates not found in ../shared/forum-samples/templates: drift check skipped');
    for (const v of rendered) {
      for (const p of v.pages)
        expect(
          readFileSync(variantFile(root, v, p), 'utf8'),
          `${v.dir}/${p.file}: run npx tsx test/support/render/template-fixtures.ts`,
        ).toBe(p.body);
    }
  });

  for (const v of variants) {
    for (const form of ['as served', 'minified'] as const) {
      describe(`${v.dir}, ${form}`, () => {
        const files = readVariant(root, 'mybb', v.dir).map((f) => ({
          ...f,
          body: form === 'minified' ? minified(f.body) : f.body,
        }));
        const pages = files.map((f) => ({
          url: `${ORIGIN}${v.pagePath(f.page)}`,
          html: f.body,
          read: parse(f.body, `${ORIGIN}${v.pagePath(f.page)}`),
        }));
        const posts = pages.flatMap((p) => p.read.posts);

        it('is recognised as MyBB from the HTML and from the URL; its quick-login modal is no login wall', () => {
          for (const p of pages) {
            expect(engineFromHtml(p.html)).toBe('mybb');
            expect(whyNoPosts(p.html)).toBeNull();
          }
          expect(engineFromUrl(new URL(`${ORIGIN}${v.threadPath}`))).toBe(
            v.threadPath.startsWith('/showthread') ? null : 'mybb',
          );
          if (form === 'as served') expect(pages[0]!.html).toMatch(/type="password"/);
        });

        it('three pages of 8, 8 and 6 from "Pages (3):"; page URLs in this URL form', () => {
          expect(pages.map((p) => [p.read.page, p.read.pageCount, p.read.posts.length])).toEqual([
            [1, 3, 8],
            [2, 3, 8],
            [3, 3, 6],
          ]);
          const ref = mybb.threadRef(new URL(`${ORIGIN}${v.pagePath(2)}`));
          expect(ref.url).toBe(`${ORIGIN}${v.threadPath}`);
          expect([1, 2, 3].map((n) => mybb.pageUrl(ref, n, null))).toEqual(
            [1, 2, 3].map((n) => `${ORIGIN}${v.pagePath(n)}`),
          );
          expect(pages.map((p) => p.read.title)).toEqual([
            'Standard Game - Day 1',
            'Standard Game - Day 1',
            'Standard Game - Day 1',
          ]);
        });

        it("every post has the script's number, id, member name, user id, time and permalink", () => {
          expect(
            posts.map((p) => ({
              n: p.number,
              id: p.id,
              author: p.author,
              authorId: p.authorId,
              at: p.postedAt,
              permalink: p.permalink,
            })),
          ).toEqual(
            script.posts.map((s) => ({
              n: s.n,
              id: String(s.id),
              author: s.author,
              authorId: String(script.thread.forumUserIds[s.author]),
              at: new Date(s.time).toISOString(),
              permalink: `${ORIGIN}${v.postLink(s.id)}`,
            })),
          );
        });

        it('postbit_editedby "(This post was last modified: DATE by X.)" is the only edit marker', () => {
          expect(posts.filter((p) => p.edit).map((p) => [p.number, p.edit!.at, p.edit!.by])).toEqual([
            [13, '2026-03-03T10:05:00.000Z', 'Dave'],
          ]);
        });

        it('every post body reads back as the script wrote it (quotes, code, spoilers, links, smilies)', () => {
          for (const s of script.posts) {
            const page = pages.find((p) => p.read.posts.some((x) => x.number === s.n))!;
            expect(bodyShape(posts.find((p) => p.number === s.n)!.body), `post ${s.n}`).toEqual(
              scriptShape(s.body, page.url),
            );
          }
        });
      });
    }
  }
});

/**
 * fixtures/mybb/template-1.8.37/page-2.html (MyBB 1.8.37's own postbit and postbit_editedby,
 * ../shared/forum-samples/templates) with an edit note's markup pasted into the body of the
 * unedited post 9011, as a board that allows HTML in posts shows it.
 */
describe("MyBB: a post's edit note is the one in its own slot, never one in its body", () => {
  const html = fixture('template-1.8.37/page-2.html');
  const pasted = '<span class="edited_post">(This post was last modified: 03-03-2026, 09:10 AM by Carol.)</span>';
  const withPaste = html.replace('id="pid_9011">', `id="pid_9011">${pasted}`);
  const read = (page: string) => parse(page, 'http://forum.test/showthread.php?tid=4242&page=2').posts;
  const edits = (page: string) => read(page).flatMap((p) => (p.edit ? [[p.id, p.edit.by]] : []));

  it("the note in span#edited_by_PID is the edit; a note shown in the body is the post's text", () => {
    expect(withPaste).not.toBe(html);
    expect(edits(withPaste)).toEqual([['9013', 'Dave']]);
    expect(flatText(read(withPaste).find((p) => p.id === '9011')!.body)).toContain('by Carol.');
  });

  it('a theme without the #edited_by_PID slot: the note outside the body still counts, the one inside never', () => {
    const noSlot = withPaste.replaceAll(/ id="edited_by_\d+"/g, '');
    expect(noSlot).not.toMatch(/edited_by_/);
    expect(edits(noSlot)).toEqual([['9013', 'Dave']]);
  });
});
