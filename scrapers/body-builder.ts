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
 * bold in italic in colour), hostile or broken markup is read flat (Builder.openFlat): the
 * tree stays shallow, so everything that walks it after the builder stays far from the
 * stack's end.
 */
export const MAX_DEPTH = 200;

/** Turn one post's body element into the engine-neutral tree, by the engine's markup data. */
export function buildBody(root: Element, markup: BodyMarkup, ctx: BodyContext): Body {
  const builder = new Builder(rulesOf(markup), ctx);
  try {
    const body = builder.build(root);
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
  quoteCaption: RegExp | null;
  spoiler: Is | null;
  code: Is;
  bold: Is;
  voteTag: Is | null;
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
      quoteCaption: m.quoteCaption ? patternOf(m.quoteCaption) : null,
      spoiler: m.spoiler ? matcher(m.spoiler.selector) : null,
      code: matcher(m.code),
      bold: matcher(m.bold),
      voteTag: m.voteTag ? matcher(m.voteTag) : null,
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

/**
 * One element's place in the walk: the nodes under it still to read, where what they read
 * as goes, and how deep the tree being built is there.
 */
interface Frame {
  nodes: readonly AnyNode[];
  i: number;
  /** Where the nodes' content goes (the wrapper this element opened, or its parent's list). */
  out: Body;
  /** Tree levels above the nodes: an element under them sits one deeper. */
  depth: number;
  /**
   * Past MAX_DEPTH, the marks the rules read, carried to each leaf instead of opening a
   * level per element (null: inside the cap, where every wrapper is its own level).
   */
  flat: Flat | null;
  /** What the element leaves after itself when it ends (the space or break that keeps it apart). */
  after: BodyNode | null;
}

/** The marks a leaf past MAX_DEPTH is wrapped in, and their key: equal keys share one wrapper. */
interface Flat {
  style: FlatStyle;
  key: string;
}

class Builder {
  /** The forum the post is read on, worked out at its first link or picture (most posts have none). */
  private siteKnown: Site | null = null;
  /** Some markup was nested past MAX_DEPTH and read flat. */
  flattened = false;
  /** Chrome of quotes and spoilers (titles, expand links), skipped wherever it sits. */
  private readonly chrome = new Set<AnyNode>();
  /** Header lines of quotes known by their caption: a block opening with one already read opens no second quote. */
  private readonly captionLines = new Set<Element>();
  /** The quoted author of each block found to be a captioned quote. */
  private readonly captioned = new Map<Element, string | null>();
  /** The last wrapper made past MAX_DEPTH: the next leaf of the same marks joins it. */
  private lastFlat: { key: string; out: Body; root: BodyNode; inner: Body } | null = null;

  constructor(
    private readonly r: Rules,
    private readonly ctx: BodyContext,
  ) {}

  private get site(): Site {
    this.siteKnown ??= knownSite(this.ctx);
    return this.siteKnown;
  }

  /**
   * The whole walk, iterative (an explicit stack, so no nesting reaches the call stack's
   * end). Inside MAX_DEPTH each wrapper an element makes is pushed when the element opens
   * and its children are read into it; deeper, an element opens no level and its marks go
   * down to the leaves under it (`Flat`), so the tree stays shallow whatever the markup.
   */
  build(root: Element): Body {
    const body: Body = [];
    const stack: Frame[] = [{ nodes: root.children, i: 0, out: body, depth: 0, flat: null, after: null }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      if (frame.i >= frame.nodes.length) {
        stack.pop();
        const parent = stack[stack.length - 1];
        if (frame.after && parent) this.emit(frame.after, parent);
        continue;
      }
      const node = frame.nodes[frame.i++]!;
      if (node.type === 'text') {
        const t = foldSpace(node.data);
        if (t) this.emit({ t: 'text', text: t }, frame);
        continue;
      }
      if (!isElement(node) || (this.chrome.size > 0 && this.chrome.has(node)) || this.r.skip(node)) continue;
      const deep = frame.flat !== null || frame.depth + 1 > MAX_DEPTH;
      if (deep) this.flattened = true;
      let kind = kindOf(this.r, node);
      if (kind === STYLED && !deep && this.r.quoteCaption && this.r.blocks.has(node.name) && this.isCaptioned(node))
        kind = CAPTIONED;
      const leaf = this.leaf(node, kind);
      if (leaf) this.emit(leaf, frame);
      else stack.push(deep ? this.openFlat(node, kind, frame) : this.open(node, kind, frame));
    }
    return body;
  }

  /** Code, a break or a picture: read whole, nothing under it is walked. */
  private leaf(el: Element, kind: Kind): BodyNode | null {
    if (kind === CODE) return { t: 'code', text: this.codeText(el) };
    if (kind === BREAK) return { t: 'br' };
    if (kind === IMAGE) return this.imageNode(el);
    return null;
  }

  /** Where a leaf goes: its frame's list, or past MAX_DEPTH wrapped in the marks around it. */
  private emit(leaf: BodyNode, frame: Frame): void {
    const flat = frame.flat;
    const out = frame.out;
    if (!flat || flat.key === '') {
      push(out, leaf);
      return;
    }
    const last = this.lastFlat;
    if (last && last.key === flat.key && last.out === out && out[out.length - 1] === last.root) {
      push(last.inner, leaf);
      return;
    }
    const s = flat.style;
    const inner: Body = [];
    push(inner, leaf);
    let node: BodyNode[] = inner;
    if (s.link) node = [{ t: 'link', href: s.link.href, kind: s.link.kind, children: node }];
    if (s.bold) node = [{ t: 'bold', children: node }];
    if (s.strike) node = [{ t: 'strike', children: node }];
    if (s.spoiler) node = [{ t: 'spoiler', title: null, children: node }];
    if (s.quote !== false) node = [{ t: 'quote', author: s.quote, children: node }];
    if (s.signature) node = [{ t: 'signature', children: node }];
    out.push(node[0]!);
    this.lastFlat = { key: flat.key, out, root: node[0]!, inner };
  }

  /** Inside MAX_DEPTH: the element's wrapper goes into its parent now, its children into the wrapper. */
  private open(el: Element, kind: Kind, parent: Frame): Frame {
    const depth = parent.depth + 1;
    const into = (wrapper: BodyNode & { children: Body }, chrome: readonly AnyNode[]): Frame => {
      for (const c of chrome) this.chrome.add(c);
      parent.out.push(wrapper);
      return { nodes: el.children, i: 0, out: wrapper.children, depth, flat: null, after: null };
    };
    if (kind >= 0) {
      const { author, chrome } = this.quoteOf(el, kind);
      return into({ t: 'quote', author, children: [] }, chrome);
    }
    // The header lines stay in the quote as text, as the page shows them (found by a guess, they may be words).
    if (kind === CAPTIONED) return into({ t: 'quote', author: this.captioned.get(el) ?? null, children: [] }, []);
    if (kind === SPOILER) {
      const titleSelector = this.r.markup.spoiler!.titleSelector;
      const titleEl = titleSelector ? one(el, titleSelector) : null;
      return into({ t: 'spoiler', title: text(titleEl) || null, children: [] }, titleEl ? [titleEl] : []);
    }
    if (kind === LINK) return into({ t: 'link', ...this.linkTarget(el), children: [] }, []);

    const name = el.name;
    const { style, bold, strike, signature, block } = marksOf(this.r, el);
    const italic = this.r.italic(el) || (style !== '' && /font-style\s*:\s*italic/.test(style));
    const underline = this.r.underline(el) || (style !== '' && /text-decoration[^;]*underline/.test(style));
    const color =
      (style ? /(?:^|;)\s*color\s*:\s*([^;]+)/.exec(style)?.[1]?.trim() : undefined) ??
      (name === 'font' ? el.attribs.color : undefined);
    const size =
      (style ? /font-size\s*:\s*([^;]+)/.exec(style)?.[1]?.trim() : undefined) ??
      (name === 'font' ? el.attribs.size : undefined);
    // A table cell (or other element shown apart) the markup does not make a block still
    // never runs into its neighbours, even with no white space between the tags.
    const apart = !block && isSeparate(el);
    if (apart) pushText(parent.out, ' ');
    const after: BodyNode | null = apart ? { t: 'text', text: ' ' } : null;
    // Styles wrap the content, innermost first: bold, italic, underline, strike, colour,
    // size, signature, block; the outermost goes into the parent. Each wrapper is a level
    // of the tree: the depth counts them all. A plain wrapper (span, font without
    // attributes) makes none: its content joins the parent's.
    let out = parent.out;
    let levels = 0;
    const wrap = (node: BodyNode & { children: Body }): void => {
      out.push(node);
      out = node.children;
      levels++;
    };
    if (block) wrap({ t: 'block', children: [] });
    if (signature) wrap({ t: 'signature', children: [] });
    if (size) wrap({ t: 'size', size, children: [] });
    if (color) wrap({ t: 'color', color, children: [] });
    if (strike) wrap({ t: 'strike', children: [] });
    if (underline) wrap({ t: 'underline', children: [] });
    if (italic) wrap({ t: 'italic', children: [] });
    // The forum's vote markup stays a node of its own: bold talk around it is not its words.
    if (bold) wrap(this.r.voteTag?.(el) ? { t: 'bold', vote: true, children: [] } : { t: 'bold', children: [] });
    return { nodes: el.children, i: 0, out, depth: depth + Math.max(levels - 1, 0), flat: null, after };
  }

  /**
   * Past MAX_DEPTH, read flat: each run of text (and each break, picture, code block) is
   * wrapped in what the rules read (signature, quote, spoiler, strike, bold, link) and
   * nothing else, so the tree stays shallow while a bold vote stays a bold vote and quoted
   * words stay quoted. Blocks become line breaks. A quote's author is read from its
   * attribute only: looking for an author line in each of thousands of nested quotes
   * would look at the whole post once per quote.
   */
  private openFlat(el: Element, kind: Kind, parent: Frame): Frame {
    const outside = parent.flat?.style ?? PLAIN;
    let s = outside;
    if (kind >= 0) {
      const by = this.r.markup.quote[kind]!.authorAttr;
      s = { ...s, quote: (by ? attr(el, by)?.trim().replace(/^@/, '') : null) || null };
    } else if (kind === SPOILER) {
      s = { ...s, spoiler: true };
    } else if (kind === LINK) {
      s = { ...s, link: this.linkTarget(el) };
    }
    const marks = marksOf(this.r, el);
    if (!s.bold && marks.bold) s = { ...s, bold: true };
    if (!s.strike && marks.strike) s = { ...s, strike: true };
    if (!s.signature && marks.signature) s = { ...s, signature: true };
    const apart: BodyNode | null =
      marks.block || kind >= 0 ? { t: 'br' } : isSeparate(el) ? { t: 'text', text: ' ' } : null;
    if (apart) this.emit(apart, parent);
    const flat = s === outside && parent.flat ? parent.flat : { style: s, key: flatKey(s) };
    return { nodes: el.children, i: 0, out: parent.out, depth: parent.depth + 1, flat, after: apart };
  }

  /** A quote's author (by attribute, or its own author line) and the chrome its walk skips. */
  private quoteOf(el: Element, index: number): { author: string | null; chrome: Element[] } {
    const q = this.r.markup.quote[index]!;
    const chrome: Element[] = [];
    let author: string | null = null;
    if (q.authorAttr) author = attr(el, q.authorAttr)?.trim() || null;
    const authorEl = q.authorSelector ? this.ownAuthorLine(el, q.authorSelector) : null;
    if (authorEl) {
      if (!q.keepAuthorLine) chrome.push(authorEl);
      if (!author) {
        const line = text(authorEl);
        const pm = q.authorPattern ? patternOf(q.authorPattern).exec(line) : null;
        author = (pm ? pm[1]?.trim() : line) || null;
      }
    }
    if (q.chrome) chrome.push(...selectChrome(el, q.chrome));
    if (author?.startsWith('@')) author = author.slice(1);
    return { author, chrome };
  }

  /**
   * Whether a block is a quote by its header: it holds two things, a caption line ("Quote:",
   * "Originally Posted by X", "X wrote:") and what it quotes, and no words of its own beside
   * them (a wrapper holding a quote and a reply is no quote). The author is the caption's
   * name, else the quoted part's opening line's when that is a caption too (vBulletin 3
   * prints "Quote:", then "Originally Posted by X" in the table under it). Both lines are
   * marked read, so the table under the caption is no second quote.
   */
  private isCaptioned(el: Element): boolean {
    const re = this.r.quoteCaption!;
    const parts: Element[] = [];
    for (const c of el.children) {
      if (c.type === 'text') {
        if (c.data.trim()) return false;
      } else if (isElement(c) && !this.r.skip(c) && c.name !== 'br' && boundedText(c, this.r.skip, 0) !== '') {
        parts.push(c);
      }
    }
    if (parts.length !== 2 || this.captionLines.has(parts[0]!)) return false;
    const caption = boundedText(parts[0]!, this.r.skip, CAPTION_CHARS);
    const m = caption ? re.exec(caption) : null;
    if (!m) return false;
    this.captionLines.add(parts[0]!);
    let author = captionName(m);
    const second = this.openingLine(parts[1]!);
    const m2 = second ? re.exec(second.text) : null;
    if (second && m2) {
      this.captionLines.add(second.el);
      author ??= captionName(m2);
    }
    this.captioned.set(el, author);
    return true;
  }

  /**
   * The opening line of the quoted part: down the first blocks (a table, a row, a cell) to
   * the one that starts with words, never into a quote, spoiler or code.
   */
  private openingLine(el: Element): { el: Element; text: string } | null {
    let at: Element = el;
    for (let depth = 0; kindOf(this.r, at) === STYLED; depth++) {
      const first = depth < 6 ? firstChildElement(at, this.r.skip) : null;
      if (first && (this.r.blocks.has(first.name) || isSeparate(first))) {
        at = first;
        continue;
      }
      const t = boundedText(at, this.r.skip, CAPTION_CHARS);
      return t ? { el: at, text: t } : null;
    }
    return null;
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

/**
 * `display: inline` (or inline-block, inline-flex, inline-grid, inline-table) in a style
 * (`style` lower-cased): the browser sets the box in the line. MafiaScum renders [s] as
 * `div style="display:inline-flex;text-decoration:line-through"`.
 */
function shownInline(style: string): boolean {
  return style !== '' && /(?:^|;)\s*display\s*:\s*inline(?:-block|-flex|-grid|-table)?\s*(?:;|!|$)/.test(style);
}

/**
 * What an element is to the reader, in the order the rules are tried: a quote (the
 * index of its rule, 0 or more), a spoiler, code, a break, a picture, a link, or text
 * with marks (STYLED).
 */
type Kind = number;
const SPOILER = -1;
const CODE = -2;
const BREAK = -3;
const IMAGE = -4;
const LINK = -5;
const STYLED = -6;
/** A quote known by its header line (BodyMarkup.quoteCaption), not by a selector. */
const CAPTIONED = -7;

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

/** Sites by page URL and origins: every post of a page is read on the same one (a URL parsed per origin). */
const sites = new Map<string, Site>();

function knownSite(ctx: BodyContext): Site {
  const key = [ctx.pageUrl, ...(ctx.forumOrigins ?? [])].join('\n');
  let site = sites.get(key);
  if (!site) {
    if (sites.size >= 100) sites.clear();
    sites.set(key, (site = siteOf(ctx)));
  }
  return site;
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

/** Longest header line looked at: a caption is a name and a few words. */
const CAPTION_CHARS = 120;

/** The first child element with text, or null where text comes first (no line of its own). */
function firstChildElement(el: Element, skip: Is): Element | null {
  for (const c of el.children) {
    if (c.type === 'text') {
      if (c.data.trim()) return null;
      continue;
    }
    if (!isElement(c) || skip(c) || c.name === 'br') continue;
    if (boundedText(c, skip, 1) === '') continue;
    return c;
  }
  return null;
}

/** An element's text, spaces folded, or null when longer than `max` characters (read no further). */
function boundedText(el: Element, skip: Is, max: number): string | null {
  let out = '';
  const stack: AnyNode[] = [...el.children].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === 'text') {
      out += (n as { data: string }).data;
      if (out.replace(/\s+/g, ' ').trim().length > max) return null;
    } else if (isElement(n) && !skip(n)) {
      if (isSeparate(n)) out += ' ';
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    }
  }
  return out.replace(/\s+/g, ' ').trim();
}

const captionName = (m: RegExpExecArray): string | null =>
  m
    .slice(1)
    .find((g) => g?.trim())
    ?.trim() ?? null;

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
