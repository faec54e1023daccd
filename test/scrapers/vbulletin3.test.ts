import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { plainText } from '../../src/model/body.js';
import { LayoutError } from '../../src/fetch/errors.js';
import { engineFromHtml } from '../../scrapers/identify.js';
import { SiteProfile } from '../../scrapers/site-profile.js';
import { vbulletin3 } from '../../scrapers/vbulletin3.js';
import { flatText, nodesOf, textOutsideQuotes, type Shape } from '../support/game-script.js';
import { asVbulletinWrites } from '../support/render/vbulletin3.js';
import { vbulletin3Renderer } from '../support/render/vbulletin3.js';
import { describeStandardGame, ORIGIN } from '../support/standard-game.js';

/**
 * The real vBulletin 3.8.11 page in ../shared/forum-samples (AnimeSuki, "Hibike!
 * Euphonium", page 152 of 155, Feb 2016), windows-1252 bytes. Read, never copied.
 */
const SAMPLE = fileURLToPath(
  new URL('../../../shared/forum-samples/vbulletin3/nettally-vBulletin3.html', import.meta.url),
);
const haveSample = existsSync(SAMPLE);
if (!haveSample && process.env.VOTAL_REQUIRE_SAMPLES) throw new Error(`missing sample ${SAMPLE}`);

const URL_P152 = 'https://forums.animesuki.com/showthread.php?t=128882&page=152';
const NOW = '2017-07-03T18:00:00Z';
/** Dates are text ("2016-02-01, 02:21") in the board's zone, which the page never states: assumed UTC. */
const UTC = SiteProfile.parse({});

const sample = (): string => new TextDecoder('windows-1252').decode(readFileSync(SAMPLE));
const parse = (profile = UTC) => vbulletin3.parsePage(sample(), { url: URL_P152, profile, now: NOW });

// [id, number, author, user id, posted at (UTC; board zone assumed UTC)]
const POSTS: [string, number, string, string, string][] = [
  ['5768670', 3021, 'Shirohige', '250472', '2016-02-01T02:21:00.000Z'],
  ['5768676', 3022, 'BBOvenGuy', '32968', '2016-02-01T02:29:00.000Z'],
  ['5768683', 3023, 'Romanticide', '135828', '2016-02-01T02:44:00.000Z'],
  ['5768696', 3024, 'Shirohige', '250472', '2016-02-01T03:20:00.000Z'],
  ['5768715', 3025, 'karice67', '103720', '2016-02-01T03:41:00.000Z'],
  ['5768743', 3026, 'wolfie74', '250491', '2016-02-01T04:35:00.000Z'],
  ['5768758', 3027, 'Romanticide', '135828', '2016-02-01T05:10:00.000Z'],
  ['5769003', 3028, 'BBOvenGuy', '32968', '2016-02-01T11:45:00.000Z'],
  ['5769034', 3029, 'Sagitta Luminis', '247784', '2016-02-01T12:37:00.000Z'],
  ['5769040', 3030, 'BBOvenGuy', '32968', '2016-02-01T12:59:00.000Z'],
  ['5769820', 3031, 'BBOvenGuy', '32968', '2016-02-02T14:28:00.000Z'],
  ['5770009', 3032, 'karice67', '103720', '2016-02-02T21:22:00.000Z'],
  ['5772378', 3033, 'pimathbrainiac', '260794', '2016-02-06T01:54:00.000Z'],
  ['5772383', 3034, 'Marcus H.', '95900', '2016-02-06T02:05:00.000Z'],
  ['5773041', 3035, 'pimathbrainiac', '260794', '2016-02-06T22:49:00.000Z'],
  ['5777640', 3036, 'BleedingUranium', '249819', '2016-02-12T14:11:00.000Z'],
  ['5777901', 3037, 'BBOvenGuy', '32968', '2016-02-12T22:05:00.000Z'],
  ['5778115', 3038, 'Marina2', '44739', '2016-02-13T07:21:00.000Z'],
  ['5778175', 3039, 'Proto', '11155', '2016-02-13T09:38:00.000Z'],
  ['5778211', 3040, 'Kamieichi', '218113', '2016-02-13T10:38:00.000Z'],
];

describe.skipIf(!haveSample)('vBulletin 3 sample (AnimeSuki, page 152 of 155)', () => {
  it('vBulletin 3: identified by its generator, and by its post tables without one', () => {
    const html = sample();
    expect(engineFromHtml(html)).toBe('vbulletin3');
    expect(engineFromHtml(html.replace(/<meta name="generator"[^>]*>/, ''))).toBe('vbulletin3');
  });

  it('vBulletin 3: title, page 152 of 155', () => {
    const page = parse();
    expect(page.title).toBe('(L+CR) Hibike! Euphonium [anime]');
    expect(page.page).toBe(152);
    expect(page.pageCount).toBe(155);
  });

  it("vBulletin 3: every post's author and number", () => {
    const { posts } = parse();
    expect(posts).toHaveLength(20);
    expect(posts.map((p) => [p.id, p.number, p.author, p.authorId])).toEqual(
      POSTS.map(([id, n, a, u]) => [id, n, a, u]),
    );
    for (const p of posts) {
      expect(p.page).toBe(152);
      expect(p.permalink).toBe(`https://forums.animesuki.com/showthread.php?p=${p.id}#post${p.id}`);
    }
  });

  it("vBulletin 3: every post's time is UTC, from the text in the board's zone", () => {
    const { posts } = parse();
    expect(posts.map((p) => p.postedAt)).toEqual(POSTS.map((p) => p[4]));
    for (const p of posts) expect(new Date(p.postedAt!).toISOString()).toBe(p.postedAt);
    // The same text read for a board in Tokyo (UTC+9).
    const tokyo = parse(SiteProfile.parse({ timeZone: 'Asia/Tokyo' })).posts;
    expect(tokyo[0]!.postedAt).toBe('2016-01-31T17:21:00.000Z'); // "2016-02-01, 02:21"
    expect(tokyo[19]!.postedAt).toBe('2016-02-13T01:38:00.000Z'); // "2016-02-13, 10:38"
  });

  it('vBulletin 3: quotes are quote nodes with their author; quoted text is excluded from own text', () => {
    const { posts } = parse();
    const first = posts[0]!;
    const quotes = nodesOf(first.body, 'quote');
    // "Originally Posted by <strong>X</strong>" names a quote; the other two are bare [QUOTE]s.
    expect(quotes.map((q) => q.author)).toEqual(['TinyRedLeaf', null, null, 'Romanticide']);
    expect(plainText(quotes[0]!.children)).toContain("Well, what's offensive to me");
    expect(plainText(quotes[1]!.children)).toContain('Sexual orientation is a broad spectrum.');
    const own = textOutsideQuotes(first.body);
    expect(own).toContain('Let me reword it from lesbians');
    expect(own).toContain('X2');
    expect(own).not.toContain("what's offensive to me");
    expect(own).not.toContain('Sexual orientation is a broad spectrum');
    // The "Quote:" caption, the "Originally Posted by" line and its view-post button are chrome.
    for (const p of posts) {
      expect(plainText(p.body)).not.toMatch(/Originally Posted by|^\s*Quote:/m);
      expect(nodesOf(p.body, 'image')).toEqual([]);
    }
    expect(nodesOf(posts.find((p) => p.id === '5770009')!.body, 'quote').map((q) => q.author)).toEqual([
      'wolfie74',
      null,
      'karice67',
      'Kamieichi',
      null,
    ]);
    // The last one is a bare [QUOTE] nested in Kamieichi's: it keeps no name of its own.
    const kamieichi = nodesOf(posts.find((p) => p.id === '5770009')!.body, 'quote').find(
      (q) => q.author === 'Kamieichi',
    )!;
    expect(nodesOf(kamieichi.children, 'quote').map((q) => q.author)).toEqual([null]);
  });

  it('vBulletin 3: smilies (img.inlineimg from the smilies folder) are smilies, not images', () => {
    const { posts } = parse();
    const post = posts.find((p) => p.id === '5769820')!;
    expect(nodesOf(post.body, 'smilie').map((s) => s.alt)).toEqual(['Stick Out Tongue', 'Smile', 'Twitch', 'Big Grin']);
    expect(nodesOf(post.body, 'image')).toEqual([]);
  });

  it('vBulletin 3: "Last edited by X; DATE at TIME." is an edit marker with editor and time', () => {
    const { posts } = parse();
    const edits = posts.filter((p) => p.edit).map((p) => [p.id, p.edit]);
    expect(edits).toEqual([
      [
        '5768696',
        { at: '2016-02-01T03:31:00.000Z', by: 'Shirohige', text: 'Last edited by Shirohige; 2016-02-01 at 03:31.' },
      ],
      [
        '5768715',
        { at: '2016-02-01T05:50:00.000Z', by: 'karice67', text: 'Last edited by karice67; 2016-02-01 at 05:50.' },
      ],
      [
        '5778115',
        { at: '2016-02-13T07:31:00.000Z', by: 'Marina2', text: 'Last edited by Marina2; 2016-02-13 at 07:31.' },
      ],
    ]);
  });

  it('vBulletin 3: signatures and the edit note are not body text', () => {
    const karice = parse().posts.find((p) => p.id === '5768715')!;
    expect(plainText(karice.body)).not.toContain('You must free yourself from that illusion'); // her signature
    expect(plainText(karice.body)).not.toContain('Last edited');
  });
});

describe('vBulletin 3 URLs', () => {
  it('vBulletin 3: threadRef drops page, post and session; pageUrl and pageOf agree', () => {
    const ref = vbulletin3.threadRef(new URL(`${URL_P152}&s=03ba67d9ff8d5d12b48b2f4b75944915`));
    expect(ref).toEqual({
      engine: 'vbulletin3',
      url: 'https://forums.animesuki.com/showthread.php?t=128882',
      id: '128882',
    });
    expect(vbulletin3.pageUrl(ref, 1, null)).toBe(ref.url);
    expect(vbulletin3.pageUrl(ref, 152, null)).toBe(URL_P152);
    expect(vbulletin3.pageOf(new URL(URL_P152), null)).toBe(152);
    expect(vbulletin3.pageOf(new URL(ref.url), null)).toBe(1);
  });

  it('vBulletin 3: a page without posts is a LayoutError', () => {
    const html =
      '<html><head><meta name="generator" content="vBulletin 3.8.11" /></head><body><div id="posts"></div></body></html>';
    expect(() => vbulletin3.parsePage(html, { url: URL_P152, profile: UTC, now: NOW })).toThrow(LayoutError);
  });
});

/** vB 3 prints a named quote's message in an italic div: that italic is the quote's styling. */
const plainQuotes = (shapes: Shape[]): Shape[] =>
  shapes.flatMap((s): Shape[] => {
    if (s.t === 'quote')
      return [{ ...s, children: plainQuotes(s.children.flatMap((c) => (c.t === 'italic' ? c.children : [c]))) }];
    return 'children' in s ? [{ ...s, children: plainQuotes(s.children) } as Shape] : [s];
  });

describeStandardGame(
  vbulletin3,
  vbulletin3Renderer,
  {
    name: 'vBulletin 3',
    bareBodies: true,
    permalink: (s) => `${ORIGIN}/showthread.php?p=${s.id}#post${s.id}`, // times: text in the board's zone, UTC
    edit: { at: '2026-03-03T10:05:00.000Z', by: 'Dave', text: 'Last edited by Dave; 2026-03-03 at 10:05.' },
    writes: (body) => asVbulletinWrites(body, { mentions: false }),
    reads: plainQuotes,
    quoteChrome: /Quote:|Originally Posted by/,
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
