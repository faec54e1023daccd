import { Tally, type Voter, type Wagon } from '../../src/model/tally.js';
import type { DialectSpec } from '../../src/votal/dialect.js';

export const PLAYERS = ['Alice', 'Bob', 'Carol', 'Dave', 'Eve', 'Frank', 'Grace'];
const THREAD = 'https://forum.example/threads/mini-12.4242';

export const permalink = (post: number) => `${THREAD}/post-${9000 + post}`;

/** A wagon on `target` with `voters` ([name, post]), L-k against `needs` (null: no threshold). */
export function wagon(
  target: string,
  voters: readonly (readonly [string, number])[],
  opts: { needs?: number | null; penalty?: number; links?: boolean; weights?: Record<string, number> } = {},
): Wagon {
  const needs = opts.needs === undefined ? 4 : opts.needs;
  const vs: Voter[] = voters.map(([player, post]) => ({
    player,
    post,
    weight: opts.weights?.[player] ?? 1,
    permalink: opts.links === false ? null : permalink(post),
  }));
  const votes = vs.reduce((s, v) => s + v.weight, 0);
  const penalty = opts.penalty ?? 0;
  const total = votes + penalty;
  return { target, votes, penalty, total, voters: vs, toThreshold: needs === null ? null : needs - total };
}

export type TallyOver = Partial<Omit<Tally, 'outcome'>> & { outcome?: Partial<Tally['outcome']> };

/** A valid Tally (checked by the schema) with the given parts; 7 alive, majority at 4, Day 1. */
export function tallyOf(over: TallyOver = {}): Tally {
  const wagons = over.wagons ?? [];
  const voting = new Set(wagons.flatMap((w) => w.voters.map((v) => v.player)));
  const players = over.players ?? PLAYERS;
  return Tally.parse({
    engine: 'xenforo2',
    ruleset: 'test',
    day: 1,
    postsRead: 30,
    asOfPost: 30,
    living: players.length,
    players,
    threshold: { kind: 'majority', votes: 4 },
    notVoting: players.filter((p) => !voting.has(p)),
    violations: [],
    flags: [],
    ...over,
    wagons,
    outcome: { status: 'open', eliminated: [], decidedAt: null, leaders: [], ...over.outcome },
  });
}

/**
 * The BBCode tags of `out`, checked: every `[` outside a no-parse tag opens or closes one
 * of `allowed`, tags nest and close, no-parse content holds no closing tag. Returns the
 * tag names seen (lower case) or throws saying what is wrong.
 */
export function checkBbcode(out: string, spec: DialectSpec, allowed: readonly string[]): string[] {
  const seen: string[] = [];
  const stack: string[] = [];
  const noParse = spec.noParse?.toLowerCase() ?? null;
  const selfClosing = new Set(['*']);
  let i = 0;
  while (i < out.length) {
    const open = out.indexOf('[', i);
    if (open === -1) break;
    const m = /^\[(\/?)([a-z*]+)(=[^\]\s]+)?\]/i.exec(out.slice(open));
    if (!m) throw new Error(`stray "[" at ${open}: ${JSON.stringify(out.slice(Math.max(0, open - 20), open + 30))}`);
    const [tag, slash, rawName] = m as unknown as [string, string, string];
    const name = rawName.toLowerCase();
    if (name === noParse && !slash) {
      const end = out.toLowerCase().indexOf(`[/${noParse}]`, open + tag.length);
      if (end === -1) throw new Error(`[${spec.noParse}] at ${open} never closed`);
      const content = out.slice(open + tag.length, end);
      if (/\[\s*\//.test(content)) throw new Error(`closing tag inside [${spec.noParse}]: ${JSON.stringify(content)}`);
      seen.push(name);
      i = end + noParse.length + 3;
      continue;
    }
    if (!allowed.includes(name))
      throw new Error(
        `tag [${slash}${rawName}] is not one the votal writes: ${JSON.stringify(out.slice(open, open + 40))}`,
      );
    seen.push(name);
    if (selfClosing.has(name)) {
      if (stack.at(-1) !== 'list') throw new Error(`[*] outside [list] at ${open}`);
    } else if (slash) {
      const top = stack.pop();
      if (top !== name) throw new Error(`[/${name}] at ${open} closes [${top ?? 'nothing'}]`);
    } else {
      stack.push(name);
    }
    i = open + tag.length;
  }
  if (stack.length) throw new Error(`unclosed tags: ${stack.join(', ')}`);
  return seen;
}

/**
 * Markdown as the votal writes it: the only unescaped markup is `**bold**`, `*italic*`,
 * links `[text](http…)` and "- " list items at the start of a line. Throws on anything else
 * (an unescaped `[`, `_`, backtick, `<`, `#`, a bold that does not close on its line…).
 */
export function checkMarkdown(out: string): void {
  out.split('\n').forEach((line, n) => {
    const s = line.startsWith('- ') ? line.slice(2) : line;
    if (/^\s*([-+=]|\d+[.)])/.test(s)) throw new Error(`line ${n + 1} starts a block: ${line}`);
    const emphasis: string[] = [];
    const fail = (why: string, at: number) => {
      throw new Error(`line ${n + 1}, col ${at}: ${why}: ${JSON.stringify(line)}`);
    };
    let linkDepth = 0;
    let i = 0;
    while (i < s.length) {
      const c = s[i]!;
      if (c === '\\') {
        if (i + 1 >= s.length) fail('trailing backslash escapes the line end', i);
        i += 2;
        continue;
      }
      if (c === '*') {
        const mark = s.startsWith('**', i) ? '**' : '*';
        if (emphasis.at(-1) === mark) emphasis.pop();
        else emphasis.push(mark);
        i += mark.length;
        continue;
      }
      if (c === '[') {
        if (linkDepth) fail('nested link', i);
        linkDepth++;
        i++;
        continue;
      }
      if (c === ']') {
        if (!linkDepth) fail('"]" outside a link', i);
        linkDepth--;
        const url = /^\]\((https?:\/\/[^\s()<>]+)\)/.exec(s.slice(i));
        if (!url) fail('link without an http(s) target', i);
        i += url![0].length;
        continue;
      }
      if ('_`<>#|~&'.includes(c)) fail(`unescaped ${JSON.stringify(c)}`, i);
      i++;
    }
    if (linkDepth) fail('link not closed', s.length);
    if (emphasis.length) fail(`emphasis not closed: ${emphasis.join(' ')}`, s.length);
  });
}
