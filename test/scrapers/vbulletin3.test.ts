import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixtureFiles, staleFiles } from '../../scripts/build-fixtures.js';
import type { ThreadPage } from '../../scrapers/adapter.js';
import { plainText } from '../../src/model/body.js';
import { LayoutError, TruncatedPageError } from '../../src/fetch/errors.js';
import type { Post } from '../../src/model/post.js';
import { packageRoot } from '../../src/config/package-root.js';
import { engineFromHtml } from '../../scrapers/identify.js';
import { SiteProfile } from '../../scrapers/site-profile.js';
import { vbulletin3 } from '../../scrapers/vbulletin3.js';
import {
  bodyShape, flatText, loadGameScript, nodesOf, scriptShape, textOutsideQuotes, type Shape,
} from '../support/game-script.js';
import { readFixtureThread } from '../support/render/index.js';
import { asVbulletinWrites } from '../support/render/vbulletin3.js';

/**
 * The real vBulletin 3.8.11 page in ../shared/forum-samples (AnimeSuki, "Hibike!
 * Euphonium", page 152 of 155, Feb 2016), windows-1252 bytes. Read, never copied.
 */
const SAMPLE = fileURLToPath(new URL('../../../shared/forum-samples/vbulletin3/nettally-vBulletin3.html', import.meta.url));
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
    expect(posts.map((p) => [p.id, p.number, p.author, p.authorId])).toEqual(POSTS.map(([id, n, a, u]) => [id, n, a, u]));
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
    expect(nodesOf(posts.find((p) => p.id === '5770009')!.body, 'quote').map((q) => q.author))
      .toEqual(['wolfie74', null, 'karice67', 'Kamieichi', null]);
    // The last one is a bare [QUOTE] nested in Kamieichi's: it keeps no name of its own.
    const kamieichi = nodesOf(posts.find((p) => p.id === '5770009')!.body, 'quote').find((q) => q.author === 'Kamieichi')!;
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
      ['5768696', { at: '2016-02-01T03:31:00.000Z', by: 'Shirohige', text: 'Last edited by Shirohige; 2016-02-01 at 03:31.' }],
      ['5768715', { at: '2016-02-01T05:50:00.000Z', by: 'karice67', text: 'Last edited by karice67; 2016-02-01 at 05:50.' }],
      ['5778115', { at: '2016-02-13T07:31:00.000Z', by: 'Marina2', text: 'Last edited by Marina2; 2016-02-13 at 07:31.' }],
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
    expect(ref).toEqual({ engine: 'vbulletin3', url: 'https://forums.animesuki.com/showthread.php?t=128882', id: '128882' });
    expect(vbulletin3.pageUrl(ref, 1, null)).toBe(ref.url);
    expect(vbulletin3.pageUrl(ref, 152, null)).toBe(URL_P152);
    expect(vbulletin3.pageOf(new URL(URL_P152), null)).toBe(152);
    expect(vbulletin3.pageOf(new URL(ref.url), null)).toBe(1);
  });

  it('vBulletin 3: a page without posts is a LayoutError', () => {
    const html = '<html><head><meta name="generator" content="vBulletin 3.8.11" /></head><body><div id="posts"></div></body></html>';
    expect(() => vbulletin3.parsePage(html, { url: URL_P152, profile: UTC, now: NOW })).toThrow(LayoutError);
  });
});

describe('vBulletin 3 standard game (fixtures/vbulletin3/standard-game)', () => {
  const root = packageRoot(import.meta.url);
  const ORIGIN = 'http://forum.test';
  const script = loadGameScript(join(root, 'fixtures/games/standard-game.yaml'));
  const thread = readFixtureThread(root, 'vbulletin3', 'standard-game');
  const read = (body: string, url: string): ThreadPage => vbulletin3.parsePage(body, { url, profile: UTC, now: '2026-03-10T00:00:00Z' });
  const pages = thread.pages.map((p) => ({ url: `${ORIGIN}${p.path}`, read: read(p.body, `${ORIGIN}${p.path}`) }));
  const posts = pages.flatMap((p) => p.read.posts);
  const post = (n: number): Post => posts.find((p) => p.number === n)!;

  /** vB 3 prints a named quote's message in an italic div: that italic is the quote's styling. */
  const plainQuotes = (shapes: Shape[]): Shape[] => shapes.flatMap((s): Shape[] => {
    if (s.t === 'quote') return [{ ...s, children: plainQuotes(s.children.flatMap((c) => (c.t === 'italic' ? c.children : [c]))) }];
    return 'children' in s ? [{ ...s, children: plainQuotes(s.children) } as Shape] : [s];
  });

  it('vBulletin 3: the committed fixture pages are what the renderer makes (no drift)', () => {
    expect(staleFiles(fixtureFiles(root, ['vbulletin3'])).map((f) => f.path), 'run: npx tsx scripts/build-fixtures.ts').toEqual([]);
  });

  it("vBulletin 3: the adapter's page URLs are the fixture forum's page paths", () => {
    const ref = vbulletin3.threadRef(new URL(`${ORIGIN}${thread.manifest.path}`));
    expect(thread.manifest.pages.map((p) => vbulletin3.pageUrl(ref, p.page, null))).toEqual(thread.manifest.pages.map((p) => `${ORIGIN}${p.path}`));
    expect(engineFromHtml(thread.pages[0]!.body)).toBe('vbulletin3');
  });

  it('vBulletin 3: three pages of 8, 8 and 6 posts, each saying which page of 3 it is', () => {
    expect(pages.map((p) => [p.read.page, p.read.pageCount, p.read.posts.length])).toEqual([[1, 3, 8], [2, 3, 8], [3, 3, 6]]);
    expect(pages.every((p) => p.read.title === 'Standard Game - Day 1')).toBe(true);
  });

  it("vBulletin 3: every post has the script's number, id, author, user id, time and permalink", () => {
    expect(posts.map((p) => ({ n: p.number, id: p.id, author: p.author, authorId: p.authorId, at: p.postedAt, permalink: p.permalink, page: p.page }))).toEqual(
      script.posts.map((s) => ({
        n: s.n,
        id: String(s.id),
        author: s.author,
        authorId: String(script.thread.forumUserIds[s.author]),
        at: new Date(s.time).toISOString(), // text in the board's zone, UTC
        permalink: `${ORIGIN}/showthread.php?p=${s.id}#post${s.id}`,
        page: Math.ceil(s.n / 8),
      })),
    );
  });

  it('vBulletin 3: only the edited post carries an edit marker, with its time and editor', () => {
    expect(posts.filter((p) => p.edit).map((p) => p.number)).toEqual([13]);
    expect(post(13).edit).toEqual({ at: '2026-03-03T10:05:00.000Z', by: 'Dave', text: 'Last edited by Dave; 2026-03-03 at 10:05.' });
  });

  it('vBulletin 3: every post body reads back as a vBulletin board lets the script be written', () => {
    for (const s of script.posts) {
      const page = pages[Math.ceil(s.n / 8) - 1]!;
      expect(plainQuotes(bodyShape(post(s.n).body)), `post ${s.n}`).toEqual(scriptShape(asVbulletinWrites(s.body, { mentions: false }), page.url));
    }
  });

  it('vBulletin 3: quoted votes stay in quote nodes, nested quotes keep each author', () => {
    expect(nodesOf(post(3).body, 'quote').map((q) => q.author)).toEqual(['Alice']);
    expect(textOutsideQuotes(post(3).body)).toBe('Why me? Vote: Alice');
    expect(nodesOf(post(16).body, 'quote').map((q) => q.author)).toEqual(['Frank', 'Alice']);
    expect(textOutsideQuotes(post(16).body)).toBe('Who is Dav?');
    expect(flatText(post(16).body)).not.toMatch(/Quote:|Originally Posted by/);
  });

  it('vBulletin 3: smilies are smilies; a struck vote is a strike; code is code without its caption', () => {
    expect(nodesOf(post(4).body, 'smilie')).toEqual([{ t: 'smilie', alt: 'Smile' }]);
    expect(nodesOf(post(5).body, 'smilie')).toEqual([{ t: 'smilie', alt: 'Big Grin' }]);
    expect(nodesOf(post(6).body, 'image')).toEqual([{ t: 'image', src: 'https://images.example.net/cat.png' }]);
    expect(nodesOf(post(9).body, 'strike')).toEqual([{ t: 'strike', children: [{ t: 'bold', children: [{ t: 'text', text: 'Vote: Alice' }] }] }]);
    expect(nodesOf(post(10).body, 'code').map((c) => c.text.trim())).toEqual(['Vote: Frank']);
    expect(flatText(post(10).body)).toBe('My notes: Vote: Frank nothing else.');
    expect(nodesOf(post(20).body, 'color')).toMatchObject([{ color: '#ff0000' }]);
  });

  it('vBulletin 3: no spoiler tag, so the [spoiler] BBCode stays literal around a bold vote', () => {
    expect(nodesOf(post(11).body, 'spoiler')).toEqual([]);
    expect(flatText(post(11).body)).toBe('[spoiler=secret]Vote: Dave[/spoiler]Not voting yet.');
  });

  it('vBulletin 3: a board mounted under a path keeps its links under that path', () => {
    const at = `${ORIGIN}/board${thread.pages[1]!.path}`;
    const page = read(thread.pages[1]!.body, at);
    for (const p of page.posts) expect(p.permalink.startsWith(`${ORIGIN}/board/`), p.permalink).toBe(true);
    const ref = vbulletin3.threadRef(new URL(at));
    expect(vbulletin3.pageUrl(ref, 2, null)).toBe(at);
  });

  it('vBulletin 3: a page cut off before </html> is an error, never an empty thread', () => {
    const whole = thread.pages[0]!.body;
    expect(() => read(whole.slice(0, Math.floor(whole.length * 0.8)), `${ORIGIN}${thread.manifest.path}`)).toThrow(TruncatedPageError);
  });
});
