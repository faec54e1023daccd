/**
 * What moved between the causes of the moderators' differing counts from one run of
 * `bench/real-games.ts --count-causes` to another: for a change to the count reader
 * (src/parse/gm-count.ts), that the reader's misses went to "matched" and not to "the
 * moderator's slip", and which counts it newly reads or no longer reads.
 *
 *   npx tsx bench/real-games.ts --count-causes > before.txt   (and after.txt, after the change)
 *   npx tsx bench/count-moves.ts before.txt after.txt [--show "<from> -> <to>"]
 */
import { readFileSync } from 'node:fs';

/** One line per count post: "count-cause: game 1159 D1 #18 reader" (or "matched"). */
const LINE = /^count-cause: game (\d+) D(\d+) #(\d+) (\w+)$/;

/** Each count post of a run, by "game Dn #post", with its cause or "matched". */
export function readCauses(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const l of text.split('\n')) {
    const m = LINE.exec(l);
    if (m) out.set(`${m[1]} D${m[2]} #${m[3]}`, m[4]!);
  }
  return out;
}

/** The moves between two runs: "from -> to" with the counts that moved ("unread": not a count in that run). */
export function countMoves(before: Map<string, string>, after: Map<string, string>): Map<string, string[]> {
  const moves = new Map<string, string[]>();
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const from = before.get(key) ?? 'unread';
    const to = after.get(key) ?? 'unread';
    if (from === to) continue;
    const move = `${from} -> ${to}`;
    moves.set(move, [...(moves.get(move) ?? []), key]);
  }
  return moves;
}

const isMain = process.argv[1]?.endsWith('count-moves.ts');
if (isMain) {
  const [a, b] = process.argv.slice(2);
  if (!a || !b) {
    console.error('usage: npx tsx bench/count-moves.ts <before.txt> <after.txt> [--show "<from> -> <to>"]');
    process.exit(2);
  }
  const moves = countMoves(readCauses(readFileSync(a, 'utf8')), readCauses(readFileSync(b, 'utf8')));
  const show = process.argv.indexOf('--show');
  for (const [move, keys] of [...moves].sort((x, y) => y[1].length - x[1].length))
    console.log(`${String(keys.length).padStart(5)}  ${move}${show < 0 ? `  (${keys.slice(0, 6).join(', ')})` : ''}`);
  if (show >= 0) for (const k of moves.get(process.argv[show + 1] ?? '') ?? []) console.log(`  ${k}`);
}
