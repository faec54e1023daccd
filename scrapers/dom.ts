import { parseDocument } from 'htmlparser2';
import { compile, selectAll, selectOne } from 'css-select';
import type { AnyNode, Document, Element } from 'domhandler';
import { textContent } from 'domutils';
import { compileCompound, type CompoundSelector } from './compound-selector.js';
import { compileRegions, scanPage, type PageRegions } from './page-scan.js';
import type { EngineDescriptor, PageContext } from './adapter.js';

/**
 * The page DOM: htmlparser2 (about 3x faster than parse5 on forum pages) with css-select.
 * Compiled selectors are cached: adapters reuse a handful of them on every page.
 */
export type { AnyNode, Document, Element };

export function parseHtml(html: string): Document {
  return parseDocument(html, { decodeEntities: true, lowerCaseAttributeNames: true });
}

const regionsOf = new WeakMap<EngineDescriptor, PageRegions>();

/**
 * The DOM an adapter reads a page from: the page scan of the descriptor's regions, or
 * the whole page where the descriptor names none (or the caller asks for it).
 */
export function pageDocument(html: string, descriptor: EngineDescriptor, ctx: PageContext): Document {
  if (!descriptor.regions || ctx.wholePage) return parseHtml(html);
  let regions = regionsOf.get(descriptor);
  if (!regions) regionsOf.set(descriptor, (regions = compileRegions(descriptor.regions)));
  return scanPage(html, regions);
}

type Matcher = (el: Element) => boolean;
const compiled = new Map<string, Matcher>();

export function matcher(selector: string): Matcher {
  let m = compiled.get(selector);
  if (!m) {
    // Compound selectors (most of what adapters use) match several times faster by
    // tag-indexed tests than through css-select's general compiler.
    let compound: CompoundSelector | null = null;
    try {
      compound = compileCompound(selector);
    } catch {
      compound = null;
    }
    m = compound
      ? ((c: CompoundSelector) => (el: Element) => (el.type === 'tag' || el.type === 'script' || el.type === 'style') && c.matches(el.name, el.attribs))(compound)
      : (compile<AnyNode, Element>(selector) as Matcher);
    compiled.set(selector, m);
  }
  return m;
}

export function matches(el: Element, selector: string | undefined): boolean {
  return selector ? matcher(selector)(el) : false;
}

export function all(root: AnyNode | AnyNode[], selector: string): Element[] {
  return selectAll<AnyNode, Element>(matcher(selector), root);
}

export function one(root: AnyNode | AnyNode[], selector: string): Element | null {
  return selectOne<AnyNode, Element>(matcher(selector), root);
}

export function attr(el: Element | null | undefined, name: string): string | null {
  const v = el?.attribs[name];
  return v === undefined ? null : v;
}

/** Text of an element with runs of white space folded, as a browser shows it. */
export function text(el: AnyNode | null | undefined): string {
  return el ? textContent(el).replace(/\s+/g, ' ').trim() : '';
}

export function isElement(node: AnyNode): node is Element {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
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
