import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureFiles, staleFiles } from '../../scripts/build-fixtures.js';
import type { ThreadPage } from '../../scrapers/adapter.js';
import { gog } from '../../scrapers/gog.js';
import { engineFromHtml, engineFromUrl } from '../../scrapers/identify.js';
import { DEFAULT_PROFILE, SiteProfile } from '../../scrapers/site-profile.js';
import { LayoutError, TruncatedPageError } from '../../src/fetch/errors.js';
import type { Post } from '../../src/model/post.js';
import { packageRoot } from '../../src/config/package-root.js';
import { bodyShape, flatText, loadGameScript, nodesOf, scriptShape, textOutsideQuotes, type Shape } from '../support/game-script.js';
import { readFixtureThread } from '../support/render/index.js';

const root = packageRoot(import.meta.url);
const NOW = '2026-03-03T12:00:00Z';
const parse = (html: string, url: string, profile = DEFAULT_PROFILE): ThreadPage => gog.parsePage(html, { url, profile, now: NOW });

/**
 * fixtures/gog/day-thread: two pages (5 + 3 posts) written by hand after the markup GOG
 * userscripts read (../shared/research/forum-engines.md). Page 2 was "fetched" on
 * 2026-03-03 at 12:00 UTC, so its "Yesterday", "3 hours ago" and "now" are relative to that.
 */
describe('GOG hand-written thread (fixtures/gog/day-thread)', () => {
  const THREAD = 'https://www.gog.com/forum/general/mafia_12_day_1';
  const html1 = readFileSync(join(root, 'fixtures/gog/day-thread/page-1.html'), 'utf8');
  const html2 = readFileSync(join(root, 'fixtures/gog/day-thread/page-2.html'), 'utf8');
  const page1 = parse(html1, THREAD);
  const page2 = parse(html2, `${THREAD}/page2`);
  const posts = [...page1.posts, ...page2.posts];
  const post = (n: number): Post => posts.find((p) => p.number === n)!;

  it('GOG: only a date is printed, so posts keep page order and the "#N" each post shows', () => {
    expect(posts.map((p) => [p.number, p.page])).toEqual([[1, 1], [2, 1], [3, 1], [4, 1], [5, 1], [6, 2], [7, 2], [8, 2]]);
    // GOG shows no other post id; the post number is how GOG itself names a post ([quote_N], /postN).
    expect(posts.map((p) => p.id)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(posts.map((p) => p.permalink)).toEqual(posts.map((p) => `${THREAD}/post${p.number}`));
  });

  it('GOG: "Posted March 02, 2026" is that day\'s midnight in the board\'s zone', () => {
    expect(page1.posts.map((p) => p.postedAt)).toEqual(Array(5).fill('2026-03-02T00:00:00.000Z'));
    const warsaw = parse(html1, THREAD, SiteProfile.parse({ timeZone: 'Europe/Warsaw' }));
    expect(warsaw.posts[0]!.postedAt).toBe('2026-03-01T23:00:00.000Z');
  });

  it('GOG: "Yesterday", "3 hours ago" and "now" count back from when the page was fetched', () => {
    expect(page2.posts.map((p) => p.postedAt)).toEqual(['2026-03-02T00:00:00.000Z', '2026-03-03T09:00:00.000Z', '2026-03-03T12:00:00.000Z']);
  });

  it('reads the author from .b_u_name; GOG shows no user id', () => {
    expect(posts.map((p) => p.author)).toEqual(['Moderator', 'Alice', 'Bob', 'Carol', 'Dave', 'Eve', 'Frank', 'GOG.com']);
    expect(posts.every((p) => p.authorId === null)).toBe(true);
    for (const p of posts) expect(flatText(p.body)).not.toMatch(/Start conversation|New User|Editor/);
  });

  it('GOG: "Post edited DATE by X" in .post_attaczments .pencil_text is the edit marker, and no post text', () => {
    expect(posts.filter((p) => p.edit).map((p) => p.number)).toEqual([5]);
    expect(post(5).edit).toEqual({ at: '2026-03-02T00:00:00.000Z', by: 'Dave', text: 'Post edited March 02, 2026 by Dave' });
    expect(flatText(post(5).body)).not.toMatch(/edited/);
  });

  it('pages: this page from .n_b_b_nr_act, the last from .n_b_b_nr_last', () => {
    expect([page1.page, page1.pageCount, page2.page, page2.pageCount]).toEqual([1, 2, 2, 2]);
    expect(page1.title).toBe('Mafia 12: Day 1');
  });

  it('GOG: span.bold is bold; i and span.podkreslenie are italic and underline', () => {
    expect(nodesOf(post(2).body, 'bold').map((b) => flatText(b.children))).toEqual(['Vote: Bob']);
    expect(nodesOf(post(7).body, 'italic').map((b) => flatText(b.children))).toEqual(['Sure you were.']);
    expect(nodesOf(post(7).body, 'underline').map((b) => flatText(b.children))).toEqual(['Noted.']);
  });

  it('GOG: div.quot is a quote named by .quot_user_name ("Alice: "), nested quotes too', () => {
    expect(nodesOf(post(3).body, 'quote').map((q) => q.author)).toEqual(['Alice']);
    expect(textOutsideQuotes(post(3).body)).toBe('I was asleep, like everyone else. [s]Vote: Alice[/s] Vote: Carol');
    expect(nodesOf(post(7).body, 'quote').map((q) => q.author)).toEqual(['Bob', 'Alice']);
    expect(textOutsideQuotes(post(7).body)).toBe('Sure you were. Noted. Vote: Bob');
  });

  it('GOG: no spoiler, strike or code tags — they stay literal text around real bold', () => {
    expect(nodesOf(post(4).body, 'spoiler')).toEqual([]);
    expect(flatText(post(4).body)).toMatch(/\[spoiler\]Vote: Dave\[\/spoiler\]/);
    expect(nodesOf(post(3).body, 'strike')).toEqual([]);
    expect(nodesOf(post(5).body, 'code')).toEqual([]);
    expect(flatText(post(5).body)).toMatch(/\[code\]Vote: Frank\[\/code\]/);
  });

  it('GOG: a typed smiley is text; an attached picture (under the text) is an image, its link the forum\'s own', () => {
    expect(nodesOf(post(2).body, 'smilie')).toEqual([]);
    expect(flatText(post(2).body)).toContain(':)');
    const [link] = nodesOf(post(4).body, 'link').filter((l) => l.href.includes('images.gog.com'));
    expect(link).toMatchObject({ kind: 'internal', href: 'https://images.gog.com/7f1e2d_harbour.jpg' });
    expect(nodesOf(post(4).body, 'image')).toEqual([{ t: 'image', src: 'https://images.gog.com/7f1e2d_harbour_thumb.jpg' }]);
  });

  it('links: outside ones external, gog.com ones internal', () => {
    expect(nodesOf(post(4).body, 'link').map((l) => [l.kind, l.href])[0]).toEqual(['external', 'https://wiki.example.org/mafia']);
    expect(nodesOf(post(5).body, 'link').map((l) => [l.kind, l.href])).toEqual([['internal', `${THREAD}/post2`]]);
  });

  it('where no "#N" is shown, the place on the page stands in for it', () => {
    const bare = html2.replace(/<a class="post_nr"[^>]*>#\d+<\/a>/g, '');
    expect(parse(bare, `${THREAD}/page2`, SiteProfile.parse({ postsPerPage: 5 })).posts.map((p) => p.number)).toEqual([6, 7, 8]);
    expect(parse(html1.replace(/<a class="post_nr"[^>]*>#\d+<\/a>/g, ''), THREAD).postsPerPage).toBe(5);
  });
});

describe('GOG URLs and identification', () => {
  it('the thread is /forum/{forum}/{topic}; page N is /pageN; /postN points into its page', () => {
    const ref = gog.threadRef(new URL('https://www.gog.com/forum/general/mafia_12_day_1/page7'));
    expect(ref).toEqual({ engine: 'gog', url: 'https://www.gog.com/forum/general/mafia_12_day_1', id: 'mafia_12_day_1' });
    expect(gog.pageUrl(ref, 1, null)).toBe(ref.url);
    expect(gog.pageUrl(ref, 3, null)).toBe(`${ref.url}/page3`);
    expect(gog.pageOf(new URL(`${ref.url}/page3`), null)).toBe(3);
    expect(gog.pageOf(new URL(`${ref.url}/post120`), 50)).toBe(3);
    expect(gog.threadRef(new URL(`${ref.url}/post120`)).url).toBe(ref.url);
  });

  it('is recognised by www.gog.com, and by its post blocks', () => {
    expect(engineFromUrl(new URL('https://www.gog.com/forum/general/mafia_12_day_1'))).toBe('gog');
    expect(engineFromHtml(readFileSync(join(root, 'fixtures/gog/day-thread/page-1.html'), 'utf8'))).toBe('gog');
  });

  it('a page without post blocks is a layout error; a cut-off page is a truncated page', () => {
    const url = 'https://www.gog.com/forum/general/x';
    expect(() => parse('<!DOCTYPE html><html><body><div class="list_h"></div></body></html>', url)).toThrow(LayoutError);
    const whole = readFileSync(join(root, 'fixtures/gog/day-thread/page-1.html'), 'utf8');
    expect(() => parse(whole.slice(0, Math.floor(whole.length * 0.6)), url)).toThrow(TruncatedPageError);
  });
});

describe('GOG standard game (fixtures/gog/standard-game)', () => {
  const ORIGIN = 'http://forum.test';
  const script = loadGameScript(join(root, 'fixtures/games/standard-game.yaml'));
  const thread = readFixtureThread(root, 'gog', 'standard-game');
  const pages = thread.pages.map((p) => ({ url: `${ORIGIN}${p.path}`, read: parse(p.body, `${ORIGIN}${p.path}`) }));
  const posts = pages.flatMap((p) => p.read.posts);
  const post = (n: number): Post => posts.find((p) => p.number === n)!;
  const expected = JSON.parse(readFileSync(join(root, 'fixtures/gog/standard-game/expected.json'), 'utf8')) as { differences: string[] };

  it('the committed fixture pages are what the renderer makes (no drift)', () => {
    expect(staleFiles(fixtureFiles(root, ['gog'])).map((f) => f.path), 'run: npx tsx scripts/build-fixtures.ts').toEqual([]);
  });

  it('three pages of 8, 8 and 6; page URLs are the fixture forum\'s', () => {
    expect(pages.map((p) => [p.read.page, p.read.pageCount, p.read.posts.length])).toEqual([[1, 3, 8], [2, 3, 8], [3, 3, 6]]);
    const ref = gog.threadRef(new URL(`${ORIGIN}${thread.manifest.path}`));
    expect(thread.manifest.pages.map((p) => gog.pageUrl(ref, p.page, null))).toEqual(thread.manifest.pages.map((p) => `${ORIGIN}${p.path}`));
  });

  it('numbers, authors and dates: the script\'s, with each time cut to its date', () => {
    expect(posts.map((p) => ({ n: p.number, id: p.id, author: p.author, at: p.postedAt }))).toEqual(
      script.posts.map((s) => ({ n: s.n, id: String(s.n), author: s.author, at: `${s.time.slice(0, 10)}T00:00:00.000Z` })),
    );
  });

  it('only the edited post carries an edit marker, dated, with its editor', () => {
    expect(posts.filter((p) => p.edit).map((p) => p.number)).toEqual([13]);
    expect(post(13).edit).toEqual({ at: '2026-03-03T00:00:00.000Z', by: 'Dave', text: 'Post edited March 03, 2026 by Dave' });
  });

  it('posts GOG can express read back exactly as the script wrote them', () => {
    const differs = new Set([4, 5, 6, 9, 10, 11, 17, 20, 21]);
    for (const s of script.posts.filter((x) => !differs.has(x.n))) {
      const page = pages.find((p) => p.read.posts.some((x) => x.number === s.n))!;
      expect(bodyShape(post(s.n).body), `post ${s.n}`).toEqual(scriptShape(s.body, page.url));
    }
  });

  it('the rest read as GOG shows them, as fixtures/gog/standard-game/expected.json explains', () => {
    const text = (t: string): Shape => ({ t: 'text', text: t });
    const bold = (t: string): Shape => ({ t: 'bold', children: [text(t)] });
    const br: Shape = { t: 'br' };
    expect(bodyShape(post(4).body)).toEqual([bold('I will vote whoever claims last'), br, text('Just chatter for now :)')]);
    expect(bodyShape(post(5).body)).toEqual([text(':D'), br, bold('Vote: bob')]);
    expect(bodyShape(post(6).body)).toEqual([
      text('Look at this:'), br, br, bold('Vote: Alice'),
      { t: 'link', kind: 'internal', href: 'https://images.example.net/cat.png', children: [{ t: 'image', src: 'https://images.example.net/cat_thumb.png' }] },
    ]);
    expect(bodyShape(post(9).body)).toEqual([text('[s]'), bold('Vote: Alice'), text('[/s]'), br, bold('Vote: Carol')]);
    expect(bodyShape(post(10).body)).toEqual([text('My notes:[code]Vote: Frank[/code]nothing else.')]);
    expect(bodyShape(post(11).body)).toEqual([text('[spoiler=secret]'), bold('Vote: Dave'), text('[/spoiler]Not voting yet.')]);
    expect(bodyShape(post(17).body)).toEqual([text('Fine.'), br, bold('Vote: @Bob')]);
    expect(bodyShape(post(20).body)).toEqual([text('[color=#ff0000]'), bold('Vote: Eve (L-3)'), text('[/color]')]);
    expect(bodyShape(post(21).body)).toEqual([text("Some code:[code]console.log('hi')[/code]")]);
    expect(expected.differences.join('\n')).toMatch(/post 10 and post 21[\s\S]*post 11[\s\S]*post 9/);
  });
});

/**
 * No real GOG forum page was at hand. Scrapers written against live GOG pages read
 * `div.big_post_main`, `div.b_u_name`, `div.post_date` and `div.post_text_c`
 * (../shared/forum-samples/SOURCES.md). A page made of exactly those must still read.
 */
describe('GOG: the selectors scrapers of live pages read', () => {
  const url = 'https://www.gog.com/forum/general/mafia_3';
  const html = `<!DOCTYPE html><html><head><title>Mafia 3</title></head><body>
<div class="big_post_main"><div class="b_u_name">Ann</div><div class="post_date">Posted March 02, 2026</div><div class="post_text_c"><span class="bold">Vote: Ben</span></div></div>
<div class="big_post_main"><div class="b_u_name">Ben</div><div class="post_date">Posted March 03, 2026</div><div class="post_text_c">No.</div></div>
</body></html>`;

  it('div.big_post_main with div.b_u_name, div.post_date and div.post_text_c, and no other wrapper', () => {
    const page = gog.parsePage(html, { url, profile: DEFAULT_PROFILE, now: '2026-03-04T00:00:00Z' });
    expect(page.posts.map((p) => [p.number, p.author, p.postedAt, flatText(p.body)])).toEqual([
      [1, 'Ann', '2026-03-02T00:00:00.000Z', 'Vote: Ben'],
      [2, 'Ben', '2026-03-03T00:00:00.000Z', 'No.'],
    ]);
    expect(page.posts[0]!.permalink).toBe('https://www.gog.com/forum/general/mafia_3/post1');
  });
});
