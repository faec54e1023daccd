import { Comment, Document, Element, ProcessingInstruction, Text, type ParentNode } from 'domhandler';
import { DecodingMode, decodeHTML, decodeHTMLAttribute } from 'entities/decode';
import { z } from 'zod';
import { compileCompound, type CompoundSelector } from './compound-selector.js';

/*
 * The page scan: one pass over a page's HTML that builds a DOM of only the parts an
 * adapter reads (its regions: post containers, the page navigator, the title). The
 * rest of the page is tokenized to keep the stack of open elements and nothing more,
 * with native string search doing the skipping. A forum page is mostly scripts,
 * navigation and profile chrome: on the sample pages this costs about as much as
 * htmlparser2's bare tokenizer, half of what building the whole DOM costs.
 *
 * Inside a region the tree is node for node what htmlparser2's `parseDocument` builds
 * (decoded entities, lower-case names, implied end tags, stray end tags, raw-text
 * elements): the scan keeps htmlparser2's tree rules, including its stack of the
 * elements outside the regions, so an unclosed tag in a post ends the post exactly
 * where the full parse would end it. Tests compare the two on every sample page.
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
  readonly filter: TagFilter;
  readonly entries: readonly { selector: CompoundSelector; parts: PageRegions | null }[];
}

/** Region selectors are compound (tag, class, id, attributes): each is tested on a tag alone. */
export function compileRegions(regions: readonly PageRegion[]): PageRegions {
  const selectorOf = (r: PageRegion): string => (typeof r === 'string' ? r : r.selector);
  return {
    filter: new TagFilter(compileCompound(regions.map(selectorOf).join(', '))),
    entries: regions.map((r) => ({
      selector: compileCompound(selectorOf(r)),
      parts: typeof r === 'string' ? null : compileRegions(r.parts),
    })),
  };
}

/** A Document whose children are the page's region elements, in page order. */
export function scanPage(html: string, regions: PageRegions): Document {
  return new PageScan(html, regions).run();
}

/**
 * Which tags may match a compound selector, told from the tag's name and source text
 * before its attributes are read (reading them is what costs). The literals the
 * selectors need are found by one regular expression that runs ahead through the page,
 * so the page is searched once however many literals there are.
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

  /**
   * `cursor.at` is where the next literal in the page ends (-1: none further), kept per
   * scan. Literals hold no `>`, so one that ends inside a tag also starts inside it.
   */
  mayMatch(html: string, name: string, start: number, end: number, cursor: { at: number }): boolean {
    const want = this.byTag.get(name) ?? this.anyTag;
    if (want === 'any' || this.anyTag === 'any') return true;
    if (want === null || this.needles === null) return false;
    if (cursor.at !== -1 && cursor.at <= start) {
      // test() rather than exec(): no match object for every literal passed on the way.
      this.needles.lastIndex = start;
      cursor.at = this.needles.test(html) ? this.needles.lastIndex : -1;
    }
    return cursor.at !== -1 && cursor.at <= end;
  }
}

const WS = '\\t\\n\\f\\r ';

// htmlparser2's tree rules (Parser.js), as data: one lookup per tag. Every rule has every
// field, in one order: rules of different shapes made each read of them a megamorphic
// property load, on every tag of the page.
interface TagRule {
  /** Open elements (on top of the stack) this tag closes first: `<p>` after `<p>`, `<li>` after `<li>`. */
  readonly closes: ReadonlySet<string> | null;
  readonly isVoid: boolean;
  /** svg and math start a foreign context (self-closing syntax counts there). */
  readonly foreign: boolean;
  /** HTML inside a foreign context (title, desc, ...): self-closing syntax stops counting. */
  readonly integration: boolean;
  /** Raw-text elements: the end tag that closes each. Only `<title>` decodes entities. */
  readonly rawEnd: RegExp | null;
}
const NO_RULE: TagRule = { closes: null, isVoid: false, foreign: false, integration: false, rawEnd: null };
const RULES = new Map<string, TagRule>();
const rule = (names: readonly string[], add: Partial<TagRule>): void => {
  for (const n of names) {
    const was = RULES.get(n) ?? NO_RULE;
    RULES.set(n, {
      closes: add.closes ?? was.closes,
      isVoid: add.isVoid ?? was.isVoid,
      foreign: add.foreign ?? was.foreign,
      integration: add.integration ?? was.integration,
      rawEnd: add.rawEnd ?? was.rawEnd,
    });
  }
};
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const P = new Set(['p']);
rule(
  [
    'area',
    'base',
    'basefont',
    'br',
    'col',
    'command',
    'embed',
    'frame',
    'hr',
    'img',
    'input',
    'isindex',
    'keygen',
    'link',
    'meta',
    'param',
    'source',
    'track',
    'wbr',
  ],
  { isVoid: true },
);
rule(['tr'], { closes: new Set(['tr', 'th', 'td']) });
rule(['th'], { closes: new Set(['th']) });
rule(['td'], { closes: new Set(['thead', 'th', 'td']) });
rule(['body'], { closes: new Set(['head', 'link', 'script']) });
rule(['li'], { closes: new Set(['li']) });
rule(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'], { closes: P });
rule(['select', 'input', 'output', 'button', 'datalist', 'textarea'], { closes: FORM });
rule(['option'], { closes: new Set(['option']) });
rule(['optgroup'], { closes: new Set(['optgroup', 'option']) });
rule(['dd', 'dt'], { closes: new Set(['dd', 'dt']) });
rule(
  [
    'address',
    'article',
    'aside',
    'blockquote',
    'details',
    'div',
    'dl',
    'fieldset',
    'figcaption',
    'figure',
    'footer',
    'form',
    'header',
    'hr',
    'main',
    'nav',
    'ol',
    'pre',
    'section',
    'table',
    'ul',
  ],
  { closes: P },
);
rule(['rt', 'rp'], { closes: new Set(['rt', 'rp']) });
rule(['tbody', 'tfoot'], { closes: new Set(['thead', 'tbody']) });
rule(['math', 'svg'], { foreign: true });
rule(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title'], { integration: true });
for (const t of ['script', 'style', 'title', 'textarea', 'xmp'])
  rule([t], { rawEnd: new RegExp(`</${t}[${WS}>]`, 'gi') });

const GT = 62,
  SLASH = 47,
  BANG = 33,
  QUESTION = 63,
  EQ = 61,
  DQ = 34,
  SQ = 39;

/**
 * Tag and attribute names seen before, by a hash of their lower-case letters: a page
 * names a few dozen of them thousands of times, and a fresh string for each (hashed
 * again for every map lookup and property store) is most of what the scan allocates
 * outside the regions.
 */
const NAMES: (string | undefined)[] = new Array(4096);

/** Each name's tree rule, in the name's slot: one array read per tag instead of a map lookup. */
const NAME_RULES: TagRule[] = new Array<TagRule>(4096).fill(NO_RULE);

/**
 * The slot in NAMES of the lower-case name `html[start, end)`, whose characters hashed
 * to `hash`; `upper` when it has any character lower-casing may change (A-Z, non-ASCII).
 */
function internName(html: string, start: number, end: number, hash: number, upper: boolean): number {
  const slot = hash & 4095;
  const known = NAMES[slot];
  if (
    known !== undefined &&
    known.length === end - start &&
    (upper ? html.slice(start, end).toLowerCase() === known : sameText(html, start, known))
  ) {
    return slot;
  }
  const name = upper ? html.slice(start, end).toLowerCase() : html.slice(start, end);
  NAMES[slot] = name;
  NAME_RULES[slot] = RULES.get(name) ?? NO_RULE;
  return slot;
}

/** Whether `html` holds `text` at `start` (a loop: names are short, a builtin call costs more). */
function sameText(html: string, start: number, text: string): boolean {
  for (let i = 0; i < text.length; i++) if (html.charCodeAt(start + i) !== text.charCodeAt(i)) return false;
  return true;
}

/** Whether lower-casing may change the character (htmlparser2 lower-cases names with toLowerCase). */
function mayLower(c: number): boolean {
  return (c >= 65 && c <= 90) || c > 127;
}

/**
 * The last item of a list, if any. `list[list.length - 1]` on an empty list reads index
 * -1, which V8 looks up as a named property on the slow path: on the scan's stacks,
 * empty for most of a page, that was a tenth of the scan.
 */
function top<T>(list: readonly T[]): T | undefined {
  const n = list.length;
  return n > 0 ? list[n - 1] : undefined;
}

function isAlpha(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

// Character classes of ASCII, one table read per character of a tag (the tests they
// replace ran nine comparisons for each character of every attribute name).
const SPACE = 1,
  NAME_END = 2;
const ASCII = new Uint8Array(128);
for (const c of [32, 10, 9, 12, 13]) ASCII[c] = SPACE | NAME_END;
for (const c of [EQ, GT, SLASH]) ASCII[c] = NAME_END;

function isSpace(c: number): boolean {
  return c < 128 && (ASCII[c]! & SPACE) !== 0;
}

function isNameEnd(c: number): boolean {
  return c < 128 && (ASCII[c]! & NAME_END) !== 0;
}

class PageScan {
  private readonly doc = new Document([]);
  /** Names of all open elements, outermost first (htmlparser2's stack, reversed). */
  private readonly open: string[] = [];
  /**
   * How many elements of each name are open: an end tag of a name none is open as is
   * passed over without searching the stack (thousands of stray end tags under thousands
   * of open elements made the scan quadratic).
   */
  private readonly openCount = new Map<string, number>();
  /** The open elements being built (a region or a part, whole): the top of `open`. */
  private readonly building: Element[] = [];
  /** The open region whose parts alone are built, and the depth of `open` it sits at. */
  private readonly shells: { el: Element; depth: number; parts: PageRegions }[] = [];
  /** Whether each foreign (svg, math) or integration element opened a foreign context, innermost last (a stack: push and pop, never shift). */
  private readonly foreign: boolean[] = [false];
  /** The text node new text joins (htmlparser2 merges text across ignored tags). */
  private lastText: Text | null = null;
  /** Per filter, where its literals next occur in the page. */
  private readonly cursors = new Map<TagFilter, { at: number }>();

  constructor(
    private readonly html: string,
    private readonly regions: PageRegions,
  ) {}

  run(): Document {
    const html = this.html;
    const len = html.length;
    let pos = 0;
    let textStart = 0;
    while (pos < len) {
      const lt = html.indexOf('<', pos);
      if (lt < 0) break;
      const c = html.charCodeAt(lt + 1);
      let next: number;
      if (isAlpha(c)) {
        this.text(textStart, lt);
        next = this.openTag(lt);
      } else if (c === SLASH) {
        let j = lt + 2;
        while (j < len && isSpace(html.charCodeAt(j))) j++;
        const d = html.charCodeAt(j);
        if (d === GT || j >= len) {
          // `</>` is text, as htmlparser2 reads it.
          pos = j + 1;
          continue;
        }
        this.text(textStart, lt);
        next = isAlpha(d) ? this.closeTagAt(j) : this.bogusComment(j);
      } else if (c === BANG) {
        this.text(textStart, lt);
        next = this.declaration(lt);
      } else if (c === QUESTION) {
        this.text(textStart, lt);
        next = this.instruction(lt + 1);
      } else {
        // A `<` that starts no tag is text.
        pos = lt + 1;
        continue;
      }
      pos = textStart = next;
    }
    this.text(textStart, len);
    return this.doc;
  }

  // ---- tokens ----

  private openTag(lt: number): number {
    const html = this.html;
    const len = html.length;
    // The name runs to a space, `/` or `>` (hand-read: a regex call per tag costs more).
    let nameEnd = lt + 1;
    let upper = false;
    let hash = 0;
    for (
      let c = html.charCodeAt(nameEnd);
      nameEnd < len && c !== GT && c !== SLASH && !isSpace(c);
      c = html.charCodeAt(++nameEnd)
    ) {
      if (mayLower(c)) upper = true;
      hash = (hash * 31 + (c | 32)) | 0;
    }
    const slot = internName(html, lt + 1, nameEnd, hash, upper);
    const name = NAMES[slot]!;
    const rule = NAME_RULES[slot]!;
    let end: number;
    let attribs: Record<string, string> | null = null;
    this.selfClosing = false;
    // Inside a build every tag's attributes are read; outside, only where a region or a
    // part may start.
    if (this.building.length > 0) {
      attribs = {};
      end = this.readTag(nameEnd, attribs);
    } else {
      end = html.charCodeAt(nameEnd) === GT ? nameEnd + 1 : this.readTag(nameEnd, null);
      if (end >= 0 && this.mayStartPart(this.wanted().filter, name, lt, end)) {
        attribs = {};
        this.readTag(nameEnd, attribs);
      }
    }
    // A tag that never ends swallows the rest of the page. (At the very end of a page
    // htmlparser2 keeps odd bits as text; a page cut off there is refused anyway.)
    if (end < 0) return len;
    const selfClosing = this.selfClosing;
    this.startElement(name, rule, attribs);
    if (selfClosing && top(this.foreign)) this.closeCurrent(name);
    else if (rule.rawEnd !== null && !selfClosing) return this.rawText(name, rule.rawEnd, end);
    return end;
  }

  /** Whether a tag outside any build may start a region (or, inside a region, a part). */
  private mayStartPart(filter: TagFilter, name: string, start: number, end: number): boolean {
    let cursor = this.cursors.get(filter);
    if (!cursor) this.cursors.set(filter, (cursor = { at: -2 }));
    return filter.mayMatch(this.html, name, start, end, cursor);
  }

  /**
   * Opens an element, built if it lies in a region (or a part) or starts one, given its
   * attributes when they were read (a tag no region can want is not).
   */
  private startElement(name: string, rule: TagRule, attribs: Record<string, string> | null): void {
    if (this.building.length > 0 || attribs === null) {
      this.openElement(name, rule, attribs);
      return;
    }
    const entry = this.wanted().entries.find((e) => e.selector.matches(name, attribs));
    const el = this.openElement(name, rule, entry ? attribs : null);
    if (entry?.parts && el && !rule.isVoid) {
      // Open without being built: only its parts are.
      this.building.pop();
      this.shells.push({ el, depth: this.open.length, parts: entry.parts });
    }
  }

  /** What may start here: the innermost open region's parts, or the page's regions. */
  private wanted(): PageRegions {
    return top(this.shells)?.parts ?? this.regions;
  }

  private closeTagAt(nameStart: number): number {
    const html = this.html;
    const len = html.length;
    // An end tag's name runs to a space or `>` (`</div/>` closes no div).
    let nameEnd = nameStart;
    let upper = false;
    let hash = 0;
    for (let c = html.charCodeAt(nameEnd); nameEnd < len && c !== GT && !isSpace(c); c = html.charCodeAt(++nameEnd)) {
      if (mayLower(c)) upper = true;
      hash = (hash * 31 + (c | 32)) | 0;
    }
    // An end tag cut off by the end of the page closes nothing.
    if (nameEnd >= len) return len;
    const slot = internName(html, nameStart, nameEnd, hash, upper);
    this.closeElement(NAMES[slot]!, NAME_RULES[slot]!);
    const gt = html.charCodeAt(nameEnd) === GT ? nameEnd : html.indexOf('>', nameEnd);
    return gt < 0 ? len : gt + 1;
  }

  /** `</3>` and the like: a comment to htmlparser2. */
  private bogusComment(start: number): number {
    const gt = this.html.indexOf('>', start);
    if (gt < 0) return this.trailingText(start);
    this.comment(start, gt);
    return gt + 1;
  }

  private declaration(lt: number): number {
    const html = this.html;
    if (html.startsWith('<!--', lt)) {
      // `<!-->` and `<!--->` are whole comments: the end may overlap the opening dashes.
      const close = html.indexOf('-->', lt + 2);
      if (close < 0) {
        if (html.length > lt + 4) this.comment(lt + 4, html.length);
        return html.length;
      }
      this.comment(lt + 4, Math.max(lt + 4, close));
      return close + 3;
    }
    if (html.startsWith('<![CDATA[', lt)) {
      const close = html.indexOf(']]>', lt + 9);
      if (close < 0) {
        if (html.length > lt + 9) this.comment(lt + 9, html.length, true);
        return html.length;
      }
      this.comment(lt + 9, close, true);
      return close + 3;
    }
    return this.instruction(lt + 1);
  }

  /** `<!DOCTYPE ...>`, `<?xml ...>` (from the `!` or `?`): an instruction node, as DomHandler makes. */
  private instruction(start: number): number {
    const html = this.html;
    const gt = html.indexOf('>', start);
    if (gt < 0) return this.trailingText(start + 1);
    if (this.building.length > 0) {
      const value = html.slice(start + 1, gt);
      const cut = value.search(/\s|\//);
      const name = (cut < 0 ? value : value.slice(0, cut)).toLowerCase();
      this.append(new ProcessingInstruction(`${html[start]}${name}`, `${html[start]}${value}`));
    }
    this.lastText = null;
    return gt + 1;
  }

  /** A declaration or bogus comment the page ends inside: htmlparser2 keeps its rest as text. */
  private trailingText(start: number): number {
    this.text(start, this.html.length);
    return this.html.length;
  }

  /** The content of `<script>`, `<style>`, `<title>`, `<textarea>`, `<xmp>` up to its end tag. */
  private rawText(name: string, endTag: RegExp, start: number): number {
    const html = this.html;
    endTag.lastIndex = start;
    const m = endTag.exec(html);
    const end = m ? m.index : html.length;
    if (this.building.length > 0 && end > start) {
      const data = html.slice(start, end);
      this.appendText(name === 'title' && data.includes('&') ? decodeHTML(data, DecodingMode.Legacy) : data);
    }
    if (!m) return html.length;
    this.closeElement(name);
    const gt = html.indexOf('>', end + 2 + name.length);
    return gt < 0 ? html.length : gt + 1;
  }

  /** Whether the tag `readTag` read last was written self-closing (`<g/>`). */
  private selfClosing = false;

  /**
   * Reads a tag from after its name to its `>`, with its attributes into `into` (the
   * first of a name wins; null: only find the end), and returns the index after the
   * `>`, or -1 for a tag the page never ends. Hand-written: it runs on every tag.
   */
  private readTag(from: number, into: Record<string, string> | null): number {
    const html = this.html;
    const len = html.length;
    let selfClosing = false;
    let i = from;
    while (i < len) {
      let c = html.charCodeAt(i);
      if (c === GT) {
        this.selfClosing = selfClosing;
        return i + 1;
      }
      if (isSpace(c) || c === SLASH) {
        // `/` then `>` (with or without space between) is a self-closing tag.
        selfClosing = false;
        while (i < len && (isSpace((c = html.charCodeAt(i))) || c === SLASH)) {
          if (c === SLASH) selfClosing = true;
          i++;
        }
        continue;
      }
      selfClosing = false;
      const nameStart = i++;
      let upper = false;
      let hash = 0;
      if (into) {
        upper = mayLower(c);
        hash = c | 32;
        for (c = html.charCodeAt(i); i < len && !isNameEnd(c); c = html.charCodeAt(++i)) {
          if (mayLower(c)) upper = true;
          hash = (hash * 31 + (c | 32)) | 0;
        }
      } else {
        // Only the tag's end is wanted: the name is passed over unread.
        for (c = html.charCodeAt(i); i < len && !isNameEnd(c); c = html.charCodeAt(++i));
      }
      const nameEnd = i;
      let j = i;
      while (j < len && isSpace(html.charCodeAt(j))) j++;
      let value = '';
      if (html.charCodeAt(j) === EQ) {
        j++;
        while (j < len && isSpace(html.charCodeAt(j))) j++;
        const q = html.charCodeAt(j);
        if (q === DQ || q === SQ) {
          const close = html.indexOf(q === DQ ? '"' : "'", j + 1);
          if (close < 0) return -1;
          if (into) value = html.slice(j + 1, close);
          i = close + 1;
        } else {
          let k = j;
          while (k < len && !isSpace((c = html.charCodeAt(k))) && c !== GT) k++;
          if (into) value = html.slice(j, k);
          i = k;
        }
        if (into && value.includes('&')) value = decodeHTMLAttribute(value);
      }
      if (!into) continue;
      const key = NAMES[internName(html, nameStart, nameEnd, hash, upper)]!;
      // `into[key]` is undefined for a new name unless Object.prototype has it ("constructor").
      if (into[key] === undefined || !Object.hasOwn(into, key)) into[key] = value;
    }
    return -1;
  }

  // ---- the tree (htmlparser2's Parser and DomHandler, for the regions alone) ----

  private openElement(name: string, rule: TagRule, attribs: Record<string, string> | null): Element | null {
    if (rule.closes) {
      while (this.open.length > 0 && rule.closes.has(this.open[this.open.length - 1]!)) this.pop();
    }
    if (!rule.isVoid) {
      this.open.push(name);
      this.openCount.set(name, (this.openCount.get(name) ?? 0) + 1);
      if (rule.foreign) this.foreign.push(true);
      else if (rule.integration) this.foreign.push(false);
    }
    if (attribs === null) return null;
    const el = new Element(name, attribs);
    this.append(el);
    if (!rule.isVoid) this.building.push(el);
    return el;
  }

  private closeElement(name: string, rule: TagRule = RULES.get(name) ?? NO_RULE): void {
    if ((rule.foreign || rule.integration) && this.foreign.length > 1) this.foreign.pop();
    if (rule.isVoid) {
      // `</br>` is a line break; other void end tags are nothing.
      if (name === 'br') this.startElement('br', rule, {});
      return;
    }
    const at = this.openCount.get(name) ? this.open.lastIndexOf(name) : -1;
    if (at >= 0) {
      while (this.open.length > at) this.pop();
    } else if (name === 'p') {
      // A stray `</p>` is an empty paragraph.
      this.startElement('p', rule, {});
      this.closeCurrent('p');
    }
  }

  /** A self-closing tag in svg or math (or an implied `<p>`): closes if it is still open. */
  private closeCurrent(name: string): void {
    if (top(this.open) === name) this.pop();
  }

  private pop(): void {
    const name = this.open.pop()!;
    this.openCount.set(name, this.openCount.get(name)! - 1);
    this.lastText = null;
    // While something is built its elements are the top of the stack.
    if (this.building.length > 0) this.building.pop();
    else if (this.shells.length > 0 && this.open.length < this.shells[this.shells.length - 1]!.depth) this.shells.pop();
  }

  private append(node: Element | Text | Comment | ProcessingInstruction): void {
    const parent: ParentNode = top(this.building) ?? top(this.shells)?.el ?? this.doc;
    const prev = top(parent.children);
    parent.children.push(node);
    node.parent = parent;
    if (prev) {
      prev.next = node;
      node.prev = prev;
    }
    this.lastText = null;
  }

  private text(start: number, end: number): void {
    if (end <= start || this.building.length === 0) return;
    const data = this.html.slice(start, end);
    this.appendText(data.includes('&') ? decodeHTML(data, DecodingMode.Legacy) : data);
  }

  private appendText(data: string): void {
    if (this.lastText) {
      this.lastText.data += data;
      return;
    }
    const node = new Text(data);
    this.append(node);
    this.lastText = node;
  }

  /** A comment from `html[start, end)` (CDATA: htmlparser2 keeps it as `[CDATA[...]]`), built only inside a region. */
  private comment(start: number, end: number, cdata = false): void {
    if (this.building.length > 0) {
      const data = this.html.slice(start, end);
      this.append(new Comment(cdata ? `[CDATA[${data}]]` : data));
    }
    this.lastText = null;
  }
}
