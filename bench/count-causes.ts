/**
 * Whose miss a moderator's count's difference is, where the differences alone cannot say
 * (bench/real-games.ts `causeOf`). A voter Votal has on a wagon whom the count, as read,
 * puts nowhere (on no wagon and not on its not-voting line) is the reader's miss only when
 * the count post writes them in a voter's place: on a line the reader did not read. A count
 * that writes them nowhere, or only as a wagon's target at a line's start ("Zdenek -"), left
 * the voter off: the moderator's slip (MafiaScum game 1221 post #82, donbot data 739243d:
 * Zdenek's vote written as "Zdenek - Nintendoaddict", the reverse of the vote).
 *
 * "Writes them" is generous to the reader's miss: any of the slot's names (its replacements'
 * too) as words, or a word that is the first four letters or more of one ("Nintendoaddict"
 * for nintendoaddict1), after a line's first separator, in the post's own text (quotes are
 * someone else's words). Prose with no separator is not a count's line.
 */
import type { Body } from '../src/model/body.js';
import { walkLines } from '../src/parse/own-text.js';

/**
 * A count line's target, with the marks before it, up to its first separator ("[4] Carol (",
 * "Carol -", "Not voting:"); a comma ends it too ("CreatureToolenduso, xyzzy": the GM's
 * separator lost, the voters still written, game 1787 post #2080).
 */
const TARGET = /^[\s\-*•·>[\]()\d.]*[^:|=([\-–—,;]*/u;

/** The words a post's own text writes in voters' places (after each line's first separator), lower-cased. */
export function ownWords(body: Body): string[] {
  const lines: string[] = [''];
  walkLines(
    body,
    { text: (t) => (lines[lines.length - 1] += t), end: () => lines.push('') },
    { keepStruck: true, readCode: true },
  );
  return lines.flatMap((l) => {
    const rest = l.replace(TARGET, '');
    return rest === '' ? [] : (rest.toLowerCase().match(/[\p{L}\p{N}_'-]+/gu) ?? []);
  });
}

const SHORTEST = 4;

/** Letters and digits only: "don_johnson" and "Donjohnson" are one name as a GM writes it. */
const squash = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** Whether the words hold one of the names: its words in a row, or a word that is the name, or begins it (4 letters or more), squashed. */
export function namesAny(words: readonly string[], names: readonly string[]): boolean {
  const text = ` ${words.join(' ')} `;
  const squashed = words.map(squash);
  return names.some((name) => {
    const key =
      name
        .toLowerCase()
        .match(/[\p{L}\p{N}_'-]+/gu)
        ?.join(' ') ?? '';
    const whole = squash(name);
    if (whole === '') return false;
    if (text.includes(` ${key} `)) return true;
    return squashed.some((w) => w === whole || (w.length >= SHORTEST && whole.startsWith(w)));
  });
}
