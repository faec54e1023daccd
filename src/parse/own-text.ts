import type { BodyNode } from '../model/body.js';

/**
 * The poster's own words, as a moderator reads them: lines of styled runs.
 *
 * Quotes (at any depth), code, signatures and struck-through text are not the poster's
 * current words and never appear. Spoiler text is kept but marked, because whether a
 * vote inside a spoiler counts is the ruleset's call. Colour, size, italic, underline
 * and links are transparent (a mention link's text is a name).
 *
 * A broken quote the forum left as typed text (`[quote="Ann]...[/quote]`: a stray quote
 * mark, a tag the board does not render) is still someone else's words: text from a
 * typed `[quote...]` to its `[/quote]` is left out like a rendered quote. Only a typed
 * opener with a typed `[/quote]` after it counts; a lone tag stays text.
 */
export interface StyledRun {
  text: string;
  bold: boolean;
  /** Only ever true with `keepStruck`; by default struck text is dropped. */
  strike: boolean;
  inSpoiler: boolean;
}

export type OwnLine = StyledRun[];

export interface OwnTextOptions {
  /** Keep struck-through text (marked `strike`), e.g. for a moderator's preview. */
  keepStruck?: boolean;
}

interface Style {
  bold: boolean;
  strike: boolean;
  inSpoiler: boolean;
}

interface Frame {
  nodes: readonly BodyNode[];
  i: number;
  style: Style;
  /** Blocks and spoilers end their line when they close. */
  closesLine: boolean;
}

// Zero-width characters would split names and keywords invisibly ("Vo\u200Bte").
const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;
const SPACES = /[^\S\n]+/g;
/** Anything `emitText` would change but a run of spaces: a line break, an invisible character, other white space. */
const PLAIN_TEXT_WORK = /[\t-\r\u00a0\u00ad\u1680\u2000-\u200d\u2028\u2029\u202f\u205f\u2060\u3000\ufeff]/;
/** A typed quote tag: `[quote]`, `[quote="Ann"]`, `[quote=Ann;123]`, GOG's `[quote_123]`; `[/quote]`, `[/quote_123]`. */
const TYPED_QUOTE = /\[(?:(\/)quote(?:_\d{1,12})?|quote(?:[=_ ][^[\]\n]{0,120})?)\]/giu;
const TYPED_CLOSER = /\[\/quote(?:_\d{1,12})?\]/giu;

export function ownLines(body: readonly BodyNode[], options: OwnTextOptions = {}): OwnLine[] {
  const lines: OwnLine[] = [];
  // Runs are built from parts and joined once per line: repeated string appends that
  // also inspect the tail would re-flatten the string each time (quadratic on huge posts).
  let current: { parts: string[]; style: Style; endsWithSpace: boolean; hasInk: boolean }[] = [];

  const endLine = (): void => {
    if (current.some((r) => r.hasInk)) {
      lines.push(current.map((r) => ({ text: r.parts.join(''), ...r.style })));
    }
    current = [];
  };

  const append = (text: string, style: Style): void => {
    if (text === '') return;
    const last = current.length > 0 ? current[current.length - 1] : undefined; // never index -1 (slow in V8)
    const hasInk = /\S/.test(text);
    if (
      last &&
      last.style.bold === style.bold &&
      last.style.strike === style.strike &&
      last.style.inSpoiler === style.inSpoiler
    ) {
      // Adjacent runs of one style are one run: "[b]Vote:[/b][b] Bob[/b]" reads "Vote: Bob".
      const part = last.endsWithSpace && text.startsWith(' ') ? text.slice(1) : text;
      if (part === '') return;
      last.parts.push(part);
      last.endsWithSpace = part.endsWith(' ');
      last.hasInk ||= hasInk;
    } else {
      current.push({ parts: [text], style, endsWithSpace: text.endsWith(' '), hasInk });
    }
  };

  const emitText = (raw: string, style: Style): void => {
    // Most text is one line of words with single spaces: nothing to remove, split or fold.
    if (!PLAIN_TEXT_WORK.test(raw) && !raw.includes('  ')) {
      append(raw, style);
      return;
    }
    const parts = raw.replace(INVISIBLE, '').split(/\r\n|\r|\n/);
    parts.forEach((part, k) => {
      if (k > 0) endLine();
      append(part.replace(SPACES, ' '), style);
    });
  };

  // Typed quotes: how many typed closers are still ahead, and how deep we are in typed quotes.
  const typed = { closersLeft: typedClosers(body, options), depth: 0 };
  const emit = (raw: string, style: Style): void => {
    if (typed.closersLeft === 0 && typed.depth === 0) {
      emitText(raw, style);
      return;
    }
    let pos = 0;
    for (const m of raw.matchAll(TYPED_QUOTE)) {
      if (typed.depth === 0) emitText(raw.slice(pos, m.index), style);
      pos = m.index + m[0].length;
      if (m[1] === '/') {
        typed.closersLeft--;
        if (typed.depth > 0) {
          typed.depth--;
          endLine();
        } else {
          emitText(m[0], style);
        }
      } else if (typed.closersLeft > typed.depth) {
        typed.depth++;
        endLine();
      } else if (typed.depth === 0) {
        emitText(m[0], style);
      }
    }
    if (typed.depth === 0) emitText(raw.slice(pos), style);
  };

  // Iterative walk: adapters may hand over very deep trees (unclosed tags), so no recursion.
  const stack: Frame[] = [
    { nodes: body, i: 0, style: { bold: false, strike: false, inSpoiler: false }, closesLine: false },
  ];
  const enter = (nodes: readonly BodyNode[], style: Style, closesLine: boolean): void => {
    stack.push({ nodes, i: 0, style, closesLine });
  };

  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.i >= frame.nodes.length) {
      stack.pop();
      if (frame.closesLine) endLine();
      continue;
    }
    const node = frame.nodes[frame.i++]!;
    const style = frame.style;
    switch (node.t) {
      case 'text':
        emit(node.text, style);
        break;
      case 'br':
        endLine();
        break;
      case 'quote':
      case 'code':
      case 'signature':
        // Someone else's words, code or boilerplate: gone, but it still separates lines.
        endLine();
        break;
      case 'unreadable':
        endLine();
        break;
      case 'image':
      case 'smilie':
        // A picture between words is a gap, not text: "Bob :)" must not read "Bob:)".
        append(' ', style);
        break;
      case 'block':
        endLine();
        enter(node.children, style, true);
        break;
      case 'spoiler':
        endLine();
        enter(node.children, { ...style, inSpoiler: true }, true);
        break;
      case 'bold':
        enter(node.children, { ...style, bold: true }, false);
        break;
      case 'strike':
        if (options.keepStruck) enter(node.children, { ...style, strike: true }, false);
        break;
      case 'italic':
      case 'underline':
      case 'color':
      case 'size':
      case 'link':
        enter(node.children, style, false);
        break;
      default: {
        const never: never = node;
        void never;
      }
    }
  }
  endLine();
  return lines;
}

/** Typed `[/quote]` closers in the text the walk will read (not in quotes, code, signatures or dropped strikes). */
function typedClosers(body: readonly BodyNode[], options: OwnTextOptions): number {
  let count = 0;
  const pending: BodyNode[] = [];
  const enter = (nodes: readonly BodyNode[]): void => {
    for (const n of nodes) pending.push(n);
  };
  enter(body);
  while (pending.length > 0) {
    const node = pending.pop()!;
    switch (node.t) {
      case 'text':
        if (node.text.includes('[/')) count += node.text.match(TYPED_CLOSER)?.length ?? 0;
        break;
      case 'quote':
      case 'code':
      case 'signature':
      case 'br':
      case 'image':
      case 'smilie':
      case 'unreadable':
        break;
      case 'strike':
        if (options.keepStruck) enter(node.children);
        break;
      default:
        enter(node.children);
    }
  }
  return count;
}

/** A line's text, runs joined. */
export function lineText(line: OwnLine): string {
  let out = '';
  for (const run of line) out += run.text;
  return out;
}

/** The poster's own text, one line per line (language checks, previews). */
export function ownText(body: readonly BodyNode[]): string {
  return ownLines(body).map(lineText).join('\n');
}
