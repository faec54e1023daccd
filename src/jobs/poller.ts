import type PgBoss from 'pg-boss';
import type { SiteProfile } from '../../scrapers/site-profile.js';
import { pollSettings } from '../game/game-settings.js';
import { logOf, type Log } from '../game/log.js';
import { pollGame, type PollDeps, type PollResult } from '../game/poll-game.js';
import type { Store } from '../store/open-store.js';
import type { PageRenderer } from '../thread/page-renderer.js';
import type { PageSource } from '../thread/read-thread.js';
import { createBoss, setUpSerialised } from './boss.js';
import { nextPollDelay } from './schedule.js';

/**
 * The poller: pg-boss 10 jobs, one job = "poll thread T once" (`pollGame`), on a
 * `stately` queue keyed by game, so a game has at most one queued and one running poll.
 * After each poll the worker queues the game's next poll itself (`startAfter`, with
 * jitter; faster near a deadline; backing off after failures). Paused and finished games
 * get no next poll; a reconciler (on start, then every minute) queues a poll for every
 * active game that has none (new, resumed, or left behind by a process that died).
 *
 * PostgreSQL: several processes (`votal worker`) share the queue; `FOR UPDATE SKIP LOCKED`
 * hands each job to one of them, and each poll also holds its game's lease
 * (`game_poll`), so a thread is never read twice at once even when a job outlives its
 * expiry. PGlite: everything runs in this one process.
 */
export interface Poller {
  start(): Promise<void>;
  stop(): Promise<void>;
  pollNow(gameId: string): Promise<void>;
}

export interface PollerOptions {
  store: Store;
  source: PageSource;
  /** The poll clock (ISO 8601). Default: the system clock. */
  now?: () => string;
  /** Polls this process runs at once. Default 2. */
  concurrency?: number;
  log?: Partial<Log>;
  /**
   * PostgreSQL: pg-boss connects with this URL (its own small pool). Default: DATABASE_URL
   * when the store is on PostgreSQL; without one pg-boss runs through the store's pool.
   */
  databaseUrl?: string;
  /** pg-boss's schema. Default `pgboss`. */
  schema?: string;
  /** How often an idle worker asks the queue for due polls (seconds, ≥ 0.5). Default 2. */
  pollingIntervalSeconds?: number;
  /** How often the reconciler looks for active games without a queued poll (ms). Default 60 s. */
  reconcileEveryMs?: number;
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

/** The queue's name (pg-boss: letters, digits, -, _, ., /). */
export const POLL_QUEUE = 'votal.poll-thread';
/** A poll job running longer than this is failed by pg-boss's maintenance; the game lease still guards the thread. */
export const POLL_JOB_EXPIRE_SECONDS = 15 * 60;

interface PollJob {
  gameId: string;
}

export function createPoller(opts: PollerOptions): Poller {
  const { store } = opts;
  const log = logOf(opts.log);
  const now = opts.now ?? (() => new Date().toISOString());
  const concurrency = Math.max(1, opts.concurrency ?? 2);
  const schema = opts.schema ?? 'pgboss';
  const databaseUrl = opts.databaseUrl ?? (store.sql.driver === 'pg' ? process.env['DATABASE_URL'] : undefined);
  const deps: PollDeps = {
    store, source: opts.source, now, log: opts.log, profileFor: opts.profileFor, renderer: opts.renderer,
  };

  let boss: PgBoss | null = null;
  let starting: Promise<void> | null = null;
  let stopping = false;
  let reconciler: NodeJS.Timeout | null = null;
  const inFlight = new Set<Promise<unknown>>();

  const key = (gameId: number | string) => String(Number(gameId));
  const bossDb = () => boss!.getDb();

  /** Queues the game's next poll `delayMs` from now (a no-op when one is queued already). */
  const schedule = async (gameId: number, delayMs: number): Promise<string | null> => {
    const seconds = Math.max(0, delayMs / 1000);
    const id = await boss!.send(POLL_QUEUE, { gameId: key(gameId) } satisfies PollJob, {
      singletonKey: key(gameId),
      ...(seconds > 0 ? { startAfter: seconds } : {}),
    });
    await store.games.setNextPoll(gameId, new Date(Date.now() + delayMs)).catch(() => {});
    return id;
  };

  /** Makes a queued (not running) poll of the game due now; false when none is queued. */
  const hurry = async (gameId: number): Promise<boolean> => {
    const { rows } = await bossDb().executeSql(
      `UPDATE ${schema}.job SET start_after = now()
       WHERE name = $1 AND singleton_key = $2 AND state IN ('created', 'retry') AND start_after > now()
       RETURNING id`,
      [POLL_QUEUE, key(gameId)],
    );
    if (rows.length > 0) return true;
    const due = await bossDb().executeSql(
      `SELECT 1 FROM ${schema}.job WHERE name = $1 AND singleton_key = $2 AND state IN ('created', 'retry')`,
      [POLL_QUEUE, key(gameId)],
    );
    return due.rows.length > 0;
  };

  const running = async (gameId: number): Promise<boolean> => {
    const { rows } = await bossDb().executeSql(
      `SELECT 1 FROM ${schema}.job WHERE name = $1 AND singleton_key = $2 AND state = 'active'`,
      [POLL_QUEUE, key(gameId)],
    );
    return rows.length > 0;
  };

  const work = async (jobs: PgBoss.Job<PollJob>[]): Promise<void> => {
    for (const job of jobs) {
      const run = handle(job);
      inFlight.add(run);
      try {
        await run;
      } finally {
        inFlight.delete(run);
      }
    }
  };

  /** One job: poll the game once, then queue its next poll. Never throws (a failure is the game's, not the job's). */
  const handle = async (job: PgBoss.Job<PollJob>): Promise<void> => {
    const gameId = Number(job.data.gameId);
    let result: PollResult;
    let startedAt: string | null = null;
    try {
      startedAt = (await store.sql.query<{ at: Date }>('SELECT now() AS at')).rows[0]!.at.toISOString();
      result = await pollGame(deps, gameId);
    } catch (error) {
      // The store itself failed (a database restart): try again later.
      log.error({ gameId, err: String(error) }, 'poll job failed');
      if (!stopping) await schedule(gameId, 60_000).catch(() => {});
      return;
    }
    try {
      opts.onPolled?.(result);
    } catch (error) {
      log.warn({ gameId, err: String(error) }, 'onPolled threw');
    }
    if (result.status === 'skipped') {
      // Paused, finished or gone: no next poll (the reconciler picks a resumed game up again).
      await store.games.setNextPoll(gameId, null).catch(() => {});
      return;
    }
    try {
      const game = result.game!;
      const settings = safeSettings(game.settings);
      const delay = nextPollDelay({
        now: Date.parse(now()),
        intervalSeconds: game.pollIntervalSeconds,
        upcoming: result.upcoming,
        nearMinutes: settings?.nearDeadline.minutes,
        nearIntervalSeconds: settings?.nearDeadline.intervalSeconds,
        errorsInRow: result.state?.errorsInRow ?? 0,
        retryAfterMs: result.error?.retryAfterMs ?? null,
        ...(opts.random ? { random: opts.random } : {}),
        ...(opts.minDelayMs !== undefined ? { minDelayMs: opts.minDelayMs } : {}),
      });
      await schedule(gameId, delay);
      // "Poll now" while this poll ran: the next one is due at once.
      if (startedAt && (await store.polls.requestedSince(gameId, startedAt))) await hurry(gameId);
    } catch (error) {
      log.error({ gameId, err: String(error) }, 'could not queue the next poll');
    }
  };

  /** Every active game with no poll queued or running gets one (at its next_poll_at, or now). */
  const reconcile = async (): Promise<void> => {
    if (!boss || stopping) return;
    try {
      const { rows } = await bossDb().executeSql(
        `SELECT DISTINCT singleton_key FROM ${schema}.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`,
        [POLL_QUEUE],
      );
      const queued = new Set(rows.map((r: { singleton_key: string }) => r.singleton_key));
      for (const game of await store.games.list({ status: 'active' })) {
        if (queued.has(key(game.id))) continue;
        const at = game.nextPollAt ? Date.parse(game.nextPollAt) - Date.now() : 0;
        const id = await schedule(game.id, Math.max(0, at));
        if (id) log.info({ gameId: game.id }, 'queued a poll for a game that had none');
      }
    } catch (error) {
      log.warn({ err: String(error) }, 'reconciling the poll queue failed');
    }
  };

  const poller: Poller = {
    start() {
      starting ??= (async () => {
        stopping = false;
        const b = createBoss({
          sql: store.sql, databaseUrl, schema, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2,
        });
        b.on('error', (error: Error) => log.error({ err: error.message }, 'pg-boss error'));
        await setUpSerialised(store.sql, schema, async () => {
          await b.start();
          await b.createQueue(POLL_QUEUE, {
            name: POLL_QUEUE, policy: 'stately', retryLimit: 0, expireInSeconds: POLL_JOB_EXPIRE_SECONDS,
          });
        });
        boss = b;
        for (let i = 0; i < concurrency; i++) {
          await b.work<PollJob>(POLL_QUEUE, { batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2 }, work);
        }
        await reconcile();
        reconciler = setInterval(() => void reconcile(), opts.reconcileEveryMs ?? 60_000);
        reconciler.unref();
      })();
      return starting;
    },

    async stop() {
      if (!starting) return;
      await starting.catch(() => {});
      stopping = true;
      if (reconciler) clearInterval(reconciler);
      reconciler = null;
      const b = boss;
      if (b) {
        await b.offWork(POLL_QUEUE);
        await Promise.allSettled([...inFlight]);
        await b.stop({ graceful: true, wait: true, timeout: 30_000 });
      }
      boss = null;
      starting = null;
    },

    async pollNow(gameId) {
      if (!boss || stopping) throw new Error('the poller is not running: call start() first');
      const id = Number(gameId);
      if (!Number.isSafeInteger(id)) throw new TypeError(`not a game id: ${gameId}`);
      await store.polls.requestPoll(id);
      if (await hurry(id)) return;
      // Running now: it sees the request when it queues its next poll.
      if (await running(id)) return;
      await schedule(id, 0);
    },
  };
  return poller;
}

function safeSettings(settings: Record<string, unknown>) {
  try {
    return pollSettings(settings);
  } catch {
    return null;
  }
}
