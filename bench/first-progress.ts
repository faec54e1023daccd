/**
 * Time to the first progress line of `votal count` on a 60-page first read (issue #28:
 * "within 3 s"): the stand-in forum serves a 60-page XenForo 2 thread (one post a page),
 * `node bin/votal.js count` reads it with stderr a pipe (one plain line per page) and a
 * site profile without a pause for 127.0.0.1; the time is from the spawn to the line
 * "votal: page 1 of 60 read". Needs `npx tsc -p tsconfig.build.json` first (bin loads dist/).
 *
 *   npx tsx bench/first-progress.ts [runs]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/config/package-root.js';
import { startFakeForum } from '../src/fake-forum/server.js';
import { FakeThread } from '../test/publish/fake-thread.js';

const PAGES = 60;
const runs = Number(process.argv[2] ?? 3);
const forum = await startFakeForum();
const thread = new FakeThread(forum, { engine: 'xenforo2', postsPerPage: 1 });
thread.add({ author: 'Moderator', body: '[b]Day 1 begins.[/b]' });
for (let n = 2; n <= PAGES; n++) thread.add({ author: n % 2 ? 'Alice' : 'Bob', body: `Post ${n}.` });
const dir = mkdtempSync(join(tmpdir(), 'votal-first-progress-'));
const site = join(dir, 'stand-in.yaml');
writeFileSync(site, "name: stand-in forum\nhosts: ['127.0.0.1']\nengine: xenforo2\nminIntervalMs: 0\n");

const argv = [
  'bin/votal.js',
  'count',
  '--ruleset',
  'plurality',
  '--players',
  'Alice,Bob,Carol',
  '--site-profile',
  site,
];
for (let run = 1; run <= runs; run++) {
  const started = performance.now();
  const child = spawn(process.execPath, [...argv, thread.url], {
    cwd: packageRoot(),
    env: { ...process.env, VOTAL_ALLOW_PRIVATE_HOSTS: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let firstMs: number | null = null;
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (firstMs === null && stderr.includes(`page 1 of ${PAGES} read`)) firstMs = performance.now() - started;
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const totalMs = performance.now() - started;
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(
    JSON.stringify({
      run,
      code,
      firstProgressMs: firstMs === null ? null : Math.round(firstMs),
      totalMs: Math.round(totalMs),
      load,
    }),
  );
}
await forum.close();
rmSync(dir, { recursive: true, force: true });
