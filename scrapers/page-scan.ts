import { Parser, type Handler, type ParserOptions } from 'htmlparser2';
import { DomHandler, type Document } from 'domhandler';
import { z } from 'zod';
import { compileCompound, type CompoundSelector } from './compound-selector.js';

/*
 * The page scan: htmlparser2's own `Parser` over the whole page, with a handler that
 * builds only the parts an adapter reads (its regions: post containers, the page
 * navigator, the title) and lets every other node go as soon as it is seen. The tree
 * rules (implied end tags, stray end tags, void and raw-text elements, foreign content)
 * are the library's: the handler is domhandler's own `DomHandler`, fed only the events
 * that fall inside a region, so a region's subtree is node for node what
 * `parseDocument` builds for the whole page. Tests compare the two on every real page.
 */

/**
 * A part of a page the adapter reads: a compound selector (the element is built whole),
 * or a selector with parts: the element is built with its attributes, and of its
 * contents only the parts (themselves whole, or again with parts), as its children in
 * page order. Avatars, profile fields and buttons around them are never built.
 * Selectors with descendant combinators still find the parts; a child combinator (`>`)
 * or anything that needs an element between a region and its part does not.
 */
export type PageRegion = string | { selector: string; parts: PageRegion[] };
export const PageRegion: z.ZodType<PageRegion> = z.lazy(() =>
  z.union([z.string(), z.strictObject({ selector: z.string(), parts: z.array(PageRegion).min(1) })]),
);

/** Regions (or a region's parts), compiled: which tags may start one, and what each holds. */
export interface PageRegions {
  /** Any of the entries: one tag-indexed test turns most tags away. */
  readonly any: CompoundSelector;
  /** Which tags may start one, told from their name and source text. */
  readonly filter: TagFilter;
  readonly entries: readonly { selector: CompoundSelector; parts: PageRegions | null }[];
  /** The scan's frames for an element inside which these are sought: not built, or built (a region with parts). */
  readonly seek: Frame;
  readonly shell: Frame;
}

/** Per open element: whether it is built, whether all inside it is, and what may start inside it. */
interface Frame {
  readonly built: boolean;
  readonly whole: boolean;
  readonly wanted: PageRegions | null;
}
const WHOLE: Frame = { built: true, whole: true, wanted: null };

/** Region selectors are compound (tag, class, id, attributes): each is tested on an open tag alone. */
export function compileRegions(regions: readonly PageRegion[]): PageRegions {
  const selectorOf = (r: PageRegion): string => (typeof r === 'string' ? r : r.selector);
  // Each frame points back at the regions it seeks.
  const seek = { built: false, whole: false, wanted: null as PageRegions | null };
  const shell = { built: true, whole: false, wanted: null as PageRegions | null };
  const any = compileCompound(regions.map(selectorOf).join(', '));
  const compiled: PageRegions = {
    any,
    filter: new TagFilter(any),
    entries: regions.map((r) => ({
      selector: compileCompound(selectorOf(r)),
      parts: typeof r === 'string' ? null : compileRegions(r.parts),
    })),
    seek,
    shell,
  };
  seek.wanted = shell.wanted = compiled;
  return compiled;
}

/**
 * Which tags may match a compound selector, told from the tag's name and source text
 * before its attributes are read (reading them is most of what a parse costs). The
 * literals the selectors need (a class, an id, an attribute value, as written) are found
 * by one regular expression that runs ahead through the page, so the page is searched
 * once however many literals there are. A tag whose source holds a character reference
 * is always read: its values may spell a literal differently.
 */
class TagFilter {
  /** Per tag name: whether some alternative takes any such tag, or needs a literal. */
  private readonly byTag = new Map<string, 'any' | 'needle'>();
  private readonly anyTag: 'any' | 'needle' | null = null;
  private readonly needles: RegExp | null;

  constructor(selector: CompoundSelector) {
    const literals = new Set<string>();
    for (const p of selector.prefilters) {
      const want = p.needle === null ? 'any' : 'needle';
      if (p.needle !== null) literals.add(p.needle);
      if (p.tag === null) this.anyTag = this.anyTag === 'any' ? 'any' : want;
      else if (this.byTag.get(p.tag) !== 'any') this.byTag.set(p.tag, want);
    }
    this.needles = literals.size
      ? new RegExp([...literals].map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g')
      : null;
  }

  /** Whether a tag of this name may match at all (before its source is known). */
  mayMatchName(name: string): boolean {
    return this.anyTag !== null || this.byTag.has(name);
  }

  /**
   * Whether the tag `html[start, end)` may match. Literals hold no `>`, so one that ends
   * inside a tag also starts inside it.
   */
  mayMatch(html: string, name: string, start: number, end: number, cursor: Cursor): boolean {
    const want = this.byTag.get(name) ?? this.anyTag;
    if (want === 'any' || this.anyTag === 'any') return true;
    if (want === null || this.needles === null) return false;
    if (cursor.at !== -1 && cursor.at <= start) {
      // test() rather than exec(): no match object for every literal passed on the way.
      this.needles.lastIndex = start;
      cursor.at = this.needles.test(html) ? this.needles.lastIndex : -1;
    }
    if (cursor.at !== -1 && cursor.at <= end) return true;
    if (cursor.amp !== -1 && cursor.amp < start) cursor.amp = html.indexOf('&', start);
    return cursor.amp !== -1 && cursor.amp < end;
  }
}

/** Per scan and filter: where the next literal ends, and where the next `&` is (-1: none further). */
interface Cursor {
  at: number;
  amp: number;
}

/** How every page is parsed: entities decoded, names lower-cased (htmlparser2's HTML mode). */
const OPTIONS: ParserOptions = { decodeEntities: true, lowerCaseAttributeNames: true };

/** The whole page's DOM: htmlparser2's `parseDocument`, with open elements counted (below). */
export function parseWhole(html: string): Document {
  const dom = new CountingDomHandler();
  run(html, dom, dom.open);
  return dom.root;
}

/** A Document whose children are the page's region elements, in page order. */
export function scanPage(html: string, regions: PageRegions): Document {
  const handler = new RegionHandler(html, regions);
  run(html, handler, handler.open);
  return handler.dom.root;
}

function run(html: string, handler: Partial<Handler>, open: OpenCount): void {
  const parser = new Parser(handler, OPTIONS);
  open.guard(parser);
  parser.end(html);
}

/** Below this many open elements the parser's own search of them is cheap enough. */
const DEEP = 64;

/**
 * How many elements of each name the parser has open, once it has many open. The
 * parser looks an end tag's element up in its stack of open names (`indexOf`); with a
 * count per name the lookup answers at once when none of that name is open, so thousands
 * of stray end tags under thousands of open elements cost nothing (they made the parse
 * quadratic). Only the lookup is faster: the parser's own code still decides what every
 * tag opens and closes. Counted from its events (each element it opens, void or implied,
 * it reports by name, after putting it on its stack, and closes once, after taking it
 * off). htmlparser2 10.1.0 keeps the stack in `stack` (Parser.js);
 * test/scrapers/hostile-depth.test.ts counts the positions searched, so a release that
 * stops using it fails that test rather than going quietly quadratic.
 */
class OpenCount {
  private count: Map<string, number> | null = null;
  private stack: string[] = [];

  guard(parser: Parser): void {
    const internals = parser as unknown as { stack: unknown };
    const stack = internals.stack;
    if (!Array.isArray(stack) || stack.length !== 0)
      throw new Error('htmlparser2 no longer keeps its open elements in `stack`: see OpenCount in page-scan.ts');
    this.stack = stack as string[];
    const search = Array.prototype.indexOf;
    // An own property of this one array: the parser calls it as `this.stack.indexOf(name)`.
    stack.indexOf = (name: string): number => {
      const count = this.count;
      return count === null || count.get(name) ? search.call(stack, name) : -1;
    };
  }

  opened(name: string): void {
    const count = this.count;
    if (count !== null) count.set(name, (count.get(name) ?? 0) + 1);
    else if (this.stack.length > DEEP) {
      // From here on, counted: the stack already holds this element (unless it is void,
      // and then its close finds nothing to take off).
      const fresh = new Map<string, number>();
      for (const n of this.stack) fresh.set(n, (fresh.get(n) ?? 0) + 1);
      this.count = fresh;
    }
  }

  closed(name: string): void {
    const count = this.count;
    if (count === null) return;
    const n = count.get(name);
    if (n) count.set(name, n - 1);
    if (this.stack.length < DEEP / 2) this.count = null;
  }
}

/** domhandler's handler, counting the open elements. */
class CountingDomHandler extends DomHandler {
  readonly open = new OpenCount();

  onopentagname(name: string): void {
    this.open.opened(name);
  }

  override onclosetag(name?: string): void {
    if (name !== undefined) this.open.closed(name);
    super.onclosetag();
  }
}

/**
 * The attributes of the tag at the start of `source`, as htmlparser2 reads them (its
 * own object), or null when the tag never ends (a page cut off inside it). The parser
 * stops at the tag's end: `source` may run on to the end of the page.
 */
function attributesOfTag(source: string): Record<string, string> | null {
  let found: Record<string, string> | null = null;
  const parser: Parser = new Parser(
    {
      onopentag: (_name, attribs) => {
        found ??= attribs;
        parser.pause();
      },
    },
    OPTIONS,
  );
  parser.end(source);
  return found;
}

/**
 * Hands the parser's events to a `DomHandler` only inside regions. It keeps a frame per
 * element the parser has open (the parser pairs every open with one close, implied or
 * not), so it knows at each event whether it falls inside a region, and which regions
 * (or parts) an element opened here may start.
 *
 * Outside regions no tag's attributes are collected (that is most of what the parser
 * spends on a page): a tag that may start a region, by its name and the literals in its
 * source, is read again, alone, for the library's own attribute object, once its next
 * event shows where it ends. Inside a region the parser builds every tag's attributes.
 */
class RegionHandler implements Partial<Handler> {
  readonly dom = new DomHandler();
  readonly open = new OpenCount();
  private readonly frames: Frame[] = [];
  /** The innermost open element's frame (the page's, outside every element). */
  private top: Frame;
  private parser: Parser | null = null;
  /** A tag that may start a region, open, until its next event shows where it ends. */
  private pending: string | null = null;
  private pendingStart = 0;
  /** Per filter, where its literals next occur in the page. */
  private readonly cursors = new Map<TagFilter, Cursor>();

  constructor(
    private readonly html: string,
    regions: PageRegions,
  ) {
    this.top = regions.seek;
  }

  onparserinit(parser: Parser): void {
    this.parser = parser;
  }

  /**
   * Set only inside a region: the parser collects a tag's attributes only for a
   * handler with `onopentag` (it asks at each tag).
   */
  onopentag: ((name: string, attribs: Record<string, string>) => void) | undefined = undefined;
  private readonly openWhole = (name: string, attribs: Record<string, string>): void => {
    this.dom.onopentag(name, attribs);
    this.push(WHOLE);
  };

  onopentagname(name: string): void {
    if (this.pending !== null) this.settle();
    this.open.opened(name);
    const top = this.top;
    if (top.whole) {
      this.onopentag = this.openWhole;
      return;
    }
    this.onopentag = undefined;
    if (!top.wanted!.filter.mayMatchName(name)) {
      this.push(top.wanted!.seek);
      return;
    }
    this.pending = name;
    this.pendingStart = this.parser!.startIndex;
  }

  /** The tag that may start a region has ended (its next event has come): opens it, built or not. */
  private settle(): void {
    const name = this.pending!;
    const start = this.pendingStart;
    this.pending = null;
    const parser = this.parser!;
    const wanted = this.top.wanted!;
    // Where the tag ends: the next event starts after it (a void or implied tag's own
    // close comes before that, with the parser's end index on its '>').
    const end = parser.startIndex > start ? parser.startIndex : parser.endIndex + 1;
    let cursor = this.cursors.get(wanted.filter);
    if (!cursor) this.cursors.set(wanted.filter, (cursor = { at: -2, amp: -2 }));
    if (!wanted.filter.mayMatch(this.html, name, start, end, cursor)) {
      this.push(wanted.seek);
      return;
    }
    const attribs = attributesOfTag(this.html.slice(start));
    // Cut off inside the tag: the parser never opened it (and closes what holds it instead).
    if (attribs === null) return;
    const entry = wanted.any.matches(name, attribs)
      ? wanted.entries.find((e) => e.selector.matches(name, attribs))
      : undefined;
    if (!entry) {
      this.push(wanted.seek);
      return;
    }
    this.dom.onopentag(name, attribs);
    this.push(entry.parts ? entry.parts.shell : WHOLE);
  }

  private push(frame: Frame): void {
    this.frames.push(this.top);
    this.top = frame;
  }

  onclosetag(name: string): void {
    if (this.pending !== null) this.settle();
    this.open.closed(name);
    // A page cut off inside a tag: the parser closes an element it never reported open.
    const outer = this.frames.pop();
    if (outer === undefined) return;
    if (this.top.built) this.dom.onclosetag();
    this.top = outer;
  }

  ontext(data: string): void {
    if (this.pending !== null) this.settle();
    if (this.top.whole) this.dom.ontext(data);
  }

  oncomment(data: string): void {
    if (this.pending !== null) this.settle();
    if (this.top.whole) this.dom.oncomment(data);
  }

  oncommentend(): void {
    if (this.top.whole) this.dom.oncommentend();
  }

  oncdatastart(): void {
    if (this.pending !== null) this.settle();
    if (this.top.whole) this.dom.oncdatastart();
  }

  oncdataend(): void {
    if (this.top.whole) this.dom.oncdataend();
  }

  onprocessinginstruction(name: string, data: string): void {
    if (this.pending !== null) this.settle();
    if (this.top.whole) this.dom.onprocessinginstruction(name, data);
  }

  onend(): void {
    if (this.pending !== null) this.settle();
  }
}
