import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { selectAll as cssSelectAll, selectOne as cssSelectOne } from 'css-select';
import type { AnyNode, Document, Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { all, documentBase, one, pageDocument, parseHtml, query } from '../../scrapers/dom.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { xenforo1 } from '../../scrapers/xenforo1.js';
import { packageRoot } from '../../src/config/package-root.js';

/**
 * The helpers adapters query with (`one`, `all`) are css-select's compiled selectors; `one`
 * walks without recursion. Whatever they find must be what css-select's own
 * `selectAll`/`selectOne` find.
 */
const root = packageRoot(import.meta.url);
const samplesDir = resolve(root, '../shared/forum-samples');

const selectAll = (selector: string, root: Document): Element[] => cssSelectAll<AnyNode, Element>(selector, root);
const selectOne = (selector: string, root: Document): Element | null => cssSelectOne<AnyNode, Element>(selector, root);
const describeNode = (el: Element | null): string =>
  el ? `${el.name}#${el.attribs.id ?? ''}.${el.attribs.class ?? ''}@${path(el)}` : 'none';
function path(el: Element): string {
  const steps: number[] = [];
  for (let n: AnyNode = el; n.parent; n = n.parent) steps.push(n.parent.children.indexOf(n as never));
  return steps.reverse().join('/');
}

const page = parseHtml(
  [
    '<div id="a" class="x"><ul class="nav main"><li class="item"><a href="/1" title="a > b, c">1</a></li>',
    '<li class="item current"><span>2</span></li></ul>',
    '<div class="post" data-id="7"><p class="author"><a class="username" href="/u/1">Ann</a></p>',
    '<div class="content"><blockquote><p class="author">quoted</p></blockquote><b>Vote: Bob</b></div></div>',
    '<DIV CLASS="Post"><P>upper</P></DIV></div>',
  ].join(''),
);

describe('selectors match as css-select matches them', () => {
  const selectors = [
    'li',
    'li.item',
    '.item.current',
    'ul.nav li',
    'ul.nav > li',
    'div > ul > li > a',
    '#a li a',
    'div p.author',
    '.post > p.author a',
    '.post .author',
    'blockquote p',
    'div.content > p',
    'a[href]',
    'a[title="a > b, c"]',
    'a[title*="> b"]',
    '[data-id="7"] .username',
    'li, p',
    'li span, .content b',
    'div div',
    '* > span',
    '.Post p',
    'div.post',
    'ul > a',
    'p > .username, li > span',
  ];
  it.each(selectors)('%s', (selector) => {
    expect(all(page, selector).map(describeNode)).toEqual(selectAll(selector, page).map(describeNode));
    expect(describeNode(one(page, selector))).toEqual(describeNode(selectOne(selector, page)));
  });

  it('searches below the element it is given, not the element itself', () => {
    const post = one(page, 'div.post')!;
    expect(one(post, 'div.post')).toBeNull();
    expect(all(post, 'p.author')).toHaveLength(2);
  });

  it('leaves pseudo-classes and sibling combinators to css-select', () => {
    for (const selector of ['li:not(.current)', 'li + li', 'li ~ li', 'ul.nav li:first-child a']) {
      expect(all(page, selector).map(describeNode)).toEqual(selectAll(selector, page).map(describeNode));
    }
  });

  it('walks a very deep page without recursion', () => {
    const deep = parseHtml(`${'<div>'.repeat(20000)}<b class="deep">x</b>`);
    expect(one(deep, 'div > b.deep')?.name).toBe('b');
  });
});

describe.skipIf(!existsSync(samplesDir))('on the real sample pages', () => {
  const selectors = [
    'div.post p.author a',
    'li.message .messageMeta a',
    'table[id^="post"] td.thead',
    'ol#posts > li',
    'blockquote .bbCodeBlock-title',
    '.message-body .bbWrapper',
    'a.username',
  ];
  const files = existsSync(samplesDir)
    ? readdirSync(samplesDir)
        .filter((d) => !d.endsWith('.md'))
        .flatMap((d) =>
          readdirSync(join(samplesDir, d))
            .filter((f) => f.endsWith('.html'))
            .map((f) => join(samplesDir, d, f)),
        )
    : [];
  it.each(files)('%s', (file) => {
    const doc = parseHtml(readFileSync(file, 'utf8'));
    for (const selector of selectors)
      expect(all(doc, selector).map(describeNode), selector).toEqual(selectAll(selector, doc).map(describeNode));
  });
});

describe('cheerio over the documents built here', () => {
  it('queries the region scan of a page in place, and wraps the elements the helpers return', () => {
    const html =
      '<html><head><base href="https://forum.example/community/"></head><body><ol><li class="message" id="post-1"><div class="messageUserInfo"><i>avatar</i><a class="username">Ann</a></div></li></ol></body></html>';
    const doc = pageDocument(html, xenforo1.descriptor, {
      url: 'https://forum.example/threads/1/',
      profile: DEFAULT_PROFILE,
      now: '2026-01-01T00:00:00Z',
    });
    const $ = query(doc);
    expect($('li.message').attr('id')).toBe('post-1');
    // Only the regions were built: the avatar is not in the document.
    expect($('li.message i')).toHaveLength(0);
    expect($(one(doc, 'li.message')!).find('a.username').text()).toBe('Ann');
    // The document is not re-parented: the helpers still see it whole.
    expect(all(doc, 'a.username')).toHaveLength(1);
    expect(documentBase(doc, 'https://forum.example/threads/1/')).toBe('https://forum.example/community/');
  });
});
