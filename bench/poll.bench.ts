/**
 * `npm run bench:poll`: what a poll that finds nothing new costs on a big stored game.
 *
 * Builds a stored game of BENCH_POSTS posts (default 10,000; 25 to a XenForo 2 page, a
 * vote in every fifth post) through the stand-in forum: the pages are served by
 * src/fake-forum, and one full poll reads and stores them all (posts, revisions,
 * readings, the tally). Then it times BENCH_RUNS polls (default 7) that find nothing new
 * (the last page answers 304), the fake clock a minute on each time, and reports the
 * median, on each driver of BENCH_DRIVERS (default `postgres,pglite`): PostgreSQL in a
 * scratch database made and dropped on BENCH_PG_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), PGlite in memory. It also times the
 * clock's once-a-minute pass over the one game, and the resident memory after each.
 *
 * Prints the numbers and appends them to BENCHMARKS.md; `--no-write` only prints.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { packageRoot } from '../src/config/package-root.js';
import { startFakeForum } from '../src/fake-forum/server.js';
import { PageFetcher } from '../src/fetch/page-fetcher.js';
import { pollGame, type PollResult } from '../src/game/poll-game.js';
import { createClock } from '../src/jobs/clock.js';
import { openStore, type Store } from '../src/store/open-store.js';
import { recordBenchmark } from './record.js';

const POSTS = Number(process.env.BENCH_POSTS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const DRIVERS = (process.env.BENCH_DRIVERS ?? 'postgres,pglite')
  .split(',')
  .map((d) => d.trim())
  .filter(Boolean);
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PER_PAGE = 25;
const PLAYERS = Array.from({ length: 12 }, (_, i) => `Player${i + 1}`);
const THREAD = '/threads/bench-game.7777/';
const root = packageRoot(import.meta.url);

/** XenForo 2 pages made from the fixture thread's markup: its head, one post as a pattern, its foot. */
function xenforoPages(posts: number): { path: string; body: string }[] {
  const fixture = readFileSync(join(root, 'fixtures/xenforo2/standard-game/page-1.html'), 'utf8').replaceAll(
    '/threads/standard-game.4242/',
    THREAD,
  );
  const marker = '\t<article class="message message--post';
  const parts = fixture.split(marker);
  const head = parts[0]!;
  const pattern = marker + parts[1]!;
  const lastPart = parts.at(-1)!;
  const end = lastPart.indexOf('\n\t</article>\n') + '\n\t</article>\n'.length;
  const foot = lastPart.slice(end);
  const pageCount = Math.ceil(posts / PER_PAGE);
  const pagePath = (n: number): string => (n <= 1 ? THREAD : `${THREAD}page-${n}`);
  const nav = (n: number): string => {
    const shown = [...new Set([1, n - 1, n, n + 1, pageCount])]
      .filter((p) => p >= 1 && p <= pageCount)
      .sort((a, b) => a - b);
    const items = shown.map(
      (p) =>
        `<li class="pageNav-page ${p === n ? 'pageNav-page--current' : ''}"><a href="${pagePath(p)}">${p}</a></li>`,
    );
    return `<ul class="pageNav-main">\n${items.join('\n')}\n</ul>`;
  };
  const start = Date.UTC(2026, 2, 2, 18, 0);
  const out: { path: string; body: string }[] = [];
  for (let page = 1; page <= pageCount; page++) {
    const articles: string[] = [];
    for (let n = (page - 1) * PER_PAGE + 1; n <= Math.min(posts, page * PER_PAGE); n++) {
      const author = n === 1 ? 'Moderator' : PLAYERS[n % PLAYERS.length]!;
      const id = 100_000 + n;
      const time = start + n * 60_000;
      const target = PLAYERS[(n * 7) % PLAYERS.length]!;
      const text =
        n % 5 === 0
          ? `<b>Vote: ${target}</b><br />\nI think ${target} is scum.`
          : `Post ${n}: thinking about ${target} and the others.`;
      articles.push(
        pattern
          .replace(/data-author="[^"]*"/, `data-author="${author}"`)
          .replaceAll('9001', String(id))
          .replaceAll('>Moderator<', `>${author}<`)
          .replace('aria-label="Moderator"', `aria-label="${author}"`)
          .replaceAll(
            /datetime="[^"]*" data-time="\d+"/g,
            `datetime="${new Date(time).toISOString().replace('.000Z', '+0000')}" data-time="${time / 1000}"`,
          )
          .replace(/#1\n/, `#${n}\n`)
          .replace(/<div class="bbWrapper">[\s\S]*?<\/div>/, `<div class="bbWrapper">${text}</div>`),
      );
    }
    const body =
      head
        .replace(/<ul class="pageNav-main">[\s\S]*?<\/ul>/, nav(page))
        .replace(
          '<link rel="canonical" href="' + THREAD + '" />',
          `<link rel="canonical" href="${pagePath(page)}" />`,
        ) +
      articles.join('\n') +
      foot.replace(/<ul class="pageNav-main">[\s\S]*?<\/ul>/, nav(page));
    out.push({ path: pagePath(page), body });
  }
  return out;
}

interface DriverResult {
  driver: string;
  build: number;
  polls: number[];
  /** This process's CPU time per poll (PGlite: the database too; PostgreSQL: without the server's). */
  cpu: number[];
  clock: number[];
  rssMiB: number;
  last: PollResult;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function benchDriver(driver: string, forumUrl: string): Promise<DriverResult> {
  let store: Store;
  let drop: (() => Promise<void>) | null = null;
  if (driver === 'postgres') {
    const name = `votal_bench_poll_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    store = await openStore({ databaseUrl: url.toString() });
    drop = async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  } else if (driver === 'pglite') {
    store = await openStore({ dataDir: 'memory://' });
  } else {
    throw new Error(`BENCH_DRIVERS: unknown driver "${driver}" (postgres or pglite)`);
  }
  try {
    const game = await store.games.create(
      {
        threadUrl: forumUrl,
        engine: null,
        ruleset: 'plurality',
        rulesetOverrides: {},
        roster: PLAYERS.map((name) => ({ name })),
        settings: {},
      },
      'gm:bench',
    );
    let t = Date.parse('2026-03-10T12:00:00Z');
    const now = (): string => new Date(t).toISOString();
    const source = new PageFetcher({
      allowPrivateHosts: true,
      minIntervalMs: 0,
      retries: 2,
      backoffBaseMs: 10,
      random: () => 0,
    });
    const deps = { store, source, now };

    let start = performance.now();
    const first = await pollGame(deps, game.id);
    const build = performance.now() - start;
    if (first.status !== 'polled' || first.added !== POSTS) {
      throw new Error(
        `the building poll on ${driver} stored ${first.added} of ${POSTS} posts: ${first.status} ${first.reason ?? ''}`,
      );
    }
    // A warm-up poll, then the timed ones; full reads stay an hour away (the fake clock moves a minute each).
    const polls: number[] = [];
    const cpu: number[] = [];
    let last = first;
    for (let i = 0; i <= RUNS; i++) {
      t += 60_000;
      start = performance.now();
      const used = process.cpuUsage();
      last = await pollGame(deps, game.id);
      const ms = performance.now() - start;
      const spent = process.cpuUsage(used);
      if (i > 0) cpu.push((spent.user + spent.system) / 1000);
      if (last.status !== 'polled' || last.fullRead || last.added + last.edited + last.deleted > 0) {
        throw new Error(
          `poll ${i} on ${driver} was not a poll with nothing new: ${JSON.stringify({ ...last, game: undefined, tally: undefined })}`,
        );
      }
      if (i > 0) polls.push(ms);
    }
    const clock = createClock({ store, poller: { pollNow: async () => {} }, now });
    const clockRuns: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      start = performance.now();
      await clock.tick();
      if (i > 0) clockRuns.push(performance.now() - start);
    }
    return { driver, build, polls, cpu, clock: clockRuns, rssMiB: process.memoryUsage().rss / 2 ** 20, last };
  } finally {
    await store.close();
    await drop?.();
  }
}

async function main(): Promise<void> {
  const forum = await startFakeForum();
  const pages = xenforoPages(POSTS);
  for (const page of pages) forum.route(page.path, { body: page.body });
  const results: DriverResult[] = [];
  try {
    for (const driver of DRIVERS) {
      const r = await benchDriver(driver, forum.url(THREAD));
      results.push(r);
      console.log(
        `${driver}: build ${(r.build / 1000).toFixed(1)} s; poll with nothing new ${r.polls.map((x) => x.toFixed(1)).join(', ')} ms` +
          ` (median ${median(r.polls).toFixed(1)}; CPU median ${median(r.cpu).toFixed(1)}); clock pass ${median(r.clock).toFixed(1)} ms; rss ${r.rssMiB.toFixed(0)} MiB`,
      );
    }
  } finally {
    await forum.close();
  }
  const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'} x${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const rows = results.map(
    (r) =>
      `| ${r.driver} | ${median(r.polls).toFixed(1)} | ${r.polls.map((x) => x.toFixed(1)).join(', ')} ` +
      `| ${median(r.cpu).toFixed(1)} | ${median(r.clock).toFixed(1)} | ${(r.build / 1000).toFixed(1)} | ${r.rssMiB.toFixed(0)} |`,
  );
  const entry = `## poll with nothing new on a ${POSTS.toLocaleString('en')}-post game - ${new Date().toISOString().slice(0, 10)}

Machine: ${machine}.
Setup: \`npm run bench:poll\`: ${Math.ceil(POSTS / PER_PAGE)} XenForo 2 pages on the stand-in forum, stored by one full poll
(build); then ${RUNS} polls (after a warm-up) that find nothing new (the last page answers 304), and the clock's minute pass.

| driver | poll ms, median | poll ms, runs | poll CPU ms, median | clock pass ms | build s | RSS MiB |
| --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
  console.log(entry);
  if (!process.argv.includes('--no-write')) console.log(`written to ${recordBenchmark(root, entry)}`);
}

await main();
