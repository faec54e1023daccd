import type { AnyNode, Element } from 'domhandler';
import type { Body, BodyNode, LinkKind } from '../src/model/body.js';
import type { BodyMarkup } from './markup.js';
import { attr, findOutside, isElement, isSeparate, matcher, one, text, textOf } from './dom.js';

export interface BodyContext {
  /** The page the post was read from: relative links and images resolve against it. */
  pageUrl: string;
  /** Origins that are the same forum (the board may answer on several host names). */
  forumOrigins?: readonly string[];
}

/**
 * Deeper than this (in elements, or in the tree's nodes where one element makes several:
 * bold in italic in colour), hostile or broken markup is read flat (Builder.flat): the
 * walk stays far from the stack's end, and so does everything that walks the tree after it.
 */
export const MAX_DEPTH = 200;

/** Turn one post's body element into the engine-neutral tree, by the engine's markup data. */
export function buildBody(root: Element, markup: BodyMarkup, ctx: BodyContext): Body {
  const builder = new Builder(rulesOf(markup), ctx);
  try {
    const body = builder.children(root.children, 0);
    // Read flat, the words are kept, but what they mean is not sure: the GM reads the post.
    return builder.flattened ? [{ t: 'unreadable', reason: TOO_DEEP }, ...body] : body;
  } catch (error) {
    // One post's markup must never stop the page (and every later poll): the post is kept,
    // marked, and goes to the GM's review queue; the rest of the page is read.
    const why = error instanceof Error ? error.message : String(error);
    return [{ t: 'unreadable', reason: `the post's markup could not be read: ${why.slice(0, 200)}` }];
  }
}

/** Why a post nested past MAX_DEPTH goes to the GM instead of being counted. */
export const TOO_DEEP = `the post's markup is nested more than ${MAX_DEPTH} levels deep (read flat, not counted): check it on the forum`;

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
  /** The forum the post is read on, worked out at its first link or picture (most posts have none). */
  private siteKnown: Site | null = null;
  /** Some markup was nested past MAX_DEPTH and read flat. */
  flattened = false;

  constructor(
    private readonly r: Rules,
    private readonly ctx: BodyContext,
  ) {}

  private get site(): Site {
    this.siteKnown ??= siteOf(this.ctx);
    return this.siteKnown;
  }

  /** Chrome of quotes and spoilers (titles, expand links), skipped wherever it sits. */
  private readonly chrome = new Set<AnyNode>();

  children(nodes: readonly AnyNode[], depth: number): Body {
    const out: Body = [];
    this.childrenInto(nodes, depth, out);
    return out;
  }

  /** Appends what `nodes` read as to `out` (adjacent text joins): no array per element. */
  private childrenInto(nodes: readonly AnyNode[], depth: number, out: Body): void {
    const chrome = this.chrome.size > 0 ? this.chrome : null;
    for (const node of nodes) {
      if (chrome?.has(node)) continue;
      if (node.type === 'text') pushText(out, foldSpace(node.data));
      else if (isElement(node)) this.element(node, depth + 1, out);
    }
  }

  private element(el: Element, depth: number, out: Body): void {
    const r = this.r;
    if (r.skip(el)) return;
    if (depth > MAX_DEPTH) {
      this.flattened = true;
      this.flat(el, out);
      return;
    }
    const name = el.name;
    const kind = kindOf(r, el);
    if (kind >= 0) return push(out, this.quoteNode(el, kind, depth));
    switch (kind) {
      case SPOILER: {
        const titleSelector = r.markup.spoiler!.titleSelector;
        const titleEl = titleSelector ? one(el, titleSelector) : null;
        const title = text(titleEl) || null;
        return push(out, { t: 'spoiler', title, children: this.inner(el, depth, titleEl ? [titleEl] : []) });
      }
      case CODE:
        return push(out, { t: 'code', text: this.codeText(el) });
      case BREAK:
        return push(out, { t: 'br' });
      case IMAGE:
        return push(out, this.imageNode(el));
      case LINK:
        return push(out, this.linkNode(el, depth));
    }

    const { style, bold, strike, signature, block } = marksOf(r, el);
    const italic = r.italic(el) || (style !== '' && /font-style\s*:\s*italic/.test(style));
    const underline = r.underline(el) || (style !== '' && /text-decoration[^;]*underline/.test(style));
    const color =
      (style ? /(?:^|;)\s*color\s*:\s*([^;]+)/.exec(style)?.[1]?.trim() : undefined) ??
      (name === 'font' ? el.attribs.color : undefined);
    const size =
      (style ? /font-size\s*:\s*([^;]+)/.exec(style)?.[1]?.trim() : undefined) ??
      (name === 'font' ? el.attribs.size : undefined);
    // A table cell (or other element shown apart) the markup does not make a block still
    // never runs into its neighbours, even with no white space between the tags.
    const apart = !block && isSeparate(el);
    if (apart) pushText(out, ' ');
    if (!bold && !italic && !underline && !strike && !color && !size && !signature && !block) {
      // A plain wrapper (span, font without attributes): its content joins the parent's.
      this.childrenInto(el.children, depth, out);
      if (apart) pushText(out, ' ');
      return;
    }

    // Styles wrap the content, innermost first: bold, italic, underline, strike, colour, size, signature.
    // Each wrapper is a level of the tree: the depth counts them all.
    const levels = +bold + +italic + +underline + +strike + +!!color + +!!size + +signature + +block;
    let result: Body = this.children(el.children, depth + levels - 1);
    if (bold) result = [{ t: 'bold', children: result }];
    if (italic) result = [{ t: 'italic', children: result }];
    if (underline) result = [{ t: 'underline', children: result }];
    if (strike) result = [{ t: 'strike', children: result }];
    if (color) result = [{ t: 'color', color, children: result }];
    if (size) result = [{ t: 'size', size, children: result }];
    if (signature) result = [{ t: 'signature', children: result }];
    if (block) push(out, { t: 'block', children: result });
    else for (const n of result) push(out, n);
    if (apart) pushText(out, ' ');
  }

  /**
   * Markup nested past MAX_DEPTH, read flat and without recursion: each run of text (and
   * each break, picture, code block) is wrapped in what the rules read (signature, quote,
   * spoiler, strike, bold, link) and nothing else, so the tree stays shallow while a bold
   * vote stays a bold vote and quoted words stay quoted. Blocks become line breaks.
   */
  private flat(root: Element, out: Body): void {
    const r = this.r;
    let last: { key: string; inner: Body; root: BodyNode | null } | null = null;
    const emit = (leaf: BodyNode, s: FlatStyle): void => {
      const key = flatKey(s);
      if (key === '') {
        push(out, leaf);
        last = null;
        return;
      }
      if (last && last.key === key && out[out.length - 1] === last.root) {
        push(last.inner, leaf);
        return;
      }
      const inner: Body = [];
      push(inner, leaf);
      let node: Body = inner;
      if (s.link) node = [{ t: 'link', href: s.link.href, kind: s.link.kind, children: node }];
      if (s.bold) node = [{ t: 'bold', children: node }];
      if (s.strike) node = [{ t: 'strike', children: node }];
      if (s.spoiler) node = [{ t: 'spoiler', title: null, children: node }];
      if (s.quote !== false) node = [{ t: 'quote', author: s.quote, children: node }];
      if (s.signature) node = [{ t: 'signature', children: node }];
      out.push(node[0]!);
      last = { key, inner, root: node[0]! };
    };
    // `close` ends an element shown apart, in the style around it (as it was opened).
    const frames: {
      nodes: readonly AnyNode[];
      i: number;
      style: FlatStyle;
      close: BodyNode | null;
      outside: FlatStyle;
    }[] = [{ nodes: [root], i: 0, style: PLAIN, close: null, outside: PLAIN }];
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      if (frame.i >= frame.nodes.length) {
        frames.pop();
        if (frame.close) emit(frame.close, frame.outside);
        continue;
      }
      const node = frame.nodes[frame.i++]!;
      const style = frame.style;
      if (node.type === 'text') {
        const t = foldSpace(node.data);
        if (t) emit({ t: 'text', text: t }, style);
        continue;
      }
      if (!isElement(node) || r.skip(node) || this.chrome.has(node)) continue;
      const kind = kindOf(r, node);
      if (kind === CODE) {
        emit({ t: 'code', text: this.codeText(node) }, style);
        continue;
      }
      if (kind === BREAK) {
        emit({ t: 'br' }, style);
        continue;
      }
      if (kind === IMAGE) {
        emit(this.imageNode(node), style);
        continue;
      }
      let s = style;
      if (kind >= 0) {
        const by = r.markup.quote[kind]!.authorAttr;
        s = { ...s, quote: (by ? attr(node, by)?.trim().replace(/^@/, '') : null) || null };
      } else if (kind === SPOILER) {
        s = { ...s, spoiler: true };
      } else if (kind === LINK) {
        s = { ...s, link: this.linkTarget(node) };
      }
      const marks = marksOf(r, node);
      if (!s.bold && marks.bold) s = { ...s, bold: true };
      if (!s.strike && marks.strike) s = { ...s, strike: true };
      if (!s.signature && marks.signature) s = { ...s, signature: true };
      const apart: BodyNode | null =
        marks.block || kind >= 0 ? { t: 'br' } : isSeparate(node) ? { t: 'text', text: ' ' } : null;
      if (apart) emit(apart, style);
      frames.push({ nodes: node.children, i: 0, style: s, close: apart, outside: style });
    }
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
        const line = text(authorEl);
        const pm = q.authorPattern ? patternOf(q.authorPattern).exec(line) : null;
        author = (pm ? pm[1]?.trim() : line) || null;
      }
    }
    if (q.chrome) chrome.push(...selectChrome(el, q.chrome));
    if (author?.startsWith('@')) author = author.slice(1);
    return { t: 'quote', author, children: this.inner(el, depth, chrome) };
  }

  /** The quote's own author line: never one inside a quote nested in it. */
  private ownAuthorLine(quote: Element, selector: string): Element | null {
    const quotes = this.r.quote;
    return findOutside(quote, matcher(selector), (n) => quotes.some((q) => q(n)), true)[0] ?? null;
  }

  /** A code block's text, without the chrome the engine prints in it ("Code: Select all"). */
  private codeText(el: Element): string {
    return textOf(el, { skip: this.r.skip, gaps: false });
  }

  private imageNode(el: Element): BodyNode {
    if (this.r.smilie(el)) {
      return { t: 'smilie', alt: el.attribs.alt || el.attribs.title || el.attribs['data-shortname'] || '' };
    }
    const src = el.attribs['data-src'] || el.attribs.src || '';
    return { t: 'image', src: this.resolve(src)?.href ?? src };
  }

  private linkNode(el: Element, depth: number): BodyNode {
    return { t: 'link', ...this.linkTarget(el), children: this.children(el.children, depth) };
  }

  /** Where a link goes, and whether that is this forum, a mention or outside. */
  private linkTarget(el: Element): { href: string; kind: LinkKind } {
    const raw = el.attribs.href ?? '';
    const url = this.resolve(raw);
    let kind: LinkKind;
    if (this.r.mention(el)) kind = 'mention';
    else if (this.r.internalLink?.(el)) kind = 'internal';
    else kind = this.isInternal(url) ? 'internal' : 'external';
    return { href: url?.href ?? raw, kind };
  }

  private isInternal(url: URL | null): boolean {
    if (!url) return true; // javascript:, broken: not a link to anywhere outside
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return url.protocol !== 'mailto:';
    return this.site.origins.has(url.origin) || this.site.hosts.has(bareHost(url.hostname));
  }

  private resolve(href: string): URL | null {
    try {
      return new URL(href, this.site.base ?? undefined);
    } catch {
      return null;
    }
  }
}

/** `display: inline` (or inline-block) in a style (`style` lower-cased). */
function shownInline(style: string): boolean {
  return style !== '' && /(?:^|;)\s*display\s*:\s*inline(?:-block)?\s*(?:;|!|$)/.test(style);
}

/**
 * What an element is to the reader, in the order the rules are tried: a quote (the
 * index of its rule, 0 or more), a spoiler, code, a break, a picture, a link, or text
 * with marks (STYLED). The tree walk and the flat one both read an element by this.
 */
type Kind = number;
const SPOILER = -1;
const CODE = -2;
const BREAK = -3;
const IMAGE = -4;
const LINK = -5;
const STYLED = -6;

function kindOf(r: Rules, el: Element): Kind {
  for (let qi = 0; qi < r.quote.length; qi++) if (r.quote[qi]!(el)) return qi;
  if (r.spoiler?.(el)) return SPOILER;
  if (r.code(el)) return CODE;
  if (el.name === 'br') return BREAK;
  if (el.name === 'img') return IMAGE;
  if (el.name === 'a' && el.attribs.href !== undefined) return LINK;
  return STYLED;
}

/** The marks on an element's text that the rules read, by the markup or its inline style (lower-cased in `style`). */
function marksOf(
  r: Rules,
  el: Element,
): { style: string; bold: boolean; strike: boolean; signature: boolean; block: boolean } {
  const style = el.attribs.style?.toLowerCase() ?? '';
  return {
    style,
    bold: r.bold(el) || (style !== '' && /font-weight\s*:\s*(bold|[6-9]00)/.test(style)),
    strike: r.strike(el) || (style !== '' && /text-decoration[^;]*line-through/.test(style)),
    signature: r.signature?.(el) ?? false,
    // A block the author's style puts in the line (MafiaScum's `div style="display:inline"`
    // for [b]) flows with the text around it, as the browser shows it.
    block: r.blocks.has(el.name) && !shownInline(style),
  };
}

/** What the rules read of a run's surroundings, where markup nests too deep to keep its tree. */
interface FlatStyle {
  signature: boolean;
  /** false: not quoted; otherwise the quoted author (null when unknown). */
  quote: string | null | false;
  spoiler: boolean;
  strike: boolean;
  bold: boolean;
  link: { href: string; kind: LinkKind } | null;
}

const PLAIN: FlatStyle = { signature: false, quote: false, spoiler: false, strike: false, bold: false, link: null };

function flatKey(s: FlatStyle): string {
  if (!s.signature && s.quote === false && !s.spoiler && !s.strike && !s.bold && !s.link) return '';
  return JSON.stringify([
    s.signature,
    s.quote,
    s.spoiler,
    s.strike,
    s.bold,
    s.link?.href ?? null,
    s.link?.kind ?? null,
  ]);
}

/** The forum a body is read on: its page URL and every origin that is the same board. */
interface Site {
  base: URL | null;
  origins: ReadonlySet<string>;
  /** Host names without `www.`: http and https of one host, or www. and bare, are the same forum. */
  hosts: ReadonlySet<string>;
}

function siteOf(ctx: BodyContext): Site {
  const base = safeUrl(ctx.pageUrl);
  const origins = new Set([...(ctx.forumOrigins ?? []), ...(base ? [base.origin] : [])]);
  const hosts = new Set(
    [...origins].flatMap((o) => {
      const url = safeUrl(o);
      return url ? [bareHost(url.hostname)] : [];
    }),
  );
  return { base, origins, hosts };
}

function bareHost(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** What `\s` matches: JavaScript's white space and line terminators. */
function isWhite(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  return (
    c >= 0xa0 &&
    (c === 0xa0 ||
      c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0x202f ||
      c === 0x205f ||
      c === 0x3000 ||
      c === 0xfeff)
  );
}

/** Runs of white space read as one space, as a browser shows them. */
function foldSpace(text: string): string {
  // One hand-written pass, no regex: most text nodes have nothing to fold, and most
  // of the rest are all white space (the line breaks and indents between tags). A
  // global replace cost a quarter more and was an eighth of what a page allocates.
  const n = text.length;
  let out = '';
  let from = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 ? i + 1 < n && isWhite(text.charCodeAt(i + 1)) : isWhite(c)) {
      let j = i + 1;
      while (j < n && isWhite(text.charCodeAt(j))) j++;
      if (i === 0 && j === n) return ' ';
      out += from < i ? `${text.slice(from, i)} ` : ' ';
      from = i = j;
    } else {
      i++;
    }
  }
  return from === 0 ? text : from === n ? out : out + text.slice(from);
}

function push(out: Body, node: BodyNode): void {
  if (node.t === 'text') pushText(out, node.text);
  else out.push(node);
}

/** Text joins the text before it. */
function pushText(out: Body, text: string): void {
  if (!text) return;
  // Not `out[out.length - 1]`: on an empty list that reads index -1, V8's slow path.
  const last = out.length > 0 ? out[out.length - 1] : undefined;
  if (last?.t === 'text') {
    // Both are folded already: only where they meet can two spaces stand together. The
    // node is this builder's own, so it grows in place.
    last.text = last.text.endsWith(' ') && text.startsWith(' ') ? last.text + text.slice(1) : last.text + text;
    return;
  }
  out.push({ t: 'text', text });
}

const patterns = new Map<string, RegExp>();
/** A markup's author-line pattern, compiled once (every quote of every post uses it). */
function patternOf(source: string): RegExp {
  let re = patterns.get(source);
  if (!re) patterns.set(source, (re = new RegExp(source, 'u')));
  return re;
}

function selectChrome(root: Element, selector: string): Element[] {
  return findOutside(root, matcher(selector), null, false);
}

function safeUrl(s: string): URL | null {
  try {
    return new URL(s);
  } catch {
    return null;
  }
}
