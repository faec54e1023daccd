import { Parser, type Handler, type ParserOptions } from 'htmlparser2';
import { DomHandler, type Document } from 'domhandler';
import { z } from 'zod';
import {
  compileCompound,
  sourceHolds,
  type CompoundSelector,
  type Literal,
  type Prefilter,
} from './compound-selector.js';

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
 * Which tags may match a compound selector, told from their name and their source text
 * (`<div class="post" id="p1">`), before any attribute is collected: a selector's class
 * name, id or attribute value must appear in the source of a tag it matches (as written;
 * entities aside, and a tag with an entity is read). Most tags of a page share a
 * region's tag name (`div`) but not its literal, and so are turned away without their
 * attributes ever being built.
 */
class TagFilter {
  /** Per tag name: the literals one of which its source must hold; null: any source may match. */
  private readonly byName = new Map<string, readonly Literal[] | null>();
  /** The same for a name no alternative names (only any-tag alternatives apply); undefined: none apply. */
  private readonly otherNames: readonly Literal[] | null | undefined;

  constructor(selector: CompoundSelector) {
    const anyTag = selector.prefilters.filter((p) => p.tag === null);
    const literals = (ps: readonly Prefilter[]): readonly Literal[] | null =>
      ps.some((p) => p.needle === null) ? null : ps.map((p) => p.needle!);
    this.otherNames = anyTag.length ? literals(anyTag) : undefined;
    for (const name of new Set(selector.prefilters.map((p) => p.tag))) {
      if (name !== null)
        this.byName.set(name, literals(selector.prefilters.filter((p) => p.tag === name || p.tag === null)));
    }
  }

  /** Whether a tag of this name may match at all. */
  mayMatchName(name: string): boolean {
    return this.byName.has(name) || this.otherNames !== undefined;
  }

  /**
   * Whether the tag written at `html[start..end]` (`<` to `>`), of a name that may match,
   * may match. Also asked of a range that starts before the tag or ends inside it (before
   * its attributes are read): see `RegionHandler.onopentagname`.
   */
  mayMatchSource(name: string, html: string, start: number, end: number): boolean {
    const literals = this.byName.has(name) ? this.byName.get(name) : this.otherNames;
    if (!literals) return true;
    const source = html.slice(start, end + 1);
    // An entity may spell a literal's letters: such a tag is read.
    if (source.includes('&')) return true;
    for (const l of literals) if (sourceHolds(source, l)) return true;
    return false;
  }
}

/** How every page is parsed: entities decoded, names lower-cased (htmlparser2's HTML mode). */
const OPTIONS: ParserOptions = { decodeEntities: true, lowerCaseAttributeNames: true };

/** The whole page's DOM: htmlparser2's `parseDocument`, with open elements counted (below). */
export function parseWhole(html: string): Document {
  const dom = new CountingDomHandler();
  run(html, dom);
  return dom.root;
}

/** A Document whose children are the page's region elements, in page order. */
export function scanPage(html: string, regions: PageRegions): Document {
  const handler = new RegionHandler(regions, html);
  new ScanParser(handler).end(html);
  return handler.dom.root;
}

function run(html: string, handler: Partial<Handler>): void {
  new Parser(handler, OPTIONS).end(html);
}

/**
 * htmlparser2's `Parser`, not building strings nobody keeps: outside whole regions, no
 * text, comments or attributes (a tag that may start a region is told by its source
 * text, and only one that may gets its attributes collected). The index
 * bookkeeping of each skipped event is the parser's own; every tree rule is the parser's
 * own code. htmlparser2 10.1.0 keeps the attribute object in `attribs` and the current
 * attribute's name in `attribname` (Parser.js); the constructor checks they are there, so
 * a release that renames them fails loudly (and the page-scan equivalence tests fail if
 * they stop meaning the same).
 */
class ScanParser extends Parser {
  constructor(private readonly filter: ScanFilter) {
    super(filter, OPTIONS);
    const p = this as unknown as Collecting;
    if (p.attribs !== null || p.attribname !== '')
      throw new Error('htmlparser2 no longer collects attributes in `attribs`: see ScanParser in page-scan.ts');
  }

  override onattribname(start: number, endIndex: number): void {
    if (this.filter.collects) super.onattribname(start, endIndex);
    else this.startIndex = start;
  }

  override onattribdata(start: number, endIndex: number): void {
    if (this.filter.collects) super.onattribdata(start, endIndex);
  }

  override onattribentity(codepoint: number): void {
    if (this.filter.collects) super.onattribentity(codepoint);
  }

  override onattribend(quote: QuoteType, endIndex: number): void {
    if (this.filter.collects) super.onattribend(quote, endIndex);
    else this.endIndex = endIndex;
  }

  override ontext(start: number, endIndex: number): void {
    if (this.filter.builds) super.ontext(start, endIndex);
    else {
      this.endIndex = endIndex - 1;
      this.startIndex = endIndex;
    }
  }

  override ontextentity(codepoint: number, endIndex: number): void {
    if (this.filter.builds) super.ontextentity(codepoint, endIndex);
    else {
      this.endIndex = endIndex - 1;
      this.startIndex = endIndex;
    }
  }

  override oncomment(start: number, endIndex: number, offset: number): void {
    if (this.filter.builds) super.oncomment(start, endIndex, offset);
    else {
      this.endIndex = endIndex;
      this.startIndex = endIndex + 1;
    }
  }
}

/** What the scan's handler tells its parser about the event at hand. */
interface ScanFilter extends Partial<Handler> {
  /** Whether the text and comments here are built (inside a whole region). */
  readonly builds: boolean;
  /** Whether the attributes of the tag being read are collected (inside a whole region, or a likely region tag). */
  readonly collects: boolean;
}
type QuoteType = Parameters<Parser['onattribend']>[0];
/**
 * htmlparser2 10.1.0's Tokenizer reads its `decodeEntities` option at every `&` (and, off,
 * skips text and quoted values to their end in one search): the scan turns it off
 * where nothing is kept. A character reference never holds `<`, `>` or a quote, so the
 * tokens are the same either way; only the text and values nobody keeps go undecoded.
 */
interface Decoding {
  decodeEntities: boolean;
}
interface Collecting {
  attribs: Record<string, string> | null;
  attribname: string;
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
 *
 * The counted lookup is the stack's own `indexOf` only while the stack is deep: an array
 * with a property of its own has a hidden class of its own, which the parser's stack
 * code (`shift`, `unshift` on every tag) then meets beside every other Parser's plain
 * array (about 5 % of the scan on the sample pages).
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
  }

  opened(name: string): void {
    const count = this.count;
    if (count !== null) count.set(name, (count.get(name) ?? 0) + 1);
    else if (this.stack.length > DEEP) this.countFromHere();
  }

  closed(name: string): void {
    const count = this.count;
    if (count === null) return;
    const n = count.get(name);
    if (n) count.set(name, n - 1);
    if (this.stack.length < DEEP / 2) {
      this.count = null;
      delete (this.stack as { indexOf?: unknown }).indexOf;
    }
  }

  /** From here on, counted: the stack already holds this element (unless it is void, and then its close finds nothing to take off). */
  private countFromHere(): void {
    const stack = this.stack;
    const count = new Map<string, number>();
    for (const n of stack) count.set(n, (count.get(n) ?? 0) + 1);
    this.count = count;
    const search = Array.prototype.indexOf;
    // An own property of this one array: the parser calls it as `this.stack.indexOf(name)`.
    stack.indexOf = (name: string): number => (count.get(name) ? search.call(stack, name) : -1);
  }
}

/** domhandler's handler, counting the open elements. */
class CountingDomHandler extends DomHandler {
  readonly open = new OpenCount();

  override onparserinit(parser: Parser): void {
    super.onparserinit(parser);
    this.open.guard(parser);
  }

  onopentagname(name: string): void {
    this.open.opened(name);
  }

  override onclosetag(name?: string): void {
    if (name !== undefined) this.open.closed(name);
    super.onclosetag();
  }
}

/**
 * Hands the parser's events to a `DomHandler` only inside regions. It keeps a frame per
 * element the parser has open (the parser pairs every open with one close, implied or
 * not), so it knows at each event whether it falls inside a region, and which regions
 * (or parts) an element opened here may start.
 *
 * Outside regions a tag is told at its end only when its name may start a region: the
 * parser calls `onopentag` only for a handler that has one after `onopentagname`, so the
 * handler sets it per tag.
 */
class RegionHandler implements ScanFilter {
  readonly dom = new DomHandler();
  readonly open = new OpenCount();
  private readonly frames: Frame[] = [];
  /** The innermost open element's frame (the page's, outside every element). */
  private top: Frame;
  private parser: Parser | null = null;
  collects = false;
  /** The parser's tokenizer: it decodes character references only where text or attributes are kept. */
  private tokenizer: Decoding = { decodeEntities: true };
  /** Where the first `>` after the candidate tag's start stands (its end, unless a quoted value holds a `>`). */
  private firstClose = -1;
  /** Reads the attributes of one tag's source (`attributesHere`), made when first needed. */
  private tagReader: { parser: Parser; attribs: Record<string, string> } | null = null;

  constructor(
    regions: PageRegions,
    private readonly html: string,
  ) {
    this.top = regions.seek;
  }

  get builds(): boolean {
    return this.top.whole;
  }

  onparserinit(parser: Parser): void {
    this.open.guard(parser);
    this.parser = parser;
    const tokenizer = (parser as unknown as { tokenizer?: Decoding }).tokenizer;
    if (tokenizer?.decodeEntities !== true)
      throw new Error(
        'htmlparser2 no longer keeps `decodeEntities` on its tokenizer: see RegionHandler in page-scan.ts',
      );
    this.tokenizer = tokenizer;
    this.tokenizer.decodeEntities = this.top.whole;
  }

  /**
   * All the attributes of the tag the parser has just read (keeping none): the tag's own
   * source (the parser's `startIndex` to `endIndex` at `onopentag`) read again by a parser
   * of its own, so a region element gets every attribute exactly as the parser builds
   * them. Only for a tag whose source holds what a region selector looks for past a `>`
   * inside a quoted value (`onopentagname` tested it only up to that `>`): rare.
   */
  private attributesHere(): Record<string, string> {
    const { startIndex, endIndex } = this.parser!;
    if (!this.tagReader) {
      const reader = { parser: null as unknown as Parser, attribs: {} as Record<string, string> };
      reader.parser = new Parser(
        {
          onopentag: (_name, attribs) => {
            reader.attribs = attribs;
          },
        },
        OPTIONS,
      );
      this.tagReader = reader;
    }
    const reader = this.tagReader;
    reader.attribs = {};
    reader.parser.reset();
    reader.parser.end(this.html.slice(startIndex, endIndex + 1));
    return reader.attribs;
  }

  /** Set per tag by `onopentagname`: undefined for a tag that can start nothing. */
  onopentag: ((name: string, attribs: Record<string, string>, implied?: boolean) => void) | undefined = undefined;
  private readonly openWhole = (name: string, attribs: Record<string, string>): void => {
    this.dom.onopentag(name, attribs);
    this.push(WHOLE);
  };
  /**
   * A tag whose name may start a region, read to its end: its attributes, collected by
   * the parser where its source up to the first `>` may match (`onopentagname`),
   * tell whether it does. Where the tag ran past that `>` (a quoted value holds one)
   * and was not collected, its whole source is tested again and, if it may match, read
   * again. An implied tag (`</p>` alone opens one) has no attributes.
   */
  private readonly openCandidate = (name: string, collected: Record<string, string>, implied?: boolean): void => {
    const wanted = this.top.wanted!;
    const { startIndex, endIndex } = this.parser!;
    const attribs =
      implied || this.collects
        ? collected
        : endIndex !== this.firstClose && wanted.filter.mayMatchSource(name, this.html, startIndex, endIndex)
          ? this.attributesHere()
          : null;
    const entry =
      attribs && wanted.any.matches(name, attribs)
        ? wanted.entries.find((e) => e.selector.matches(name, attribs))
        : undefined;
    if (!entry) {
      this.push(wanted.seek);
      return;
    }
    this.dom.onopentag(name, attribs!);
    this.push(entry.parts ? entry.parts.shell : WHOLE);
  };

  onopentagname(name: string): void {
    this.open.opened(name);
    const top = this.top;
    if (top.whole) {
      this.collects = true;
      this.onopentag = this.openWhole;
      return;
    }
    const wanted = top.wanted!;
    if (wanted.filter.mayMatchName(name)) {
      // The tag's attributes are still to be read: its source up to the first `>` is
      // all of it, unless a quoted value holds a `>` (`openCandidate` sees to that).
      // Its start is the parser's `startIndex` (the `<`) or earlier (a wider range only
      // collects more).
      const start = this.parser!.startIndex;
      const close = this.html.indexOf('>', start);
      this.firstClose = close;
      this.collects = close >= 0 && wanted.filter.mayMatchSource(name, this.html, start, close);
      this.tokenizer.decodeEntities = this.collects;
      // The frame is pushed once the tag ends (a page cut off inside the tag never opens
      // it, and the parser then closes what holds it instead).
      this.onopentag = this.openCandidate;
      return;
    }
    this.collects = false;
    this.onopentag = undefined;
    this.push(wanted.seek);
  }

  private push(frame: Frame): void {
    this.frames.push(this.top);
    this.top = frame;
    this.tokenizer.decodeEntities = frame.whole;
  }

  onclosetag(name: string): void {
    this.open.closed(name);
    // A page cut off inside a tag: the parser closes an element it never reported open.
    const outer = this.frames.pop();
    if (outer === undefined) return;
    if (this.top.built) this.dom.onclosetag();
    this.top = outer;
    this.tokenizer.decodeEntities = outer.whole;
  }

  ontext(data: string): void {
    if (this.top.whole) this.dom.ontext(data);
  }

  oncomment(data: string): void {
    if (this.top.whole) this.dom.oncomment(data);
  }

  oncommentend(): void {
    if (this.top.whole) this.dom.oncommentend();
  }

  oncdatastart(): void {
    if (this.top.whole) this.dom.oncdatastart();
  }

  oncdataend(): void {
    if (this.top.whole) this.dom.oncdataend();
  }

  onprocessinginstruction(name: string, data: string): void {
    if (this.top.whole) this.dom.onprocessinginstruction(name, data);
  }
}
