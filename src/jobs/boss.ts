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
export function sqlDb(sql: Sql): PgBoss.Db {
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
export async function setUpSerialised(sql: Sql, schema: string, setUp: () => Promise<void>): Promise<void> {
  if (sql.driver !== 'pg') return setUp();
  await sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`votal:pg-boss:${schema}`]);
    await setUp();
  });
}
