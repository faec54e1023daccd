import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ThreadPage } from '../../scrapers/adapter.js';
import { BATCH, discourse } from '../../scrapers/discourse.js';
import { engineFromHtml, engineFromUrl } from '../../scrapers/identify.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { LayoutError, TruncatedPageError } from '../../src/fetch/errors.js';
import type { Post } from '../../src/model/post.js';
import { packageRoot } from '../../src/config/package-root.js';
import { flatText, nodesOf, textOutsideQuotes } from '../support/game-script.js';
import { discourseRenderer } from '../support/render/discourse.js';
import { describeStandardGame, ORIGIN } from '../support/standard-game.js';

const root = packageRoot(import.meta.url);
const samples = resolve(root, '../shared/forum-samples');
const haveSamples = existsSync(join(samples, 'discourse'));
if (!haveSamples)
  console.warn(`[discourse] real samples not found at ${samples}/discourse: skipping the real-JSON tests`);

const NOW = '2026-03-04T12:00:00Z';
const parse = (doc: string, url: string): ThreadPage =>
  discourse.parsePage(doc, { url, profile: DEFAULT_PROFILE, now: NOW });
const sample = (file: string): string => readFileSync(join(samples, 'discourse', file), 'utf8');

describe.skipIf(!haveSamples)('Discourse real topic JSON (discourse_api-topic.json, try.discourse.org)', () => {
  const url = 'https://try.discourse.org/t/57.json';
  const page = haveSamples ? parse(sample('discourse_api-topic.json'), url) : (null as unknown as ThreadPage);
  const post = (n: number): Post => page.posts.find((p) => p.number === n)!;

  it('reads regular posts with their ids and post_number, skipping the "pinned" notice (post_type 2)', () => {
    expect(page.posts.map((p) => [p.id, p.number])).toEqual([
      ['83', 1],
      ['86', 3],
      ['226', 14],
    ]);
    expect(page.posts.some((p) => p.id === '84')).toBe(false);
  });

  it('takes usernames (not display names) and user ids', () => {
    expect(page.posts.map((p) => [p.author, p.authorId])).toEqual([
      ['samsaffron', '15'],
      ['stienman', '23'],
      ['splattne', '50'],
    ]);
  });

  it('reads created_at (written at -05:00) as exact UTC, milliseconds kept', () => {
    expect(page.posts.map((p) => p.postedAt)).toEqual([
      '2013-02-04T20:26:26.278Z',
      '2013-02-04T20:29:00.843Z',
      '2013-02-05T17:14:17.364Z',
    ]);
  });

  it('a post saved more than once (version 5) carries an edit marker at updated_at', () => {
    expect(post(1).edit).toEqual({ at: '2013-04-30T18:33:37.273Z', by: null, text: 'edited (version 5)' });
    expect(post(3).edit).toBeNull();
    expect(post(14).edit).toBeNull();
  });

  it('builds the body from cooked HTML: headings and paragraphs, bold, italic, links', () => {
    const b = post(1).body;
    expect(flatText(b)).toMatch(/^Welcome! Try is a sandbox, a safe place to play with Discourse/);
    expect(nodesOf(b, 'bold').map((n) => flatText(n.children))).toEqual([
      'Any accounts or posts you create here will not exist tomorrow!',
      'please flag it',
    ]);
    expect(nodesOf(b, 'italic').map((n) => flatText(n.children))).toEqual([
      expect.stringMatching(/^and don't post anything here/),
    ]);
    expect(nodesOf(b, 'link').every((l) => /^https?:\/\//.test(l.href))).toBe(true);
  });

  it('a hot-linked picture is an image, with the line break before it kept', () => {
    expect(nodesOf(post(3).body, 'image')).toEqual([
      { t: 'image', src: 'http://i288.photobucket.com/albums/ll164/stienman/ahh.gif' },
    ]);
    expect(nodesOf(post(14).body, 'br')).toHaveLength(1);
    expect(nodesOf(post(14).body, 'image').map((i) => i.src)).toEqual([
      'http://q101.com/wp-content/uploads/2012/02/GroundhogDay.gif',
    ]);
  });

  it('permalinks are /t/{slug}/{topic}/{post_number}', () => {
    expect(page.posts.map((p) => p.permalink)).toEqual(
      [1, 3, 14].map((n) => `https://try.discourse.org/t/this-site-is-a-sandbox-it-is-reset-every-day/57/${n}`),
    );
  });

  it('the whole topic is one page; every post is already loaded, so nothing more to fetch', () => {
    expect(page).toMatchObject({
      title: 'THIS SITE IS A SANDBOX -- it is reset every day',
      page: 1,
      pageCount: 1,
      postsPerPage: null,
    });
    expect(page.next).toBeUndefined();
  });

  it('lists the rest of post_stream.stream as posts.json URLs, 50 ids a request', () => {
    const topic = JSON.parse(sample('discourse_api-topic.json')) as { post_stream: { stream: number[] } };
    const more = Array.from({ length: 120 }, (_, i) => 1000 + i);
    topic.post_stream.stream.push(...more);
    const next = parse(JSON.stringify(topic), url).next!;
    expect(BATCH).toBe(50);
    expect(next).toHaveLength(3);
    expect(next[0]).toBe(
      `https://try.discourse.org/t/57/posts.json?${more
        .slice(0, 50)
        .map((id) => `post_ids[]=${id}`)
        .join('&')}`,
    );
    expect(next.map((u) => new URL(u).searchParams.getAll('post_ids[]').length)).toEqual([50, 50, 20]);
    expect(next.flatMap((u) => new URL(u).searchParams.getAll('post_ids[]')).map(Number)).toEqual(more);
  });
});

describe.skipIf(!haveSamples)('Discourse real posts.json and post JSON', () => {
  it('a posts.json batch gives its posts, with the slug from topic_slug', () => {
    const page = parse(
      sample('discourse_api-topic_posts.json'),
      'https://try.discourse.org/t/57/posts.json?post_ids[]=123456',
    );
    expect(page.posts).toHaveLength(1);
    expect(page.posts[0]).toMatchObject({
      id: '123456',
      number: 2,
      author: 'Some-username',
      authorId: '123',
      postedAt: '2020-01-27T11:32:03.646Z',
      edit: null,
      permalink: 'https://try.discourse.org/t/some-topic-slug/57/2',
    });
    expect(page.posts[0]!.body).toEqual([{ t: 'block', children: [{ t: 'text', text: 'Some text.' }] }]);
    expect(page.next).toBeUndefined();
  });

  it('a single /posts/{id}.json is read as that one post', () => {
    const page = parse(sample('discourse_api-post.json'), 'https://forum.test/posts/11.json');
    expect(page.posts.map((p) => [p.id, p.number, p.author, p.authorId, p.postedAt])).toEqual([
      ['11', 1, 'system', '-1', '2014-10-31T04:37:32.553Z'],
    ]);
    expect(page.posts[0]!.permalink).toBe('https://forum.test/t/welcome-to-discourse/8/1');
    expect(nodesOf(page.posts[0]!.body, 'bold').map((b) => flatText(b.children))).toEqual(['Edit this']);
  });
});

describe('Discourse cooked markup (fixtures/discourse/cooked-markup.json)', () => {
  const page = parse(
    readFileSync(join(root, 'fixtures/discourse/cooked-markup.json'), 'utf8'),
    'https://forum.test/t/markup/77.json',
  );
  const post = (n: number): Post => page.posts.find((p) => p.number === n)!;

  it('aside.quote names the quoted user; its "name:" title and avatar are not text', () => {
    const quotes = nodesOf(post(2).body, 'quote');
    expect(quotes.map((q) => q.author)).toEqual(['alice']);
    expect(flatText(quotes[0]!.children)).toBe('Vote: bob');
    expect(textOutsideQuotes(post(2).body)).toBe('Not me. Vote: alice');
    expect(nodesOf(post(2).body, 'image')).toEqual([]);
  });

  it('a Markdown "> " quote is a quote with no author, and is not doubled inside aside.quote', () => {
    expect(nodesOf(post(3).body, 'quote').map((q) => q.author)).toEqual([null]);
    expect(nodesOf(post(2).body, 'quote')).toHaveLength(1);
  });

  it('emoji are smilies, uploads in a lightbox are internal images, the caption is not text', () => {
    expect(nodesOf(post(3).body, 'smilie')).toEqual([{ t: 'smilie', alt: ':slight_smile:' }]);
    const [link] = nodesOf(post(4).body, 'link');
    expect(link).toMatchObject({
      kind: 'internal',
      href: 'https://cdn.forum.test/uploads/default/original/1X/cat.png',
    });
    expect(nodesOf(link!.children, 'image')).toEqual([
      { t: 'image', src: 'https://cdn.forum.test/uploads/default/optimized/1X/cat_2_690x460.png' },
    ]);
    expect(flatText(post(4).body)).not.toMatch(/cat\.png|1024|KB/);
  });

  it('spoilers ([details] and spoiler-alert) are spoiler nodes; strike, code, mentions and outside links keep their kind', () => {
    const b = post(5).body;
    expect(nodesOf(b, 'spoiler').map((s) => [s.title, flatText(s.children)])).toEqual([
      ['notes', 'Vote: dave'],
      [null, 'Vote: eve'],
    ]);
    expect(nodesOf(b, 'strike').map((s) => flatText(s.children))).toEqual(['Vote: alice']);
    expect(nodesOf(b, 'code').map((c) => c.text.trim())).toEqual(['Vote: frank']);
    expect(nodesOf(b, 'link').map((l) => [l.kind, l.href])).toEqual([
      ['mention', 'https://forum.test/u/bob'],
      ['external', 'https://wiki.example.org/mafia'],
      ['internal', 'https://forum.test/t/markup/77/2'],
    ]);
  });

  it('whispers and small actions (post_type 3, 4) are not posts', () => {
    expect(page.posts.map((p) => p.number)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('Discourse URLs and identification', () => {
  it('the thread of any /t/ URL is /t/{slug}/{id}; page 1 is /t/{id}.json', () => {
    const ref = discourse.threadRef(new URL('https://forum.test/t/standard-game/4242/17?u=alice'));
    expect(ref).toEqual({ engine: 'discourse', url: 'https://forum.test/t/standard-game/4242', id: '4242' });
    expect(discourse.pageUrl(ref, 1, null)).toBe('https://forum.test/t/4242.json');
    expect(discourse.threadRef(new URL('https://forum.test/t/4242/5')).url).toBe('https://forum.test/t/4242');
    expect(discourse.threadRef(new URL('https://forum.test/t/4242.json')).id).toBe('4242');
    expect(discourse.pageOf(new URL('https://forum.test/t/standard-game/4242?page=3'), null)).toBe(1);
  });

  it('a board in a subfolder keeps its folder', () => {
    const ref = discourse.threadRef(new URL('https://example.org/forum/t/day-one/99/3'));
    expect(ref.url).toBe('https://example.org/forum/t/day-one/99');
    expect(discourse.pageUrl(ref, 1, null)).toBe('https://example.org/forum/t/99.json');
  });

  it('is recognised by its /t/ URLs and its generator meta tag', () => {
    expect(engineFromUrl(new URL('https://meta.example.com/t/some-topic/123'))).toBe('discourse');
    expect(
      engineFromHtml(
        '<html><head><meta name="generator" content="Discourse 3.2.0 - https://github.com/discourse/discourse version abc"></head><body></body></html>',
      ),
    ).toBe('discourse');
  });

  it('an HTML page, a cut-off document or an empty topic is an error naming the URL', () => {
    const url = 'https://forum.test/t/4242.json';
    expect(() => parse('<!DOCTYPE html><html><body>Log in</body></html>', url)).toThrow(LayoutError);
    expect(() => parse('{"post_stream":{"posts":[{"id":1,', url)).toThrow(TruncatedPageError);
    expect(() => parse('{"post_stream":{"posts":[],"stream":[]},"id":4242}', url)).toThrow(/4242\.json/);
    expect(() => parse('{"errors":["not found"]}', url)).toThrow(LayoutError);
  });
});

/** Typed smileys as Discourse names its emoji. */
const DISCOURSE_EMOJI: Record<string, string> = { ':)': ':slight_smile:', ':D': ':smiley:' };

describeStandardGame(
  discourse,
  discourseRenderer,
  {
    name: 'Discourse',
    read: parse,
    bareBodies: true,
    json: true,
    perPage: null, // page 1 is the topic JSON, then posts.json batches: checked below
    bodyBase: 'first',
    permalink: (s) => `${ORIGIN}/t/standard-game/4242/${s.n}`,
    edit: { at: '2026-03-03T10:05:00.000Z', by: null, text: 'edited (version 2)' }, // version 2, at last_edited_at
    // Typed smileys come back as Discourse emoji names.
    shows: (shapes) =>
      shapes.map((s) => (s.t === 'smilie' ? { t: 'smilie', alt: DISCOURSE_EMOJI[s.alt] ?? s.alt } : s)),
    smilies: [':slight_smile:', ':smiley:'],
    mention: { href: `${ORIGIN}/u/bob`, text: '@Bob' },
  },
  ({ thread, pages }) => {
    it('page 1 is the topic JSON; its `next` URLs are exactly the posts.json documents of thread.json', () => {
      const [topic, ...batches] = thread.pages;
      const ref = discourse.threadRef(new URL(`${ORIGIN}${thread.manifest.path}`));
      expect(discourse.pageUrl(ref, 1, null)).toBe(`${ORIGIN}${topic!.path}`);
      expect(pages[0]!.read.next).toEqual(batches.map((b) => `${ORIGIN}${b.path}`));
      expect(pages[0]!.read.posts).toHaveLength(20);
      expect(pages.slice(1).map((r) => r.read.posts.length)).toEqual([2]);
    });
  },
);
