/**
 * Keyword spelling, as players type it: case-insensitive, and a space, hyphen or
 * underscore may come or go between letters ("No Lynch" = "no-lynch" = "nolynch",
 * "unvote" = "un-vote"). A keyword is a whole word: "votes" is not "vote".
 *
 * Written as a character walk rather than a regex so that user text can never make
 * the matcher backtrack.
 */

const SEPARATOR = /[\s\-_]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
/** "no - lynch" has three separator characters between two letters; more is not a spelling. */
const MAX_GAP = 3;

/** The letters of a keyword, lowercased, without separators. */
export function keywordLetters(keyword: string): string {
  return keyword.toLowerCase().replace(/[\s\-_]+/gu, '');
}

export function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && WORD_CHAR.test(ch);
}

/**
 * Where `letters` (from `keywordLetters`) ends when it starts at `pos` in `text` as a
 * whole word, or -1. The caller checks what comes before `pos`.
 */
export function keywordEnd(text: string, pos: number, letters: string): number {
  const i = lettersEnd(text, pos, letters);
  return i < 0 || isWordChar(text[i]) ? -1 : i;
}

/** Where `letters` end when spelled from `pos` (a word or not), or -1. */
export function lettersEnd(text: string, pos: number, letters: string): number {
  if (letters === '') return -1;
  let i = pos;
  let j = 0;
  let gap = 0;
  while (j < letters.length) {
    const ch = text[i];
    if (ch === undefined) return -1;
    if (ch.toLowerCase() === letters[j]) {
      i++;
      j++;
      gap = 0;
    } else if (j > 0 && gap < MAX_GAP && SEPARATOR.test(ch)) {
      i++;
      gap++;
    } else {
      return -1;
    }
  }
  return i;
}

/** Whether the whole of `text` is one of the keywords ("No-Lynch" for "no lynch"). */
export function isKeywordPhrase(text: string, letters: readonly string[]): boolean {
  const t = text.trim();
  return letters.some((l) => keywordEnd(t, 0, l) === t.length);
}
