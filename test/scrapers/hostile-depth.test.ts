import { describe, expect, it, vi } from 'vitest';
import type { Document } from 'domhandler';
import type { ThreadPage } from '../../scrapers/adapter.js';
import { MAX_DEPTH } from '../../scrapers/body-builder.js';
import { adapters } from '../../scrapers/registry.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { Post } from '../../src/model/post.js';
import { plainText, type BodyNode } from '../../src/model/body.js';
import { ownLines, ownText } from '../../src/parse/own-text.js';
import { parseFragment } from '../../scrapers/fragment.js';
import { phpbb } from '../../scrapers/phpbb.js';
import { all, parseHtml, textOf } from '../../scrapers/dom.js';
import { compileRegions, scanPage } from '../../scrapers/page-scan.js';
import { packageRoot } from '../../src/config/package-root.js';
import { readFixtureThread } from '../support/render/index.js';
import { readPost } from '../../src/parse/read-post.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { Roster } from '../../src/model/roster.js';

/*
 * Issue #17: one post of about 2,300 nested <div>s (or 4,000 <b>, <i>, <blockquote>)
 * made every later poll of the thread fail with "Maximum call stack size exceeded".
 * Every walk over a post is iterative or depth-capped: 10,000 nested elements in one
 * post of each engine's standard-game page 1 (post 4, Carol's "Just chatter for now")
 * are read (their words are kept), and every other post reads as without them.
 */
const root = packageRoot(import.meta.url);
const NOW = '2026-03-03T12:00:00Z';
const DEPTH = 10_000;
const WORDS = 'Vote: Frank';
const ruleset = loadRuleset(`${root}/fixtures/games/standard-ruleset.yaml`);
const roster = Roster.parse(['Alice', 'Bob', 'Carol', 'Dave', 'Davina', 'Eve', 'Frank'].map((name) => ({ name })));

/** Hostile nestings: what one level opens and closes. */
const NESTINGS: [string, string, string][] = [
  ['div', '<div>', '</div>'],
  ['b', '<b>', '</b>'],
  ['i', '<i>', '</i>'],
  ['blockquote', '<blockquote>', '</blockquote>'],
  ['span', '<span>', '</span>'],
  ['table cells', '<table><tr><td>', '</td></tr></table>'],
  ['lists', '<ul><li>', '</li></ul>'],
  // Every style a wrapper of its own: the tree nests six times faster than the markup.
  [
    'styled divs',
    "<div style='font-weight:bold;font-style:italic;text-decoration:underline;color:red;font-size:9px'>",
    '</div>',
  ],
];

function depthOf(nodes: readonly BodyNode[]): number {
  let max = 0;
  const stack: [readonly BodyNode[], number][] = [[nodes, 1]];
  while (stack.length > 0) {
    const [list, d] = stack.pop()!;
    for (const n of list) {
      max = Math.max(max, d);
      if ('children' in n) stack.push([n.children, d + 1]);
    }
  }
  return max;
}

describe.each(adapters.map((a) => [a.descriptor.engine, a] as const))(
  '%s: 10,000 nested elements in one post',
  (engine, adapter) => {
    const page1 = readFixtureThread(root, engine, 'standard-game').pages[0]!;
    const url = `http://forum.test${page1.path}`;
    const parse = (doc: string): ThreadPage => adapter.parsePage(doc, { url, profile: DEFAULT_PROFILE, now: NOW });
    const plain = parse(page1.body);
    const carol = plain.posts.findIndex((p) => ownText(p.body).includes('Just chatter for now'));

    it.each(NESTINGS)('%s: the post is read (its words kept), the rest of the page as without it', (_, open, close) => {
      expect(carol).toBeGreaterThanOrEqual(0);
      const hostile = page1.body.replace(
        'Just chatter for now',
        `${open.repeat(DEPTH)}<b>${WORDS}</b>${close.repeat(DEPTH)}`,
      );
      expect(hostile).not.toBe(page1.body);
      const page = parse(hostile);
      expect(page.posts.map((p) => [p.id, p.number, p.author])).toEqual(
        plain.posts.map((p) => [p.id, p.number, p.author]),
      );
      page.posts.forEach((post, i) => {
        if (i !== carol) expect(post).toEqual(plain.posts[i]);
      });
      const deep = page.posts[carol]!;
      // Read, not lost (in engines where blockquote is a quote, as quoted words).
      expect(plainText(deep.body).replace(/\s+/g, ' ')).toContain(WORDS);
      // What is stored and hashed stays shallow: every later walk over the tree is safe too.
      expect(depthOf(deep.body)).toBeLessThanOrEqual(MAX_DEPTH + 10);
      expect(() => Post.parse(deep)).not.toThrow();
      // Counted, or put to the GM; never silently dropped (words in a quote are someone else's).
      const effect = readPost(deep, roster, ruleset).effect;
      if (!/quote/.test(JSON.stringify(deep.body)))
        expect([`vote:Frank`, 'review']).toContain(effect.kind === 'vote' ? `vote:${effect.target}` : effect.kind);
    });
  },
);

describe('past the depth cap, markup is read flat: what the rules read survives', () => {
  const deep = (inner: string, tag = 'div'): string => `<${tag}>`.repeat(DEPTH) + inner + `</${tag}>`.repeat(DEPTH);
  const read = (html: string): BodyNode[] =>
    parseFragment(html, phpbb.descriptor.body, 'https://forum.example/viewtopic.php?t=1');
  const own = (html: string): string => ownText(read(html)).replace(/\s+/g, ' ').trim();

  it.each([
    ['a bold vote stays bold', deep('<b>Vote: Frank</b>'), { bold: true }],
    [
      'a vote in a style attribute stays bold',
      deep('<span style="font-weight:bold">Vote: Frank</span>'),
      { bold: true },
    ],
    [
      "quoted words stay someone else's",
      deep('<blockquote><cite>Ann wrote:</cite><b>Vote: Frank</b></blockquote>Mine'),
      { own: 'Mine' },
    ],
    ['struck words stay struck', deep('<s><b>Vote: Alice</b></s><b>Vote: Frank</b>'), { own: 'Vote: Frank' }],
    ['code stays code', deep('<code>Vote: Alice</code>'), { own: '' }],
    ['blocks still end lines', deep('<div>one</div><div>two</div>', 'span'), { lines: 2 }],
  ] as const)('%s', (_, html, expected) => {
    const body = read(html);
    expect(depthOf(body)).toBeLessThanOrEqual(MAX_DEPTH + 10);
    if ('bold' in expected)
      expect(
        ownLines(body)
          .flat()
          .filter((r) => r.bold)
          .map((r) => r.text.trim()),
      ).toContain('Vote: Frank');
    if ('own' in expected) expect(own(html)).toBe(expected.own);
    if ('lines' in expected)
      expect(
        ownLines(body).map((l) =>
          l
            .map((r) => r.text)
            .join('')
            .trim(),
        ),
      ).toEqual(['one', 'two']);
  });
});

describe('selectors over deep markup do bounded work (counted, not timed)', () => {
  it('a descendant selector whose ancestor is absent looks a bounded way up from each element', () => {
    const n = 5_000;
    const doc = parseHtml('<blockquote>'.repeat(n) + '</blockquote>'.repeat(n));
    let reads = 0;
    // Count every look at an element's class: each compound test of `.absent` reads it once.
    for (const el of all(doc, 'blockquote')) {
      const attribs = el.attribs;
      el.attribs = new Proxy(attribs, {
        get: (t, k) => {
          if (k === 'class') reads++;
          return Reflect.get(t, k);
        },
      });
    }
    reads = 0;
    expect(all(doc, '.absent blockquote')).toEqual([]);
    // Looking all the way up from each would be n * n / 2 = 12.5 million.
    expect(reads).toBeLessThan(n * 300);
  });
});

describe('the parse does bounded work on hostile end tags (counted, not timed)', () => {
  // htmlparser2 looks each end tag's element up in its stack of open names (indexOf):
  // n stray end tags under n open elements would look at n * n = 25 million places.
  const n = 5_000;
  const html = `<html><body><div class="post">${'<div>'.repeat(n)}x${'</span>'.repeat(n)}${'</div>'.repeat(n + 1)}</body></html>`;
  const searched = (parse: () => Document): { doc: Document; scanned: number } => {
    const original = Array.prototype.indexOf;
    let scanned = 0;
    const spy = vi.spyOn(Array.prototype, 'indexOf').mockImplementation(function (
      this: unknown[],
      ...args: [unknown, number?]
    ) {
      const at = original.apply(this, args);
      scanned += at === -1 ? this.length : at + 1; // positions looked at, from the front
      return at;
    });
    try {
      return { doc: parse(), scanned };
    } finally {
      spy.mockRestore();
    }
  };

  it.each([
    ['the region scan', () => scanPage(html, compileRegions(['div.post']))],
    ['the whole page', () => parseHtml(html)],
  ])('%s: end tags of a name none is open as are passed over without searching the open elements', (_, parse) => {
    const { doc, scanned } = searched(parse);
    expect(textOf(doc)).toContain('x');
    expect(scanned).toBeLessThan(10 * n);
  });
});
