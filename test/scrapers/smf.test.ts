import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ThreadPage } from '../../scrapers/adapter.js';
import { engineFromHtml, engineFromUrl } from '../../scrapers/identify.js';
import { DEFAULT_PROFILE, SiteProfile } from '../../scrapers/site-profile.js';
import { smf } from '../../scrapers/smf.js';
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
import { SMF21_TEMPLATE, smf21Literals } from '../support/render/smf21-template.js';
import { minified, readVariant, templateVariants, variantFile } from '../support/render/template-fixtures.js';
import { smfRenderer } from '../support/render/smf.js';
import { describeStandardGame, ORIGIN } from '../support/standard-game.js';

const root = packageRoot(import.meta.url);
const NOW = '2026-03-03T12:00:00Z';
const parse = (html: string, url: string, profile = DEFAULT_PROFILE): ThreadPage =>
  smf.parsePage(html, { url, profile, now: NOW });
const fixture = (file: string): string => readFileSync(join(root, 'fixtures/smf', file), 'utf8');
const samplePath = resolve(root, '../shared/forum-samples/smf/geekhack-smf2015-topic92066.html');
const haveSample = existsSync(samplePath);
if (!haveSample) console.warn(`[smf] real forum sample not found at ${samplePath}: skipping the real-page tests`);

/**
 * A real SMF 2.0.15 guest page (geekhack.org topic 92066, page 1 of 13, a custom theme on
 * the 2.0 default markup; ../shared/forum-samples/SOURCES.md). ISO-8859-1, as the fetcher
 * decodes it. Times print as "Fri, 13 October 2017, 21:52:42" in the board's zone (UTC here).
 */
describe.skipIf(!haveSample)('SMF 2.0.15 real guest page (geekhack-smf2015-topic92066.html)', () => {
  const url = 'https://geekhack.org/index.php?topic=92066.0';
  const html = haveSample ? readFileSync(samplePath, 'latin1') : '';
  const page = haveSample ? parse(html, url) : (null as unknown as ThreadPage);
  const post = (n: number): Post => page.posts.find((p) => p.number === n)!;

  // [id, author, user id, UTC time as printed]
  const expected: [string, string, string, string][] = [
    ['2505856', 'xondat', '52526', '2017-10-13T21:52:42'],
    ['2505858', 'xondat', '52526', '2017-10-13T21:58:50'],
    ['2505877', 'hayt', '58286', '2017-10-13T23:23:18'],
    ['2505879', 'iamtootallforthis', '37538', '2017-10-13T23:33:29'],
    ['2505880', 'Puddsy', '28894', '2017-10-13T23:37:56'],
    ['2505884', 'ihalatch', '18984', '2017-10-13T23:54:44'],
    ['2505885', 'Doluded', '61527', '2017-10-13T23:54:53'],
    ['2505888', 'wanewang', '61525', '2017-10-14T00:02:01'],
    ['2505890', 'ihalatch', '18984', '2017-10-14T00:05:14'],
    ['2505895', 'MythicalWagyu', '29456', '2017-10-14T00:43:11'],
    ['2505904', 'FilthyMike720', '65494', '2017-10-14T02:09:19'],
    ['2505930', 'BunnyLake', '24682', '2017-10-14T05:35:29'],
    ['2505931', 'avid', '64197', '2017-10-14T05:41:13'],
    ['2505941', 'shuangmu', '65284', '2017-10-14T06:45:03'],
    ['2505959', 'xondat', '52526', '2017-10-14T08:50:09'],
    ['2505974', 'zacssen', '67260', '2017-10-14T09:39:38'],
    ['2505977', 'xondat', '52526', '2017-10-14T09:44:10'],
    ['2505990', 'techfresh', '60092', '2017-10-14T10:11:21'],
    ['2505996', 'dallman5', '65996', '2017-10-14T10:28:23'],
    ['2506001', 'xondat', '52526', '2017-10-14T10:36:59'],
    ['2506006', 'clasicks', '62746', '2017-10-14T10:53:44'],
    ['2506007', 'xondat', '52526', '2017-10-14T11:00:09'],
    ['2506011', 'kwyryn', '65961', '2017-10-14T11:11:03'],
    ['2506025', 'xondat', '52526', '2017-10-14T11:30:08'],
    ['2506043', 'Nenija', '66849', '2017-10-14T12:48:09'],
    ['2506048', 'poolside', '59054', '2017-10-14T13:02:58'],
    ['2506049', 'Puddsy', '28894', '2017-10-14T13:04:16'],
    ['2506051', 'friglesnart', '65407', '2017-10-14T13:14:57'],
    ['2506053', 'connor4312', '65830', '2017-10-14T13:16:08'],
    ['2506054', 'xondat', '52526', '2017-10-14T13:17:27'],
    ['2506062', 'poolside', '59054', '2017-10-14T13:41:36'],
    ['2506065', 'xondat', '52526', '2017-10-14T13:56:51'],
    ['2506070', 'euphxenos', '64505', '2017-10-14T14:16:33'],
    ['2506072', 'sangoan', '67088', '2017-10-14T14:22:04'],
    ['2506074', 'xondat', '52526', '2017-10-14T14:24:01'],
    ['2506078', 'theillumedpanda', '60794', '2017-10-14T14:42:30'],
    ['2506079', 'poolside', '59054', '2017-10-14T14:47:43'],
    ['2506081', 'xondat', '52526', '2017-10-14T14:54:06'],
    ['2506082', 'theillumedpanda', '60794', '2017-10-14T14:58:14'],
    ['2506085', 'frostbyte-gaming', '66115', '2017-10-14T15:02:14'],
    ['2506086', 'skidude9678', '65816', '2017-10-14T15:02:27'],
    ['2506087', 'ihalatch', '18984', '2017-10-14T15:03:06'],
    ['2506089', 'techfresh', '60092', '2017-10-14T15:03:26'],
    ['2506090', 'finalarcadia', '57186', '2017-10-14T15:03:36'],
    ['2506092', 'wanewang', '61525', '2017-10-14T15:04:38'],
    ['2506094', 'Trente', '58552', '2017-10-14T15:07:05'],
    ['2506096', 'm1kehonch0', '53590', '2017-10-14T15:07:46'],
    ['2506097', 'Marutks', '64585', '2017-10-14T15:08:30'],
    ['2506098', 'iamtootallforthis', '37538', '2017-10-14T15:09:05'],
    ['2506099', 'klove4252', '66379', '2017-10-14T15:09:34'],
  ];

  it("reads all 50 posts with the forum's ids, member names (not titles or groups) and user ids", () => {
    expect(page.posts.map((p) => [p.id, p.author, p.authorId])).toEqual(expected.map(([id, a, u]) => [id, a, u]));
  });

  it('numbers follow "Reply #N" (+1 for the opening post, which shows none)', () => {
    const shown = [...html.matchAll(/<strong>\s*(?:Reply #(\d+) )?on:<\/strong>/g)].map((m) => Number(m[1] ?? 0) + 1);
    expect(shown).toHaveLength(50);
    expect(page.posts.map((p) => p.number)).toEqual(shown);
    expect(page.posts.map((p) => p.number)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('reads "Fri, 13 October 2017, 21:52:42" times in the board\'s zone', () => {
    expect(page.posts.map((p) => p.postedAt)).toEqual(expected.map(([, , , t]) => `${t}.000Z`));
  });

  it('pages: 1 of 13, 50 posts a page (from the topic=92066.50 link); title from the "Topic:" header', () => {
    expect(page).toMatchObject({ page: 1, pageCount: 13, postsPerPage: 50, title: '[GB] Noxary 268 (100% Shipped)' });
  });

  it("permalinks are the subject links without the guest's PHPSESSID", () => {
    for (const p of page.posts)
      expect(p.permalink).toBe(`https://geekhack.org/index.php?topic=92066.msg${p.id}#msg${p.id}`);
    expect(html).toContain('PHPSESSID=');
  });

  it('every "« Last Edit: DATE by X »" is an edit marker with its time and editor', () => {
    expect(page.posts.filter((p) => p.edit).map((p) => [p.number, p.edit!.at, p.edit!.by])).toEqual([
      [1, '2020-04-24T16:08:01.000Z', 'xondat'],
      [2, '2019-03-15T07:14:06.000Z', 'xondat'],
      [9, '2017-10-14T00:06:54.000Z', 'ihalatch'],
      [39, '2017-10-14T15:02:29.000Z', 'theillumedpanda'],
      [41, '2017-10-14T15:04:28.000Z', 'skidude9678'],
    ]);
  });

  it('"Quote from: X on Fri, 13 October 2017, …" names X; nested quotes keep their own authors', () => {
    expect(nodesOf(post(15).body, 'quote').map((q) => q.author)).toEqual(['ihalatch', 'wanewang', 'ihalatch', 'avid']);
    expect(nodesOf(post(31).body, 'quote').map((q) => q.author)).toEqual(['xondat', 'poolside']);
    for (const p of page.posts) expect(flatText(p.body), `post ${p.number}`).not.toMatch(/Quote from|Last Edit|Logged/);
    expect(textOutsideQuotes(post(15).body)).toMatch(
      /^Thanks for the support everyone .*6 hours and 10 minutes from this post/,
    );
  });

  it('smilies are smilies, linked pictures are images; the signature is not the body', () => {
    expect(nodesOf(post(8).body, 'smilie')).toEqual([{ t: 'smilie', alt: ':(' }]);
    expect(nodesOf(post(1).body, 'image')[0]).toEqual({ t: 'image', src: 'https://i.imgur.com/rwqp3Au.jpg' });
    expect(flatText(post(10).body)).not.toMatch(/KEYBOARDS/);
  });

  it('is recognised as SMF from the HTML alone, its header quick-login box notwithstanding', () => {
    expect(html).toMatch(/type="password"/);
    expect(engineFromHtml(html)).toBe('smf');
  });
});

/**
 * fixtures/smf/day-thread: an SMF 2.1 thread of two pages (5 + 3 posts), written by hand
 * after Display.template.php; page 2 was fetched on 2026-03-03 at 12:00 UTC, so its
 * "Today at …" times are that day's.
 */
describe('SMF 2.1 hand-written thread (fixtures/smf/day-thread)', () => {
  const page1 = parse(fixture('day-thread/page-1.html'), 'https://harbour.example.com/index.php?topic=321.0');
  const page2 = parse(fixture('day-thread/page-2.html'), 'https://harbour.example.com/index.php?topic=321.5');
  const posts = [...page1.posts, ...page2.posts];
  const post = (n: number): Post => posts.find((p) => p.number === n)!;

  it('SMF: "#N" counts replies, so the opening post (no number) is 1 and "#1" is post 2', () => {
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

  it('authors and user ids from div.poster h4 (action=profile;u=N); a guest has no link', () => {
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

  it('SMF: times are text in the board\'s format and zone ("Today at" too)', () => {
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
    const berlin = parse(
      fixture('day-thread/page-1.html'),
      'https://harbour.example.com/index.php?topic=321.0',
      SiteProfile.parse({ timeZone: 'Europe/Berlin' }),
    );
    expect(berlin.posts[0]!.postedAt).toBe('2026-03-02T17:00:00.000Z');
  });

  it('permalinks are index.php?msg=ID', () => {
    expect(posts.map((p) => p.permalink)).toEqual(
      posts.map((p) => `https://harbour.example.com/index.php?msg=${p.id}`),
    );
  });

  it('SMF: span.modified#modified_ID with text is the edit marker; empty ones are not', () => {
    expect(posts.filter((p) => p.edit).map((p) => p.number)).toEqual([5]);
    expect(post(5).edit).toEqual({
      at: '2026-03-02T19:45:00.000Z',
      by: 'Dave',
      text: 'Last Edit: March 02, 2026, 07:45:00 PM by Dave',
    });
  });

  it('pages and posts per page come from .pagelinks (topic=321.5 is page 2 of 5-post pages)', () => {
    expect([page1.page, page1.pageCount, page1.postsPerPage]).toEqual([1, 2, 5]);
    expect([page2.page, page2.pageCount]).toEqual([2, 2]);
    expect(page1.title).toBe('Mafia 12: Day 1');
  });

  it('blockquote.bbc_standard_quote names the author from "Quote from: X on DATE"; the cite is chrome', () => {
    expect(nodesOf(post(3).body, 'quote').map((q) => q.author)).toEqual(['Alice']);
    expect(textOutsideQuotes(post(3).body)).toBe('I was asleep, like everyone else. Vote: Alice Vote: Carol');
    expect(nodesOf(post(7).body, 'quote').map((q) => q.author)).toEqual(['Bob', 'Alice']);
    expect(textOutsideQuotes(post(7).body)).toBe('Sure you were. Noted. Vote: Eve Vote: Bob');
    for (const p of posts) expect(flatText(p.body)).not.toMatch(/Quote from/);
  });

  it('img.smiley is a smilie; img.bbc_img an image; the code header is not code', () => {
    expect(nodesOf(post(2).body, 'smilie')).toEqual([{ t: 'smilie', alt: ';)' }]);
    expect(nodesOf(post(4).body, 'image')).toEqual([{ t: 'image', src: 'https://i.imgur.com/harbour.png' }]);
    expect(nodesOf(post(5).body, 'code')).toEqual([{ t: 'code', text: 'Vote: Frank' }]);
    expect(flatText(post(5).body)).not.toMatch(/Select|Expand/);
  });

  it('strike, spoiler (mod), links, mentions and colour', () => {
    expect(nodesOf(post(3).body, 'strike').map((s) => flatText(s.children))).toEqual(['Vote: Alice']);
    expect(nodesOf(post(4).body, 'spoiler').map((s) => [s.title, flatText(s.children)])).toEqual([
      ['Spoiler: notes', 'Vote: Dave'],
    ]);
    expect(nodesOf(post(4).body, 'link').map((l) => [l.kind, l.href])).toEqual([
      ['external', 'https://wiki.example.org/mafia'],
    ]);
    expect(nodesOf(post(5).body, 'link').map((l) => [l.kind, l.href])).toEqual([
      ['internal', 'https://harbour.example.com/index.php?msg=5002'],
    ]);
    expect(nodesOf(post(6).body, 'link').map((l) => [l.kind, flatText(l.children)])).toEqual([['mention', '@Bob']]);
    expect(nodesOf(post(8).body, 'color').map((c) => [c.color, flatText(c.children)])).toEqual([
      ['red', 'Vote: Alice'],
    ]);
  });
});

describe('SMF 2.0 hand-written page (fixtures/smf/smf20/page-1.html)', () => {
  const page = parse(fixture('smf20/page-1.html'), 'http://oldtown.example.net/forum/index.php?topic=77.0');
  const post = (n: number): Post => page.posts.find((p) => p.number === n)!;

  it('SMF 2.0: "Reply #N on:" counts replies; the opening post shows "on:" only', () => {
    expect(page.posts.map((p) => [p.id, p.number, p.author, p.authorId])).toEqual([
      ['801', 1, 'Host', '3'],
      ['802', 2, 'Ann', '21'],
      ['803', 3, 'Ben', '22'],
    ]);
  });

  it('times from "« Reply #1 on: DATE »", "<strong>Today</strong> at …" included', () => {
    expect(page.posts.map((p) => p.postedAt)).toEqual([
      '2015-01-10T20:00:00.000Z',
      '2015-01-10T20:12:30.000Z',
      '2026-03-03T09:15:00.000Z',
    ]);
  });

  it('"« Last Edit: DATE by X »" in div.modified is the edit marker', () => {
    expect(page.posts.filter((p) => p.edit).map((p) => p.number)).toEqual([2]);
    expect(post(2).edit).toEqual({
      at: '2015-01-10T20:20:00.000Z',
      by: 'Ann',
      text: 'Last Edit: January 10, 2015, 08:20:00 PM by Ann',
    });
  });

  it('the 2.0 quote header before the blockquote names its author and is not text', () => {
    expect(nodesOf(post(3).body, 'quote').map((q) => q.author)).toEqual(['Ann']);
    expect(textOutsideQuotes(post(3).body.filter((n) => n.t !== 'code' && n.t !== 'strike'))).toBe(
      'Not so fast. Vote: Ann',
    );
    expect(flatText(post(3).body)).not.toMatch(/Quote from|\[Select\]|Code:/);
    expect(nodesOf(post(3).body, 'code')).toEqual([{ t: 'code', text: 'Vote: Ben' }]);
    expect(nodesOf(post(3).body, 'strike').map((s) => flatText(s.children))).toEqual(['Vote: Ann']);
  });

  it('title without "Topic:" and "(Read N times)"; pages of 15 from the page links; subject permalinks', () => {
    expect(page).toMatchObject({ title: 'Mini Mafia 3', page: 1, pageCount: 2, postsPerPage: 15 });
    expect(post(2).permalink).toBe('http://oldtown.example.net/forum/index.php?topic=77.msg802#msg802');
    expect(nodesOf(post(2).body, 'smilie')).toEqual([{ t: 'smilie', alt: ':)' }]);
    expect(flatText(post(2).body)).not.toMatch(/Town forever/);
  });
});

describe('SMF URLs and identification', () => {
  it('the thread is index.php?topic=ID.0; pages are post offsets', () => {
    const ref = smf.threadRef(new URL('https://harbour.example.com/index.php?topic=321.msg5007#msg5007'));
    expect(ref).toEqual({ engine: 'smf', url: 'https://harbour.example.com/index.php?topic=321.0', id: '321' });
    expect(smf.pageUrl(ref, 1, 15)).toBe('https://harbour.example.com/index.php?topic=321.0');
    expect(smf.pageUrl(ref, 3, 15)).toBe('https://harbour.example.com/index.php?topic=321.30');
    expect(smf.pageOf(new URL('https://harbour.example.com/index.php?topic=321.30'), 15)).toBe(3);
  });

  it('the SEO form index.php/topic,ID.OFFSET.html works too', () => {
    const ref = smf.threadRef(new URL('https://old.example.org/index.php/topic,77.45.html'));
    expect(ref).toEqual({ engine: 'smf', url: 'https://old.example.org/index.php/topic,77.0.html', id: '77' });
    expect(smf.pageUrl(ref, 2, 15)).toBe('https://old.example.org/index.php/topic,77.15.html');
  });

  it('is recognised by topic= URLs and by its quick-moderation form', () => {
    expect(engineFromUrl(new URL('https://harbour.example.com/index.php?topic=321.0'))).toBe('smf');
    expect(engineFromHtml(fixture('day-thread/page-1.html'))).toBe('smf');
    expect(engineFromHtml(fixture('smf20/page-1.html'))).toBe('smf');
  });

  it('a page without posts is a layout error; a cut-off page is a truncated page', () => {
    const url = 'https://harbour.example.com/index.php?topic=321.0';
    expect(() => parse('<!DOCTYPE html><html><body><form id="quickModForm"></form></body></html>', url)).toThrow(
      LayoutError,
    );
    const whole = fixture('day-thread/page-1.html');
    expect(() => parse(whole.slice(0, Math.floor(whole.length * 0.7)), url)).toThrow(TruncatedPageError);
  });
});

describeStandardGame(smf, smfRenderer, {
  name: 'SMF',
  read: parse,
  statesPageSize: true, // read from the page links; it gives the fixture's page URLs
  pageUrlsNeedSize: true,
  permalink: (s) => `${ORIGIN}/index.php?msg=${s.id}`,
  edit: { at: '2026-03-03T10:05:00.000Z', by: 'Dave' },
  mention: { href: `${ORIGIN}/index.php?action=profile;u=12`, text: '@Bob' },
});

/**
 * SMF 2.1.4's own Display.template.php run for a guest over the standard game
 * (test/support/render/smf21-template.ts), as served and minified, with and without
 * search-engine-friendly URLs (`index.php?topic=N.0` and `index.php/topic,N.0.html`).
 */
describe('SMF 2.1.4 template-rendered standard game (fixtures/smf/template-2.1.4*)', () => {
  const SITE = 'https://forum.example.com';
  const script = loadGameScript(join(root, 'fixtures/games/standard-game.yaml'));
  const variants = [
    {
      dir: 'template-2.1.4',
      threadUrl: `${SITE}/index.php?topic=4242.0`,
      pageUrl: (start: number) => `${SITE}/index.php?topic=4242.${start}`,
    },
    {
      dir: 'template-2.1.4-sef',
      threadUrl: `${SITE}/index.php/topic,4242.0.html`,
      pageUrl: (start: number) => `${SITE}/index.php/topic,4242.${start}.html`,
    },
  ];

  it('the committed pages are what the renderer makes, and every string it echoes is in the 2.1.4 template verbatim', () => {
    for (const v of templateVariants(root).filter((x) => x.engine === 'smf')) {
      for (const p of v.pages)
        expect(
          readFileSync(variantFile(root, v, p), 'utf8'),
          `${v.dir}/${p.file}: run npx tsx test/support/render/template-fixtures.ts`,
        ).toBe(p.body);
    }
    const template = resolve(root, '../shared/forum-samples', SMF21_TEMPLATE);
    if (!existsSync(template)) return void console.warn(`[smf] ${template} not found: the template check is skipped`);
    const source = readFileSync(template, 'utf8');
    expect(smf21Literals.size).toBeGreaterThan(40);
    for (const literal of smf21Literals)
      expect(source.includes(literal.replace(/'/g, "\\'")), JSON.stringify(literal)).toBe(true);
  });

  for (const v of variants) {
    for (const form of ['as served', 'minified'] as const) {
      describe(`${v.dir}, ${form}`, () => {
        const files = readVariant(root, 'smf', v.dir).map((f) => ({
          ...f,
          body: form === 'minified' ? minified(f.body) : f.body,
        }));
        const pages = files.map((f) => ({
          url: v.pageUrl((f.page - 1) * 8),
          html: f.body,
          read: parse(f.body, v.pageUrl((f.page - 1) * 8)),
        }));
        const posts = pages.flatMap((p) => p.read.posts);

        it('is recognised as SMF from the HTML and from the URL', () => {
          for (const p of pages) expect(engineFromHtml(p.html)).toBe('smf');
          expect(engineFromUrl(new URL(v.threadUrl))).toBe('smf');
        });

        it('three pages of 8, 8 and 6; 8 a page from the page links; page URLs in this URL form; title from #top_subject', () => {
          expect(pages.map((p) => [p.read.page, p.read.pageCount, p.read.posts.length, p.read.postsPerPage])).toEqual([
            [1, 3, 8, 8],
            [2, 3, 8, 8],
            [3, 3, 6, 8],
          ]);
          const ref = smf.threadRef(new URL(v.pageUrl(16)));
          expect(ref.url).toBe(v.threadUrl);
          expect([1, 2, 3].map((n) => smf.pageUrl(ref, n, 8))).toEqual([0, 8, 16].map((start) => v.pageUrl(start)));
          expect(pages.map((p) => p.read.title)).toEqual([
            'Standard Game - Day 1',
            'Standard Game - Day 1',
            'Standard Game - Day 1',
          ]);
        });

        it('every post has the script\'s number ("#N" + 1), id, member name (not its group), user id, time and permalink', () => {
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
              permalink: `${SITE}/index.php?msg=${s.id}`,
            })),
          );
        });

        it('"Last Edit: DATE by X" in span.modified is the only edit marker', () => {
          expect(posts.filter((p) => p.edit).map((p) => [p.number, p.edit!.at, p.edit!.by])).toEqual([
            [13, '2026-03-03T10:05:00.000Z', 'Dave'],
          ]);
        });

        it('every post body reads back as the script wrote it', () => {
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
