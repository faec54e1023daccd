import type { TextSpan } from './grammar-types.js';

/**
 * Someone else's words quoted with typed quotation marks over several lines:
 *
 *   "If you think I'm so scummy why aren't you voting me.
 *   VOTE: Nero
 *   UNVOTE: Nero"
 *
 * (MafiaScum game 1440 post #752, a player quoting another's old post). The words between
 * the marks are not the poster's action, as a quote block's are not. A quotation on one
 * line is read by `lineQuotations`: an action whose keyword stands inside one is quoted.
 *
 * Only a pair is a quotation: a line whose double quotation marks leave one open at its end
 * (opening a word), then, within a few lines none of which holds an odd number of marks,
 * a line whose marks leave one closing (ending a word). A stray mark hides nothing.
 */
const MARK = /["“”„]/gu;
/** Lines a typed quotation may span; a longer one is more likely a stray mark. */
const MAX_QUOTED_LINES = 20;

/** Per line, the spans of its text inside a typed quotation that spans lines. */
export function typedQuotations(texts: readonly string[]): TextSpan[][] {
  const spans: TextSpan[][] = texts.map(() => []);
  for (let i = 0; i < texts.length; i++) {
    const open = openingMark(texts[i]!);
    if (open < 0) continue;
    const close = closingLine(texts, i);
    if (close === null) continue;
    spans[i]!.push({ line: i, start: open, end: texts[i]!.length });
    for (let k = i + 1; k < close.line; k++) spans[k]!.push({ line: k, start: 0, end: texts[k]!.length });
    spans[close.line]!.push({ line: close.line, start: 0, end: close.end });
    i = close.line;
  }
  return spans;
}

/** The closing line's index and where its quotation ends, or null when no line closes it. */
function closingLine(texts: readonly string[], from: number): { line: number; end: number } | null {
  for (let j = from + 1; j < texts.length && j <= from + MAX_QUOTED_LINES; j++) {
    const marks = marksOf(texts[j]!);
    if (marks.length % 2 === 0) continue;
    const first = marks[0]!;
    // The marks after the first pair up; the first closes the quotation if it ends a word.
    return endsWord(texts[j]!, first) ? { line: j, end: first + 1 } : null;
  }
  return null;
}

/** Where the line's unpaired mark opens a quotation left open at its end, or -1. */
function openingMark(text: string): number {
  const marks = marksOf(text);
  if (marks.length % 2 === 0) return -1;
  const last = marks.at(-1)!;
  return opensWord(text, last) ? last : -1;
}

/**
 * The quotations of one line: a mark opening a word paired with the next mark when it ends
 * one (`say "VOTE: he's scum because I said so."`). Each span runs from the opening mark
 * to the closing one, both included.
 */
export function lineQuotations(text: string): { start: number; end: number }[] {
  const marks = marksOf(text);
  const out: { start: number; end: number }[] = [];
  for (let i = 0; i + 1 < marks.length; i++) {
    const open = marks[i]!;
    const close = marks[i + 1]!;
    if (!opensWord(text, open) || !endsWord(text, close)) continue;
    out.push({ start: open, end: close + 1 });
    i++;
  }
  return out;
}

function marksOf(text: string): number[] {
  return [...text.matchAll(MARK)].map((m) => m.index);
}

/** A mark before a word, after a space or the line's start: `"If you`. */
function opensWord(text: string, at: number): boolean {
  return /\S/u.test(text[at + 1] ?? '') && (at === 0 || /[\s([{]/u.test(text[at - 1]!));
}

/** A mark after a word or its punctuation, before a space or the line's end: `Nero"`. */
function endsWord(text: string, at: number): boolean {
  return at > 0 && /\S/u.test(text[at - 1]!) && (at + 1 >= text.length || /[\s.,;:!?)\]}]/u.test(text[at + 1]!));
}
