import type PgBoss from 'pg-boss';
import type { SiteProfile } from '../../scrapers/site-profile.js';
import { pollSettings } from '../game/poll-settings.js';
import { logOf, type Log } from '../log/log-port.js';
import { pollGame, type PollDeps, type PollResult } from '../game/poll-game.js';
import type { Store } from '../store/open-store.js';
import type { PageRenderer } from '../browser/page-renderer.js';
import type { PageSource } from '../thread/read-thread.js';
import type { Validators } from '../fetch/fetched-page.js';
import {
  createBoss,
  POLL_JOB_EXPIRE_SECONDS,
  POLL_QUEUE,
  startPollQueue,
  type PollQueue,
  type TakenPoll,
} from './boss.js';
import { runLanes, type LaneRunner, type LaneWork } from './lanes-runner.js';
import { nextPollDelay } from './schedule.js';

/**
 * The poller: pg-boss 10 jobs, one job = "poll thread T once" (`pollGame`), on a
 * `stately` queue keyed by game, so a game has at most one queued and one running poll.
 * After each poll the worker queues the game's next poll itself (`startAfter`, with
 * jitter; faster near a deadline; backing off after failures). Paused and finished games
 * get no next poll; a reconciler (on start, then every 15 s) queues a poll for every
 * active game that has none (new, resumed, or left behind by a process that died).
 *
 * Throughput scales with hosts: one poll per forum host at a time across every process
 * sharing the queue (a forum gets one request at a time, whoever asks), and as many polls
 * at once as there are hosts (`concurrency`, VOTAL_POLL_CONCURRENCY). A take skips jobs
 * whose host has a poll job active in any process; takes run one at a time under an
 * advisory lock, so two processes never take the same host at the same instant. A job
 * stays active until its host's pause (the reading's page lane) has passed after its
 * poll, so the next poll of that host, in any process, keeps the pause too; the slot is
 * free for other hosts meanwhile. On PostgreSQL a job's end is announced to every process
 * (NOTIFY), so each has the same chance at the host's next poll and none keeps a host to
 * itself. Jobs are taken one after the other with no pause while due ones are queued; an
 * idle process asks every `pollingIntervalSeconds`.
 *
 * A crashed poll does not stall its game: each poll holds its game's lease (`game_poll`),
 * renewed every third of `leaseMs` while it works. A running job whose lease has lapsed
 * belongs to a process that is gone; the reconciler (and "poll now") fails it and the
 * game is polled again. PGlite: one process, so a running job that is not this
 * process's own is left over from a process that died.
 *
 * PostgreSQL: several processes (`votal worker`) share the queue; `FOR UPDATE SKIP LOCKED`
 * hands each job to one of them, and the game's lease keeps a thread from being read
 * twice at once even when a job outlives its expiry.
 */
export interface Poller {
  start(): Promise<void>;
  stop(): Promise<void>;
  pollNow(gameId: string): Promise<void>;
}

export interface PollerOptions {
  store: Store;
  /** Reads every thread, unless `siteFor` is given. */
  source?: PageSource;
  /** Reads each game's thread its site's way (the service: site-readings.ts). */
  siteFor?: PollDeps['siteFor'];
  /** The poll clock (ISO 8601). Default: the system clock. */
  now?: () => string;
  /** Polls this process runs at once. Default: one per forum host among the active games (at least 1, at most 16). */
  concurrency?: number;
  log?: Partial<Log>;
  /**
   * PostgreSQL: pg-boss connects with this URL (its own small pool); the store's database,
   * as jobs are taken through the store's connection. Default: DATABASE_URL when the store
   * is on PostgreSQL; without one pg-boss runs through the store's pool.
   */
  databaseUrl?: string;
  /** pg-boss's schema. Default `pgboss`. */
  schema?: string;
  /** How often an idle worker asks the queue for due polls (seconds). Default 2. */
  pollingIntervalSeconds?: number;
  /** How often the reconciler looks for active games without a live poll (ms). Default 15 s. */
  reconcileEveryMs?: number;
  /** A poll's lease on its game (ms, database time), renewed every third of it. Default 30 s. */
  leaseMs?: number;
  /** Jitter source, [0, 1). */
  random?: () => number;
  /** The shortest wait between two polls of a game (ms). Default 5 s. */
  minDelayMs?: number;
  /** The thread's site profile. */
  profileFor?: (threadUrl: string) => SiteProfile | undefined;
  renderer?: PageRenderer;
  /** Hears every poll's result (the web layer's live updates, tests). */
  onPolled?: (result: PollResult) => void;
}

export { POLL_JOB_EXPIRE_SECONDS, POLL_QUEUE };
/** A poll's lease on its game: a worker that stops renewing it for this long is gone. */
export const POLL_LEASE_MS = 30_000;
/** How often active games without a live poll are looked for (dead workers among them). */
export const RECONCILE_EVERY_MS = 15_000;
export const POLLING_INTERVAL_SECONDS = 2;
/** The default number of polls at once never exceeds this, however many hosts there are. */
const MAX_DEFAULT_CONCURRENCY = 16;
/** PostgreSQL: a poll job ended, so its host is free (payload: the queue's schema). */
const HOST_FREE_CHANNEL = 'votal_poll_host_free';

/** The forum host a game's polls read (`host:port`), '' when the URL does not parse. */
function pollHost(threadUrl: string): string {
  try {
    return new URL(threadUrl).host;
  } catch {
    return '';
  }
}

/** What a poller is made of, fixed at creation. */
interface Setup {
  opts: PollerOptions;
  store: Store;
  log: Log;
  now: () => string;
  schema: string;
  databaseUrl: string | undefined;
  leaseMs: number;
  idleMs: number;
  deps: PollDeps;
}

/** A started poller: its queue, its lanes (the scheduling, lanes.ts) and its timers. */
interface Live {
  boss: PgBoss;
  queue: PollQueue;
  /** When this poller started (database time): on PGlite a job running since before then is a dead process's. */
  bornAt: Date;
  lanes: LaneRunner | null;
  stopping: boolean;
  /** Forum hosts among the active games (the default concurrency). */
  hostCount: number;
  /** PostgreSQL: stops hearing of freed hosts. */
  unlisten: (() => Promise<void>) | null;
  reconciler: NodeJS.Timeout | null;
}

/** A taken job in its lane. */
type LaneJob = TakenPoll & { host: string };

export function createPoller(opts: PollerOptions): Poller {
  const setup = setupOf(opts);
  let live: Live | null = null;
  let starting: Promise<void> | null = null;
  return {
    start() {
      starting ??= startPoller(setup).then((l) => {
        live = l;
      });
      return starting;
    },
    async stop() {
      if (!starting) return;
      await starting.catch(() => {});
      if (live) await stopPoller(live);
      live = null;
      starting = null;
    },
    async pollNow(gameId) {
      if (!live || live.stopping) throw new Error('the poller is not running: call start() first');
      const id = Number(gameId);
      if (!Number.isSafeInteger(id)) throw new TypeError(`not a game id: ${gameId}`);
      await pollNow(setup, live, id);
    },
  };
}

function setupOf(opts: PollerOptions): Setup {
  const { store } = opts;
  const now = opts.now ?? (() => new Date().toISOString());
  const leaseMs = opts.leaseMs ?? POLL_LEASE_MS;
  const source = opts.source ?? (opts.siteFor ? null : undefined);
  if (source === undefined) throw new TypeError('createPoller needs a page source or siteFor');
  return {
    opts,
    store,
    log: logOf(opts.log),
    now,
    schema: opts.schema ?? 'pgboss',
    databaseUrl: opts.databaseUrl ?? (store.sql.driver === 'pg' ? process.env['DATABASE_URL'] : undefined),
    leaseMs,
    idleMs: (opts.pollingIntervalSeconds ?? POLLING_INTERVAL_SECONDS) * 1000,
    deps: {
      store,
      source: source ?? { get: (url) => Promise.reject(new Error(`no page source for ${url}`)) },
      now,
      log: opts.log,
      profileFor: opts.profileFor,
      renderer: opts.renderer,
      leaseMs,
      siteFor: opts.siteFor,
    },
  };
}

/** pg-boss set up (one process at a time), the queue reconciled, then the lanes run. */
async function startPoller(setup: Setup): Promise<Live> {
  const { store, opts, schema, log } = setup;
  const boss = createBoss({
    sql: store.sql,
    databaseUrl: setup.databaseUrl,
    schema,
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? POLLING_INTERVAL_SECONDS,
  });
  boss.on('error', (error: Error) => log.error({ err: error.message }, 'pg-boss error'));
  const queue = await startPollQueue(boss, store.sql, schema);
  const live: Live = {
    boss,
    queue,
    bornAt: await queue.now(),
    lanes: null,
    stopping: false,
    hostCount: 1,
    unlisten: null,
    reconciler: null,
  };
  await reconcile(setup, live);
  if (store.sql.driver === 'pg') live.unlisten = await listenForFreedHosts(setup, live);
  live.lanes = runLanes({ limit: limitOf(setup, live), idleMs: setup.idleMs, work: laneWork(setup, live) });
  live.reconciler = setInterval(() => void reconcile(setup, live), opts.reconcileEveryMs ?? RECONCILE_EVERY_MS);
  live.reconciler.unref();
  return live;
}

/** No more takes; rests end at once; running polls finish; then pg-boss stops. */
async function stopPoller(live: Live): Promise<void> {
  live.stopping = true;
  if (live.reconciler) clearInterval(live.reconciler);
  live.reconciler = null;
  await live.lanes?.stop();
  await live.unlisten?.().catch(() => {});
  live.unlisten = null;
  await live.boss.stop({ graceful: true, wait: true, timeout: 30_000 });
}

const wake = (live: Live) => live.lanes?.wake();

function limitOf(setup: Setup, live: Live): number {
  return Math.max(1, setup.opts.concurrency ?? Math.min(MAX_DEFAULT_CONCURRENCY, live.hostCount));
}

/** PostgreSQL: every process hears of a freed host at once, so each has the same chance at its next poll. */
async function listenForFreedHosts(setup: Setup, live: Live): Promise<(() => Promise<void>) | null> {
  return setup.store.sql
    .listen(HOST_FREE_CHANNEL, (payload) => {
      if (payload === setup.schema) wake(live);
    })
    .catch((error: unknown) => {
      setup.log.warn({ err: String(error) }, 'cannot hear of freed hosts: other processes take them later');
      return null;
    });
}

/** What the lanes do with a job: take it from the queue, poll, rest, complete or fail it. */
function laneWork(setup: Setup, live: Live): LaneWork<LaneJob> {
  const { queue } = live;
  return {
    async take(busyHosts) {
      try {
        const taken = await queue.take(busyHosts);
        return taken ? { ...taken, host: taken.data.host ?? '' } : null;
      } catch (error) {
        if (!live.stopping) setup.log.warn({ err: String(error) }, 'could not take a poll from the queue');
        return null;
      }
    },
    async poll(job) {
      const reading = readingOf(setup);
      await logged(setup, job, handle(setup, live, job, reading.deps));
      return reading.pauseMs();
    },
    resting: (job, ms) => queue.markResting(job.id, ms),
    complete: (job) => logged(setup, job, queue.complete(job.id)),
    fail: (job, reason) => queue.fail(job.id, reason),
    // Every process hears of the freed host at once (this one too), so none keeps a host to itself
    // by taking its next poll first.
    freed: async () => {
      if (live.unlisten) await setup.store.sql.notify(HOST_FREE_CHANNEL, setup.schema).catch(() => wake(live));
      else wake(live);
    },
  };
}

async function logged(setup: Setup, job: LaneJob, work: Promise<void>): Promise<void> {
  try {
    await work;
  } catch (error) {
    setup.log.error({ gameId: job.data.gameId, err: String(error) }, 'poll job failed');
    throw error;
  }
}

/**
 * One poll's reading: the poll's deps, whose page source notes the source that read the
 * thread (the service: the site's reading), for the host's pause after the poll. A poll
 * that read nothing (skipped, busy) owes its host no pause.
 */
function readingOf(setup: Setup): { deps: PollDeps; pauseMs: () => number } {
  const { deps } = setup;
  let last: { source: PageSource; url: string } | null = null;
  const noting = (upstream: PageSource): PageSource => ({
    get(url: string, validators?: Validators) {
      last = { source: upstream, url };
      return upstream.get(url, validators);
    },
  });
  const siteFor = setup.opts.siteFor;
  return {
    deps: {
      ...deps,
      source: noting(deps.source),
      siteFor: siteFor
        ? async (game) => {
            const site = await siteFor(game);
            return { ...site, source: noting(site.source) };
          }
        : undefined,
    },
    pauseMs: () => (last ? (last.source.pauseFor?.(last.url) ?? 0) : 0),
  };
}

/** One job: poll the game once, then queue its next poll. Never throws (a failure is the game's, not the job's). */
async function handle(setup: Setup, live: Live, job: LaneJob, pollDeps: PollDeps): Promise<void> {
  const { store, log } = setup;
  const gameId = Number(job.data.gameId);
  let result: PollResult;
  let startedAt: string | null = null;
  try {
    // Noted before the read: the dashboard tells a late poll from one that runs long.
    startedAt = await store.polls.started(gameId, job.dueAt);
    result = await pollGame(pollDeps, gameId);
  } catch (error) {
    // The store itself failed (a database restart): try again later.
    log.error({ gameId, err: String(error) }, 'poll job failed');
    if (!live.stopping) await schedule(setup, live, gameId, job.host, 60_000).catch(() => {});
    return;
  }
  try {
    setup.opts.onPolled?.(result);
  } catch (error) {
    log.warn({ gameId, err: String(error) }, 'onPolled threw');
  }
  if (result.status === 'skipped') {
    // Paused, finished or gone: no next poll (the reconciler picks a resumed game up again).
    await store.games.setNextPoll(gameId, null).catch(() => {});
    return;
  }
  try {
    await schedule(setup, live, gameId, pollHost(result.game!.threadUrl), nextDelayOf(setup, result));
    // "Poll now" while this poll ran: the next one is due at once.
    if (startedAt && (await store.polls.requestedSince(gameId, startedAt)) && (await live.queue.hurry(gameId)))
      wake(live);
  } catch (error) {
    log.error({ gameId, err: String(error) }, 'could not queue the next poll');
  }
}

/** When the game is polled next (schedule.ts), from what this poll found. */
function nextDelayOf(setup: Setup, result: PollResult): number {
  const { opts } = setup;
  const game = result.game!;
  const settings = safeSettings(game.settings);
  return nextPollDelay({
    now: Date.parse(setup.now()),
    intervalSeconds: game.pollIntervalSeconds,
    upcoming: result.upcoming,
    nearMinutes: settings?.nearDeadline.minutes,
    nearIntervalSeconds: settings?.nearDeadline.intervalSeconds,
    errorsInRow: result.state?.errorsInRow ?? 0,
    retryAfterMs: result.error?.retryAfterMs ?? null,
    ...(opts.random ? { random: opts.random } : {}),
    ...(opts.minDelayMs !== undefined ? { minDelayMs: opts.minDelayMs } : {}),
  });
}

/** Queues the game's next poll `delayMs` from now (a no-op when one is queued already). */
async function schedule(setup: Setup, live: Live, gameId: number, host: string, delayMs: number) {
  const id = await live.queue.send(gameId, host, delayMs);
  await setup.store.games.setNextPoll(gameId, new Date(Date.now() + delayMs)).catch(() => {});
  if (delayMs <= 0) wake(live);
  return id;
}

/**
 * Fails the running jobs whose worker is gone, so their games can be polled again: on
 * PostgreSQL those whose game lease lapsed (and that started longer ago than a lease, so
 * one that has not claimed it yet is left alone); on PGlite (one process) every one
 * started before this poller did. Returns the games freed.
 */
async function reapDead(setup: Setup, live: Live, gameId?: number): Promise<number[]> {
  const { store, log } = setup;
  const running = await live.queue.running(setup.leaseMs, live.bornAt, gameId);
  const others = running.filter((r) => !live.lanes?.holds(r.id));
  if (others.length === 0) return [];
  let dead = others.filter((r) => r.before);
  if (store.sql.driver === 'pg') {
    const leased = await store.polls.leased(others.map((r) => r.gameId));
    // A job resting for its host's pause has given its lease up: its rest is its sign of life.
    dead = others.filter((r) => r.old && !r.resting && !leased.has(r.gameId));
  }
  for (const r of dead) await live.queue.fail(r.id, 'the worker polling this game is gone (its lease lapsed)');
  for (const r of dead)
    log.warn({ gameId: r.gameId, job: r.id }, 'a poll whose worker is gone was failed; polling the game again');
  return dead.map((r) => r.gameId);
}

/** Dead polls failed; every active game with no poll queued or running gets one (at its next_poll_at, or now). */
async function reconcile(setup: Setup, live: Live): Promise<void> {
  if (live.stopping) return;
  const { store, log } = setup;
  try {
    await reapDead(setup, live);
    const queued = await live.queue.queuedGames();
    const active = await store.games.list({ status: 'active', polled: true });
    live.hostCount = new Set(active.map((g) => pollHost(g.threadUrl))).size;
    live.lanes?.setLimit(limitOf(setup, live));
    for (const game of active) {
      if (queued.has(String(game.id))) continue;
      const at = game.nextPollAt ? Date.parse(game.nextPollAt) - Date.now() : 0;
      const id = await schedule(setup, live, game.id, pollHost(game.threadUrl), Math.max(0, at));
      if (id) log.info({ gameId: game.id }, 'queued a poll for a game that had none');
    }
  } catch (error) {
    log.warn({ err: String(error) }, 'reconciling the poll queue failed');
  }
}

/** Records the request; a poll left running by a dead worker is failed first (it would swallow it). */
async function pollNow(setup: Setup, live: Live, gameId: number): Promise<void> {
  await setup.store.polls.requestPoll(gameId);
  await reapDead(setup, live, gameId);
  if (await live.queue.hurry(gameId)) return wake(live);
  // Running now: it sees the request when it queues its next poll.
  if (await live.queue.isRunning(gameId)) return;
  const game = await setup.store.games.get(gameId);
  await schedule(setup, live, gameId, pollHost(game?.threadUrl ?? ''), 0);
}

function safeSettings(settings: Record<string, unknown>) {
  try {
    return pollSettings(settings);
  } catch {
    return null;
  }
}
