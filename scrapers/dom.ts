import { compile } from 'css-select';
import { isTag, type AnyNode, type Document, type Element } from 'domhandler';
import { load, type CheerioAPI } from 'cheerio/slim';
import { compileCompound, type CompoundSelector } from './compound-selector.js';
import { compileRegions, parseWhole, scanPage, type PageRegion, type PageRegions } from './page-scan.js';
import type { EngineDescriptor, PageContext } from './adapter.js';

/**
 * The page DOM: htmlparser2's parser and domhandler's tree (about 3x faster than parse5
 * on forum pages), queried with cheerio (`query`) or, in the adapters' older helpers
 * below, with css-select, the selector engine cheerio itself runs on. What is written
 * here is only what those libraries lack: a first match without recursion, text as a
 * browser spaces it, and the page scan of a descriptor's regions.
 */
export type { AnyNode, Document, Element };

/** The whole page's document (htmlparser2's `parseDocument`). */
export function parseHtml(html: string): Document {
  return parseWhole(html);
}

const compiledRegions = new WeakMap<readonly PageRegion[], PageRegions>();

/**
 * The DOM an adapter reads a page from: the page scan of the descriptor's regions, or
 * the whole page where the descriptor names none (or the caller asks for it).
 */
export function pageDocument(html: string, descriptor: EngineDescriptor, ctx: PageContext): Document {
  if (!descriptor.regions || ctx.wholePage) return parseHtml(html);
  let regions = compiledRegions.get(descriptor.regions);
  if (!regions) compiledRegions.set(descriptor.regions, (regions = compileRegions(descriptor.regions)));
  return scanPage(html, regions);
}

/**
 * Cheerio over a document built here (the page, its regions, or a fragment): the
 * adapters' query API. The document is used as it is (never copied or re-parented), so
 * `$(el)` wraps any element an adapter already holds. Selectors asked once per page read
 * well this way; the per-post helpers below keep their compiled selectors instead
 * (cheerio parses a selector on every call).
 */
export function query(doc: Document): CheerioAPI {
  return load(doc);
}

type Matcher = (el: Element) => boolean;
const compiled = new Map<string, Matcher>();

/**
 * A compiled test for a selector, cached: adapters ask a handful of selectors on every
 * post, and compiling one costs more than running it. css-select's, except for
 * compound selectors joined by ` ` and `>` (nearly all adapters use): css-select looks
 * from an element all the way up for a descendant combinator's ancestor, and on a post
 * nested ten thousand deep every selector became quadratic (issue #17); `compileChains`
 * looks a bounded way up, and tests compounds by tag first.
 */
export function matcher(selector: string): Matcher {
  let m = compiled.get(selector);
  if (!m) {
    m = compileChains(selector) ?? (compile<AnyNode, Element>(selector) as Matcher);
    // Adapters build some selectors from post ids: keep the cache from growing without end.
    if (compiled.size >= 1000) compiled.clear();
    compiled.set(selector, m);
  }
  return m;
}

export function matches(el: Element, selector: string | undefined): boolean {
  return selector ? matcher(selector)(el) : false;
}

/**
 * Every element under `root` (not `root` itself; of a list, its members too) matching,
 * in document order. Not css-select's `selectAll`: domutils' search shifts a stack per
 * level, quadratic on a post nested thousands deep.
 */
export function all(root: AnyNode | AnyNode[], selector: string): Element[] {
  const is = matcher(selector);
  if (!Array.isArray(root)) return search(root, is, null, false, true);
  const found: Element[] = [];
  for (const node of root) {
    if (!isTag(node)) continue;
    if (is(node)) found.push(node);
    found.push(...search(node, is, null, false, true));
  }
  return found;
}

/**
 * The first element under `root` (not `root` itself; of a list, its members too)
 * matching, in document order. Not css-select's `selectOne`: domutils finds it
 * recursively, and hostile markup nests deeper than the stack allows.
 */
export function one(root: AnyNode | AnyNode[], selector: string): Element | null {
  const is = matcher(selector);
  if (!Array.isArray(root)) return search(root, is, null, true, true)[0] ?? null;
  for (const node of root) {
    if (isTag(node) && is(node)) return node;
    const found = search(node, is, null, true, true)[0];
    if (found) return found;
  }
  return null;
}

/**
 * The first element under `root` whose id is `id` (and, given `tag`, of that name): a
 * post's own parts, named by its id (`modified_123`), found without a selector made per
 * post (each compiled once and cached, they cost more than the search).
 */
export function byId(root: AnyNode | null, id: string, tag?: string): Element | null {
  if (!root) return null;
  const is = (el: Element): boolean => el.attribs.id === id && (tag === undefined || el.name === tag);
  return search(root, is, null, true, true)[0] ?? null;
}

/** The first child element of `el` matching (`#x > sel` where `#x` is found by `byId`). */
export function childMatching(el: Element | null, selector: string): Element | null {
  if (!el) return null;
  const is = matcher(selector);
  for (const c of el.children) if (isTag(c) && is(c)) return c;
  return null;
}

/**
 * A selector list whose selectors are compound selectors joined by ` ` and `>`, as one
 * matcher; null for anything else. Matched right to left: the last compound on the
 * element, then the rest on its ancestors.
 */
function compileChains(selectorList: string): Matcher | null {
  const chains: { test: CompoundSelector; child: boolean }[][] = [];
  const singles: string[] = [];
  for (const alternative of splitOutsideBrackets(selectorList, ',')) {
    const parts = chainOf(alternative.trim());
    if (!parts) return null;
    if (parts.length === 1) singles.push(alternative.trim());
    else chains.push(parts);
  }
  // Lone compounds share one tag-indexed test; chains are tried after it.
  const single = singles.length ? compileCompound(singles.join(', ')) : null;
  if (!single && chains.length === 0) return null;
  return (el: Element) => {
    if (!isTag(el)) return false;
    if (single?.matches(el.name, el.attribs)) return true;
    for (const parts of chains) if (matchChain(parts, parts.length - 1, el)) return true;
    return false;
  };
}

/** `a.b > c d` as compounds, each marked when it must be the parent (not any ancestor) of the next. */
function chainOf(selector: string): { test: CompoundSelector; child: boolean }[] | null {
  const bare = selector.replace(/\[[^\]]*\]/g, '[]');
  if (selector === '' || /[:+~(),]/.test(bare)) return null;
  const pieces = splitOutsideBrackets(spaceOutChildCombinators(selector), ' ').filter((p) => p !== '');
  const parts: { test: CompoundSelector; child: boolean }[] = [];
  let child = false;
  for (const piece of pieces) {
    if (piece === '>') {
      if (parts.length === 0 || child) return null;
      child = true;
      continue;
    }
    try {
      parts.push({ test: compileCompound(piece), child });
    } catch {
      return null;
    }
    child = false;
  }
  return parts.length > 0 && !child ? parts : null;
}

/**
 * How far up a descendant combinator looks for its ancestor. Real pages nest a few dozen
 * levels; hostile markup nests thousands, and looking all the way up from every element
 * of such a post made each selector quadratic in its depth.
 */
const MAX_CLIMB = 256;

function matchChain(parts: readonly { test: CompoundSelector; child: boolean }[], i: number, el: Element): boolean {
  if (!parts[i]!.test.matches(el.name, el.attribs)) return false;
  if (i === 0) return true;
  // The compound before must match the parent (`>`) or some ancestor (` `), and so on leftwards.
  const before = parts[i - 1]!;
  let climb = 0;
  for (let p = parentElement(el); p && climb < MAX_CLIMB; p = parentElement(p), climb++) {
    if (before.test.matches(p.name, p.attribs)) {
      if (matchChain(parts, i - 1, p)) return true;
      // Past a descendant combinator, a higher ancestor has fewer ancestors still: if the
      // nearest one failed, so would they (no backtracking: linear, not exponential, in depth).
      if (!before.child) return false;
    }
    if (parts[i]!.child) return false;
  }
  return false;
}

function parentElement(el: Element): Element | null {
  const p = el.parent;
  return p && isTag(p) ? p : null;
}

/** Splits on `sep` where it stands outside `[...]` and quotes (attribute values may hold it). */
function splitOutsideBrackets(s: string, sep: string): string[] {
  const out: string[] = [];
  let start = 0;
  forEachOutside(s, (c, i) => {
    if (c === sep) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  });
  out.push(s.slice(start));
  return out;
}

/** `a>b` as `a > b`, so the combinator splits on spaces like the rest. */
function spaceOutChildCombinators(s: string): string {
  const at: number[] = [];
  forEachOutside(s, (c, i) => {
    if (c === '>') at.push(i);
  });
  let out = s;
  for (const i of at.reverse()) out = `${out.slice(0, i)} > ${out.slice(i + 1)}`;
  return out;
}

/** Calls `visit` for each character outside attribute brackets and quotes. */
function forEachOutside(s: string, visit: (c: string, i: number) => void): void {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '[') {
      depth++;
    } else if (c === ']') {
      depth--;
    } else if (depth === 0) {
      visit(c, i);
    }
  }
}

export function attr(el: Element | null | undefined, name: string): string | null {
  return el?.attribs[name] ?? null;
}

/** `walk`'s answer to stop at once. */
const STOP = 2;

/**
 * Depth-first over the nodes under `root`, in document order, without recursion
 * (hostile markup nests deep) and without an object per node. `enter` answers whether
 * to go inside a node (true), to pass over its children (false), or to stop (STOP);
 * `leave` runs after the children of a node entered. The one walk of this file.
 */
function walk(root: AnyNode, enter: (node: AnyNode) => boolean | typeof STOP, leave?: (node: AnyNode) => void): void {
  if (!('children' in root)) return;
  const lists: (readonly AnyNode[])[] = [root.children];
  const at: number[] = [0];
  let top = 0;
  while (top >= 0) {
    const nodes = lists[top]!;
    const i = at[top]!;
    if (i >= nodes.length) {
      if (top > 0 && leave) {
        const parent = lists[top - 1]![at[top - 1]! - 1]!;
        leave(parent);
      }
      top--;
      continue;
    }
    at[top] = i + 1;
    const node = nodes[i]!;
    const go = enter(node);
    if (go === STOP) return;
    if (go && 'children' in node) {
      top++;
      lists[top] = node.children;
      at[top] = 0;
    }
  }
}

/**
 * Elements under `root` matching `is`, in document order, looking neither inside a
 * match nor inside an element `prune` turns away; with `first`, only the first.
 */
export function findOutside(
  root: AnyNode,
  is: (el: Element) => boolean,
  prune: ((el: Element) => boolean) | null,
  first: boolean,
): Element[] {
  return search(root, is, prune, first, false);
}

/** findOutside, or with `inside` looking inside matches too (`one`, `all`, `byId`). */
function search(
  root: AnyNode,
  is: (el: Element) => boolean,
  prune: ((el: Element) => boolean) | null,
  first: boolean,
  inside: boolean,
): Element[] {
  const found: Element[] = [];
  walk(root, (node) => {
    if (!isTag(node)) return false;
    if (is(node)) {
      found.push(node);
      return first ? STOP : inside;
    }
    return !prune?.(node);
  });
  return found;
}

/** Text of an element with runs of white space folded, as a browser shows it. */
export function text(el: AnyNode | null | undefined): string {
  return el ? textOf(el).replace(/\s+/g, ' ').trim() : '';
}

/**
 * Elements a browser shows apart from their neighbours (blocks, list items, table
 * cells, line breaks): their text never runs into the text beside them, even where a
 * minifier took out the white space between tags ("Page 1 of 2" then the page list
 * must not read "Page 1 of 212").
 */
const SEPARATE = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'legend',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);

/** An inline style that puts the element in the line's flow (inline, inline-block, inline-flex). */
const INLINE_DISPLAY = /(?:^|;)\s*display\s*:\s*inline/iu;

/**
 * Whether a browser shows the element apart from the text beside it (block, list, table,
 * break). A block element styled `display: inline` runs on with its neighbours: phpBB
 * boards render [color] and [b] as inline divs, and a word coloured letter by letter
 * ("N o t v o t i n g" read apart) is one word on the page.
 */
export function isSeparate(el: Element): boolean {
  return SEPARATE.has(el.name) && !INLINE_DISPLAY.test(el.attribs.style ?? '');
}

/**
 * The text under a node (comments and `skip`ped elements left out), with `gaps` (the
 * default) a space where an element of SEPARATE starts or ends. Not domutils'
 * `textContent` (cheerio's `.text()`): that runs text across block boundaries and
 * recurses.
 */
export function textOf(root: AnyNode, opts: { skip?: (el: Element) => boolean; gaps?: boolean } = {}): string {
  const skip = opts.skip ?? null;
  const gaps = opts.gaps ?? true;
  if (root.type === 'text') return (root as { data: string }).data;
  let out = '';
  const apart = (node: AnyNode): boolean => gaps && isTag(node) && isSeparate(node);
  walk(
    root,
    (node) => {
      if (node.type === 'text') {
        out += node.data;
        return false;
      }
      if (node.type === 'comment' || !('children' in node)) return false;
      if (skip && isTag(node) && skip(node)) return false;
      if (apart(node)) out += ' ';
      return true;
    },
    (node) => {
      if (apart(node)) out += ' ';
    },
  );
  return out;
}

/** Whether a node is an element (a tag, script or style): domhandler's `isTag`. */
export function isElement(node: AnyNode): node is Element {
  return isTag(node);
}

/** Links resolve against `<base href>` when the page sets one (XenForo 1, vBulletin), else the page URL. */
export function documentBase(doc: Document, url: string): string {
  const href = attr(one(doc, 'base[href]'), 'href');
  try {
    return href ? new URL(href, url).href : url;
  } catch {
    return url;
  }
}
