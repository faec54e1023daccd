/**
 * `npm run bench:live`: the live page's cost by roster size (the fold, the timeline, the
 * render; BENCH_PAGE_PLAYERS, default 300,1000,3000, each with one vote post per player),
 * then live-update fan-out. Opens N server-sent-event subscribers (default
 * 300) on one game of a real `votal serve` app over loopback, then changes the game's
 * tally R times (default 10) and measures, for each change, the time from the write
 * (the tally saved, NOTIFY on commit, LISTEN, fan-out, SSE frame) to the moment the last
 * subscriber has the event. Prints the numbers and appends them to BENCHMARKS.md.
 *
 * BENCH_SUBSCRIBERS and BENCH_ROUNDS change the sizes; `--no-write` only prints.
 */
import { request, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { serve } from '@hono/node-server';
import type { VotalEnv } from '../src/config/env.js';
import type { Tally } from '../src/model/tally.js';
import { openStore } from '../src/store/open-store.js';
import { createApp } from '../src/web/app.js';
import { packageRoot } from '../src/config/package-root.js';
import { recordBenchmark } from './record.js';
import { readPost } from '../src/parse/read-post.js';
import { loadRuleset } from '../src/rules/load-ruleset.js';
import { countVotes } from '../src/tally/count.js';
import type { TallyEvent } from '../src/tally/log.js';
import { LiveBody } from '../src/web/live/live-page.js';
import { buildTimeline } from '../src/web/ui/timeline.js';

/** The live page of a game of `players`, each posting one vote: ms for the fold, the timeline, the render. */
async function livePageCost(
  players: number,
): Promise<{ players: number; fold: number; timeline: number; render: number }> {
  const ruleset = loadRuleset('plurality');
  const roster = Array.from({ length: players }, (_, i) => ({
    name: `Player${i}`,
    aliases: [],
    formerNames: [],
    alive: true,
  }));
  const events: TallyEvent[] = [];
  for (let i = 1; i <= players; i++) {
    const body = [
      { t: 'bold' as const, children: [{ t: 'text' as const, text: `Vote: Player${(i * 7 + 3) % players}` }] },
    ];
    events.push({
      kind: 'post',
      post: i,
      author: `Player${i - 1}`,
      time: null,
      permalink: `https://forum.example/p/${i}`,
      reading: readPost({ body, edit: null }, roster, ruleset),
    });
  }
  let t = performance.now();
  const tally = countVotes({ ruleset, roster, events, view: 'public' });
  const fold = performance.now() - t;
  t = performance.now();
  const timeline = buildTimeline({ ruleset, roster, events, view: 'public', posts: events.map((_, i) => i + 1) });
  const line = performance.now() - t;
  t = performance.now();
  const freshness = {
    countedAt: null,
    lastOkAt: null,
    lastPolledAt: null,
    stale: false,
    error: null,
    errorAt: null,
    failedPolls: 0,
    reason: null,
  };
  String(
    await LiveBody({
      slug: 'bench',
      extras: { freshness, dead: [], version: 'v' },
      data: {
        game: {} as never,
        title: 'bench',
        tally,
        timeline,
        deadline: null,
        timeZone: null,
        tallyId: 1,
        updatedAt: null,
        version: 'v',
      },
    }),
  );
  return { players, fold, timeline: line, render: performance.now() - t };
}

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 300);
const PAGE_PLAYERS = (process.env.BENCH_PAGE_PLAYERS ?? '300,1000,3000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const root = packageRoot(import.meta.url);

const env: VotalEnv = {
  databaseUrl: undefined,
  dataDir: 'memory://',
  adminToken: 'bench-admin-token-0123456789',
  secretKey: undefined,
  port: 0,
  host: '127.0.0.1',
  allowPrivateHosts: true,
  logLevel: 'silent',
};

function tally(round: number): Tally {
  return {
    engine: 'xenforo2',
    ruleset: 'plurality',
    day: 1,
    postsRead: 10 + round,
    asOfPost: 10 + round,
    living: 3,
    players: ['Alice', 'Bob', 'Carol'],
    threshold: { kind: 'plurality', votes: null },
    wagons: [
      {
        target: 'Alice',
        votes: 1,
        penalty: 0,
        total: 1,
        voters: [{ player: 'Bob', post: 2 + round, weight: 1, permalink: null }],
        toThreshold: null,
      },
    ],
    notVoting: ['Alice', 'Carol'],
    violations: [],
    flags: [],
    outcome: { status: 'open', eliminated: [], decidedAt: null, leaders: ['Alice'] },
  };
}

interface Subscriber {
  /** Resolves with the arrival time (performance.now) of the next `tally` event. */
  next(): Promise<number>;
  close(): void;
}

/** One EventSource-like client on a raw socket: parses `event:` lines as they arrive. */
function subscribe(url: string, agent: Agent): Promise<Subscriber> {
  return new Promise((resolveSub, reject) => {
    const waiting: ((t: number) => void)[] = [];
    const arrived: number[] = [];
    let buffer = '';
    let helloSeen = false;
    const req = request(url, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`HTTP ${res.statusCode} for ${url}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: ?(.*)$/m.exec(frame)?.[1];
          if (event === 'hello' && !helloSeen) {
            helloSeen = true;
            resolveSub({
              next: () =>
                new Promise<number>((r) => {
                  const t = arrived.shift();
                  if (t !== undefined) r(t);
                  else waiting.push(r);
                }),
              close: () => req.destroy(),
            });
          } else if (event === 'tally') {
            const w = waiting.shift();
            if (w) w(at);
            else arrived.push(at);
          }
        }
      });
    });
    req.on('error', (e) => {
      if (!helloSeen) reject(e);
    });
    req.end();
  });
}

const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

await livePageCost(100); // warm-up (JIT)
const pages: Awaited<ReturnType<typeof livePageCost>>[] = [];
for (const n of PAGE_PLAYERS) {
  const cost = await livePageCost(n);
  pages.push(cost);
  console.log(
    `live page, ${n} players: fold ${cost.fold.toFixed(0)} ms, timeline ${cost.timeline.toFixed(0)} ms, render ${cost.render.toFixed(0)} ms`,
  );
}

const store = await openStore({ dataDir: 'memory://' });
const app = createApp({
  store,
  env,
  poller: { pollNow: async () => {} },
  rateLimit: false,
  live: { perClient: SUBSCRIBERS + 10, heartbeatMs: 60_000 },
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
await new Promise<void>((r) => server.once('listening', () => r()));
const { port } = server.address() as AddressInfo;
const game = await store.games.create(
  {
    threadUrl: 'http://127.0.0.1:9/threads/bench.1/',
    engine: 'xenforo2',
    ruleset: 'plurality',
    roster: [{ name: 'Alice' }, { name: 'Bob' }, { name: 'Carol' }],
  },
  'bench',
);
await store.tallies.save(game.id, tally(0));

const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
const url = `http://127.0.0.1:${port}/g/${game.slug}/events`;
const t0 = performance.now();
const subs: Subscriber[] = [];
for (let i = 0; i < SUBSCRIBERS; i += 50) {
  subs.push(...(await Promise.all(Array.from({ length: Math.min(50, SUBSCRIBERS - i) }, () => subscribe(url, agent)))));
}
const connectMs = performance.now() - t0;

const lastMs: number[] = [];
const medianMs: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const arrivals = subs.map((s) => s.next());
  const start = performance.now();
  await store.tallies.save(game.id, tally(round));
  const times = (await Promise.all(arrivals)).map((t) => t - start);
  lastMs.push(Math.max(...times));
  medianMs.push(percentile(times, 50));
  await new Promise((r) => setTimeout(r, 100));
}
for (const s of subs) s.close();
await app.shutdown();
server.close();
await store.close();

const machine = `${cpus()[0]?.model ?? 'unknown cpu'} x${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, PGlite (embedded)`;
const date = new Date().toISOString().slice(0, 10);
const f = (n: number) => n.toFixed(1);
console.log(`subscribers: ${SUBSCRIBERS} on one game (connected in ${f(connectMs)} ms), ${ROUNDS} tally changes`);
console.log(`change -> last subscriber: median ${f(percentile(lastMs, 50))} ms, worst ${f(Math.max(...lastMs))} ms`);
console.log(`change -> median subscriber: ${f(percentile(medianMs, 50))} ms`);
console.log(`rounds (last subscriber, ms): ${lastMs.map(f).join(', ')}`);

if (!process.argv.includes('--no-write')) {
  const entry = `## live updates: SSE fan-out to ${SUBSCRIBERS} subscribers - ${date}

Machine: ${machine}.
Setup: \`votal serve\`'s app on 127.0.0.1, ${SUBSCRIBERS} server-sent-event streams on one game's \`/g/:slug/events\`, ${ROUNDS} tally changes (\`tallies.save\` -> NOTIFY on commit -> LISTEN -> fan-out -> SSE frame read by every client).

| measure | ms |
| --- | --- |
| change -> last subscriber, median of ${ROUNDS} | ${f(percentile(lastMs, 50))} |
| change -> last subscriber, worst | ${f(Math.max(...lastMs))} |
| change -> median subscriber, median | ${f(percentile(medianMs, 50))} |
| opening the ${SUBSCRIBERS} streams | ${f(connectMs)} |

Live page (plurality, one vote post per player; rendered once per version, then served from the cache):

| players | fold ms | timeline ms | render ms | total ms |
| --- | --- | --- | --- | --- |
${pages.map((p) => `| ${p.players} | ${f(p.fold)} | ${f(p.timeline)} | ${f(p.render)} | ${f(p.fold + p.timeline + p.render)} |`).join('\n')}
`;
  console.log(`recorded in ${recordBenchmark(root, entry)}`);
}
