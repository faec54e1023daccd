/**
 * How a written name is compared: what decorations players add around a name, and the
 * normal form two spellings share. Inputs are capped before any regex runs so that a
 * hostile "name" can cost no more than a short one.
 */

/** Longest text looked at for decorations; a vote target is a name, not a paragraph. */
const MAX_DECORATED = 200;
/** Longest name compared (the brief's name-token cap). */
const MAX_NAME = 60;

const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;
// "[color=red]", "[/b]": BBCode the forum did not render, typed inside a vote.
const TYPED_TAG = /\[\/?[a-z*]{1,12}(?:=[^\]\n]{0,40})?\]/giu;
// Trailing "(L-2)", "[hammer]", "{claimed}".
const TRAILING_GROUP = /\s*[([{][^()[\]{}]{0,40}[)\]}]$/u;
// "TheManHimself L - 1", "Bob E-2": wagon counts written after the name.
const TRAILING_LEVEL = /\s+[le]\s?-\s?\d{1,2}$/iu;
// "Bob's slot", "Scott Brosius' Slot", "Lateralus's replacement", "gutter's spot".
const TRAILING_SLOT = /(?:['’`]s?)?\s+(?:slot|spot|replacement)s?$/iu;
const TRAILING_JUNK = /[^\p{L}\p{N}]+$/u;
// Junk that may close a decoration is kept until the decoration itself is removed.
const TRAILING_LOOSE_JUNK = /[^\p{L}\p{N})\]}]+$/u;
const LEADING_JUNK = /^[^\p{L}\p{N}]+/u;
const POSSESSIVE = /['’`]s$/iu;

/** The name without the decorations players put around it ("@Bob", "Bob (L-2)", "Bob's slot", "Bob!!"). */
export function stripDecorations(written: string): string {
  const start = written.slice(0, MAX_DECORATED).replace(INVISIBLE, '').replace(/\s+/gu, ' ');
  let s = start.replace(TYPED_TAG, ' ').trim();
  // A few rounds: decorations stack ("Bob's slot (L-1) !!").
  for (let round = 0; round < 4; round++) {
    const before = s;
    s = s.replace(TRAILING_LOOSE_JUNK, '');
    s = s.replace(TRAILING_GROUP, '');
    s = s.replace(TRAILING_LEVEL, '');
    s = s.replace(TRAILING_SLOT, '');
    if (s === before) break;
  }
  s = s.replace(TRAILING_JUNK, '').replace(LEADING_JUNK, '').trim();
  // "(Bob)" alone: the group was the name.
  if (s === '') s = start.replace(LEADING_JUNK, '').replace(TRAILING_JUNK, '').trim();
  return s;
}

/** Without a possessive "'s" ("Bob's" → "Bob"), or null when there is none. */
export function withoutPossessive(name: string): string | null {
  return POSSESSIVE.test(name) ? name.replace(POSSESSIVE, '') : null;
}

/** At most `MAX_NAME` characters, cut at a word boundary when there is one. */
export function capName(name: string): string {
  if (name.length <= MAX_NAME) return name;
  const cut = name.slice(0, MAX_NAME);
  const space = cut.lastIndexOf(' ');
  return (space > 0 ? cut.slice(0, space) : cut).trim();
}

/**
 * The compare form: NFKD, accents dropped, lowercase, letters and digits only
 * ("Dr. Who" = "drwho" = "DR WHO"; "José" = "jose").
 */
export function nameKey(name: string): string {
  const key = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
  // A name of symbols only still needs a key of its own.
  return key !== '' ? key : name.trim().toLowerCase().replace(/\s+/gu, '');
}

/**
 * Initials a player might be called by: first letters of words, where words are split
 * at spaces, punctuation, CamelCase humps and digit runs ("Dr. Who" → "dw",
 * "TheManHimself" → "tmh", "Almost50" → "a50"). Single-word names have none.
 */
export function acronymOf(name: string): string | null {
  const plain = name.normalize('NFKD').replace(/\p{M}+/gu, '');
  const words = plain
    .split(/[^\p{L}\p{N}]+/u)
    .flatMap((w) =>
      w
        .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
        .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
        .replace(/(\p{L})(\p{N})/gu, '$1 $2')
        .replace(/(\p{N})(\p{L})/gu, '$1 $2')
        .split(' '),
    )
    .filter((w) => w !== '');
  if (words.length < 2) return null;
  return words
    .map((w) => (/^\p{N}+$/u.test(w) ? w : w[0]!))
    .join('')
    .toLowerCase();
}

/** Words that players leave out of an initialism ("M&L" for "Mario and Luigi"). */
export const JOINING_WORDS: ReadonlySet<string> = new Set(['and', 'of', 'the']);

/**
 * Every initialism a player might use for a name: the plain one (`acronymOf`), the one
 * that reads a possessive as part of its word ("MS" for "Midnight's Sorrow"), and the ones
 * that skip joining words or read "&" as "and" ("M&L", "MaL" for "Mario & Luigi").
 */
export function acronymsOf(name: string): string[] {
  const out = new Set<string>();
  const add = (a: string | null): void => {
    if (a !== null && a.length >= 2) out.add(a);
  };
  add(acronymOf(name));
  const joined = name.replace(/['’`]/gu, '');
  add(acronymOf(joined));
  add(acronymOf(joined.replace(/\s*&\s*/gu, ' and ')));
  const words = nameWords(joined.replace(/&/gu, ' '));
  const content = words.filter((w) => !JOINING_WORDS.has(w));
  if (content.length >= 2 && content.length < words.length)
    add(content.map((w) => (/^\p{N}+$/u.test(w) ? w : w[0]!)).join(''));
  return [...out];
}

/**
 * The words of a name in compare form, split at spaces, punctuation and CamelCase humps
 * ("Scott Brosius" → scott, brosius; "Aj The Epic" → aj, the, epic).
 */
export function nameWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .map((w) => w.toLowerCase())
    .filter((w) => w !== '');
}
