/**
 * Whose miss a moderator's count's difference is, where the differences alone cannot say
 * (bench/real-games.ts `causeOf`). A voter Votal has on a wagon whom the count, as read,
 * puts nowhere (on no wagon and not on its not-voting line) is the reader's miss only when
 * the count post names them: a line naming them the reader did not read. A count that
 * never writes the voter's name left the voter off: the moderator's slip (MafiaScum game
 * 1183 post #483, donbot data 739243d: don_johnson's vote, written nowhere in the count).
 *
 * "Names them" is generous to the reader's miss: any of the slot's names (its replacements'
 * too) as a word, or a word that is the first four letters or more of one ("Nintendoaddict"
 * for nintendoaddict1), in the post's own text (quotes are someone else's words).
 */
import type { Body } from '../src/model/body.js';
import { walkLines } from '../src/parse/own-text.js';

/** The words of a post's own text, lower-cased. */
export function ownWords(body: Body): string[] {
  let text = '';
  walkLines(body, { text: (t) => (text += t), end: () => (text += '\n') }, { keepStruck: true, readCode: true });
  return text.toLowerCase().match(/[\p{L}\p{N}_'-]+/gu) ?? [];
}

const SHORTEST = 4;

/** Whether the words hold one of the names: the name's words in a row, or a word that begins one name (4 letters or more). */
export function namesAny(words: readonly string[], names: readonly string[]): boolean {
  const text = ` ${words.join(' ')} `;
  return names.some((name) => {
    const key =
      name
        .toLowerCase()
        .match(/[\p{L}\p{N}_'-]+/gu)
        ?.join(' ') ?? '';
    if (key === '') return false;
    if (text.includes(` ${key} `)) return true;
    return words.some((w) => w.length >= SHORTEST && key.startsWith(w));
  });
}
