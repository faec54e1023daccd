import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { eld as Eld } from 'eld/small';

/**
 * Which non-English language a post is written in, or null. Short posts and slang fool
 * every detector ("brb dinner" reads as Norwegian), so the answer is null unless the
 * text has enough letters, eld calls its result reliable, and English is not a close
 * runner-up. The violation is for the GM to look at, never proof.
 */

/** Fewer letters than this and no detector can tell. */
const MIN_LETTERS = 20;
/** English this close to the winner means "could be English": no flag. */
const ENGLISH_MARGIN = 0.05;
/** Enough text to decide; detecting a whole megabyte tells nothing more. */
const MAX_SAMPLE = 10_000;

let detector: typeof Eld | undefined;

/**
 * eld, loaded on the first post that needs it: its n-gram tables cost ~150 MB and most of
 * a second, which `votal parse` and `votal --help` mostly never need. A synchronous
 * require of the ES module (Node >= 20.19) keeps this function synchronous.
 */
function languageDetector(): typeof Eld {
  detector ??= (createRequire(import.meta.url)(fileURLToPath(import.meta.resolve('eld/small'))) as { eld: typeof Eld })
    .eld;
  return detector;
}

export function nonEnglishLanguage(text: string): string | null {
  const sample = text.slice(0, MAX_SAMPLE);
  const letters = sample.match(/\p{L}/gu)?.length ?? 0;
  if (letters < MIN_LETTERS) return null;
  const result = languageDetector().detect(sample);
  if (!result.isReliable() || result.language === '' || result.language === 'en') return null;
  const scores = result.getScores();
  const top = scores[result.language] ?? 0;
  const english = scores.en;
  if (english !== undefined && top - english < ENGLISH_MARGIN) return null;
  return result.language;
}
