// talisman ships no types; this is the one function Votal uses from it.
declare module 'talisman/metrics/jaro-winkler.js' {
  /** Jaro-Winkler similarity in [0, 1] (1 = identical). */
  export default function jaroWinkler(a: string, b: string): number;
}
