import type { AnyNode, Element } from 'domhandler';
import { textContent } from 'domutils';
import type { Body, BodyNode, LinkKind } from '../src/model/body.js';
import type { BodyMarkup } from './markup.js';
import { attr, isElement, matcher, one } from './dom.js';

export interface BodyContext {
  /** The page the post was read from: relative links and images resolve against it. */
  pageUrl: string;
  /** Origins that are the same forum (the board may answer on several host names). */
  forumOrigins?: readonly string[];
}

/** Deeper than this, hostile or broken markup is read as plain text (no stack blow-up). */
const MAX_DEPTH = 200;

/** Turn one post's body element into the engine-neutral tree, by the engine's markup data. */
export function buildBody(root: Element, markup: BodyMarkup, ctx: BodyContext): Body {
  const builder = new Builder(rulesOf(markup), ctx);
  return builder.children(root.children, 0);
}

type Is = (el: Element) => boolean;

/** A markup's selectors compiled once: every element of every body is tested against them. */
interface Rules {
  markup: BodyMarkup;
  skip: Is;
  quote: Is[];
  spoiler: Is | null;
  code: Is;
  bold: Is;
  italic: Is;
  underline: Is;
  strike: Is;
  smilie: Is;
  mention: Is;
  internalLink: Is | null;
  signature: Is | null;
  blocks: ReadonlySet<string>;
}

const compiledRules = new WeakMap<BodyMarkup, Rules>();
function rulesOf(m: BodyMarkup): Rules {
  let rules = compiledRules.get(m);
  if (!rules) {
    rules = {
      markup: m,
      skip: matcher(m.skip),
      quote: m.quote.map((q) => matcher(q.selector)),
      spoiler: m.spoiler ? matcher(m.spoiler.selector) : null,
      code: matcher(m.code),
      bold: matcher(m.bold),
      italic: matcher(m.italic),
      underline: matcher(m.underline),
      strike: matcher(m.strike),
      smilie: matcher(m.smilie),
      mention: matcher(m.mention),
      internalLink: m.internalLink ? matcher(m.internalLink) : null,
      signature: m.signature ? matcher(m.signature) : null,
      blocks: new Set(m.blocks),
    };
    compiledRules.set(m, rules);
  }
  return rules;
}

class Builder {
  private readonly origins: Set<string>;
  private readonly base: URL | null;

  constructor(private readonly r: Rules, ctx: BodyContext) {
    this.base = safeUrl(ctx.pageUrl);
    this.origins = new Set([...(ctx.forumOrigins ?? []), ...(this.base ? [this.base.origin] : [])]);
  }

  /** Chrome of quotes and spoilers (titles, expand links), skipped wherever it sits. */
  private readonly chrome = new Set<AnyNode>();

  children(nodes: readonly AnyNode[], depth: number): Body {
    const out: Body = [];
    const chrome = this.chrome.size > 0 ? this.chrome : null;
    for (const node of nodes) {
      if (chrome?.has(node)) continue;
      if (node.type === 'text') {
        push(out, { t: 'text', text: foldSpace(node.data) });
      } else if (isElement(node)) {
        for (const n of this.element(node, depth + 1)) push(out, n);
      }
    }
    return out;
  }

  private element(el: Element, depth: number): Body {
    const r = this.r;
    if (r.skip(el)) return [];
    if (depth > MAX_DEPTH) return [{ t: 'text', text: textContent(el).replace(/\s+/g, ' ') }];
    const name = el.name;

    for (let qi = 0; qi < r.quote.length; qi++) if (r.quote[qi]!(el)) return [this.quoteNode(el, qi, depth)];
    if (r.spoiler?.(el)) {
      const titleSelector = r.markup.spoiler!.titleSelector;
      const titleEl = titleSelector ? one(el, titleSelector) : null;
      const title = titleEl ? textContent(titleEl).replace(/\s+/g, ' ').trim() || null : null;
      return [{ t: 'spoiler', title, children: this.inner(el, depth, titleEl ? [titleEl] : []) }];
    }
    if (r.code(el)) return [{ t: 'code', text: this.codeText(el) }];
    if (name === 'br') return [{ t: 'br' }];
    if (name === 'img') return [this.imageNode(el)];
    if (name === 'a' && el.attribs.href !== undefined) return [this.linkNode(el, depth)];

    // Styles wrap the content, innermost first: bold, italic, underline, strike, colour, size, signature.
    let result: Body = this.children(el.children, depth);
    const style = el.attribs.style?.toLowerCase() ?? '';
    if (r.bold(el) || (style && /font-weight\s*:\s*(bold|[6-9]00)/.test(style))) result = [{ t: 'bold', children: result }];
    if (r.italic(el) || (style && /font-style\s*:\s*italic/.test(style))) result = [{ t: 'italic', children: result }];
    if (r.underline(el) || (style && /text-decoration[^;]*underline/.test(style))) result = [{ t: 'underline', children: result }];
    if (r.strike(el) || (style && /text-decoration[^;]*line-through/.test(style))) result = [{ t: 'strike', children: result }];
    const color = (style ? /(?:^|;)\s*color\s*:\s*([^;]+)/.exec(style)?.[1]?.trim() : undefined) ?? (name === 'font' ? el.attribs.color : undefined);
    if (color) result = [{ t: 'color', color, children: result }];
    const size = (style ? /font-size\s*:\s*([^;]+)/.exec(style)?.[1]?.trim() : undefined) ?? (name === 'font' ? el.attribs.size : undefined);
    if (size) result = [{ t: 'size', size, children: result }];
    if (r.signature?.(el)) result = [{ t: 'signature', children: result }];

    if (r.blocks.has(name)) return [{ t: 'block', children: result }];
    return result;
  }

  private inner(el: Element, depth: number, chrome: readonly AnyNode[]): Body {
    for (const c of chrome) this.chrome.add(c);
    return this.children(el.children, depth);
  }

  private quoteNode(el: Element, index: number, depth: number): BodyNode {
    const q = this.r.markup.quote[index]!;
    const chrome: Element[] = [];
    let author: string | null = null;
    if (q.authorAttr) author = attr(el, q.authorAttr)?.trim() || null;
    const authorEl = q.authorSelector ? this.ownAuthorLine(el, q.authorSelector) : null;
    if (authorEl) {
      chrome.push(authorEl);
      if (!author) {
        const line = textContent(authorEl).replace(/\s+/g, ' ').trim();
        const pm = q.authorPattern ? new RegExp(q.authorPattern, 'u').exec(line) : null;
        author = (pm ? pm[1]?.trim() : line) || null;
      }
    }
    if (q.chrome) chrome.push(...selectChrome(el, q.chrome));
    if (author?.startsWith('@')) author = author.slice(1);
    return { t: 'quote', author, children: this.inner(el, depth, chrome) };
  }

  /** The quote's own author line: never one inside a quote nested in it. */
  private ownAuthorLine(quote: Element, selector: string): Element | null {
    const is = matcher(selector);
    const visit = (nodes: readonly AnyNode[]): Element | null => {
      for (const n of nodes) {
        if (!isElement(n)) continue;
        if (is(n)) return n;
        if (this.r.quote.some((q) => q(n))) continue;
        const found = visit(n.children);
        if (found) return found;
      }
      return null;
    };
    return visit(quote.children);
  }

  /** A code block's text, without the chrome the engine prints in it ("Code: Select all"). */
  private codeText(el: Element): string {
    let out = '';
    const visit = (nodes: readonly AnyNode[]): void => {
      for (const n of nodes) {
        if (n.type === 'text') out += n.data;
        else if (isElement(n) && !this.r.skip(n)) visit(n.children);
      }
    };
    visit(el.children);
    return out;
  }

  private imageNode(el: Element): BodyNode {
    if (this.r.smilie(el)) {
      return { t: 'smilie', alt: el.attribs.alt || el.attribs.title || el.attribs['data-shortname'] || '' };
    }
    const src = el.attribs['data-src'] || el.attribs.src || '';
    return { t: 'image', src: this.resolve(src) ?? src };
  }

  private linkNode(el: Element, depth: number): BodyNode {
    const raw = el.attribs.href ?? '';
    const href = this.resolve(raw) ?? raw;
    let kind: LinkKind;
    if (this.r.mention(el)) kind = 'mention';
    else if (this.r.internalLink?.(el)) kind = 'internal';
    else kind = this.isInternal(href) ? 'internal' : 'external';
    return { t: 'link', href, kind, children: this.children(el.children, depth) };
  }

  private isInternal(href: string): boolean {
    const url = safeUrl(href);
    if (!url) return true; // javascript:, broken: not a link to anywhere outside
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return url.protocol !== 'mailto:';
    return this.origins.has(url.origin) || [...this.origins].some((o) => sameSite(o, url));
  }

  private resolve(href: string): string | null {
    try {
      return new URL(href, this.base ?? undefined).href;
    } catch {
      return null;
    }
  }
}

/** Any white space other than a lone space (what `\s` matches, less the space itself). */
const FOLDABLE = /[\t-\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}/;

/** Runs of white space read as one space, as a browser shows them. */
function foldSpace(text: string): string {
  // Most text nodes are plain words or a single space: no replace for those.
  return FOLDABLE.test(text) ? text.replace(/\s+/g, ' ') : text;
}

function push(out: Body, node: BodyNode): void {
  const last = out[out.length - 1];
  if (node.t === 'text') {
    if (!node.text) return;
    if (last?.t === 'text') {
      out[out.length - 1] = { t: 'text', text: (last.text + node.text).replace(/ {2,}/g, ' ') };
      return;
    }
  }
  out.push(node);
}

/** http and https of one host, or www. and bare, are the same forum. */
function sameSite(origin: string, url: URL): boolean {
  const o = safeUrl(origin);
  if (!o) return false;
  const strip = (h: string): string => h.replace(/^www\./, '');
  return strip(o.hostname) === strip(url.hostname);
}

function selectChrome(root: Element, selector: string): Element[] {
  const is = matcher(selector);
  const found: Element[] = [];
  const visit = (nodes: readonly AnyNode[]): void => {
    for (const n of nodes) {
      if (!isElement(n)) continue;
      if (is(n)) found.push(n);
      else visit(n.children);
    }
  };
  visit(root.children);
  return found;
}

function safeUrl(s: string): URL | null {
  try {
    return new URL(s);
  } catch {
    return null;
  }
}
