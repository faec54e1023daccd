import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { plainText } from '../../src/model/body.js';
import { LayoutError } from '../../src/fetch/errors.js';
import { engineFromHtml } from '../../scrapers/identify.js';
import { SiteProfile } from '../../scrapers/site-profile.js';
import { vbulletin4 } from '../../scrapers/vbulletin4.js';
import { flatText, nodesOf, textOutsideQuotes } from '../support/game-script.js';
import { asVbulletinWrites } from '../support/render/vbulletin3.js';
import { vbulletin4Renderer } from '../support/render/vbulletin4.js';
import { describeStandardGame, ORIGIN } from '../support/standard-game.js';

/**
 * The real vBulletin 4.2.3 page in ../shared/forum-samples (forums.militarytimes.com,
 * thread 9687, page 1 of 2, 2016). Read, never copied.
 */
const SAMPLE = fileURLToPath(
  new URL('../../../shared/forum-samples/vbulletin4/nettally-vBulletin4.html', import.meta.url),
);
const haveSample = existsSync(SAMPLE);
if (!haveSample && process.env.VOTAL_REQUIRE_SAMPLES) throw new Error(`missing sample ${SAMPLE}`);

const THREAD =
  'http://forums.militarytimes.com/showthread.php/9687-Legendary-military-columnist-author-Bob-Dorr-dies-at-76';
const NOW = '2017-07-03T18:00:00Z';
/** Dates are text ("06-15-2016, 03:03 PM", m-d-Y) in the board's zone, never stated: assumed UTC. */
const UTC = SiteProfile.parse({});

const sample = (): string => readFileSync(SAMPLE, 'utf8');
const parse = (html = sample(), profile = UTC) => vbulletin4.parsePage(html, { url: THREAD, profile, now: NOW });

// [id, number, author, user id, posted at (UTC; board zone assumed UTC)]
const POSTS: [string, number, string, string, string][] = [
  ['365266', 1, 'Rainmaker', '13985', '2016-06-15T15:03:00.000Z'],
  ['365267', 2, 'Mjölnir', '15870', '2016-06-15T17:21:00.000Z'],
  ['365268', 3, 'sandsjames', '8611', '2016-06-15T17:39:00.000Z'],
  ['365271', 4, 'Mjölnir', '15870', '2016-06-15T19:50:00.000Z'],
  ['365272', 5, 'Rainmaker', '13985', '2016-06-15T20:15:00.000Z'],
  ['365273', 6, 'sandsjames', '8611', '2016-06-15T20:15:00.000Z'],
  ['365274', 7, 'Mjölnir', '15870', '2016-06-15T20:18:00.000Z'],
  ['365275', 8, 'Mjölnir', '15870', '2016-06-15T20:18:00.000Z'],
  ['367740', 9, 'giggawatt', '14466', '2016-09-19T13:01:00.000Z'],
  ['367742', 10, 'sandsjames', '8611', '2016-09-19T14:38:00.000Z'],
];

describe.skipIf(!haveSample)('vBulletin 4 sample (militarytimes, page 1 of 2)', () => {
  it('vBulletin 4: identified by its generator, and by html#vbulletin_html without one', () => {
    expect(engineFromHtml(sample())).toBe('vbulletin4');
    expect(engineFromHtml(sample().replace(/<meta name="generator"[^>]*>/, ''))).toBe('vbulletin4');
  });

  it('vBulletin 4: title, page 1 of 2', () => {
    const page = parse();
    expect(page.title).toBe('Legendary military columnist, author Bob Dorr dies at 76');
    expect(page.page).toBe(1);
    expect(page.pageCount).toBe(2);
  });

  it("vBulletin 4: every post's author and number", () => {
    const { posts } = parse();
    expect(posts).toHaveLength(10);
    expect(posts.map((p) => [p.id, p.number, p.author, p.authorId])).toEqual(
      POSTS.map(([id, n, a, u]) => [id, n, a, u]),
    );
    for (const p of posts) {
      expect(p.page).toBe(1);
      // Relative to <base href="http://forums.militarytimes.com/">.
      expect(p.permalink).toBe(`${THREAD}?p=${p.id}&viewfull=1#post${p.id}`);
    }
  });

  it("vBulletin 4: every post's time is UTC, from the text in the board's zone", () => {
    const { posts } = parse();
    expect(posts.map((p) => p.postedAt)).toEqual(POSTS.map((p) => p[4]));
    for (const p of posts) expect(new Date(p.postedAt!).toISOString()).toBe(p.postedAt);
    // The same text read for a board in New York (EDT, UTC-4, in June and September).
    const ny = parse(sample(), SiteProfile.parse({ timeZone: 'America/New_York' })).posts;
    expect(ny[0]!.postedAt).toBe('2016-06-15T19:03:00.000Z'); // "06-15-2016, 03:03 PM"
    expect(ny[9]!.postedAt).toBe('2016-09-19T18:38:00.000Z'); // "09-19-2016, 02:38 PM"
  });

  it('vBulletin 4: quotes are excluded from own text', () => {
    const { posts } = parse();
    const post = posts.find((p) => p.id === '365272')!;
    const quotes = nodesOf(post.body, 'quote');
    expect(quotes.map((q) => q.author)).toEqual(['sandsjames']);
    expect(plainText(quotes[0]!.children)).toContain('he taught me that two spaces after a period is incorrect');
    const own = textOutsideQuotes(post.body);
    expect(own).toContain('and who could forget');
    expect(own).not.toContain('two spaces after a period');
    expect(posts.flatMap((p) => nodesOf(p.body, 'quote').map((q) => q.author))).toEqual([
      'sandsjames',
      'Mjölnir',
      'sandsjames',
      'sandsjames',
      'giggawatt',
    ]);
    for (const p of posts) {
      // "Originally Posted by", its icon and the view-post arrow are chrome.
      expect(plainText(p.body)).not.toContain('Originally Posted by');
      expect(nodesOf(p.body, 'image')).toEqual([]);
    }
  });

  it('vBulletin 4: smilies are smilies, not images, inside quotes too', () => {
    const { posts } = parse();
    expect(nodesOf(posts.find((p) => p.id === '365271')!.body, 'smilie')).toEqual([{ t: 'smilie', alt: 'Smile' }]);
    const quoted = nodesOf(posts.find((p) => p.id === '365273')!.body, 'quote')[0]!;
    expect(nodesOf(quoted.children, 'smilie')).toEqual([{ t: 'smilie', alt: 'Smile' }]);
  });

  it('vBulletin 4: links in the body keep their target; signatures are not body text', () => {
    const first = parse().posts[0]!;
    expect(nodesOf(first.body, 'link').map((l) => [l.kind, l.href])).toEqual([
      [
        'external',
        'http://www.airforcetimes.com/story/military/2016/06/14/legendary-military-columnist-author-bob-dorr-dies-76/85869288/',
      ],
    ]);
    const mjolnir = parse().posts[1]!;
    expect(plainText(mjolnir.body)).not.toContain('The most important six inches');
  });

  it('vBulletin 4: the sample has no edit note; an injected one (live vB4 markup) is read', () => {
    expect(parse().posts.filter((p) => p.edit)).toEqual([]);
    // blockquote.postcontent.lastedited follows div.content in the post row (ubuntuforums, vB 4).
    const note =
      '<blockquote class="postcontent lastedited">\n\t\t\t\t\tLast edited by Rainmaker; 06-15-2016 at <span class="time">08:20 PM</span>.\n\t\t\t\t</blockquote>';
    const html = sample();
    const at = html.indexOf('<div class="cleardiv"></div>', html.indexOf('id="post_message_365272"'));
    const posts = parse(html.slice(0, at) + note + html.slice(at)).posts;
    expect(posts.filter((p) => p.edit).map((p) => [p.id, p.edit])).toEqual([
      [
        '365272',
        { at: '2016-06-15T20:20:00.000Z', by: 'Rainmaker', text: 'Last edited by Rainmaker; 06-15-2016 at 08:20 PM.' },
      ],
    ]);
    expect(plainText(posts[4]!.body)).not.toContain('Last edited');
  });
});

describe('vBulletin 4 URLs', () => {
  it('vBulletin 4: threadRef for every URL style; pageUrl and pageOf agree', () => {
    const path = vbulletin4.threadRef(new URL(`${THREAD}/page2?s=abc#post365266`));
    expect(path).toEqual({ engine: 'vbulletin4', url: THREAD, id: '9687' });
    expect(vbulletin4.pageUrl(path, 2, null)).toBe(`${THREAD}/page2`);
    expect(vbulletin4.pageOf(new URL(`${THREAD}/page2`), null)).toBe(2);

    const query = vbulletin4.threadRef(new URL('https://f.example/forum/showthread.php?t=9687&page=3&s=abc'));
    expect(query).toEqual({ engine: 'vbulletin4', url: 'https://f.example/forum/showthread.php?t=9687', id: '9687' });
    expect(vbulletin4.pageUrl(query, 3, null)).toBe('https://f.example/forum/showthread.php?t=9687&page=3');
    expect(vbulletin4.pageOf(new URL('https://f.example/forum/showthread.php?t=9687&page=3'), null)).toBe(3);

    const basic = vbulletin4.threadRef(new URL('https://f.example/showthread.php?9687-A-Game/page4'));
    expect(basic).toEqual({ engine: 'vbulletin4', url: 'https://f.example/showthread.php?9687-A-Game', id: '9687' });
    expect(vbulletin4.pageUrl(basic, 4, null)).toBe('https://f.example/showthread.php?9687-A-Game/page4');
    expect(vbulletin4.pageOf(new URL('https://f.example/showthread.php?9687-A-Game/page4'), null)).toBe(4);

    expect(vbulletin4.threadRef(new URL('https://f.example/threads/9687-a-game/page5'))).toEqual({
      engine: 'vbulletin4',
      url: 'https://f.example/threads/9687-a-game',
      id: '9687',
    });
    expect(vbulletin4.pageOf(new URL(THREAD), null)).toBe(1);
  });

  it('vBulletin 4: a page without posts is a LayoutError', () => {
    const html =
      '<html id="vbulletin_html"><head><title>x</title></head><body><div class="standard_error">No Thread specified.</div></body></html>';
    expect(() => vbulletin4.parsePage(html, { url: THREAD, profile: UTC, now: NOW })).toThrow(LayoutError);
  });
});

describeStandardGame(
  vbulletin4,
  vbulletin4Renderer,
  {
    name: 'vBulletin 4',
    // Times: "03-02-2026, 06:00 PM" in the board's zone, UTC.
    permalink: (s) => `${ORIGIN}/showthread.php/4242-Standard-Game-Day-1?p=${s.id}&viewfull=1#post${s.id}`,
    edit: { at: '2026-03-03T10:05:00.000Z', by: 'Dave', text: 'Last edited by Dave; 03-03-2026 at 10:05 AM.' },
    writes: (body) => asVbulletinWrites(body, { mentions: false }),
    quoteChrome: /Originally Posted by/,
    smilies: ['Smile', 'Big Grin'],
    spoiler: false,
    mention: null,
    mountable: true,
    also: {
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
