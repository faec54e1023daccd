import type PgBoss from 'pg-boss';
import type { SiteProfile } from '../../scrapers/site-profile.js';
import { pollSettings } from '../game/game-settings.js';
import { logOf, type Log } from '../log/log-port.js';
import { pollGame, type PollDeps, type PollResult } from '../game/poll-game.js';
import type { Store } from '../store/open-store.js';
import type { PageRenderer } from '../browser/page-renderer.js';
import type { PageSource } from '../thread/read-thread.js';
import type { Validators } from '../fetch/fetched-page.js';
import { createBoss, setUpSerialised } from './boss.js';
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

/** The queue's name (pg-boss: letters, digits, -, _, ., /). */
export const POLL_QUEUE = 'votal.poll-thread';
/** A backstop: pg-boss's maintenance fails a poll job running longer than this. Dead workers are found sooner, by their lease. */
export const POLL_JOB_EXPIRE_SECONDS = 15 * 60;
/** A poll's lease on its game: a worker that stops renewing it for this long is gone. */
export const POLL_LEASE_MS = 30_000;
/** How often active games without a live poll are looked for (dead workers among them). */
export const RECONCILE_EVERY_MS = 15_000;
export const POLLING_INTERVAL_SECONDS = 2;
/** The default number of polls at once never exceeds this, however many hosts there are. */
export const MAX_DEFAULT_CONCURRENCY = 16;
/** PostgreSQL: a poll job ended, so its host is free (payload: the queue's schema). */
export const HOST_FREE_CHANNEL = 'votal_poll_host_free';

interface PollJob {
  gameId: string;
  /** The thread's forum host (`host:port`): one poll per host at a time across processes. */
  host?: string;
  /**
   * Set when the poll is done and the job rests for its host's pause (database time): the
   * game's lease is given up by then, so this tells other processes its worker is alive.
   */
  restsUntil?: string;
}

interface TakenJob {
  id: string;
  data: PollJob;
  /** When the poll was due (the job's start_after), for its lateness. */
  dueAt: string | null;
}

/** The forum host a game's polls read (`host:port`), '' when the URL does not parse. */
export function pollHost(threadUrl: string): string {
  try {
    return new URL(threadUrl).host;
  } catch {
    return '';
  }
}

export function createPoller(opts: PollerOptions): Poller {
  const { store } = opts;
  const log = logOf(opts.log);
  const now = opts.now ?? (() => new Date().toISOString());
  const schema = opts.schema ?? 'pgboss';
  const databaseUrl = opts.databaseUrl ?? (store.sql.driver === 'pg' ? process.env['DATABASE_URL'] : undefined);
  const leaseMs = opts.leaseMs ?? POLL_LEASE_MS;
  const idleMs = (opts.pollingIntervalSeconds ?? POLLING_INTERVAL_SECONDS) * 1000;
  const source = opts.source ?? (opts.siteFor ? null : undefined);
  if (source === undefined) throw new TypeError('createPoller needs a page source or siteFor');
  const deps: PollDeps = {
    store,
    source: source ?? { get: (url) => Promise.reject(new Error(`no page source for ${url}`)) },
    now,
    log: opts.log,
    profileFor: opts.profileFor,
    renderer: opts.renderer,
    leaseMs,
    siteFor: opts.siteFor,
  };

  let boss: PgBoss | null = null;
  let starting: Promise<void> | null = null;
  let stopping = false;
  let reconciler: NodeJS.Timeout | null = null;
  let loop: Promise<void> | null = null;
  /** Jobs this process runs now, by job id. */
  const inFlight = new Map<string, Promise<void>>();
  /** When this poller started (database time): on PGlite a job running since before then is a dead process's. */
  let bornAt: Date | null = null;
  /** Polls running (or resting for their host's pause) now per forum host. */
  const busyHosts = new Map<string, number>();
  /** Jobs whose poll is done and that rest for their host's pause: they hold the host, not a slot. */
  let resting = 0;
  /** Ends every rest at once (stop). */
  const rests = new Set<() => void>();
  /** PostgreSQL: stops hearing of freed hosts. */
  let unlisten: (() => Promise<void>) | null = null;
  /** Forum hosts among the active games (the default concurrency). */
  let hostCount = 1;
  const limit = () => Math.max(1, opts.concurrency ?? Math.min(MAX_DEFAULT_CONCURRENCY, hostCount));

  // The job loop rests when there is nothing to take; a finished poll or "poll now" wakes it.
  let woken = false;
  let rouse: (() => void) | null = null;
  const wake = () => {
    woken = true;
    rouse?.();
  };
  const rest = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || stopping) {
        woken = false;
        resolve();
        return;
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        rouse = null;
        woken = false;
        resolve();
      }
      rouse = done;
    });

  /** Waits out a host's pause; stop() ends it at once. */
  const restFor = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopping) return resolve();
      const timer = setTimeout(end, ms);
      function end() {
        clearTimeout(timer);
        rests.delete(end);
        resolve();
      }
      rests.add(end);
    });

  const key = (gameId: number | string) => String(Number(gameId));
  const bossDb = () => boss!.getDb();

  /** Queues the game's next poll `delayMs` from now (a no-op when one is queued already). */
  const schedule = async (gameId: number, host: string, delayMs: number): Promise<string | null> => {
    const seconds = Math.max(0, delayMs / 1000);
    const id = await boss!.send(POLL_QUEUE, { gameId: key(gameId), host } satisfies PollJob, {
      singletonKey: key(gameId),
      ...(seconds > 0 ? { startAfter: seconds } : {}),
    });
    await store.games.setNextPoll(gameId, new Date(Date.now() + delayMs)).catch(() => {});
    if (seconds === 0) wake();
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
    if (rows.length > 0) {
      wake();
      return true;
    }
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

  /**
   * Fails the running jobs whose worker is gone, so their games can be polled again: on
   * PostgreSQL those whose game lease lapsed (and that started longer ago than a lease, so
   * one that has not claimed it yet is left alone); on PGlite (one process) every one
   * started before this poller did. Returns the games freed.
   */
  const reapDead = async (gameId?: number): Promise<number[]> => {
    const { rows } = await bossDb().executeSql(
      `SELECT id, singleton_key, started_on < now() - make_interval(secs => $2::double precision / 1000) AS old,
              started_on < $3::timestamptz AS before_us,
              COALESCE((data->>'restsUntil')::timestamptz > now() - make_interval(secs => $2::double precision / 1000), false) AS resting
       FROM ${schema}.job WHERE name = $1 AND state = 'active'${gameId === undefined ? '' : ' AND singleton_key = $4'}`,
      gameId === undefined ? [POLL_QUEUE, leaseMs, bornAt] : [POLL_QUEUE, leaseMs, bornAt, key(gameId)],
    );
    const others = (
      rows as { id: string; singleton_key: string; old: boolean; before_us: boolean; resting: boolean }[]
    ).filter((r) => !inFlight.has(r.id));
    if (others.length === 0) return [];
    let dead = others.filter((r) => r.before_us);
    if (store.sql.driver === 'pg') {
      const games = others.map((r) => Number(r.singleton_key));
      const leases = await store.sql.query<{ game_id: number }>(
        'SELECT game_id FROM game_poll WHERE game_id = ANY($1::bigint[]) AND lease_until > now()',
        [games],
      );
      const live = new Set(leases.rows.map((r) => Number(r.game_id)));
      // A job resting for its host's pause has given its lease up: its rest is its sign of life.
      dead = others.filter((r) => r.old && !r.resting && !live.has(Number(r.singleton_key)));
    }
    if (dead.length === 0) return [];
    for (const r of dead)
      await boss!.fail(POLL_QUEUE, r.id, { reason: 'the worker polling this game is gone (its lease lapsed)' });
    for (const r of dead)
      log.warn(
        { gameId: Number(r.singleton_key), job: r.id },
        'a poll whose worker is gone was failed; polling the game again',
      );
    return dead.map((r) => Number(r.singleton_key));
  };

  /**
   * Takes the next due poll whose host has no poll running (or resting) in any process and
   * whose game has no poll running (pg-boss's own fetch would stall on such a job: stately
   * allows one running poll per game). The same claim as pg-boss's fetch, with those
   * conditions. Takes run one at a time across processes (a transaction-level advisory
   * lock): each take's statement then sees the takes committed before it (READ COMMITTED),
   * so two processes taking at once never both take one host. The pg-boss schema is in the
   * store's database, so the take runs on the store's connection, where a transaction can be held.
   */
  const takeNext = async (): Promise<TakenJob | null> => {
    const hosts = JSON.stringify([...busyHosts.keys()]);
    try {
      const { rows } = await store.sql.transaction(async (tx) => {
        // PGlite: one process, nobody to wait for.
        if (store.sql.driver === 'pg')
          await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`votal:poll-take:${schema}`]);
        return tx.query(
          `WITH next AS (
           SELECT j.id FROM ${schema}.job j
           WHERE j.name = $1 AND j.state < 'active' AND j.start_after < now()
             AND COALESCE(j.data->>'host', '') NOT IN (SELECT jsonb_array_elements_text($2::jsonb))
             AND NOT EXISTS (SELECT 1 FROM ${schema}.job h
                             WHERE h.name = $1 AND h.state = 'active'
                               AND COALESCE(h.data->>'host', '') = COALESCE(j.data->>'host', ''))
             AND NOT EXISTS (SELECT 1 FROM ${schema}.job a
                             WHERE a.name = $1 AND a.state = 'active' AND a.singleton_key = j.singleton_key)
           ORDER BY j.priority DESC, j.created_on, j.id
           LIMIT 1
           FOR UPDATE SKIP LOCKED
         )
         UPDATE ${schema}.job j SET state = 'active', started_on = now(),
           retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
         FROM next WHERE j.name = $1 AND j.id = next.id
         RETURNING j.id, j.data, j.start_after`,
          [POLL_QUEUE, hosts],
        );
      });
      const row = rows[0] as { id: string; data: PollJob; start_after: Date | null } | undefined;
      return row
        ? { id: row.id, data: row.data, dueAt: row.start_after ? new Date(row.start_after).toISOString() : null }
        : null;
    } catch (error) {
      // Another process took a poll of the same game at the same instant (stately's unique index).
      if ((error as { code?: string }).code === '23505') return null;
      throw error;
    }
  };

  /**
   * Runs one job in the background: its host is busy until it ends, then the loop is woken.
   * A poll that read its host keeps the job active for the host's pause after it, so no
   * process polls the host again sooner; its slot is free for other hosts meanwhile.
   */
  const run = (job: TakenJob): void => {
    const host = job.data.host ?? '';
    busyHosts.set(host, (busyHosts.get(host) ?? 0) + 1);
    const done = (async () => {
      try {
        const reading = readingOf();
        await handle(job, reading.deps);
        const pauseMs = reading.pauseMs();
        if (pauseMs > 0 && !stopping) {
          resting += 1;
          wake();
          try {
            // Best effort: without the mark another process may take this job for a dead worker's, no worse.
            await bossDb()
              .executeSql(
                `UPDATE ${schema}.job SET data = data || jsonb_build_object('restsUntil',
                   now() + make_interval(secs => $3::double precision / 1000))
                 WHERE name = $1 AND id = $2 AND state = 'active'`,
                [POLL_QUEUE, job.id, pauseMs],
              )
              .catch(() => {});
            await restFor(pauseMs);
          } finally {
            resting -= 1;
          }
        }
        await boss!.complete(POLL_QUEUE, job.id);
      } catch (error) {
        log.error({ gameId: job.data.gameId, err: String(error) }, 'poll job failed');
        await boss?.fail(POLL_QUEUE, job.id, { reason: String(error) }).catch(() => {});
      } finally {
        inFlight.delete(job.id);
        const left = (busyHosts.get(host) ?? 1) - 1;
        if (left > 0) busyHosts.set(host, left);
        else busyHosts.delete(host);
        // Every process hears of the freed host at once (this one too), so none keeps a host to itself
        // by taking its next poll first.
        if (unlisten) await store.sql.notify(HOST_FREE_CHANNEL, schema).catch(() => wake());
        else wake();
      }
    })();
    inFlight.set(job.id, done);
  };

  /** Takes jobs while there are due ones and free slots; rests otherwise. */
  const work = async (): Promise<void> => {
    while (!stopping) {
      if (inFlight.size - resting >= limit()) {
        await rest(idleMs);
        continue;
      }
      let job: TakenJob | null = null;
      try {
        job = await takeNext();
      } catch (error) {
        if (!stopping) log.warn({ err: String(error) }, 'could not take a poll from the queue');
      }
      if (job && !stopping) run(job);
      else if (job) await boss!.fail(POLL_QUEUE, job.id, { reason: 'the poller stopped' }).catch(() => {});
      else await rest(idleMs);
    }
  };

  /**
   * One poll's reading: the poll's deps, whose page source notes the source that read the
   * thread (the service: the site's reading), for the host's pause after the poll. A poll
   * that read nothing (skipped, busy) owes its host no pause.
   */
  const readingOf = (): { deps: PollDeps; pauseMs: () => number } => {
    let last: { source: PageSource; url: string } | null = null;
    const noting = (upstream: PageSource): PageSource => ({
      get(url: string, validators?: Validators) {
        last = { source: upstream, url };
        return upstream.get(url, validators);
      },
    });
    const siteFor = opts.siteFor;
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
  };

  /** One job: poll the game once, then queue its next poll. Never throws (a failure is the game's, not the job's). */
  const handle = async (job: TakenJob, pollDeps: PollDeps): Promise<void> => {
    const gameId = Number(job.data.gameId);
    const jobHost = job.data.host ?? '';
    let result: PollResult;
    let startedAt: string | null = null;
    try {
      // Noted before the read: the dashboard tells a late poll from one that runs long.
      startedAt = await store.polls.started(gameId, job.dueAt);
      result = await pollGame(pollDeps, gameId);
    } catch (error) {
      // The store itself failed (a database restart): try again later.
      log.error({ gameId, err: String(error) }, 'poll job failed');
      if (!stopping) await schedule(gameId, jobHost, 60_000).catch(() => {});
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
      await schedule(gameId, pollHost(game.threadUrl), delay);
      // "Poll now" while this poll ran: the next one is due at once.
      if (startedAt && (await store.polls.requestedSince(gameId, startedAt))) await hurry(gameId);
    } catch (error) {
      log.error({ gameId, err: String(error) }, 'could not queue the next poll');
    }
  };

  /** Dead polls failed; every active game with no poll queued or running gets one (at its next_poll_at, or now). */
  const reconcile = async (): Promise<void> => {
    if (!boss || stopping) return;
    try {
      await reapDead();
      const { rows } = await bossDb().executeSql(
        `SELECT DISTINCT singleton_key FROM ${schema}.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`,
        [POLL_QUEUE],
      );
      const queued = new Set(rows.map((r: { singleton_key: string }) => r.singleton_key));
      const active = await store.games.list({ status: 'active', polled: true });
      hostCount = new Set(active.map((g) => pollHost(g.threadUrl))).size;
      for (const game of active) {
        if (queued.has(key(game.id))) continue;
        const at = game.nextPollAt ? Date.parse(game.nextPollAt) - Date.now() : 0;
        const id = await schedule(game.id, pollHost(game.threadUrl), Math.max(0, at));
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
          sql: store.sql,
          databaseUrl,
          schema,
          pollingIntervalSeconds: opts.pollingIntervalSeconds ?? POLLING_INTERVAL_SECONDS,
        });
        b.on('error', (error: Error) => log.error({ err: error.message }, 'pg-boss error'));
        await setUpSerialised(store.sql, schema, async () => {
          await b.start();
          await b.createQueue(POLL_QUEUE, {
            name: POLL_QUEUE,
            policy: 'stately',
            retryLimit: 0,
            expireInSeconds: POLL_JOB_EXPIRE_SECONDS,
          });
        });
        boss = b;
        bornAt = (await store.sql.query<{ at: Date }>('SELECT now() AS at')).rows[0]!.at;
        await reconcile();
        if (store.sql.driver === 'pg') {
          unlisten = await store.sql
            .listen(HOST_FREE_CHANNEL, (payload) => {
              if (payload === schema) wake();
            })
            .catch((error: unknown) => {
              log.warn({ err: String(error) }, 'cannot hear of freed hosts: other processes take them later');
              return null;
            });
        }
        loop = work();
        reconciler = setInterval(() => void reconcile(), opts.reconcileEveryMs ?? RECONCILE_EVERY_MS);
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
      wake();
      for (const end of [...rests]) end();
      await loop?.catch(() => {});
      loop = null;
      const b = boss;
      if (b) {
        await Promise.allSettled([...inFlight.values()]);
        await unlisten?.().catch(() => {});
        unlisten = null;
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
      // A poll left running by a worker that is gone would swallow the request: fail it first.
      await reapDead(id);
      if (await hurry(id)) return;
      // Running now: it sees the request when it queues its next poll.
      if (await running(id)) return;
      const game = await store.games.get(id);
      await schedule(id, pollHost(game?.threadUrl ?? ''), 0);
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
