import type { Draw } from '../model/tally.js';

/**
 * A seeded random draw for ties ("a coin toss between them"): mulberry32 on a 32-bit
 * seed, so a recount with the same seed draws the same player. The seed and the roll
 * are recorded in the tally for anyone to check.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over the text: the seed of a Day whose GM fixed none (same game, same Day, same tie -> same seed). */
export function seedFrom(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of text) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function drawOne(seed: number, candidates: readonly string[]): Draw {
  const roll = mulberry32(seed)();
  const picked = candidates[Math.floor(roll * candidates.length)] ?? candidates[0] ?? '';
  return { seed, candidates: [...candidates], roll, picked };
}
