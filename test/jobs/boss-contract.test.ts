import { createRequire } from 'node:module';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBoss, PG_BOSS_CONTRACT, POLL_QUEUE, startPollQueue, type PollQueue } from '../../src/jobs/boss.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import type { Sql } from '../../src/store/sql.js';
import { PG_URL, pgProblem, pgSchemas, pgUnavailable } from '../support/postgres.js';

/**
 * Issue #29: src/jobs/boss.ts takes poll jobs with its own SQL on pg-boss's `job` table (pg-boss's
 * API cannot take "a due job on none of these hosts"), so it depends on pg-boss's version, its
 * table's columns and the order of its `job_state` enum. This pins all of them, from the
 * installed package and from the database's catalog: upgrading pg-boss fails here, by name,
 * until boss.ts is checked against the new version and PG_BOSS_CONTRACT updated.
 */
const require = createRequire(import.meta.url);
const installed = require('pg-boss/package.json') as { version: string };
const schemaJson = require('pg-boss/version.json') as { schema: number };

describe('the pg-boss package src/jobs/boss.ts was written against', () => {
  it('is the installed version', () => {
    expect(
      installed.version,
      `pg-boss ${installed.version} is installed, boss.ts was written against ${PG_BOSS_CONTRACT.version}: check its SQL, then PG_BOSS_CONTRACT`,
    ).toBe(PG_BOSS_CONTRACT.version);
  });

  it("has the package's schema version", () => {
    expect(schemaJson.schema, 'pg-boss schema version (version.json)').toBe(PG_BOSS_CONTRACT.schemaVersion);
  });

  it("lists the job states in the enum's order", () => {
    expect(Object.values(PgBoss.states), 'PgBoss.states').toEqual(PG_BOSS_CONTRACT.states);
  });
});

/** The `job` table as the catalog describes it, and what the queue's SQL does with it. */
function tableContract(driver: string, open: () => Promise<{ store: Store; schema: string; databaseUrl?: string }>) {
  describe(`pg-boss's job table on ${driver}`, { timeout: 120_000 }, () => {
    let store: Store;
    let schema: string;
    let boss: PgBoss;
    let queue: PollQueue;

    beforeAll(async () => {
      ({ store, schema } = await open());
      boss = createBoss({ sql: store.sql, schema, maintenanceIntervalSeconds: 3_600 });
      queue = await startPollQueue(boss, store.sql, schema);
    });
    afterAll(async () => {
      await boss?.stop({ graceful: false, wait: true });
      await store?.close();
    });

    it("has the schema version pg-boss's package says", async () => {
      const { rows } = await store.sql.query<{ version: number }>(`SELECT version FROM ${schema}.version`);
      expect(
        rows.map((r) => Number(r.version)),
        `${schema}.version`,
      ).toEqual([PG_BOSS_CONTRACT.schemaVersion]);
    });

    it('has job_state with the values in the order boss.ts compares them', async () => {
      expect(await enumValues(store.sql, schema, 'job_state'), `${schema}.job_state`).toEqual(PG_BOSS_CONTRACT.states);
    });

    it('has every job column boss.ts reads or writes, with its type', async () => {
      const columns = await columnTypes(store.sql, schema, 'job');
      const used = Object.fromEntries(Object.keys(PG_BOSS_CONTRACT.columns).map((c) => [c, columns[c] ?? '(missing)']));
      expect(used, `${schema}.job columns`).toEqual(PG_BOSS_CONTRACT.columns);
    });

    it("takes a due job as pg-boss's own fetch would: active, started, then completed through pg-boss", async () => {
      const id = await queue.send(1, 'forum.example:443', 0);
      expect(id).not.toBeNull();
      // Busy host: not taken.
      await new Promise((r) => setTimeout(r, 20));
      expect(await queue.take(['forum.example:443'])).toBeNull();
      const taken = await queue.take([]);
      expect(taken?.id).toBe(id);
      expect(taken?.data).toEqual({ gameId: '1', host: 'forum.example:443' });
      const job = await boss.getJobById(POLL_QUEUE, id!);
      expect([job?.state, job?.startedOn instanceof Date]).toEqual(['active', true]);
      expect(await queue.isRunning(1)).toBe(true);
      // Its host has a job active: no other job on it is taken, in this process or another.
      await queue.send(2, 'forum.example:443', 0);
      await new Promise((r) => setTimeout(r, 20));
      expect(await queue.take([])).toBeNull();
      await queue.markResting(id!, 1_000);
      expect((await boss.getJobById(POLL_QUEUE, id!))?.data).toHaveProperty('restsUntil');
      await queue.complete(id!);
      expect((await boss.getJobById(POLL_QUEUE, id!))?.state).toBe('completed');
      expect((await queue.take([]))?.data.gameId).toBe('2');
    });

    it('makes a queued poll due now', async () => {
      await queue.send(3, 'other.example:443', 3_600_000);
      expect(await queue.take([])).toBeNull();
      expect(await queue.hurry(3)).toBe(true);
      await new Promise((r) => setTimeout(r, 20));
      expect((await queue.take([]))?.data.gameId).toBe('3');
      expect(await queue.hurry(4)).toBe(false);
    });
  });
}

async function enumValues(sql: Sql, schema: string, type: string): Promise<string[]> {
  const { rows } = await sql.query<{ value: string }>(
    `SELECT e.enumlabel AS value FROM pg_enum e
     JOIN pg_type t ON t.oid = e.enumtypid JOIN pg_namespace n ON n.oid = t.typnamespace
     WHERE n.nspname = $1 AND t.typname = $2 ORDER BY e.enumsortorder`,
    [schema, type],
  );
  return rows.map((r) => r.value);
}

/** Column -> type (`information_schema`; a user-defined type by its name). */
async function columnTypes(sql: Sql, schema: string, table: string): Promise<Record<string, string>> {
  const { rows } = await sql.query<{ column_name: string; data_type: string; udt_name: string }>(
    `SELECT column_name, data_type, udt_name FROM information_schema.columns
     WHERE table_schema = $1 AND table_name = $2`,
    [schema, table],
  );
  return Object.fromEntries(
    rows.map((r) => [r.column_name, r.data_type === 'USER-DEFINED' ? r.udt_name : r.data_type]),
  );
}

tableContract('PGlite', async () => ({ store: await openStore({ dataDir: 'memory://' }), schema: 'pgboss' }));

const problem = await pgProblem();
if (problem !== null) {
  pgUnavailable("pg-boss's job table on PostgreSQL", problem);
} else {
  const schemas = pgSchemas();
  tableContract('PostgreSQL', async () => {
    const schema = await schemas.schema();
    return { store: await openStore({ databaseUrl: PG_URL, schema }), schema: `${schema}_boss` };
  });
}
