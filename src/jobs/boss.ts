import PgBoss from 'pg-boss';
import type { Sql } from '../store/sql.js';

/**
 * pg-boss 10 on either driver. PostgreSQL: pg-boss's own pool from a connection string.
 * PGlite (one connection, one process): pg-boss runs its SQL through the store's `Sql`
 * port (`db: { executeSql }`); PGlite refuses several statements in one parameterised
 * query, so text without parameters that does that (pg-boss's schema migration) goes
 * through `exec` instead.
 */
export interface BossOptions {
  sql: Sql;
  /** PostgreSQL: pg-boss connects with this. Absent: pg-boss runs through `sql`. */
  databaseUrl?: string | undefined;
  /** pg-boss's schema (default `pgboss`). */
  schema?: string | undefined;
  /** How often an idle worker asks for jobs (seconds, ≥ 0.5). */
  pollingIntervalSeconds?: number | undefined;
  /** How often pg-boss expires and archives jobs (seconds). */
  maintenanceIntervalSeconds?: number | undefined;
}

const MULTIPLE_COMMANDS = /cannot insert multiple commands into a prepared statement/i;

/** pg-boss's `db` option over the store's port. */
function sqlDb(sql: Sql): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      try {
        return await sql.query(text, values ?? []);
      } catch (error) {
        if ((values === undefined || values.length === 0) && MULTIPLE_COMMANDS.test((error as Error).message)) {
          await sql.exec(text);
          return { rows: [] };
        }
        throw error;
      }
    },
  };
}

export function createBoss(o: BossOptions): PgBoss {
  const common: PgBoss.ConstructorOptions = {
    schema: o.schema ?? 'pgboss',
    // Votal schedules its own polls with startAfter; pg-boss's cron is not used.
    schedule: false,
    supervise: true,
    maintenanceIntervalSeconds: o.maintenanceIntervalSeconds ?? 60,
    ...(o.pollingIntervalSeconds ? { pollingIntervalSeconds: o.pollingIntervalSeconds } : {}),
  };
  if (o.databaseUrl && o.sql.driver === 'pg') {
    return new PgBoss({ ...common, connectionString: o.databaseUrl, max: 4, application_name: 'votal-pgboss' });
  }
  return new PgBoss({ ...common, db: sqlDb(o.sql) });
}

/**
 * Runs pg-boss's set-up (`start`: its schema migration; `createQueue`: a partition and
 * its indexes) one process at a time. Two processes doing it at once on a fresh database
 * deadlock in PostgreSQL (`votal serve` and `votal worker` started together), so on
 * PostgreSQL it runs under a transaction-scoped advisory lock named after the queue
 * schema; on PGlite there is one process, and nothing to wait for.
 */
async function setUpSerialised(sql: Sql, schema: string, setUp: () => Promise<void>): Promise<void> {
  if (sql.driver !== 'pg') return setUp();
  await sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`votal:pg-boss:${schema}`]);
    await setUp();
  });
}

/**
 * The pg-boss this code was written against, and the shape of its `job` table it relies on:
 * the SQL below reads and writes that table directly (where pg-boss's API cannot say "not
 * on these hosts"). test/jobs/boss-contract.test.ts compares all of it with the installed
 * pg-boss and its tables as the database's catalog describes them, so an upgrade fails there
 * by name before it fails here quietly.
 */
export const PG_BOSS_CONTRACT = {
  version: '10.4.2',
  /** pg-boss's schema version (its `version` table, version.json). */
  schemaVersion: 24,
  /** `job_state` in enum order: `state < 'active'` below means created or retry. */
  states: ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'],
  /** The `job` columns used here, with their types. */
  columns: {
    id: 'uuid',
    name: 'text',
    priority: 'integer',
    data: 'jsonb',
    state: 'job_state',
    retry_count: 'integer',
    start_after: 'timestamp with time zone',
    started_on: 'timestamp with time zone',
    singleton_key: 'text',
    created_on: 'timestamp with time zone',
  },
} as const;

/** The queue's name (pg-boss: letters, digits, -, _, ., /). */
export const POLL_QUEUE = 'votal.poll-thread';
/** A backstop: pg-boss's maintenance fails a poll job running longer than this. Dead workers are found sooner, by their lease. */
export const POLL_JOB_EXPIRE_SECONDS = 15 * 60;

export interface PollJobData {
  gameId: string;
  /** The thread's forum host (`host:port`): one poll per host at a time across processes. */
  host?: string;
  /**
   * Set when the poll is done and the job rests for its host's pause (database time): the
   * game's lease is given up by then, so this tells other processes its worker is alive.
   */
  restsUntil?: string;
}

export interface TakenPoll {
  id: string;
  data: PollJobData;
  /** When the poll was due (the job's start_after), for its lateness. */
  dueAt: string | null;
}

/** A running poll job, as the reaper sees it. */
export interface RunningPoll {
  id: string;
  gameId: number;
  /** Started longer ago than a lease: it has had time to claim its game. */
  old: boolean;
  /** Started before `since` (the reaper's birth). */
  before: boolean;
  /** Resting for its host's pause (its sign of life, as it gave the lease up). */
  resting: boolean;
}

/** The poll queue: pg-boss's API where it does the job, the SQL on its `job` table where it cannot. */
export interface PollQueue {
  /** Queues the game's next poll `delayMs` from now (null: one is queued already). */
  send(gameId: number, host: string, delayMs: number): Promise<string | null>;
  /** Makes a queued poll of the game due now; false when none is queued. */
  hurry(gameId: number): Promise<boolean>;
  isRunning(gameId: number): Promise<boolean>;
  /** The game ids with a poll queued or running. */
  queuedGames(): Promise<Set<string>>;
  /** Running jobs (of one game), `leaseMs` and `since` telling old ones and ones started before it. */
  running(leaseMs: number, since: Date, gameId?: number): Promise<RunningPoll[]>;
  /** Takes the next due poll on none of `busyHosts` (see `takeSql`). */
  take(busyHosts: readonly string[]): Promise<TakenPoll | null>;
  /** Notes in the job that it rests `ms` for its host's pause. */
  markResting(jobId: string, ms: number): Promise<void>;
  complete(jobId: string): Promise<void>;
  fail(jobId: string, reason: string): Promise<void>;
  /** The database's time. */
  now(): Promise<Date>;
}

/** Starts pg-boss and makes the poll queue (`stately`: one queued and one running poll per game), one process at a time. */
export async function startPollQueue(boss: PgBoss, sql: Sql, schema: string): Promise<PollQueue> {
  await setUpSerialised(sql, schema, async () => {
    await boss.start();
    await boss.createQueue(POLL_QUEUE, {
      name: POLL_QUEUE,
      policy: 'stately',
      retryLimit: 0,
      expireInSeconds: POLL_JOB_EXPIRE_SECONDS,
    });
  });
  return pollQueue(boss, sql, schema);
}

function pollQueue(boss: PgBoss, sql: Sql, schema: string): PollQueue {
  const db = () => boss.getDb();
  const key = (gameId: number | string) => String(Number(gameId));
  return {
    async send(gameId, host, delayMs) {
      const seconds = Math.max(0, delayMs / 1000);
      const data: PollJobData = { gameId: key(gameId), host };
      return boss.send(POLL_QUEUE, data, {
        singletonKey: key(gameId),
        ...(seconds > 0 ? { startAfter: seconds } : {}),
      });
    },
    async hurry(gameId) {
      const { rows } = await db().executeSql(
        `UPDATE ${schema}.job SET start_after = now()
         WHERE name = $1 AND singleton_key = $2 AND state IN ('created', 'retry') AND start_after > now() RETURNING id`,
        [POLL_QUEUE, key(gameId)],
      );
      if (rows.length > 0) return true;
      const due = await db().executeSql(
        `SELECT 1 FROM ${schema}.job WHERE name = $1 AND singleton_key = $2 AND state IN ('created', 'retry')`,
        [POLL_QUEUE, key(gameId)],
      );
      return due.rows.length > 0;
    },
    async isRunning(gameId) {
      const { rows } = await db().executeSql(
        `SELECT 1 FROM ${schema}.job WHERE name = $1 AND singleton_key = $2 AND state = 'active'`,
        [POLL_QUEUE, key(gameId)],
      );
      return rows.length > 0;
    },
    async queuedGames() {
      const { rows } = await db().executeSql(
        `SELECT DISTINCT singleton_key FROM ${schema}.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`,
        [POLL_QUEUE],
      );
      return new Set(rows.map((r: { singleton_key: string }) => r.singleton_key));
    },
    running: (leaseMs, since, gameId) => runningPolls(db(), schema, leaseMs, since, gameId),
    take: (busyHosts) => takePoll(sql, schema, busyHosts),
    async markResting(jobId, ms) {
      await db().executeSql(
        `UPDATE ${schema}.job SET data = data || jsonb_build_object('restsUntil',
           now() + make_interval(secs => $3::double precision / 1000))
         WHERE name = $1 AND id = $2 AND state = 'active'`,
        [POLL_QUEUE, jobId, ms],
      );
    },
    complete: (jobId) => boss.complete(POLL_QUEUE, jobId),
    fail: (jobId, reason) => boss.fail(POLL_QUEUE, jobId, { reason }),
    async now() {
      return (await sql.query<{ at: Date }>('SELECT now() AS at')).rows[0]!.at;
    },
  };
}

async function runningPolls(
  db: PgBoss.Db,
  schema: string,
  leaseMs: number,
  since: Date,
  gameId?: number,
): Promise<RunningPoll[]> {
  const one = gameId === undefined ? '' : ' AND singleton_key = $4';
  const { rows } = await db.executeSql(
    `SELECT id, singleton_key, started_on < now() - make_interval(secs => $2::double precision / 1000) AS old,
            started_on < $3::timestamptz AS before_us,
            COALESCE((data->>'restsUntil')::timestamptz > now() - make_interval(secs => $2::double precision / 1000), false) AS resting
     FROM ${schema}.job WHERE name = $1 AND state = 'active'${one}`,
    gameId === undefined ? [POLL_QUEUE, leaseMs, since] : [POLL_QUEUE, leaseMs, since, String(gameId)],
  );
  return (rows as { id: string; singleton_key: string; old: boolean; before_us: boolean; resting: boolean }[]).map(
    (r) => ({ id: r.id, gameId: Number(r.singleton_key), old: r.old, before: r.before_us, resting: r.resting }),
  );
}

/**
 * The next due poll whose host has no poll running (or resting) in any process and whose
 * game has no poll running (pg-boss's own fetch would stall on such a job: stately allows
 * one running poll per game): pg-boss's fetch (`fetchNextJob` in its plans.js) with those
 * conditions. Takes run one at a time across processes (a transaction-level advisory lock):
 * each take's statement then sees the takes committed before it (READ COMMITTED), so two
 * processes taking at once never both take one host. The pg-boss schema is in the store's
 * database, so the take runs on the store's connection, where a transaction can be held.
 */
async function takePoll(sql: Sql, schema: string, busyHosts: readonly string[]): Promise<TakenPoll | null> {
  try {
    const { rows } = await sql.transaction(async (tx) => {
      // PGlite: one process, nobody to wait for.
      if (sql.driver === 'pg')
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`votal:poll-take:${schema}`]);
      return tx.query(takeSql(schema), [POLL_QUEUE, JSON.stringify(busyHosts)]);
    });
    const row = rows[0] as { id: string; data: PollJobData; start_after: Date | null } | undefined;
    return row
      ? { id: row.id, data: row.data, dueAt: row.start_after ? new Date(row.start_after).toISOString() : null }
      : null;
  } catch (error) {
    // Another process took a poll of the same game at the same instant (stately's unique index).
    if ((error as { code?: string }).code === '23505') return null;
    throw error;
  }
}

/** `state < 'active'`: created or retry, by `job_state`'s enum order (PG_BOSS_CONTRACT.states). */
function takeSql(schema: string): string {
  return `WITH next AS (
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
    RETURNING j.id, j.data, j.start_after`;
}
