/**
 * `npm run bench:scale` (issue #16): the service polling N games spread over H forum hosts
 * for a few minutes, as in production: the real `votal serve` (PGlite) or `votal worker`
 * processes (PostgreSQL, a scratch database made and dropped), pg-boss, the fetcher's
 * production pause per host (1 s), each game's 5-minute interval. The forums are stand-ins
 * on loopback, one port per host, in a process of their own (scale-forum.ts), with
 * XenForo 2 threads of BENCH_POSTS posts that grow while the benchmark runs.
 *
 * Before the measured window every thread is read once (a first read of every page is not
 * what a running service does each interval) and the games are put in a steady state: the
 * next poll of each is due at a random moment of the coming interval, its last full read
 * (every page, hourly) at a random moment of the past hour. Then the service starts.
 *
 * Measured over the window: polls per second; lateness of each poll due in the window
 * (when pg-boss started it minus when it was due: median, p95, max; a poll still waiting
 * when the service stops counts as late by that much); CPU (% of one core) and resident
 * memory (max and settled: the median of the second half of the window) of each service
 * process, read from /proc; load average of the machine.
 *
 * Environment: BENCH_GAMES (100), BENCH_HOSTS (1), BENCH_MINUTES (6), BENCH_STORE
 * (pglite|pg), BENCH_WORKERS (2, PostgreSQL), BENCH_INTERVAL_SECONDS (300), BENCH_POSTS
 * (200), BENCH_POSTS_PER_HOUR (4 per game), BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_FORUM_PORT (21100: host h on port 21100 + h, below the ephemeral range), BENCH_RECORD=1 (write the entry of
 * today's runs to BENCHMARKS.md; BENCH_RECORD_ONLY=1 writes it without a run). Each run's figures are kept in
 * test-output/bench-scale/*.json; the entry gives the median of the runs of each shape.
 *
 * The set-up (games and first reads: minutes for 1,000 games) is kept for later runs of the
 * same shape: PostgreSQL in a template database `votal_bench_setup_*` (drop it when done),
 * PGlite in test-output/bench-scale/setup/. BENCH_SETUP_CACHE=0 makes a fresh one;
 * BENCH_SETUP_ONLY=1 makes and keeps the set-up, and measures nothing. BENCH_PROFILE=1 writes a
 * CPU profile of each service process to test-output/bench-scale/profiles/.
 */
import { fork, spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { packageRoot } from '../src/config/package-root.js';
import { PageFetcher } from '../src/fetch/page-fetcher.js';
import { pollGame } from '../src/game/poll-game.js';
import { POLL_QUEUE } from '../src/jobs/poller.js';
import { openStore, type Store } from '../src/store/open-store.js';
import { recordBenchmark } from './record.js';
import { PLAYERS, type ForumStart } from './scale-forum.js';

const num = (name: string, fallback: number): number => {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name}=${v}: not a number`);
  return n;
};

const config = {
  games: num('BENCH_GAMES', 100),
  hosts: num('BENCH_HOSTS', 1),
  minutes: num('BENCH_MINUTES', 6),
  store: (process.env.BENCH_STORE ?? 'pglite') as 'pglite' | 'pg',
  workers: num('BENCH_WORKERS', 2),
  intervalSeconds: num('BENCH_INTERVAL_SECONDS', 300),
  posts: num('BENCH_POSTS', 200),
  postsPerHour: num('BENCH_POSTS_PER_HOUR', 4),
  /** Host h listens on forumPort + h: fixed ports let a later run reuse a set-up (the threads' URLs are the same). */
  forumPort: num('BENCH_FORUM_PORT', 21100),
  /** Keep the set-up (the games and their first reads) for later runs of the same shape. */
  setUpCache: process.env.BENCH_SETUP_CACHE !== '0',
};
if (config.store !== 'pglite' && config.store !== 'pg')
  throw new Error(`BENCH_STORE=${String(config.store)}: pglite or pg`);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const root = packageRoot(import.meta.url);
const outDir = join(root, 'test-output', 'bench-scale');
const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();
/** The service keeps running this long after the window, so a poll due at its end has time to start. */
const GRACE_MS = 35_000;
/** From the service's start to the window: start-up, migrations, the reconciler queueing every game. */
const SETTLE_MS = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A time limit that does not keep the process alive once everything else is done. */
const limit = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());
const log = (s: string) => process.stderr.write(`[bench:scale ${new Date().toISOString().slice(11, 19)}] ${s}\n`);

// ---- the forums ----

interface ForumCount {
  requests: number;
  byStatus: Record<string, number>;
  posts: number;
}

interface ForumProcess {
  urls: string[];
  count(): Promise<ForumCount>;
  /** Threads start growing (the measured window). */
  grow(): void;
  stop(): Promise<void>;
  pid: number;
}

async function startForums(postsOf: Record<number, number>): Promise<ForumProcess> {
  const child = fork(join(root, 'dist/bench/scale-forum.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T>(kind: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (m: { kind: string }) => {
        if (m.kind !== kind) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(m as T);
      };
      const onExit = (code: number | null) =>
        reject(new Error(`the bench forum exited (${code}) before answering '${kind}'`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const start: ForumStart = {
    kind: 'start',
    games: config.games,
    hosts: config.hosts,
    posts: config.posts,
    postsPerPage: 25,
    postsPerHour: config.postsPerHour,
    basePort: config.forumPort,
    postsOf,
  };
  const ready = next<{ urls: string[] }>('ready');
  child.send(start);
  const { urls } = await ready;
  return {
    urls,
    pid: child.pid!,
    async count() {
      const answer = next<ForumCount>('count');
      child.send({ kind: 'count' });
      return answer;
    },
    grow() {
      child.send({ kind: 'grow' });
    },
    async stop() {
      const gone = new Promise((r) => child.once('exit', r));
      child.send({ kind: 'stop' });
      await Promise.race([gone, limit(10_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

// ---- the store ----

interface Place {
  /** Opens the store (PGlite: only while the service is not running). */
  open(): Promise<Store>;
  /** The service's environment for this store. */
  env: Record<string, string>;
  /** Whether the games were set up already (from a kept set-up). */
  ready: boolean;
  /** Keeps the set-up for later runs (the store must be closed). */
  keep(): Promise<void>;
  drop(): Promise<void>;
  label: string;
}

/** What a kept set-up depends on. */
const setUpKey = (): string =>
  [config.games, config.hosts, config.posts, config.intervalSeconds, config.forumPort].join('_');

async function adminQuery(text: string): Promise<{ rows: Record<string, unknown>[] }> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return await c.query(text);
  } finally {
    await c.end();
  }
}

async function makePlace(): Promise<Place> {
  if (config.store === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'votal-bench-scale-'));
    const data = join(dir, 'data');
    const kept = join(outDir, 'setup', `pglite_${setUpKey()}`);
    const ready = config.setUpCache && existsSync(kept);
    if (ready) cpSync(kept, data, { recursive: true });
    return {
      label: 'PGlite (embedded, `votal serve`)',
      open: () => openStore({ dataDir: data }),
      env: { VOTAL_DATA_DIR: data },
      ready,
      keep: async () => {
        if (!config.setUpCache) return;
        rmSync(kept, { recursive: true, force: true });
        cpSync(data, kept, { recursive: true });
      },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `votal_bench_scale_${process.pid}`;
  const template = `votal_bench_setup_${setUpKey()}`;
  await adminQuery(`DROP DATABASE IF EXISTS ${name}`);
  const kept =
    config.setUpCache && (await adminQuery(`SELECT 1 FROM pg_database WHERE datname = '${template}'`)).rows.length > 0;
  await adminQuery(kept ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    label: `PostgreSQL (scratch database, ${config.workers} \`votal worker\` processes)`,
    open: () => openStore({ databaseUrl: url.href }),
    env: { DATABASE_URL: url.href },
    ready: kept,
    keep: async () => {
      if (!config.setUpCache) return;
      await adminQuery(`DROP DATABASE IF EXISTS ${template}`);
      await adminQuery(`CREATE DATABASE ${template} TEMPLATE ${name}`);
    },
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => {}),
  };
}

/** Every game, its thread read once (pages in parallel across hosts, no pause: this is set-up, not measured). */
async function setUpGames(store: Store, urls: string[]): Promise<void> {
  const ids: number[] = [];
  for (const url of urls) {
    const game = await store.games.create(
      {
        threadUrl: url,
        engine: 'xenforo2',
        ruleset: 'plurality',
        roster: PLAYERS.map((name) => ({ name })),
        pollIntervalSeconds: config.intervalSeconds,
      },
      'bench',
    );
    ids.push(game.id);
  }
  const source = new PageFetcher({ allowPrivateHosts: true, minIntervalMs: 0, retries: 2, timeoutMs: 60_000 });
  const deps = { store, source, now: () => new Date().toISOString() };
  let next = 0;
  let done = 0;
  const t0 = performance.now();
  const lane = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      const result = await pollGame(deps, id);
      if (result.status !== 'polled')
        throw new Error(`set-up: game ${id} (${urls[ids.indexOf(id)]}): ${result.status} ${result.reason}`);
      done += 1;
      if (done % 100 === 0)
        log(`first reads: ${done}/${ids.length} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, ids.length) }, lane));
}

/** A running service: each game's next poll due in the coming interval, its last full read in the past hour. */
async function steadyState(store: Store, from: Date): Promise<void> {
  await store.sql.query(
    `UPDATE game SET next_poll_at = $1::timestamptz + random() * make_interval(secs => poll_interval_seconds)`,
    [from.toISOString()],
  );
  await store.sql.query(`UPDATE game_poll SET last_full_read_at = now() - random() * interval '60 minutes'`);
  // A database copied from a template has no activity counts, so autovacuum would not analyse
  // it for a long while: without statistics the planner costs a game's posts query in the
  // millions and PostgreSQL JIT-compiles it (over a second of CPU a poll). A service whose
  // tables grew over weeks has been analysed; so is this one.
  if (store.sql.driver === 'pg') await store.sql.query('ANALYZE');
}

// ---- the service ----

interface ServiceProcess {
  child: ChildProcess;
  label: string;
}

function startService(place: Place): ServiceProcess[] {
  const cwd = mkdtempSync(join(tmpdir(), 'votal-bench-cwd-'));
  const env = {
    ...process.env,
    ...place.env,
    VOTAL_ALLOW_PRIVATE_HOSTS: '1',
    VOTAL_LOG_LEVEL: 'warn',
    VOTAL_ADMIN_TOKEN: 'bench-admin-token-0123456789abcdef',
    PORT: '0',
    // BENCH_PROFILE=1: a CPU profile of each service process, written as it exits.
    ...(process.env.BENCH_PROFILE === '1'
      ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${join(outDir, 'profiles')}` }
      : {}),
  };
  const bin = join(root, 'bin/votal.js');
  const one = (args: string[], label: string): ServiceProcess => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let tail = '';
    child.stderr!.on('data', (d: Buffer) => {
      tail = (tail + d.toString('utf8')).slice(-4000);
    });
    child.once('exit', (code, signal) => {
      if (code !== 0 && code !== 143 && signal !== 'SIGTERM')
        log(`${label} exited (${code ?? signal}): ${tail.trim().slice(-1500)}`);
    });
    return { child, label };
  };
  if (config.store === 'pglite') return [one(['serve'], 'votal serve')];
  return Array.from({ length: Math.max(1, config.workers) }, (_, i) => one(['worker'], `votal worker ${i + 1}`));
}

async function stopService(service: ServiceProcess[]): Promise<void> {
  await Promise.all(
    service.map(async ({ child }) => {
      if (child.exitCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([gone, limit(60_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }),
  );
}

// ---- /proc ----

interface ProcSample {
  ticks: number;
  rssKiB: number;
}

function readProc(pid: number): ProcSample | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields after the command name start at field 3 (state): utime is field 14, stime 15.
    const ticks = Number(fields[11]) + Number(fields[12]);
    const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { ticks, rssKiB: rss ? Number(rss[1]) : 0 };
  } catch {
    return null;
  }
}

// ---- one run ----

interface Lateness {
  count: number;
  median: number;
  p95: number;
  max: number;
  over30s: number;
  unstarted: number;
}

export interface ScaleRun {
  config: typeof config;
  date: string;
  startedAt: string;
  windowSeconds: number;
  setUpSeconds: number;
  pollsPerSecond: number;
  pagesPerSecond: number;
  /** Page requests the forums answered in the window, by status (200 read, 304 not modified). */
  pageAnswers: Record<string, number>;
  /** Posts the threads gained in the window. */
  newPosts: number;
  lateness: Lateness;
  failedGames: number;
  processes: { label: string; cpuPercent: number; rssMaxMiB: number; rssSettledMiB: number }[];
  forumCpuPercent: number;
  load: { before: number[]; after: number[] };
  machine: string;
}

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const median = (xs: number[]): number =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

async function lateness(store: Store, from: Date, to: Date, stoppedAt: Date): Promise<Lateness> {
  const columns = 'start_after, started_on';
  const { rows } = await store.sql.query<{ start_after: Date; started_on: Date | null }>(
    `SELECT ${columns} FROM pgboss.job WHERE name = $1 AND start_after >= $2 AND start_after < $3
     UNION ALL
     SELECT ${columns} FROM pgboss.archive WHERE name = $1 AND start_after >= $2 AND start_after < $3`,
    [POLL_QUEUE, from.toISOString(), to.toISOString()],
  );
  let unstarted = 0;
  const late = rows
    .map((r) => {
      if (r.started_on === null) unstarted += 1;
      const started = r.started_on ?? stoppedAt;
      return Math.max(0, started.getTime() - r.start_after.getTime()) / 1000;
    })
    .sort((a, b) => a - b);
  return {
    count: late.length,
    median: percentile(late, 50),
    p95: percentile(late, 95),
    max: late.at(-1) ?? 0,
    over30s: late.filter((s) => s > 30).length,
    unstarted,
  };
}

async function polls(store: Store, from: Date, to: Date): Promise<number> {
  const { rows } = await store.sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (
       SELECT id FROM pgboss.job WHERE name = $1 AND started_on >= $2 AND started_on < $3
       UNION ALL SELECT id FROM pgboss.archive WHERE name = $1 AND started_on >= $2 AND started_on < $3) p`,
    [POLL_QUEUE, from.toISOString(), to.toISOString()],
  );
  return Number(rows[0]!.n);
}

async function run(): Promise<ScaleRun | null> {
  const startedAt = new Date();
  const loadBefore = loadavg();
  log(
    `${config.games} games over ${config.hosts} hosts on ${config.store}, interval ${config.intervalSeconds} s, ` +
      `window ${config.minutes} min (load ${loadBefore.map((l) => l.toFixed(1)).join(' ')})`,
  );
  const place = await makePlace();
  let store = await place.open();
  // A kept set-up may hold threads longer than BENCH_POSTS (set-ups before the growth waited
  // for the window): the forum serves each thread as far as the store has read it.
  const postsOf: Record<number, number> = {};
  if (place.ready) {
    const { rows } = await store.sql.query<{ url: string; n: number }>(
      'SELECT g.thread_url AS url, max(p.number)::int AS n FROM game g JOIN post p ON p.game_id = g.id GROUP BY 1',
    );
    for (const r of rows) {
      const g = /bench-game-(\d+)\./.exec(r.url);
      if (g && r.n > config.posts) postsOf[Number(g[1])] = r.n;
    }
  }
  const forums = await startForums(postsOf).catch(async (error: unknown) => {
    await store.close();
    await place.drop();
    throw error;
  });
  let service: ServiceProcess[] = [];
  try {
    const t0 = performance.now();
    if (place.ready) {
      log('the games and their first reads come from a kept set-up');
    } else {
      await setUpGames(store, forums.urls);
      await store.close();
      await place.keep();
      store = await place.open();
    }
    const setUpSeconds = (performance.now() - t0) / 1000;
    log(`set-up done in ${setUpSeconds.toFixed(0)} s`);
    if (process.env.BENCH_SETUP_ONLY === '1') {
      await store.close();
      log('set-up kept; BENCH_SETUP_ONLY=1: no window');
      return null;
    }
    const from = new Date(Date.now() + SETTLE_MS);
    await steadyState(store, from);
    if (config.store === 'pglite') await store.close();

    service = startService(place);
    const pids = [...service.map((s) => ({ pid: s.child.pid!, label: s.label })), { pid: forums.pid, label: 'forum' }];
    await sleep(Math.max(0, from.getTime() - Date.now()));
    const samples = new Map<number, { at: number; s: ProcSample }[]>(pids.map((p) => [p.pid, []]));
    const sample = () => {
      const at = Date.now();
      for (const { pid } of pids) {
        const s = readProc(pid);
        if (s) samples.get(pid)!.push({ at, s });
      }
    };
    sample();
    forums.grow();
    const countBefore = await forums.count();
    const to = new Date(from.getTime() + config.minutes * 60_000);
    log(`window ${from.toISOString()} .. ${to.toISOString()}`);
    while (Date.now() < to.getTime()) {
      await sleep(Math.min(5_000, to.getTime() - Date.now()));
      sample();
      for (const s of service) if (s.child.exitCode !== null) throw new Error(`${s.label} stopped during the window`);
    }
    const countAfter = await forums.count();
    const loadAfter = loadavg();
    await sleep(GRACE_MS);
    const stoppedAt = new Date();
    await stopService(service);
    service = [];

    const windowSeconds = (to.getTime() - from.getTime()) / 1000;
    const usage = (pid: number) => {
      const xs = samples.get(pid)!;
      const first = xs[0];
      const last = xs.at(-1);
      const cpuPercent =
        first && last && last.at > first.at
          ? (100 * (last.s.ticks - first.s.ticks)) / CLK_TCK / ((last.at - first.at) / 1000)
          : 0;
      const mib = (k: number) => k / 1024;
      const rssMaxMiB = mib(Math.max(0, ...xs.map((x) => x.s.rssKiB)));
      const half = xs.filter((x) => x.at >= from.getTime() + (to.getTime() - from.getTime()) / 2);
      return { cpuPercent, rssMaxMiB, rssSettledMiB: mib(median(half.map((x) => x.s.rssKiB))) };
    };
    if (config.store === 'pglite') store = await place.open();
    const late = await lateness(store, from, to, stoppedAt);
    const pollCount = await polls(store, from, to);
    const failed = await store.sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM game_poll WHERE last_error IS NOT NULL',
    );
    await store.close();
    const result: ScaleRun = {
      config,
      date: startedAt.toISOString().slice(0, 10),
      startedAt: startedAt.toISOString(),
      windowSeconds,
      setUpSeconds,
      pollsPerSecond: pollCount / windowSeconds,
      pagesPerSecond: (countAfter.requests - countBefore.requests) / windowSeconds,
      pageAnswers: Object.fromEntries(
        Object.entries(countAfter.byStatus).map(([k, n]) => [k, n - (countBefore.byStatus[k] ?? 0)]),
      ),
      newPosts: countAfter.posts - countBefore.posts,
      lateness: late,
      failedGames: Number(failed.rows[0]!.n),
      processes: pids.filter((p) => p.label !== 'forum').map((p) => ({ label: p.label, ...usage(p.pid) })),
      forumCpuPercent: usage(forums.pid).cpuPercent,
      load: { before: loadBefore, after: loadAfter },
      machine: `${cpus()[0]?.model ?? 'unknown cpu'} x${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
    };
    return result;
  } finally {
    await stopService(service);
    await forums.stop();
    await place.drop().catch((e: unknown) => log(`could not drop the scratch store: ${String(e)}`));
  }
}

// ---- report ----

const configKey = (c: ScaleRun['config']) =>
  `${c.games}/${c.hosts}/${c.store}/${c.store === 'pg' ? c.workers : 1}/${c.intervalSeconds}`;

function row(runs: ScaleRun[]): string {
  const c = runs[0]!.config;
  const m = (f: (r: ScaleRun) => number, digits = 1) => median(runs.map(f)).toFixed(digits);
  const cpu = (r: ScaleRun) => r.processes.reduce((n, p) => n + p.cpuPercent, 0);
  const cpuMax = (r: ScaleRun) => Math.max(...r.processes.map((p) => p.cpuPercent));
  const rssMax = (r: ScaleRun) => Math.max(...r.processes.map((p) => p.rssMaxMiB));
  const rssSettled = (r: ScaleRun) => Math.max(...r.processes.map((p) => p.rssSettledMiB));
  const store = c.store === 'pg' ? `PostgreSQL, ${c.workers} workers` : 'PGlite';
  return (
    `| ${c.games} | ${c.hosts} | ${store} | ${c.intervalSeconds / 60} min | ${runs.length} | ${m((r) => r.pollsPerSecond, 2)} | ` +
    `${m((r) => r.lateness.median)} / ${m((r) => r.lateness.p95)} / **${m((r) => r.lateness.max)}** | ${m((r) => r.lateness.over30s, 0)} | ` +
    `**${m(cpu)}** (${m(cpuMax)}) | **${m(rssMax, 0)}** / ${m(rssSettled, 0)} | ` +
    `${runs.map((r) => r.load.before[0]!.toFixed(1)).join(', ')} |`
  );
}

function entry(date: string, all: ScaleRun[]): string {
  const groups = new Map<string, ScaleRun[]>();
  for (const r of all) groups.set(configKey(r.config), [...(groups.get(configKey(r.config)) ?? []), r]);
  const rows = [...groups.values()].sort(
    (a, b) =>
      a[0]!.config.games - b[0]!.config.games ||
      a[0]!.config.hosts - b[0]!.config.hosts ||
      a[0]!.config.store.localeCompare(b[0]!.config.store),
  );
  return `## scale: polling N games over H forum hosts - ${date}

Machine: ${all[0]!.machine}. \`npm run bench:scale\`: stand-in forums on loopback (one
port per host), XenForo 2 threads of ${all[0]!.config.posts} posts growing by ${all[0]!.config.postsPerHour} posts per game per hour,
the fetcher's production pause (1 s per host), ${all[0]!.config.minutes}-minute windows after a steady state
(each game's next poll due at a random moment of its interval). Medians over the runs of each row.
Lateness: when the poll started minus when it was due (s). CPU: % of one core, all service
processes together (the busiest one in brackets). RSS: MiB, the largest process (max / settled).

| games | hosts | store | interval | runs | polls/s | late s: median / p95 / **max** | polls > 30 s late | CPU % | RSS MiB max / settled | load (1 min) at start |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.map(row).join('\n')}`;
}

/** Writes the entry of `date`'s kept runs to BENCHMARKS.md (one entry per day, replaced by the day's runs so far). */
function record(date: string): void {
  const runs = readdirSync(outDir)
    .filter((n) => n.endsWith('.json'))
    .map((n) => JSON.parse(readFileSync(join(outDir, n), 'utf8')) as ScaleRun)
    .filter((r) => r.date === date);
  if (runs.length === 0) throw new Error(`no runs of ${date} in ${outDir}`);
  const text = entry(date, runs);
  const bench = join(root, 'BENCHMARKS.md');
  const title = text.split('\n')[0]!;
  const kept = readFileSync(bench, 'utf8')
    .split(/\n(?=## )/)
    .filter((s) => s.split('\n')[0] !== title);
  writeFileSync(bench, `${kept.join('\n').trimEnd()}\n`);
  console.log(`recorded in ${recordBenchmark(root, text)}`);
}

// BENCH_RECORD_ONLY=1: no run, only the entry of today's kept runs.
if (process.env.BENCH_RECORD_ONLY === '1') {
  record(new Date().toISOString().slice(0, 10));
  process.exit(0);
}
const measured = await run();
if (measured === null) process.exit(0);
const result = measured;
mkdirSync(outDir, { recursive: true });
const file = join(
  outDir,
  `${result.startedAt.replace(/[:.]/g, '-')}-${configKey(result.config).replaceAll('/', '-')}.json`,
);
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
const f = (n: number) => n.toFixed(1);
console.log(
  `\n${result.config.games} games over ${result.config.hosts} hosts, ${result.config.store}, interval ${result.config.intervalSeconds} s, ` +
    `window ${result.windowSeconds} s (set-up ${f(result.setUpSeconds)} s)`,
);
console.log(
  `polls/s ${result.pollsPerSecond.toFixed(2)}, pages/s ${result.pagesPerSecond.toFixed(2)} ` +
    `(answers ${JSON.stringify(result.pageAnswers)}), new posts ${result.newPosts}, games with a failed last poll ${result.failedGames}`,
);
const l = result.lateness;
console.log(
  `lateness (s) of ${l.count} polls due in the window: median ${f(l.median)}, p95 ${f(l.p95)}, max ${f(l.max)}; ` +
    `${l.over30s} over 30 s; ${l.unstarted} not started when the service stopped`,
);
console.log('| process | CPU % of one core | RSS max MiB | RSS settled MiB |\n| --- | --- | --- | --- |');
for (const p of result.processes)
  console.log(`| ${p.label} | ${f(p.cpuPercent)} | ${f(p.rssMaxMiB)} | ${f(p.rssSettledMiB)} |`);
console.log(
  `forum process CPU ${f(result.forumCpuPercent)} %; load ${result.load.before.map(f).join(' ')} -> ${result.load.after.map(f).join(' ')}`,
);
console.log(`kept in ${file}`);

if (process.env.BENCH_RECORD === '1') record(result.date);
