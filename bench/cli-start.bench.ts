/**
 * `npm run bench:cli`: how fast `votal` starts. Runs `votal --help` and `votal parse`
 * (one post on stdin) from the built dist, several times each, and reports the median
 * wall time and peak resident memory, beside `node -e 0` for the floor. Targets (issue
 * #16): under 0.3 s and 120 MiB. `--write` records an entry in BENCHMARKS.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/config/package-root.js';
import { recordBenchmark } from './record.js';

const root = packageRoot(import.meta.url);
const runs = Number(process.env.VOTAL_BENCH_RUNS ?? 9);
const hook = join(root, 'dist/bench/report-rss.js');
const bin = join(root, 'bin/votal.js');
const scratch = mkdtempSync(join(tmpdir(), 'votal-cli-bench-'));
const POST = '<b>Vote: Alice</b><br>Bob is scum, look at his first post.';

interface Case {
  name: string;
  args: string[];
  input?: string;
}
const cases: Case[] = [
  { name: 'node -e 0 (floor)', args: ['-e', '0'] },
  { name: 'votal --help', args: [bin, '--help'] },
  {
    name: 'votal parse (one post)',
    args: [bin, 'parse', '--engine', 'xenforo2', '--players', 'Alice,Bob,Carol'],
    input: POST,
  },
];

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

const results = cases.map((c) => {
  const ms: number[] = [];
  const kib: number[] = [];
  for (let i = 0; i < runs; i++) {
    const rssFile = join(scratch, `rss-${i}`);
    const began = performance.now();
    const run = spawnSync(process.execPath, ['--import', hook, ...c.args], {
      input: c.input ?? '',
      env: { ...process.env, VOTAL_BENCH_RSS_FILE: rssFile },
      encoding: 'utf8',
    });
    ms.push(performance.now() - began);
    if (run.status !== 0) throw new Error(`${c.name} exited ${run.status}: ${run.stderr}`);
    kib.push(Number(readFileSync(rssFile, 'utf8')));
  }
  return { name: c.name, seconds: median(ms) / 1000, mib: median(kib) / 1024 };
});
rmSync(scratch, { recursive: true, force: true });

for (const r of results)
  console.log(`${r.name}: ${r.seconds.toFixed(3)} s, ${r.mib.toFixed(0)} MiB (median of ${runs})`);

if (process.argv.includes('--write')) {
  const date = new Date().toISOString().slice(0, 10);
  const machine = `${cpus()[0]?.model ?? 'unknown cpu'} x${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  const rows = results.map((r) => `| ${r.name} | ${r.seconds.toFixed(3)} | ${r.mib.toFixed(0)} |`).join('\n');
  const entry = `## CLI start-up - ${date}\n\nMachine: ${machine}.\nThe built dist, each command run ${runs} times; medians of wall time and peak resident memory. Target (issue #16): under 0.3 s and 120 MiB.\n\n| command | s | MiB |\n| --- | --- | --- |\n${rows}\n`;
  console.log(`recorded in ${recordBenchmark(root, entry)}`);
}
