import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ThreadPage } from '../../scrapers/adapter.js';
import { engineFromHtml, engineFromUrl } from '../../scrapers/identify.js';
import { invision } from '../../scrapers/invision.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { LayoutError, TruncatedPageError } from '../../src/fetch/errors.js';
import type { Post } from '../../src/model/post.js';
import { packageRoot } from '../../src/config/package-root.js';
import { flatText, nodesOf, textOutsideQuotes } from '../support/game-script.js';
import { invisionRenderer } from '../support/render/invision.js';
import { describeStandardGame, ORIGIN } from '../support/standard-game.js';

const root = packageRoot(import.meta.url);
const NOW = '2026-03-04T00:00:00Z';
const parse = (html: string, url: string): ThreadPage =>
  invision.parsePage(html, { url, profile: DEFAULT_PROFILE, now: NOW });
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
      ['5001', 1, 1],
      ['5002', 2, 1],
      ['5003', 3, 1],
      ['5004', 4, 1],
      ['5005', 5, 1],
      ['5006', 6, 2],
      ['5007', 7, 2],
      ['5008', 8, 2],
    ]);
    expect([page1.postsPerPage, page2.postsPerPage]).toEqual([5, 5]);
  });

  it('Invision: author, user id and exact time from data-quoteData; a guest has no user id', () => {
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

  it('without data-quoteData, time[datetime] and the author pane still give time, name and id', () => {
    const bare = parse(fixture('day-thread/page-1.html').replace(/ data-quoteData="[^"]*"/g, ''), TOPIC);
    expect(bare.posts.map((p) => [p.author, p.authorId, p.postedAt])).toEqual(
      page1.posts.map((p) => [p.author, p.authorId, p.postedAt]),
    );
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
    expect(nodesOf(post(4).body, 'spoiler').map((s) => [s.title, flatText(s.children)])).toEqual([
      ['Spoiler', 'Vote: Dave'],
    ]);
    expect(nodesOf(post(5).body, 'code')).toEqual([{ t: 'code', text: 'Vote: Frank' }]);
    expect(nodesOf(post(3).body, 'strike').map((s) => flatText(s.children))).toEqual(['Vote: Alice']);
    expect(nodesOf(post(8).body, 'color').map((c) => [c.color, flatText(c.children)])).toEqual([
      ['#e74c3c', 'Vote: Alice'],
    ]);
    expect(nodesOf(post(4).body, 'link').map((l) => [l.kind, l.href])).toEqual([
      ['external', 'https://wiki.example.org/mafia'],
    ]);
    expect(nodesOf(post(5).body, 'link').map((l) => [l.kind, l.href])).toEqual([
      ['internal', `${TOPIC}?do=findComment&comment=5002`],
    ]);
    expect(nodesOf(post(6).body, 'link').map((l) => [l.kind, l.href])).toEqual([
      ['mention', 'https://harbour.example.com/profile/12-bob/'],
    ]);
  });
});

/**
 * Two real Invision Community 4 pages with the harvest project's hand-made per-post gold
 * annotations (../shared/forum-samples/invision/*.gold.json; SOURCES.md): every post is
 * compared with its gold record field by field. The gold records what a reader sees:
 * the name as printed, the date as printed (in UTC, the guest's zone), the post's link,
 * and the page text of the post, quote citations included.
 */
interface Gold {
  url: string;
  gold_standard_annotation: {
    post_text: { surface_form: string };
    datetime: { surface_form: string };
    user: { surface_form: string };
    post_link: { surface_form: string };
  }[];
}
const samples = resolve(root, '../shared/forum-samples/invision');
const realPages = [
  {
    file: 'utorrent-topic86747',
    posts: 14,
    title: 'Help us build the next great BitTorrent product!',
    byUrl: 'invision',
    decorated: null,
  },
  // `/forum/topic/N-slug/` is also the shape of a vBulletin 5 URL: only the page can tell.
  { file: 'neowin-topic1393830', posts: 11, title: 'Hello Everyone?', byUrl: null, decorated: '<b>+</b>Raze' },
];
/** Gold texts that differ from the HTML, each checked by hand against the page. */
const goldSlips: Record<string, string> = {
  // "post....<strong>THE LINK!</strong>": the gold adds a space at the bold; the page's own JSON-LD has none.
  'comment-471256': 'space before the bold "THE LINK!"',
};
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();

for (const real of realPages) {
  const base = join(samples, real.file);
  const have = existsSync(`${base}.html`) && existsSync(`${base}.gold.json`);
  if (!have) console.warn(`[invision] real forum sample not found at ${base}.html: skipping its gold comparison`);
  describe.skipIf(!have)(`Invision 4 real page against its gold annotation (${real.file})`, () => {
    const gold = have ? (JSON.parse(readFileSync(`${base}.gold.json`, 'utf8')) as Gold) : (null as unknown as Gold);
    const html = have ? readFileSync(`${base}.html`, 'utf8') : '';
    const page = have ? parse(html, gold.url) : (null as unknown as ThreadPage);
    const golds = have ? gold.gold_standard_annotation : [];

    it('finds every post the gold has, in order, numbered by place, on page 1 of 1, recognised from the HTML alone', () => {
      expect(page.posts).toHaveLength(real.posts);
      expect(golds).toHaveLength(real.posts);
      expect(page.posts.map((p) => p.number)).toEqual(Array.from({ length: real.posts }, (_, i) => i + 1));
      expect(page).toMatchObject({ page: 1, pageCount: 1, title: real.title });
      expect(engineFromHtml(html)).toBe('invision');
      expect(engineFromUrl(new URL(gold.url))).toBe(real.byUrl);
    });

    it('author: the member named by the gold (profile link or printed name), without group decorations or badges', () => {
      page.posts.forEach((p, i) => {
        const user = golds[i]!.user.surface_form;
        const profile = /\/profile\/(\d+)-/.exec(user);
        if (profile) {
          expect(p.authorId, `post ${p.number}`).toBe(profile[1]);
          expect(html).toContain(`/profile/${p.authorId}-`);
        } else {
          // neowin prints a subscriber group's "+" inside the name box ("<b>+</b>Raze"): not part of the name.
          expect(p.author, `post ${p.number}`).toBe(user.replace(/^\+/, ''));
        }
        expect(p.author).not.toMatch(/^\+|\bOP$/);
      });
      if (real.decorated) expect(html).toContain(real.decorated);
    });

    it('time: the printed date ("August 19, 2013"; this year\'s as "April 1") is the UTC date of the exact time', () => {
      page.posts.forEach((p, i) => {
        const d = new Date(p.postedAt!);
        const printed = golds[i]!.datetime.surface_form;
        const full = `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
        expect(printed.includes(',') ? full : full.replace(/, \d{4}$/, ''), `post ${p.number}`).toBe(printed);
      });
    });

    it("permalink: the post's share link (do=findComment&comment=ID), the one the gold names", () => {
      page.posts.forEach((p, i) => {
        const link = golds[i]!.post_link.surface_form;
        expect(p.permalink, `post ${p.number}`).toBe(`${gold.url}?do=findComment&comment=${p.id}`);
        // The gold gives the comment anchor, the share link, or (neowin's opening post) the topic itself.
        if (link !== gold.url)
          expect(
            link.endsWith(`comment-${p.id}`) || link.endsWith(`comment=${p.id}`),
            `post ${p.number}: ${link}`,
          ).toBe(true);
      });
    });

    it("body: the post's text is the gold's; a quote's \"… said:\" citation is chrome naming its author", () => {
      page.posts.forEach((p, i) => {
        const want = norm(golds[i]!.post_text.surface_form);
        const quotes = nodesOf(p.body, 'quote');
        const citation = /^(.*?\bsaid:) /.exec(want);
        if (citation) expect(citation[1]).toContain(`${quotes[0]!.author} said:`);
        const got = norm(`${citation ? `${citation[1]} ` : ''}${flatText(p.body)}`);
        const slip = goldSlips[golds[i]!.post_link.surface_form.replace(/^.*comment[=-]/, 'comment-')];
        if (slip) expect(got.replace(/\s/g, ''), `post ${p.number} (${slip})`).toBe(want.replace(/\s/g, ''));
        else expect(got, `post ${p.number}`).toBe(want);
      });
    });

    it('no post carries an edit marker (none was edited on these pages)', () => {
      expect(page.posts.filter((p) => p.edit)).toEqual([]);
      expect(html).not.toMatch(/data-excludequote/i);
    });
  });
}

describe('Invision URLs and identification', () => {
  it('the thread is /topic/{id}-{slug}/; page N is page/N/', () => {
    const ref = invision.threadRef(
      new URL('https://harbour.example.com/topic/321-mafia-12-day-1/page/3/?do=findComment&comment=5009'),
    );
    expect(ref).toEqual({
      engine: 'invision',
      url: 'https://harbour.example.com/topic/321-mafia-12-day-1/',
      id: '321',
    });
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

describeStandardGame(invision, invisionRenderer, {
  name: 'Invision',
  read: parse,
  statesPageSize: true,
  permalink: (s) => `${ORIGIN}/topic/4242-standard-game/?do=findComment&comment=${s.id}`,
  edit: { at: '2026-03-03T10:05:00.000Z', by: 'Dave' },
  // IPS spoilers carry no title of their own.
  shows: (shapes) => shapes.map((s) => (s.t === 'spoiler' ? { ...s, title: 'Spoiler' } : s)),
  spoiler: { title: 'Spoiler' },
  mention: { href: `${ORIGIN}/profile/12-bob/`, text: '@Bob' },
});
