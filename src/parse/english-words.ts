import { readFileSync } from 'node:fs';
import wordListPath from 'word-list';

/**
 * English words (sindresorhus's `word-list`, ~274,000 words), for reading a one-word
 * username as the words a player hears in it ("themanhimself" → the, man, him, self), as
 * vca splits names with a spelling dictionary before taking initials. The list is the
 * package's static data, read once on first use: most posts never reach the rung that
 * needs it, and the CLI should not pay for it at start.
 */
let words: ReadonlySet<string> | null = null;

export function isEnglishWord(word: string): boolean {
  words ??= new Set(readFileSync(wordListPath, 'utf8').split('\n'));
  return words.has(word);
}
