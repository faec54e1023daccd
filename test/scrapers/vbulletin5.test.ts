import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { plainText } from '../../src/model/body.js';
import { LayoutError } from '../../src/fetch/errors.js';
import { engineFromHtml } from '../../scrapers/identify.js';
import { SiteProfile } from '../../scrapers/site-profile.js';
import { vbulletin5 } from '../../scrapers/vbulletin5.js';
import { flatText, nodesOf, textOutsideQuotes } from '../support/game-script.js';
import { asVbulletinWrites } from '../support/render/vbulletin3.js';
import { vbulletin5Renderer } from '../support/render/vbulletin5.js';
import { describeStandardGame, ORIGIN } from '../support/standard-game.js';

/**
 * The real vBulletin 5.5.2 page in ../shared/forum-samples (fandompost.vbulletin.net,
 * "Isekai Quartet Discussion Thread", page 1 of 2, 2019). Read, never copied.
 */
const SAMPLE = fileURLToPath(
  new URL('../../../shared/forum-samples/vbulletin5/nettally-vBulletin5.html', import.meta.url),
);
const haveSample = existsSync(SAMPLE);
if (!haveSample && process.env.VOTAL_REQUIRE_SAMPLES) throw new Error(`missing sample ${SAMPLE}`);

const THREAD =
  'https://fandompost.vbulletin.net/forum/anime-manga-discussions/general-anime-discussions/727744-isekai-quartet-discussion-thread';
const NOW = '2019-06-01T12:00:00Z';
const UTC = SiteProfile.parse({});
/**
 * The page's clocks: `data-node-publishdate` is unix seconds (UTC); `time[datetime]` is
 * the server's zone-less wall clock (UTC-7 here); the text is the board's display zone,
 * UTC-5 in spring 2019, i.e. America/Chicago.
 */
const CHICAGO = SiteProfile.parse({ timeZone: 'America/Chicago' });

const sample = (): string => readFileSync(SAMPLE, 'utf8');
const parse = (html = sample(), profile = UTC) => vbulletin5.parsePage(html, { url: THREAD, profile, now: NOW });

// [id, number, author, user id, posted at (UTC, from data-node-publishdate)]
const POSTS: [string, number, string, string, string][] = [
  ['727744', 1, 'Buckeye', '1712', '2019-04-09T15:37:23.000Z'],
  ['727754', 2, 'Buckeye', '1712', '2019-04-09T16:55:39.000Z'],
  ['727761', 3, 'General Hentai', '1872', '2019-04-09T18:40:18.000Z'],
  ['728407', 4, 'Buckeye', '1712', '2019-04-16T20:34:25.000Z'],
  ['728883', 5, 'Gildor', '4001', '2019-04-22T22:37:55.000Z'],
  ['728923', 6, 'Buckeye', '1712', '2019-04-23T17:51:26.000Z'],
  ['729451', 7, 'Buckeye', '1712', '2019-04-30T16:49:35.000Z'],
  ['729634', 8, 'General Hentai', '1872', '2019-05-02T03:47:09.000Z'],
  ['729662', 9, 'Gildor', '4001', '2019-05-02T16:26:34.000Z'],
  ['729825', 10, 'General Hentai', '1872', '2019-05-05T03:55:00.000Z'],
  ['729972', 11, 'Buckeye', '1712', '2019-05-07T18:37:40.000Z'],
  ['730482', 12, 'Buckeye', '1712', '2019-05-14T17:41:50.000Z'],
  ['730610', 13, 'General Hentai', '1872', '2019-05-15T06:29:07.000Z'],
  ['731121', 14, 'Buckeye', '1712', '2019-05-21T17:09:19.000Z'],
  ['731647', 15, 'Buckeye', '1712', '2019-05-29T02:02:19.000Z'],
];

describe.skipIf(!haveSample)('vBulletin 5 sample (fandompost, page 1 of 2)', () => {
  it('vBulletin 5: identified by its generator, and by body#vb-page-body without one', () => {
    expect(engineFromHtml(sample())).toBe('vbulletin5');
    expect(engineFromHtml(sample().replace(/<meta name="generator"[^>]*>/, ''))).toBe('vbulletin5');
  });

  it('vBulletin 5: title, page 1 of 2 (sidebar widgets have their own titles)', () => {
    const page = parse();
    expect(page.title).toBe('Isekai Quartet Discussion Thread');
    expect(page.page).toBe(1);
    expect(page.pageCount).toBe(2);
  });

  it("vBulletin 5: every post's author and number", () => {
    const { posts } = parse();
    expect(posts).toHaveLength(15);
    expect(posts.map((p) => [p.id, p.number, p.author, p.authorId])).toEqual(
      POSTS.map(([id, n, a, u]) => [id, n, a, u]),
    );
    expect(posts[0]!.permalink).toBe(`${THREAD}#post727744`);
    for (const p of posts.slice(1)) expect(p.permalink).toBe(`${THREAD}?p=${p.id}#post${p.id}`);
    for (const p of posts) expect(p.page).toBe(1);
  });

  it("vBulletin 5: every post's time is the exact UTC publish date, whatever the profile's zone", () => {
    expect(parse().posts.map((p) => p.postedAt)).toEqual(POSTS.map((p) => p[4]));
    expect(parse(sample(), CHICAGO).posts.map((p) => p.postedAt)).toEqual(POSTS.map((p) => p[4]));
  });

  it("vBulletin 5: without the publish date, the text is read in the board's zone (never the zone-less datetime)", () => {
    const html = sample().replace(/data-node-publishdate="\d+"/g, '');
    const posts = parse(html, CHICAGO).posts;
    // The text has minutes only: the same instants, seconds dropped.
    expect(posts.map((p) => p.postedAt)).toEqual(POSTS.map((p) => p[4].replace(/:\d\d\.000Z$/, ':00.000Z')));
  });

  it('vBulletin 5: quotes are excluded from own text', () => {
    const { posts } = parse();
    const post = posts.find((p) => p.id === '729825')!;
    const quotes = nodesOf(post.body, 'quote');
    expect(quotes.map((q) => q.author)).toEqual(['Gildor']);
    expect(plainText(quotes[0]!.children)).toContain("Kazuma's harem is really not that bad");
    const own = textOutsideQuotes(post.body);
    expect(own).toContain('Quite true.');
    expect(own).not.toContain("Kazuma's harem");
    expect(posts.flatMap((p) => nodesOf(p.body, 'quote').map((q) => q.author))).toEqual([
      'Buckeye',
      'Buckeye',
      'General Hentai',
      'Gildor',
      'Buckeye',
    ]);
    for (const p of posts) {
      expect(plainText(p.body)).not.toMatch(/Originally posted by|View Post/i);
      expect(nodesOf(p.body, 'image')).toEqual([]);
    }
  });

  it('vBulletin 5: smilies are smilies, not images; signatures and ads are not body text', () => {
    const { posts } = parse();
    expect(nodesOf(posts.find((p) => p.id === '729825')!.body, 'smilie')).toEqual([{ t: 'smilie', alt: 'Cool' }]);
    // Buckeye's signature and the ad widget after the first post stay out.
    expect(plainText(posts[0]!.body)).not.toContain('MyAnimeList');
    expect(plainText(posts[0]!.body)).not.toContain('googletag');
    expect(plainText(posts[0]!.body)).toContain('A short about characters from four different Kadokawa isekai shows');
  });

  it('vBulletin 5: the sample has no edit note; an injected .b-post__edit is read', () => {
    expect(parse().posts.filter((p) => p.edit)).toEqual([]);
    // Shape as third-party vB5 scrapers read it: editor link, then the date after ";". [C]
    const note =
      '<div class="b-post__edit h-margin-top-xl">Last edited by <a href="https://fandompost.vbulletin.net/member/1712-buckeye" data-vbnamecard="1712">Buckeye</a>; 04-09-2019, 10:45 AM.</div>';
    const html = sample();
    const at = html.indexOf('<div class="post-signature', html.indexOf('data-node-id="727744"'));
    const posts = parse(html.slice(0, at) + note + html.slice(at), CHICAGO).posts;
    expect(posts.filter((p) => p.edit).map((p) => [p.id, p.edit])).toEqual([
      [
        '727744',
        { at: '2019-04-09T15:45:00.000Z', by: 'Buckeye', text: 'Last edited by Buckeye; 04-09-2019, 10:45 AM.' },
      ],
    ]);
  });
});

describe('vBulletin 5 URLs', () => {
  it('vBulletin 5: threadRef drops page and post; pageUrl and pageOf agree', () => {
    const ref = vbulletin5.threadRef(new URL(`${THREAD}/page2?p=729825#post729825`));
    expect(ref).toEqual({ engine: 'vbulletin5', url: THREAD, id: '727744' });
    expect(vbulletin5.pageUrl(ref, 1, null)).toBe(THREAD);
    expect(vbulletin5.pageUrl(ref, 2, null)).toBe(`${THREAD}/page2`);
    expect(vbulletin5.pageOf(new URL(`${THREAD}/page2`), null)).toBe(2);
    expect(vbulletin5.pageOf(new URL(THREAD), null)).toBe(1);
  });

  it('vBulletin 5: a page without posts is a LayoutError', () => {
    const html =
      '<html><head><meta name="generator" content="vBulletin 5.5.2" /></head><body id="vb-page-body"><div class="error">Invalid Node</div></body></html>';
    expect(() => vbulletin5.parsePage(html, { url: THREAD, profile: UTC, now: NOW })).toThrow(LayoutError);
  });
});

const THREAD_PATH = '/forum/mafia-games/4242-standard-game-day-1';

describeStandardGame(
  vbulletin5,
  vbulletin5Renderer,
  {
    name: 'vBulletin 5',
    // Times: data-node-publishdate.
    permalink: (s) => `${ORIGIN}${THREAD_PATH}${s.n === 1 ? '' : `?p=${s.id}`}#post${s.id}`,
    edit: { at: '2026-03-03T10:05:00.000Z', by: 'Dave', text: 'Last edited by Dave; 03-03-2026, 10:05 AM.' },
    writes: (body) => asVbulletinWrites(body, { mentions: true }),
    quoteChrome: /Originally posted by|View Post/,
    smilies: ['Smile', 'Big Grin'],
    spoiler: false,
    mention: { href: `${ORIGIN}/member/12-bob`, text: 'Bob' },
    mountable: true,
    also: {
      pageUrls: ({ thread }) => {
        expect(vbulletin5.threadRef(new URL(`${ORIGIN}${thread.manifest.path}`)).url).toBe(`${ORIGIN}${THREAD_PATH}`);
      },
      // The zone-less datetime is the server's clock (7 hours behind here) and is not read.
      posts: ({ thread }) => {
        expect(thread.pages[0]!.body).toContain(
          '<time itemprop="dateCreated" datetime="2026-03-02T10:00:00">03-02-2026, 06:00 PM</time>',
        );
      },
      edit: ({ post }) => expect(flatText(post(13).body)).not.toContain('Last edited'),
      // Code is code without its caption.
      code: ({ post }) => expect(flatText(post(10).body)).toBe('My notes: Vote: Frank nothing else.'),
    },
  },
  ({ post }) => {
    it('no spoiler tag, so the [spoiler] BBCode stays literal around a bold vote', () => {
      expect(nodesOf(post(11).body, 'spoiler')).toEqual([]);
      expect(flatText(post(11).body)).toBe('[spoiler=secret]Vote: Dave[/spoiler]Not voting yet.');
    });
  },
);
