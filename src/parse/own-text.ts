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
  /** In the forum's own vote markup (`[vote]` on MafiaScum): an official vote, not bold talk. */
  vote?: true;
}

export type OwnLine = StyledRun[];

export interface OwnTextOptions {
  /** Keep struck-through text (marked `strike`), e.g. for a moderator's preview. */
  keepStruck?: boolean;
}

/** A run's marks as the walk reads them (`walkLines`). */
export interface RunStyle {
  bold: boolean;
  strike: boolean;
  inSpoiler: boolean;
  /** In the forum's own vote markup (a bold node marked `vote`). */
  vote: boolean;
  /** The mention link the text is in, or null: two links side by side are two nodes. */
  mention: BodyNode | null;
}

/** What `walkLines` tells its reader, in the order of the body. */
export interface LineReader {
  text(text: string, style: RunStyle): void;
  /**
   * A line ends: at a break, at the edges of a block or spoiler, and where words that are
   * not the poster's stood (quotes, code, signatures, unreadable markup): they are shown apart.
   */
  end(): void;
  /** A picture or smilie between words. */
  gap?(style: RunStyle): void;
}

export interface WalkOptions extends OwnTextOptions {
  /** Read code's text, on lines of its own (a GM's vote count set in a code block for its columns). */
  readCode?: boolean;
}

interface Frame {
  nodes: readonly BodyNode[];
  i: number;
  style: RunStyle;
  /** Blocks and spoilers end their line when they close. */
  closesLine: boolean;
}

const PLAIN: RunStyle = { bold: false, strike: false, inSpoiler: false, vote: false, mention: null };

/**
 * The one walk from a body to its lines, for every reader of lines (the poster's own
 * words, a GM's count, an opening post's roster). Quotes (at any depth), signatures,
 * unreadable markup and, unless `readCode`, code are left out; struck text is left out
 * unless `keepStruck`. Iterative: the body's depth is bounded by the body builder (past
 * its cap a post is flagged unreadable), so the walk needs no cap of its own.
 */
export function walkLines(body: readonly BodyNode[], reader: LineReader, options: WalkOptions = {}): void {
  const stack: Frame[] = [{ nodes: body, i: 0, style: PLAIN, closesLine: false }];
  const enter = (nodes: readonly BodyNode[], style: RunStyle, closesLine: boolean): void => {
    stack.push({ nodes, i: 0, style, closesLine });
  };
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.i >= frame.nodes.length) {
      stack.pop();
      if (frame.closesLine) reader.end();
      continue;
    }
    const node = frame.nodes[frame.i++]!;
    const style = frame.style;
    switch (node.t) {
      case 'text':
        reader.text(node.text, style);
        break;
      case 'code':
        reader.end();
        if (options.readCode) {
          reader.text(node.text, style);
          reader.end();
        }
        break;
      case 'br':
      case 'quote':
      case 'signature':
      case 'unreadable':
        // Someone else's words or boilerplate: gone, but it still separates lines.
        reader.end();
        break;
      case 'image':
      case 'smilie':
        reader.gap?.(style);
        break;
      case 'block':
        reader.end();
        enter(node.children, style, true);
        break;
      case 'spoiler':
        reader.end();
        enter(node.children, { ...style, inSpoiler: true }, true);
        break;
      case 'bold':
        enter(node.children, { ...style, bold: true, vote: style.vote || node.vote === true }, false);
        break;
      case 'strike':
        if (options.keepStruck) enter(node.children, { ...style, strike: true }, false);
        break;
      case 'link':
        enter(node.children, node.kind === 'mention' ? { ...style, mention: node } : style, false);
        break;
      case 'italic':
      case 'underline':
      case 'color':
      case 'size':
        enter(node.children, style, false);
        break;
      default: {
        const never: never = node;
        void never;
      }
    }
  }
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
  const builder = lineBuilder();
  const emit = typedQuoteFilter(typedClosers(body, options), builder);
  walkLines(body, { text: emit, end: builder.endLine, gap: (style) => builder.append(' ', style) }, options);
  builder.endLine();
  return builder.lines;
}

/** The lines of a post as its text arrives: runs of one style joined, white space folded. */
interface LineBuilder {
  lines: OwnLine[];
  endLine(): void;
  append(text: string, style: RunStyle): void;
  emitText(raw: string, style: RunStyle): void;
}

function lineBuilder(): LineBuilder {
  const lines: OwnLine[] = [];
  // Runs are built from parts and joined once per line: repeated string appends that
  // also inspect the tail would re-flatten the string each time (quadratic on huge posts).
  let current: { parts: string[]; style: RunStyle; endsWithSpace: boolean; hasInk: boolean }[] = [];

  const endLine = (): void => {
    if (current.some((r) => r.hasInk)) {
      lines.push(
        current.map((r) => ({
          text: r.parts.join(''),
          bold: r.style.bold,
          strike: r.style.strike,
          inSpoiler: r.style.inSpoiler,
          ...(r.style.vote ? { vote: true as const } : {}),
        })),
      );
    }
    current = [];
  };

  const append = (text: string, style: RunStyle): void => {
    if (text === '') return;
    const last = current.length > 0 ? current[current.length - 1] : undefined; // never index -1 (slow in V8)
    const hasInk = /\S/.test(text);
    if (
      last &&
      last.style.bold === style.bold &&
      last.style.strike === style.strike &&
      last.style.inSpoiler === style.inSpoiler &&
      last.style.vote === style.vote
    ) {
      // Adjacent runs of one style are one run: "[b]Vote:[/b][b] Bob[/b]" reads "Vote: Bob".
      // Two vote tags side by side ("UNVOTE: AmorVOTE: TMHS") still join: the grammar splits them.
      const part = last.endsWithSpace && text.startsWith(' ') ? text.slice(1) : text;
      if (part === '') return;
      last.parts.push(part);
      last.endsWithSpace = part.endsWith(' ');
      last.hasInk ||= hasInk;
    } else {
      current.push({ parts: [text], style, endsWithSpace: text.endsWith(' '), hasInk });
    }
  };

  const emitText = (raw: string, style: RunStyle): void => {
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

  return { lines, endLine, append, emitText };
}

/**
 * The text outside typed quotes: a typed quote opens only if a closer is still ahead for it,
 * so an unclosed `[quote]` is text; each quote edge separates lines.
 */
function typedQuoteFilter(closers: number, builder: LineBuilder): (raw: string, style: RunStyle) => void {
  const { emitText, endLine } = builder;
  // Typed quotes: how many typed closers are still ahead, and how deep we are in typed quotes.
  const typed = { closersLeft: closers, depth: 0 };
  return (raw: string, style: RunStyle): void => {
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
}

/** Typed `[/quote]` closers in the text the walk will read (not in quotes, code, signatures or dropped strikes). */
function typedClosers(body: readonly BodyNode[], options: OwnTextOptions): number {
  let count = 0;
  const text = (t: string): void => {
    if (t.includes('[/')) count += t.match(TYPED_CLOSER)?.length ?? 0;
  };
  walkLines(body, { text, end: () => {} }, options);
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
