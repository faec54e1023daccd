import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { plainText } from '../../src/model/body.js';
import { LayoutError } from '../../src/fetch/errors.js';
import { engineFromHtml } from '../../scrapers/identify.js';
import { SiteProfile } from '../../scrapers/site-profile.js';
import { xenforo1 } from '../../scrapers/xenforo1.js';
import { nodesOf, textOutsideQuotes } from '../support/game-script.js';
import { xenforo1Renderer } from '../support/render/xenforo1.js';
import { describeStandardGame, ORIGIN } from '../support/standard-game.js';

/**
 * The real XenForo 1 page in ../shared/forum-samples (Sufficient Velocity, "Renascence",
 * page 54 of 347, Oct 2014; saved as UTF-8 with a BOM). Read, never copied into the repo.
 */
const SAMPLE = fileURLToPath(new URL('../../../shared/forum-samples/xenforo1/nettally-Xenforo1.html', import.meta.url));
const haveSample = existsSync(SAMPLE);
if (!haveSample && process.env.VOTAL_REQUIRE_SAMPLES) throw new Error(`missing sample ${SAMPLE}`);

const URL_P54 = 'https://forums.sufficientvelocity.com/threads/renascence-a-homura-quest.10402/page-54';
const NOW = '2017-07-03T18:00:00Z';
/** The page prints only "Oct 30, 2014 at 10:48 PM" (no zone): the board zone is assumed UTC here. */
const UTC = SiteProfile.parse({});

function parse(profile = UTC) {
  const html = readFileSync(SAMPLE, 'utf8');
  return xenforo1.parsePage(html, { url: URL_P54, profile, now: NOW });
}

// [id, number, author, user id, posted at (UTC, from the board-zone text assumed UTC)]
const POSTS: [string, number, string, string, string][] = [
  ['2146286', 1326, 'TheBleachDoctor', '4525', '2014-10-30T22:48:00.000Z'],
  ['2146297', 1327, 'Crow', '1923', '2014-10-30T22:49:00.000Z'],
  ['2146298', 1328, 'TheBleachDoctor', '4525', '2014-10-30T22:50:00.000Z'],
  ['2146342', 1329, 'Higure', '4178', '2014-10-30T22:58:00.000Z'],
  ['2146356', 1330, 'TheBleachDoctor', '4525', '2014-10-30T23:00:00.000Z'],
  ['2146361', 1331, 'Omegastar', '507', '2014-10-30T23:00:00.000Z'],
  ['2146367', 1332, 'Higure', '4178', '2014-10-30T23:02:00.000Z'],
  ['2146370', 1333, 'TheBleachDoctor', '4525', '2014-10-30T23:02:00.000Z'],
  ['2146398', 1334, 'Higure', '4178', '2014-10-30T23:06:00.000Z'],
  ['2146423', 1335, 'Crow', '1923', '2014-10-30T23:11:00.000Z'],
  ['2146424', 1336, 'Omegastar', '507', '2014-10-30T23:11:00.000Z'],
  ['2146427', 1337, 'Crow', '1923', '2014-10-30T23:12:00.000Z'],
  ['2146428', 1338, 'Higure', '4178', '2014-10-30T23:13:00.000Z'],
  ['2146433', 1339, 'TheBleachDoctor', '4525', '2014-10-30T23:14:00.000Z'],
  ['2146434', 1340, 'Entropy Judge', '1609', '2014-10-30T23:14:00.000Z'],
  ['2146458', 1341, 'Higure', '4178', '2014-10-30T23:18:00.000Z'],
  ['2146470', 1342, 'Crow', '1923', '2014-10-30T23:20:00.000Z'],
  ['2146498', 1343, 'Entropy Judge', '1609', '2014-10-30T23:25:00.000Z'],
  ['2146541', 1344, 'Higure', '4178', '2014-10-30T23:35:00.000Z'],
  ['2146551', 1345, 'TheBleachDoctor', '4525', '2014-10-30T23:38:00.000Z'],
  ['2146562', 1346, 'Crow', '1923', '2014-10-30T23:40:00.000Z'],
  ['2146566', 1347, 'TheBleachDoctor', '4525', '2014-10-30T23:41:00.000Z'],
  ['2146595', 1348, 'Hyp3rB14d3', '4980', '2014-10-30T23:47:00.000Z'],
  ['2146608', 1349, 'Wzd_JA', '2117', '2014-10-30T23:50:00.000Z'],
  ['2146619', 1350, 'Entropy Judge', '1609', '2014-10-30T23:52:00.000Z'],
];

describe.skipIf(!haveSample)('XenForo 1 sample (Sufficient Velocity, page 54 of 347)', () => {
  it('XenForo 1: the page is identified by html#XenForo', () => {
    expect(engineFromHtml(readFileSync(SAMPLE, 'utf8'))).toBe('xenforo1');
  });

  it('XenForo 1: title, page 54 of 347', () => {
    const page = parse();
    expect(page.title).toBe('Renascence: A Homura Quest');
    expect(page.page).toBe(54);
    expect(page.pageCount).toBe(347);
  });

  it("XenForo 1: every post's id, number, author, user id and permalink", () => {
    const { posts } = parse();
    expect(posts).toHaveLength(25);
    expect(posts.map((p) => [p.id, p.number, p.author, p.authorId])).toEqual(
      POSTS.map(([id, n, a, u]) => [id, n, a, u]),
    );
    for (const p of posts) {
      expect(p.page).toBe(54);
      // <base href> is the board root: "posts/ID/" resolves there, not under the thread.
      expect(p.permalink).toBe(`https://forums.sufficientvelocity.com/posts/${p.id}/`);
    }
  });

  it("XenForo 1: every post's time is UTC, from the text in the board's zone", () => {
    const { posts } = parse();
    expect(posts.map((p) => p.postedAt)).toEqual(POSTS.map((p) => p[4]));
    for (const p of posts) expect(new Date(p.postedAt!).toISOString()).toBe(p.postedAt);
    // The same text read for a board in New York (EDT until Nov 2, 2014).
    const ny = parse(SiteProfile.parse({ timeZone: 'America/New_York' })).posts;
    expect(ny[0]!.postedAt).toBe('2014-10-31T02:48:00.000Z'); // "Oct 30, 2014 at 10:48 PM"
    expect(ny[24]!.postedAt).toBe('2014-10-31T03:52:00.000Z'); // "Oct 30, 2014 at 11:52 PM"
  });

  it('XenForo 1: quotes are quote nodes with their author; quoted text stays out of own text', () => {
    const crow = parse().posts.find((p) => p.id === '2146297')!;
    const quotes = nodesOf(crow.body, 'quote');
    expect(quotes.map((q) => q.author)).toEqual(['Higure', 'TheBleachDoctor']);
    expect(plainText(quotes[0]!.children)).toContain('Okay, I need rolls for OOC behavior.');
    expect(plainText(quotes[1]!.children).trim()).toBe('Rolling.');
    const own = textOutsideQuotes(crow.body);
    expect(own).toContain('OOC behavior? which part?');
    expect(own).toContain('I think thats wrong dok.');
    expect(own).not.toContain('Okay, I need rolls');
    expect(own).not.toContain('Rolling.');
    // Attribution ("Higure said: ↑") and "Click to expand..." are chrome, nowhere in the body.
    expect(plainText(crow.body)).not.toMatch(/said:|Click to expand|Click to shrink/);
    // Every quote in the page has an author (data-author) and no attribution text.
    for (const p of parse().posts) {
      for (const q of nodesOf(p.body, 'quote')) {
        expect(q.author).toBeTruthy();
        expect(plainText(q.children)).not.toMatch(/said:/);
      }
    }
  });

  it('XenForo 1: sprite smilies are smilies (meaning in alt), bbCodeImage is an image', () => {
    const { posts } = parse();
    const omegastar = posts.find((p) => p.id === '2146370')!;
    expect(nodesOf(omegastar.body, 'smilie').map((s) => s.alt)).toEqual([':cool:']);
    expect(nodesOf(omegastar.body, 'image').map((i) => i.src)).toEqual([
      'http://33.media.tumblr.com/4defd892aab30fd27d4e355ffe395d32/tumblr_n4el29Po661qj4315o1_500.gif',
    ]);
    // clear.png (the sprite sheet's blank) is never read as an image anywhere.
    for (const p of posts) expect(nodesOf(p.body, 'image').some((i) => i.src.includes('clear.png'))).toBe(false);
    expect(posts.flatMap((p) => nodesOf(p.body, 'smilie')).length).toBeGreaterThanOrEqual(4);
  });

  it('XenForo 1: "Last edited" is an edit marker with its time; others have none', () => {
    const { posts } = parse();
    const edited = posts.filter((p) => p.edit);
    expect(edited.map((p) => p.id)).toEqual(['2146541']);
    expect(edited[0]!.edit).toEqual({ at: '2014-12-04T02:29:00.000Z', by: 'Higure', text: 'Last edited: Dec 4, 2014' });
  });

  it('XenForo 1: the end marker, signatures and dice graphics are not body text', () => {
    const { posts } = parse();
    for (const p of posts) {
      expect(nodesOf(p.body, 'signature')).toEqual([]);
      expect(plainText(p.body)).not.toContain('KITTEN CABAL'); // a signature on this page
    }
    const doctor = posts[0]!;
    expect(plainText(doctor.body)).toContain('Rolling.');
    expect(plainText(doctor.body)).not.toMatch(/\.top_face|M3 11 L58/); // SVG style and paths
  });
});

describe('XenForo 1 URLs', () => {
  it('XenForo 1: threadRef gives the canonical page-1 URL and the thread id', () => {
    expect(xenforo1.threadRef(new URL(URL_P54))).toEqual({
      engine: 'xenforo1',
      url: 'https://forums.sufficientvelocity.com/threads/renascence-a-homura-quest.10402/',
      id: '10402',
    });
    expect(xenforo1.threadRef(new URL('https://f.example/forum/threads/a-game.77/page-3#post-12'))).toEqual({
      engine: 'xenforo1',
      url: 'https://f.example/forum/threads/a-game.77/',
      id: '77',
    });
    expect(xenforo1.threadRef(new URL('https://f.example/index.php?threads/a-game.77/page-3')).id).toBe('77');
  });

  it('XenForo 1: pageUrl and pageOf agree', () => {
    const ref = xenforo1.threadRef(new URL(URL_P54));
    expect(xenforo1.pageUrl(ref, 1, null)).toBe(ref.url);
    expect(xenforo1.pageUrl(ref, 54, null)).toBe(URL_P54);
    expect(xenforo1.pageOf(new URL(URL_P54), null)).toBe(54);
    expect(xenforo1.pageOf(new URL(ref.url), null)).toBe(1);
  });

  it('XenForo 1: a page without posts is a LayoutError, not an empty thread', () => {
    const html =
      '<!DOCTYPE html><html id="XenForo"><head><title>Error</title></head><body><div class="errorOverlay">The requested thread could not be found.</div></body></html>';
    expect(() => xenforo1.parsePage(html, { url: URL_P54, profile: UTC, now: NOW })).toThrow(LayoutError);
  });
});

describeStandardGame(xenforo1, xenforo1Renderer, {
  name: 'XenForo 1',
  permalink: (s) => `${ORIGIN}/posts/${s.id}/`,
  edit: { at: '2026-03-03T10:05:00.000Z', by: 'Dave', text: 'Last edited: Mar 3, 2026 at 10:05 AM' },
  codeChrome: /Code:/,
  spoiler: { chrome: /Spoiler|reveal/ }, // the button is chrome
  mention: { href: `${ORIGIN}/members/bob.12/`, text: '@Bob' },
  mountable: true,
  also: {
    // Times: Day 1's first evening is span[title] text (board zone UTC), the rest abbr[data-time].
    posts: ({ thread }) => {
      expect(thread.pages[0]!.body).toContain('<span class="DateTime" title="Mar 2, 2026 at 6:00 PM">');
      expect(thread.pages[1]!.body).toContain('<abbr class="DateTime" data-time=');
    },
  },
});
