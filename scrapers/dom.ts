import { compile, selectAll } from 'css-select';
import { isTag, type AnyNode, type Document, type Element } from 'domhandler';
import { load, type CheerioAPI } from 'cheerio/slim';
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

/** Cheerio over a document built here (the page, its regions, or a fragment): the adapters' query API. */
export function query(doc: Document): CheerioAPI {
  return load(doc);
}

type Matcher = (el: Element) => boolean;
const compiled = new Map<string, Matcher>();

/**
 * css-select's compiled test for a selector, cached: adapters ask a handful of
 * selectors on every post, and compiling one costs more than running it.
 */
export function matcher(selector: string): Matcher {
  let m = compiled.get(selector);
  if (!m) {
    m = compile<AnyNode, Element>(selector) as Matcher;
    // Adapters build some selectors from post ids: keep the cache from growing without end.
    if (compiled.size >= 1000) compiled.clear();
    compiled.set(selector, m);
  }
  return m;
}

export function matches(el: Element, selector: string | undefined): boolean {
  return selector ? matcher(selector)(el) : false;
}

/** Every element under `root` (not `root` itself; of a list, its members too) matching, in document order. */
export function all(root: AnyNode | AnyNode[], selector: string): Element[] {
  return selectAll<AnyNode, Element>(matcher(selector), root);
}

/**
 * The first element under `root` (not `root` itself; of a list, its members too)
 * matching, in document order. Not css-select's `selectOne`: domutils finds it
 * recursively, and hostile markup nests deeper than the stack allows.
 */
export function one(root: AnyNode | AnyNode[], selector: string): Element | null {
  const is = matcher(selector);
  if (!Array.isArray(root)) return findOutside(root, is, null, true)[0] ?? null;
  for (const node of root) {
    if (isTag(node) && is(node)) return node;
    const found = findOutside(node, is, null, true)[0];
    if (found) return found;
  }
  return null;
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
  const found: Element[] = [];
  walk(root, (node) => {
    if (!isTag(node)) return false;
    if (is(node)) {
      found.push(node);
      return first ? STOP : false;
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

/** Whether a browser shows the element apart from the text beside it (block, list, table, break). */
export function isSeparate(el: Element): boolean {
  return SEPARATE.has(el.name);
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
  const apart = (node: AnyNode): boolean => gaps && isTag(node) && SEPARATE.has(node.name);
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
