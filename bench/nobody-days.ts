/**
 * The Days where Votal eliminates nobody but the archive has a lynch, sorted by why
 * (issue #24, lane "nobody"). Reads the output of
 *   npx tsx bench/real-games.ts --days --misses --count-causes [--learn]
 * and prints one line per class with its Days and examples:
 *   npx tsx bench/nobody-days.ts <bench output file>
 * The class comes from what the output already says of the Day: a decision held for unread
 * votes (by what the waiting votes look like), else the cause of the Day's last differing
 * moderator's count (bench/count-causes.ts), else that no count of the GM's bears on it.
 */
import { readFileSync } from 'node:fs';

export type NobodyClass =
  | 'held: an empty vote waits'
  | 'held: a vote naming two players waits'
  | 'held: a vote with one likely player waits'
  | 'held: a vote naming nobody Votal knows waits'
  | "count short: a voter's name the archive lacks"
  | "count matches the GM's: the GM lynched short of Votal's threshold"
  | "count differs: the moderator's slip"
  | "count differs: Votal's miss"
  | "count differs: the count reader's miss"
  | 'no GM count: a voter is not on the roster'
  | 'no GM count: other';

export interface NobodyDay {
  readonly game: string;
  readonly day: string;
  readonly expected: string;
  readonly klass: NobodyClass;
}

const WRONG = /^game (\d+) (D\d+): WRONG \((?:held )?(?:no-lynch|ended) -, expected ([^)]+)\);.*flags (\{.*\})$/;
const CAUSE = /^count-cause: game (\d+) (D\d+) #\d+ (\w+)/;
const WAITS = /^ {2}why #\d+ \d+ votes? waits? for you \((.*)\); (?:it|they) could change/;

/** The class of one held Day, by the first kind of waiting vote that could change it. */
export function heldClass(waiting: string): NobodyClass {
  if (/"VOTE:\s*"/i.test(waiting)) return 'held: an empty vote waits';
  if (/": [^,()]+ or /.test(waiting)) return 'held: a vote naming two players waits';
  if (/"[^"]*": [^,()]+/.test(waiting)) return 'held: a vote with one likely player waits';
  return 'held: a vote naming nobody Votal knows waits';
}

const BY_CAUSE: Record<string, NobodyClass> = {
  material: "count short: a voter's name the archive lacks",
  matched: "count matches the GM's: the GM lynched short of Votal's threshold",
  moderator: "count differs: the moderator's slip",
  votal: "count differs: Votal's miss",
  reader: "count differs: the count reader's miss",
};

/** Every nobody-eliminated Day of a bench output, classified. */
export function nobodyDays(lines: readonly string[]): NobodyDay[] {
  const lastCause = new Map<string, string>();
  for (const line of lines) {
    const m = CAUSE.exec(line);
    if (m) lastCause.set(`${m[1]} ${m[2]}`, m[3]!);
  }
  const out: NobodyDay[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = WRONG.exec(lines[i]!);
    if (!m) continue;
    const [, game, day, expected, flags] = m as unknown as [string, string, string, string, string];
    let waiting: string | null = null;
    for (let j = i + 1; j < lines.length && lines[j]!.startsWith('  '); j++) {
      const w = WAITS.exec(lines[j]!);
      if (w) waiting = w[1]!;
    }
    const cause = lastCause.get(`${game} ${day}`);
    const klass: NobodyClass =
      waiting !== null
        ? heldClass(waiting)
        : cause && BY_CAUSE[cause]
          ? BY_CAUSE[cause]!
          : flags.includes('vote-by-non-player')
            ? 'no GM count: a voter is not on the roster'
            : 'no GM count: other';
    out.push({ game, day, expected, klass });
  }
  return out;
}

function main(file: string): void {
  const days = nobodyDays(readFileSync(file, 'utf8').split('\n'));
  const byClass = new Map<NobodyClass, NobodyDay[]>();
  for (const d of days) byClass.set(d.klass, [...(byClass.get(d.klass) ?? []), d]);
  console.log(`nobody eliminated, a lynch in the archive: ${days.length} Days`);
  for (const [klass, ds] of [...byClass].sort((a, b) => b[1].length - a[1].length)) {
    const examples = ds.slice(0, 4).map((d) => `${d.game} ${d.day}`);
    console.log(`${String(ds.length).padStart(3)}  ${klass}  (${examples.join(', ')})`);
  }
}

if (process.argv[1]?.endsWith('nobody-days.ts')) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: npx tsx bench/nobody-days.ts <bench output file>');
  main(file);
}
