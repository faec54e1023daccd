import type { ActionKind } from '../model/action.js';
import { isTargetless, type Vocabulary } from './grammar-vocabulary.js';
import { isKeywordPhrase, isWordChar, keywordEnd, lettersEnd } from './keyword.js';

/**
 * The word scanner under the grammar's rules: where a keyword stands, where one action's
 * target ends and the next action begins, and the clean-up of what was written. Each
 * walk is a bounded character walk (no regex over user text that could backtrack).
 */

/** One action keyword found in a candidate; offsets in the candidate's text. */
export interface Parsed {
  kind: ActionKind;
  colon: boolean;
  hashed: boolean;
  start: number;
  argStart: number;
  end: number;
}

export interface FoundKeyword {
  kind: ActionKind;
  end: number;
}

/**
 * Split a candidate into actions. Nothing if no action keyword opens it. A vote's target
 * runs to the next action keyword that follows a separator (";", ",", "and", "##");
 * after an unvote or a targetless side action any action keyword starts the next one
 * ("unvote vote Bob", "unvote Bob vote Alice").
 */
export function parseCandidate(text: string, vocab: Vocabulary): Parsed[] {
  const lead = skipLead(text);
  let keyword = keywordAt(text, lead.pos, vocab);
  const out: Parsed[] = [];
  let start = 0;
  let hashed = lead.hashed;
  while (keyword) {
    const q = afterColon(text, keyword.end);
    const next = nextAction(text, q.pos, keyword.kind, vocab);
    out.push({ kind: keyword.kind, colon: q.colon, hashed, start, argStart: q.pos, end: next ? next.at : text.length });
    if (!next) break;
    start = next.at;
    hashed = next.hashed;
    keyword = next.keyword;
  }
  return out;
}

/** Past the spaces and the one colon after a keyword ("Vote : Bob", the full-width "：" too). */
export function afterColon(text: string, from: number): { pos: number; colon: boolean } {
  let q = from;
  while (text[q] === ' ') q++;
  if (text[q] === ':' || text[q] === '：') return { pos: q + 1, colon: true };
  return { pos: q, colon: false };
}

/** Leading "##", "- ", "> ", "(" ... before a keyword; quotation marks mean the word is being talked about. */
const MAX_LEAD = 12;
const LEAD_CHAR = /[\s\p{P}\p{S}]/u;
export const QUOTE_CHAR = /["'`“”‘’«»„‚‹›]/u;
/** A typed BBCode tag before the keyword: "[size=5]", "[color=#ff0000]", "[b]". */
const LEAD_TAG = /^\[\/?[a-z*]{1,12}(?:=[^\]\n]{0,40})?\]/iu;
const MAX_LEAD_TAGS = 3;

/** Where a candidate's words start, and whether "#" led to them ("##vote Bob"). */
export function skipLead(text: string): { pos: number; hashed: boolean } {
  let pos = 0;
  let hashed = false;
  let tags = 0;
  let lead = 0;
  while (pos < text.length && lead < MAX_LEAD) {
    const ch = text[pos]!;
    // BBCode the forum left as text ("[size=5]Vote: Bob[/size]" on GOG) is decoration.
    const tag = ch === '[' && tags < MAX_LEAD_TAGS ? LEAD_TAG.exec(text.slice(pos, pos + 60)) : null;
    if (tag) {
      pos += tag[0].length;
      tags++;
      continue;
    }
    if (QUOTE_CHAR.test(ch) || !LEAD_CHAR.test(ch)) break;
    if (ch === '#') hashed = true;
    pos++;
    lead++;
  }
  return { pos, hashed };
}

/** The longest action keyword starting at `pos` as a whole word (`glued`: the word before may touch it). */
export function keywordAt(text: string, pos: number, vocab: Vocabulary, glued = false): FoundKeyword | null {
  if (isWordChar(text[pos - 1]) && !glued) return null;
  let best: FoundKeyword | null = null;
  const first = text[pos];
  const keywords = first === undefined ? undefined : vocab.byFirst.get(first.toLowerCase());
  if (!keywords) return null;
  for (const k of keywords) {
    const end = keywordEnd(text, pos, k.letters);
    if (end > 0 && (!best || end > best.end) && (!k.colon || afterColon(text, end).colon)) best = { kind: k.kind, end };
  }
  return best;
}

/**
 * Whether an action keyword is spelled anywhere in `text`, as a word or inside one: text
 * without one holds no action, and the rungs that scan for one pass it over. One look per
 * character (a table for ASCII), where the scans it spares test each character twice.
 */
export function spellsKeyword(text: string, vocab: Vocabulary): boolean {
  const ascii = vocab.firstAscii;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128 ? ascii[c] === 0 : !vocab.byFirst.has(text[i]!.toLowerCase())) continue;
    for (const k of vocab.byFirst.get(text[i]!.toLowerCase())!) if (lettersEnd(text, i, k.letters) > 0) return true;
  }
  return false;
}

/** Characters that separate two actions in one run ("Unvote; Vote: Bob"). */
export const SEPARATORS = new Set([';', ',', '/', '|', '&', '+', '.', '!']);
/** Separators that only count with a space after them ("unvote -> vote Bob", not "Jean-Vote"). */
const SPACED_SEPARATORS = new Set(['-', '>', '=', '~']);

/** Where the next action of a candidate starts, after the target that began at `from`. */
function nextAction(
  text: string,
  from: number,
  kind: ActionKind,
  vocab: Vocabulary,
): { at: number; hashed: boolean; keyword: FoundKeyword } | null {
  const targetless = kind === 'unvote' || isTargetless(kind);
  let inkEnd = from; // just after the last non-space character of this action's target so far
  for (let i = from; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === ' ') continue;
    const glued = gluedKeyword(text, i, vocab);
    if (glued) return { at: i, hashed: false, keyword: glued };
    if ((ch === '#' || isWordChar(ch)) && !isWordChar(text[i - 1]) && text[i - 1] !== '#') {
      let j = i;
      while (text[j] === '#' && j - i < 3) j++;
      const hashed = j > i;
      const keyword = keywordAt(text, j, vocab);
      if (keyword) {
        const prev = text[inkEnd - 1];
        const separated =
          hashed ||
          // After an unvote (named or not) or a targetless side action, the next keyword starts
          // a new action even without a separator: "unvote Bob vote Alice".
          targetless ||
          (prev !== undefined && inkEnd > from && SEPARATORS.has(prev)) ||
          (prev !== undefined && inkEnd > from && SPACED_SEPARATORS.has(prev) && text[inkEnd] === ' ') ||
          endsWithJoinWord(text, from, inkEnd);
        if (separated) return { at: i, hashed, keyword };
      }
    }
    inkEnd = i + 1;
  }
  return null;
}

/**
 * "UNVOTE: AmorVOTE: TMHS": two `[vote]` tags side by side render with nothing between
 * them, so the next keyword is glued to the last name. A keyword in capitals with its
 * colon, right after a lower-case letter, starts a new action; a name never ends that way.
 */
function gluedKeyword(text: string, i: number, vocab: Vocabulary): FoundKeyword | null {
  const prev = text[i - 1];
  const ch = text[i];
  if (prev === undefined || ch === undefined || !/\p{Ll}/u.test(prev) || !/\p{Lu}/u.test(ch)) return null;
  const keyword = keywordAt(text, i, vocab, true);
  if (!keyword) return null;
  const word = text.slice(i, keyword.end).trimEnd();
  const capitals = word === word.toUpperCase() && /\p{Lu}{2}/u.test(word);
  return capitals && /^\s*:/u.test(text.slice(keyword.end)) ? keyword : null;
}

/** Words that join two actions like a separator ("unvote Ann and vote Bob"). */
const JOIN_WORDS = ['and', 'then'];

function endsWithJoinWord(text: string, from: number, end: number): boolean {
  return JOIN_WORDS.some((w) => {
    const start = end - w.length;
    return start >= from && text.slice(start, end).toLowerCase() === w && !isWordChar(text[start - 1]);
  });
}

/** The keyword target (No Lynch, Abstain) a whole written name is a keyword of, by its name. */
export function keywordTargetOf(name: string, vocab: Vocabulary): string | null {
  return vocab.targets.find((t) => isKeywordPhrase(name, t.letters))?.name ?? null;
}

/** Longest target kept as written; the name matcher caps it further. */
export const MAX_ARG = 200;
const MAX_RAW = 200;

/**
 * A closing tag mistyped at the end of a target, which the forum left as text: "[/uv[",
 * "[\b]", "[/cote]", "[/" (mafiascum games 1777, 1393, 1590, 1843). No name ends in "[/".
 */
const BROKEN_CLOSER = /\[\s?[/\\][^[\]\s]{0,12}[\][]?$/u;

/** The target text: trimmed, without the separators and joining words that led to the next action. */
export function cleanArg(slice: string): string {
  let s = slice.trimStart().slice(0, MAX_ARG).trimEnd();
  for (let round = 0; round < 4; round++) {
    const before = s;
    s = s
      .replace(/[\s;,/|&+>=~-]+$/u, '')
      .replace(/\s+(?:and|then)$/iu, '')
      .replace(BROKEN_CLOSER, '');
    if (s === before) break;
  }
  return s;
}

/** An action as written, capped for display ("…" marks the cut). */
export function clip(s: string): string {
  return s.length > MAX_RAW ? `${s.slice(0, MAX_RAW)}…` : s;
}

export function inkCount(s: string): number {
  return s.replace(/[^\p{L}\p{N}]+/gu, '').length;
}

export function hasInk(s: string): boolean {
  return /[\p{L}\p{N}]/u.test(s);
}
