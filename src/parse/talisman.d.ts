// talisman ships no types; these are the functions Votal uses from it.
declare module 'talisman/metrics/jaro-winkler.js' {
  /** Jaro-Winkler similarity in [0, 1] (1 = identical). */
  export default function jaroWinkler(a: string, b: string): number;
}

declare module 'talisman/metrics/damerau-levenshtein.js' {
  /** Damerau-Levenshtein distance, or Infinity once it exceeds `max` (the search stops there). */
  export function limited(max: number, a: string, b: string): number;
}

declare module 'talisman/phonetics/metaphone.js' {
  /** The Metaphone code of a word, the sounds of its consonants ("Stephan" and "Stefan": STFN). */
  export default function metaphone(word: string): string;
}
