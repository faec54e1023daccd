import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { selectAll as cssSelectAll, selectOne as cssSelectOne } from 'css-select';
import type { AnyNode, Document, Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { all, one, parseHtml } from '../../scrapers/dom.js';
import { packageRoot } from '../../src/config/package-root.js';

/**
 * Adapters' selectors (compound selectors joined by ` ` and `>`) are matched by the
 * project's own chain matcher; whatever they find must be what css-select finds.
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
