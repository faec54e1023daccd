import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ThreadPage } from '../../scrapers/adapter.js';
import { phpbb } from '../../scrapers/phpbb.js';
import { DEFAULT_PROFILE, SiteProfile } from '../../scrapers/site-profile.js';
import type { Post } from '../../src/model/post.js';
import { packageRoot } from '../../src/config/package-root.js';
import { flatText, nodesOf, textOutsideQuotes } from '../support/game-script.js';
import { phpbbRenderer } from '../support/render/phpbb.js';
import { describeStandardGame, ORIGIN } from '../support/standard-game.js';

const root = packageRoot(import.meta.url);
const samples = resolve(root, '../shared/forum-samples');
const samplePath = join(samples, 'phpbb3', 'nettally-phpBB.html');
const haveSample = existsSync(samplePath);
if (!haveSample) console.warn(`[phpbb] real forum sample not found at ${samplePath}: skipping the real-page tests`);

const NOW = '2019-06-02T12:00:00Z';
const parse = (html: string, url: string, profile: SiteProfile = DEFAULT_PROFILE): ThreadPage =>
  phpbb.parsePage(html, { url, profile, now: NOW });

describe.skipIf(!haveSample)('phpBB 3.0 real page (nettally-phpBB.html, ilovephilosophy.com, page 2 of 10)', () => {
  const url = 'https://www.ilovephilosophy.com/viewtopic.php?f=1&t=194998&start=25';
  const html = haveSample ? readFileSync(samplePath, 'utf8') : '';
  const page = haveSample ? parse(html, url) : (null as unknown as ThreadPage);
  const post = (id: string): Post => page.posts.find((p) => p.id === id)!;

  // [id, author, user id, UTC time of the printed text in a UTC board]
  const expected: [string, string, string, string][] = [
    ['2729870', 'Jakob', '5996', '2019-05-26T16:34'],
    ['2729871', 'promethean75', '43701', '2019-05-26T16:43'],
    ['2729874', 'Urwrongx1000', '42956', '2019-05-26T17:25'],
    ['2729875', 'Jakob', '5996', '2019-05-26T17:28'],
    ['2729876', 'Jakob', '5996', '2019-05-26T17:32'],
    ['2729877', 'Jakob', '5996', '2019-05-26T17:33'],
    ['2729878', 'Urwrongx1000', '42956', '2019-05-26T17:34'],
    ['2729880', 'Jakob', '5996', '2019-05-26T17:39'],
    ['2729881', 'Urwrongx1000', '42956', '2019-05-26T17:42'],
    ['2729884', 'Jakob', '5996', '2019-05-26T17:48'],
    ['2729885', 'Jakob', '5996', '2019-05-26T17:55'],
    ['2729886', 'Jakob', '5996', '2019-05-26T18:00'],
    ['2729887', 'Jakob', '5996', '2019-05-26T18:03'],
    ['2729888', 'Jakob', '5996', '2019-05-26T18:04'],
    ['2729891', 'Artimas', '41855', '2019-05-26T18:38'],
    ['2729894', 'Jakob', '5996', '2019-05-26T19:23'],
    ['2729897', 'Artimas', '41855', '2019-05-26T19:42'],
    ['2729898', 'Jakob', '5996', '2019-05-26T19:57'],
    ['2729899', 'Artimas', '41855', '2019-05-26T20:02'],
    ['2730367', 'Silhouette', '520', '2019-05-31T19:29'],
    ['2730389', 'promethean75', '43701', '2019-06-01T01:09'],
    ['2730390', 'promethean75', '43701', '2019-06-01T01:23'],
    ['2730437', 'Urwrongx1000', '42956', '2019-06-01T17:46'],
    ['2730441', 'Artimas', '41855', '2019-06-01T18:58'],
    ['2730442', 'promethean75', '43701', '2019-06-01T19:20'],
  ];

  it("reads all 25 posts with the forum's ids, authors and user ids", () => {
    expect(page.posts.map((p) => [p.id, p.author, p.authorId])).toEqual(expected.map(([id, a, u]) => [id, a, u]));
  });

  it("numbers posts from the page's start offset: page 2 of 25 a page begins at #26", () => {
    expect(page.posts.map((p) => p.number)).toEqual(Array.from({ length: 25 }, (_, i) => 26 + i));
    expect(page.posts.every((p) => p.page === 2)).toBe(true);
  });

  it('reads "Page 2 of 10" and 25 posts per page from the start= links', () => {
    expect(page).toMatchObject({ page: 2, pageCount: 10, postsPerPage: 25 });
    expect(page.title).toBe('Biological Will');
  });

  it("reads text-only post times in the board's zone (UTC by default) as UTC instants", () => {
    expect(page.posts.map((p) => p.postedAt)).toEqual(expected.map(([, , , t]) => `${t}:00.000Z`));
  });

  it('reads text-only post times in the zone a site profile names', () => {
    const london = parse(html, url, SiteProfile.parse({ timeZone: 'Europe/London' }));
    // "Sun May 26, 2019 4:34 pm" is 15:34 UTC in British Summer Time.
    expect(london.posts[0]!.postedAt).toBe('2019-05-26T15:34:00.000Z');
    expect(london.posts[24]!.postedAt).toBe('2019-06-01T18:20:00.000Z');
  });

  it('permalinks are viewtopic.php?p=ID#pID', () => {
    expect(post('2729870').permalink).toBe('https://www.ilovephilosophy.com/viewtopic.php?p=2729870#p2729870');
    for (const p of page.posts)
      expect(p.permalink).toBe(`https://www.ilovephilosophy.com/viewtopic.php?p=${p.id}#p${p.id}`);
  });

  it('sees every "Last edited by" notice, with editor and time', () => {
    expect((html.match(/class="notice"/g) ?? []).length).toBe(2);
    expect(page.posts.filter((p) => p.edit).map((p) => p.id)).toEqual(['2729877', '2729880']);
    expect(post('2729877').edit).toEqual({
      at: '2019-05-26T17:35:00.000Z',
      by: 'Jakob',
      text: 'Last edited by Jakob on Sun May 26, 2019 5:35 pm, edited 2 times in total.',
    });
    expect(post('2729880').edit).toMatchObject({ at: '2019-05-26T17:42:00.000Z', by: 'Jakob' });
  });

  it('"X wrote:" quotes are quote nodes with author X; uncited quotes have none', () => {
    const authors = Object.fromEntries(page.posts.map((p) => [p.id, nodesOf(p.body, 'quote').map((q) => q.author)]));
    expect(authors).toMatchObject({
      '2729875': [null],
      '2729876': ['Urwrongx1000'],
      '2729880': [null],
      '2729881': ['Jakob'],
      '2729891': ['Jakob'],
      '2729894': [null],
      '2729897': ['Jakob', null],
      '2729899': ['Jakob'],
      '2730367': ['promethean75', 'Silhouette', 'Silhouette'],
      '2730389': [null],
      '2730441': ['promethean75'],
      '2730442': [null],
    });
    expect(page.posts.filter((p) => nodesOf(p.body, 'quote').length > 0)).toHaveLength(12);
  });

  it('a quote nested in a quote keeps its own author', () => {
    const top = post('2730367').body.flatMap((n) => (n.t === 'quote' ? [n] : []));
    expect(top.map((q) => q.author)).toEqual(['promethean75', 'Silhouette']);
    expect(nodesOf(top[0]!.children, 'quote').map((q) => q.author)).toEqual(['Silhouette']);
  });

  it("a quote's text never appears outside its quote node", () => {
    expect(textOutsideQuotes(post('2729876').body)).not.toContain("I'll simply define");
    expect(textOutsideQuotes(post('2730442').body)).toBe("Ohhhh no you don't.");
    for (const p of page.posts) {
      for (const q of nodesOf(p.body, 'quote')) {
        expect(textOutsideQuotes(p.body)).not.toContain(flatText(q.children).slice(0, 40));
      }
    }
  });

  it('the cite line ("X wrote:") is chrome, not text', () => {
    for (const p of page.posts) expect(flatText(p.body)).not.toMatch(/\bwrote:/);
  });

  it('posted pictures are images; signatures are not part of the body', () => {
    expect(nodesOf(post('2729894').body, 'image').map((i) => i.src)).toEqual([
      'https://i.makeagif.com/media/12-16-2015/npz5Cb.gif',
      'https://i.gifer.com/PNzq.gif',
      'https://i.gifer.com/PNzq.gif',
      'https://i.makeagif.com/media/12-16-2015/npz5Cb.gif',
    ]);
    // Jakob's signature is a tumblr gif and an italic line: neither is in his post.
    expect(nodesOf(post('2729870').body, 'image')).toEqual([]);
    expect(flatText(post('2729870').body)).not.toContain('For behold');
    expect(page.posts.flatMap((p) => nodesOf(p.body, 'smilie'))).toEqual([]);
  });

  it('postlink-local links are internal, postlink links to other sites external', () => {
    expect(nodesOf(post('2729874').body, 'link').map((l) => [l.kind, l.href])).toEqual([
      ['internal', 'http://www.ilovephilosophy.com/viewtopic.php?f=6&t=194003'],
    ]);
    expect(nodesOf(post('2729871').body, 'link').map((l) => [l.kind, l.href])).toEqual([
      ['external', 'https://vocaroo.com/i/s0WJlPuchytm'],
    ]);
    expect(nodesOf(post('2730389').body, 'link').map((l) => l.kind)).toEqual(['external']);
    // A plain postlink back to the same board (http, www) is still internal.
    expect(nodesOf(post('2730367').body, 'link').map((l) => l.kind)).toEqual(['internal']);
  });

  it('phpBB 3.0 inline styles are read: italic and underline spans', () => {
    expect(nodesOf(post('2729874').body, 'italic').map((i) => flatText(i.children))).toContain('biological need');
    expect(nodesOf(post('2729886').body, 'underline')).toHaveLength(1);
  });
});

describe('phpBB thread URLs', () => {
  it('the thread keeps f and t and drops start, sid and post anchors', () => {
    const ref = phpbb.threadRef(
      new URL('https://board.test/viewtopic.php?f=1&t=194998&start=25&sid=0123abcd#p2729870'),
    );
    expect(ref).toEqual({ engine: 'phpbb', url: 'https://board.test/viewtopic.php?f=1&t=194998', id: '194998' });
  });

  it('page N is start=(N-1)*per-page', () => {
    const ref = phpbb.threadRef(new URL('https://board.test/viewtopic.php?f=2&t=4242'));
    expect(phpbb.pageUrl(ref, 1, 8)).toBe('https://board.test/viewtopic.php?f=2&t=4242');
    expect(phpbb.pageUrl(ref, 3, 8)).toBe('https://board.test/viewtopic.php?f=2&t=4242&start=16');
    expect(phpbb.pageOf(new URL('https://board.test/viewtopic.php?f=2&t=4242&start=16'), 8)).toBe(3);
    expect(phpbb.pageOf(new URL('https://board.test/viewtopic.php?f=2&t=4242'), 8)).toBe(1);
  });
});

describeStandardGame(
  phpbb,
  phpbbRenderer,
  {
    name: 'phpBB',
    read: parse,
    bareBodies: true,
    statesPageSize: true,
    pageUrlsNeedSize: true,
    permalink: (s) => `${ORIGIN}/viewtopic.php?p=${s.id}#p${s.id}`,
    mountable: true,
    edit: {
      at: '2026-03-03T10:05:00.000Z',
      by: 'Dave',
      text: 'Last edited by Dave on Tue Mar 03, 2026 10:05 am, edited 1 time in total.',
    },
    quoteChrome: /wrote|2026|↑/, // the cite lines (links, dates)
    codeChrome: /Select all/,
    mention: { href: `${ORIGIN}/memberlist.php?mode=viewprofile&u=12`, text: '@Bob' },
    cut: { page: 2, keep: 0.7 },
    noPosts: {
      html: '<!DOCTYPE html><html><body id="phpbb"><p>The requested topic does not exist.</p></body></html>',
      url: `${ORIGIN}/viewtopic.php?t=1`,
    },
    also: {
      // A code box is one code node, exactly its text, without its "Code: Select all" header.
      code: ({ post }) => expect(nodesOf(post(10).body, 'code').map((c) => c.text)).toEqual(['Vote: Frank']),
    },
  },
  ({ script, thread, post }) => {
    it("the staff colour on the host's name does not change the author", () => {
      expect(thread.pages[0]!.body).toContain('class="username-coloured">Moderator</a>');
      expect(post(1)).toMatchObject({ author: 'Moderator', authorId: '1' });
    });

    it('a thread over 6 pages prints "Page N of M", and the count comes from it', () => {
      const long = phpbbRenderer.render({ ...script, thread: { ...script.thread, postsPerPage: 3 } });
      expect(long).toHaveLength(8);
      const p4 = long[3]!;
      expect(p4.body).toContain('Page <strong>4</strong> of <strong>8</strong>');
      const read = parse(p4.body, `${ORIGIN}${p4.path}`);
      expect(read).toMatchObject({ page: 4, pageCount: 8, postsPerPage: 3 });
      expect(read.posts.map((p) => [p.number, p.id])).toEqual([
        [10, '9010'],
        [11, '9011'],
        [12, '9012'],
      ]);
      const last = parse(long[7]!.body, `${ORIGIN}${long[7]!.path}`);
      expect(last).toMatchObject({ page: 8, pageCount: 8, postsPerPage: 3 });
      expect(last.posts.map((p) => p.number)).toEqual([22]);
    });
  },
);
