import type { AnyNode, Element } from 'domhandler';
import { textContent } from 'domutils';
import type { Body, BodyNode, LinkKind } from '../src/model/body.js';
import type { BodyMarkup } from './markup.js';
import { attr, isElement, matcher, matches, one } from './dom.js';

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
  const builder = new Builder(markup, ctx);
  return builder.children(root.children, 0);
}

class Builder {
  private readonly blocks: Set<string>;
  private readonly origins: Set<string>;
  private readonly quote: ((el: Element) => boolean)[];
  private readonly base: URL | null;

  constructor(private readonly m: BodyMarkup, ctx: BodyContext) {
    this.blocks = new Set(m.blocks);
    this.base = safeUrl(ctx.pageUrl);
    this.origins = new Set([...(ctx.forumOrigins ?? []), ...(this.base ? [this.base.origin] : [])]);
    this.quote = m.quote.map((q) => matcher(q.selector));
  }

  /** Chrome of quotes and spoilers (titles, expand links), skipped wherever it sits. */
  private readonly chrome = new Set<AnyNode>();

  children(nodes: readonly AnyNode[], depth: number): Body {
    const out: Body = [];
    for (const node of nodes) {
      if (this.chrome.has(node)) continue;
      if (node.type === 'text') {
        push(out, { t: 'text', text: node.data.replace(/\s+/g, ' ') });
      } else if (isElement(node)) {
        for (const n of this.element(node, depth + 1)) push(out, n);
      }
    }
    return out;
  }

  private element(el: Element, depth: number): Body {
    const m = this.m;
    if (matches(el, m.skip)) return [];
    if (depth > MAX_DEPTH) return [{ t: 'text', text: textContent(el).replace(/\s+/g, ' ') }];
    const name = el.name;

    const qi = this.quote.findIndex((q) => q(el));
    if (qi >= 0) return [this.quoteNode(el, qi, depth)];
    if (m.spoiler && matches(el, m.spoiler.selector)) {
      const titleEl = m.spoiler.titleSelector ? one(el, m.spoiler.titleSelector) : null;
      const title = titleEl ? textContent(titleEl).replace(/\s+/g, ' ').trim() || null : null;
      return [{ t: 'spoiler', title, children: this.inner(el, depth, titleEl ? [titleEl] : []) }];
    }
    if (matches(el, m.code)) return [{ t: 'code', text: this.codeText(el) }];
    if (name === 'br') return [{ t: 'br' }];
    if (name === 'img') return [this.imageNode(el)];
    if (name === 'a' && el.attribs.href !== undefined) return [this.linkNode(el, depth)];

    let kids: Body | null = null;
    const content = (): Body => (kids ??= this.children(el.children, depth));
    let wrapped: BodyNode[] | null = null;
    const wrap = (make: (children: Body) => BodyNode): void => {
      wrapped = [make(wrapped ?? content())];
    };
    const style = (el.attribs.style ?? '').toLowerCase();
    if (matches(el, m.bold) || /font-weight\s*:\s*(bold|[6-9]00)/.test(style)) wrap((c) => ({ t: 'bold', children: c }));
    if (matches(el, m.italic) || /font-style\s*:\s*italic/.test(style)) wrap((c) => ({ t: 'italic', children: c }));
    if (matches(el, m.underline) || /text-decoration[^;]*underline/.test(style)) wrap((c) => ({ t: 'underline', children: c }));
    if (matches(el, m.strike) || /text-decoration[^;]*line-through/.test(style)) wrap((c) => ({ t: 'strike', children: c }));
    const color = /(?:^|;)\s*color\s*:\s*([^;]+)/.exec(style)?.[1]?.trim() ?? (name === 'font' ? el.attribs.color : undefined);
    if (color) wrap((c) => ({ t: 'color', color, children: c }));
    const size = /font-size\s*:\s*([^;]+)/.exec(style)?.[1]?.trim() ?? (name === 'font' ? el.attribs.size : undefined);
    if (size) wrap((c) => ({ t: 'size', size, children: c }));
    if (m.signature && matches(el, m.signature)) wrap((c) => ({ t: 'signature', children: c }));

    const result: Body = wrapped ?? content();
    if (this.blocks.has(name)) return [{ t: 'block', children: result }];
    return result;
  }

  private inner(el: Element, depth: number, chrome: readonly AnyNode[]): Body {
    for (const c of chrome) this.chrome.add(c);
    return this.children(el.children, depth);
  }

  private quoteNode(el: Element, index: number, depth: number): BodyNode {
    const q = this.m.quote[index]!;
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
        if (this.quote.some((q) => q(n))) continue;
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
        else if (isElement(n) && !matches(n, this.m.skip)) visit(n.children);
      }
    };
    visit(el.children);
    return out;
  }

  private imageNode(el: Element): BodyNode {
    if (matches(el, this.m.smilie)) {
      return { t: 'smilie', alt: el.attribs.alt || el.attribs.title || el.attribs['data-shortname'] || '' };
    }
    const src = el.attribs['data-src'] || el.attribs.src || '';
    return { t: 'image', src: this.resolve(src) ?? src };
  }

  private linkNode(el: Element, depth: number): BodyNode {
    const raw = el.attribs.href ?? '';
    const href = this.resolve(raw) ?? raw;
    let kind: LinkKind;
    if (matches(el, this.m.mention)) kind = 'mention';
    else if (matches(el, this.m.internalLink)) kind = 'internal';
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
