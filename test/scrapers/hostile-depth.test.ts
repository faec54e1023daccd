import { describe, expect, it } from 'vitest';
import type { ThreadPage } from '../../scrapers/adapter.js';
import { MAX_DEPTH } from '../../scrapers/body-builder.js';
import { adapters } from '../../scrapers/registry.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { Post } from '../../src/model/post.js';
import { plainText, type BodyNode } from '../../src/model/body.js';
import { ownText } from '../../src/parse/own-text.js';
import { packageRoot } from '../../src/rules/package-root.js';
import { readFixtureThread } from '../support/render/index.js';

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
  ['styled divs', "<div style='font-weight:bold;font-style:italic;text-decoration:underline;color:red;font-size:9px'>", '</div>'],
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

describe.each(adapters.map((a) => [a.descriptor.engine, a] as const))('%s: 10,000 nested elements in one post', (engine, adapter) => {
  const page1 = readFixtureThread(root, engine, 'standard-game').pages[0]!;
  const url = `http://forum.test${page1.path}`;
  const parse = (doc: string): ThreadPage => adapter.parsePage(doc, { url, profile: DEFAULT_PROFILE, now: NOW });
  const plain = parse(page1.body);
  const carol = plain.posts.findIndex((p) => ownText(p.body).includes('Just chatter for now'));

  it.each(NESTINGS)('%s: the post is read (its words kept), the rest of the page as without it', (_, open, close) => {
    expect(carol).toBeGreaterThanOrEqual(0);
    const hostile = page1.body.replace('Just chatter for now', open.repeat(DEPTH) + WORDS + close.repeat(DEPTH));
    expect(hostile).not.toBe(page1.body);
    const page = parse(hostile);
    expect(page.posts.map((p) => [p.id, p.number, p.author])).toEqual(plain.posts.map((p) => [p.id, p.number, p.author]));
    page.posts.forEach((post, i) => {
      if (i !== carol) expect(post).toEqual(plain.posts[i]);
    });
    const deep = page.posts[carol]!;
    // Read, not lost (in engines where blockquote is a quote, as quoted words).
    expect(plainText(deep.body).replace(/\s+/g, ' ')).toContain(WORDS);
    // What is stored and hashed stays shallow: every later walk over the tree is safe too.
    expect(depthOf(deep.body)).toBeLessThanOrEqual(MAX_DEPTH + 10);
    expect(() => Post.parse(deep)).not.toThrow();
  });
});
