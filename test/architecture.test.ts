import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/config/package-root.js';

/**
 * The code follows the data flow (../shared/DESIGN.md): each folder imports only from
 * folders before it in this list, and no file imports itself back through others. A
 * reader finds a stage by its name and never has to read below it to understand it.
 */
const FLOW = [
  'model', // domain types (zod): imports nothing of ours
  'log',
  'config',
  'rules',
  'fetch',
  'scrapers',
  'browser',
  'thread',
  'site', // reading: fetch -> browser -> thread, site beside
  'store',
  'parse',
  'tally',
  'votal',
  'game',
  'notify',
  'publish',
  'jobs',
  'fake-forum', // the stand-in forum (tests, demo)
  'app',
  'web',
  'cli',
];

/**
 * File cycles that are known and have an issue of their own ("A house to live in"). The
 * test fails when one is gone too, so this list only ever shrinks.
 */
const KNOWN_CYCLES: string[][] = [];

const root = packageRoot(import.meta.url);

function sources(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
    }
  };
  walk(join(root, 'src'));
  walk(join(root, 'scrapers'));
  return out;
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Every relative import of every source file, resolved to a source file. */
function graph(): Map<string, string[]> {
  const files = sources();
  const known = new Set(files.map((f) => relative(root, f)));
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const from = relative(root, file);
    const to: string[] = [];
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const base = relative(root, resolve(dirname(file), (m[1] ?? m[2])!)).replace(/\.js$/, '');
      const target = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((t) => known.has(t));
      if (target) to.push(target);
    }
    edges.set(from, to);
  }
  return edges;
}

const folderOf = (file: string): string => (file.startsWith('scrapers/') ? 'scrapers' : file.split('/')[1]!);

/** Strongly connected components of more than one file (Tarjan, iterative: no recursion cap to hit). */
function cycles(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, next);
    low.set(start, next);
    next++;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const targets = edges.get(top.node) ?? [];
      if (top.i < targets.length) {
        const t = targets[top.i++]!;
        if (!index.has(t)) {
          index.set(t, next);
          low.set(t, next);
          next++;
          stack.push(t);
          onStack.add(t);
          work.push({ node: t, i: 0 });
        } else if (onStack.has(t)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(t)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let n: string;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          component.push(n);
        } while (n !== top.node);
        if (component.length > 1) out.push(component.sort());
      }
    }
  }
  return out;
}

describe('the code follows the data flow', () => {
  const edges = graph();

  it('knows every folder under src/', () => {
    const folders = new Set([...edges.keys()].map(folderOf));
    expect([...folders].filter((f) => !FLOW.includes(f))).toEqual([]);
  });

  it('imports only from folders earlier in the flow', () => {
    const upward: string[] = [];
    for (const [from, targets] of edges) {
      const a = FLOW.indexOf(folderOf(from));
      for (const to of targets) {
        const b = FLOW.indexOf(folderOf(to));
        if (b > a) upward.push(`${from} -> ${to} (${folderOf(from)} comes before ${folderOf(to)})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('has no import cycle between files but the known ones, and each known one is still there', () => {
    const found = cycles(edges)
      .map((c) => c.join(' <-> '))
      .sort();
    expect(found).toEqual(KNOWN_CYCLES.map((c) => [...c].sort().join(' <-> ')).sort());
  });

  it("keeps the dashboard out of the API: web/api and web's own doors import nothing from web/ui (issue #29)", () => {
    // app.ts composes everything (it mounts the dashboard); every other door is shared.
    const shared = (f: string): boolean =>
      f.startsWith('src/web/api/') || (/^src\/web\/[^/]+$/.test(f) && f !== 'src/web/app.ts');
    const intoUi = [...edges]
      .filter(([from]) => shared(from))
      .flatMap(([from, targets]) => targets.filter((t) => t.startsWith('src/web/ui/')).map((t) => `${from} -> ${t}`));
    expect(intoUi).toEqual([]);
  });

  it('finds a cycle when there is one (the check itself)', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(g)).toEqual([['a', 'b', 'c']]);
  });
});
