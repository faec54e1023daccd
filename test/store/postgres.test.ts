import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openSql } from '../../src/store/open-store.js';
import { openPgSql } from '../../src/store/pg-sql.js';
import { redactDatabaseUrl } from '../../src/store/sql.js';
import { storeContract } from './contract.js';
import { PG_REQUIRED, PG_URL, pgProblem } from '../support/postgres.js';

// CI sets VOTAL_REQUIRE_PG=1 so that an unreachable PostgreSQL fails the run instead of skipping it.
const url = PG_URL;
const required = PG_REQUIRED;
const schema = `votal_test_${randomBytes(6).toString('hex')}`;

const problem = await pgProblem();

if (problem === null) {
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });
  // A fresh schema per run: the contract sees an empty database; concurrent runs never meet.
  storeContract('postgres', async () => {
    await admin.query(`CREATE SCHEMA ${schema}`);
    return openSql({ databaseUrl: url, schema });
  });

  describe('PostgreSQL driver', () => {
    it('runs without JIT, in the schema it was given', async () => {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}_jit`);
      const sql = await openPgSql({ connectionString: url, schema: `${schema}_jit` });
      try {
        const jit = await sql.query<{ jit: string }>('SHOW jit');
        const path = await sql.query<{ search_path: string }>('SHOW search_path');
        expect([jit.rows[0]!.jit, path.rows[0]!.search_path]).toEqual(['off', `${schema}_jit`]);
      } finally {
        await sql.close();
        await admin.query(`DROP SCHEMA IF EXISTS ${schema}_jit CASCADE`);
      }
    });

    // NOTIFY reaches every session of a database: two stores in two schemas (test files side
    // by side in CI, or two Votal instances on one database) once heard each other's games.
    it("a store in one schema never hears another schema's notifications", async () => {
      const [a, b] = [`${schema}_ch_a`, `${schema}_ch_b`];
      for (const s of [a, b]) await admin.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
      const one = await openPgSql({ connectionString: url, schema: a });
      const other = await openPgSql({ connectionString: url, schema: b });
      try {
        const heard = { one: [] as string[], other: [] as string[] };
        const stop = [
          await one.listen('votal_game', (p) => heard.one.push(p)),
          await other.listen('votal_game', (p) => heard.other.push(p)),
        ];
        await other.notify('votal_game', 'from-other');
        await other.transaction((tx) => tx.notify('votal_game', 'from-other-tx'));
        await one.notify('votal_game', 'from-one'); // delivered after the two before it (one server, in order)
        const until = Date.now() + 20_000; // names a hang, not a speed
        while ((!heard.one.includes('from-one') || heard.other.length < 2) && Date.now() < until) {
          await new Promise((r) => setTimeout(r, 50));
        }
        expect(heard).toEqual({ one: ['from-one'], other: ['from-other', 'from-other-tx'] });
        for (const s of stop) await s();
      } finally {
        await one.close();
        await other.close();
        for (const s of [a, b]) await admin.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
      }
    });

    it('LISTEN survives a dropped connection', async () => {
      const errors: Error[] = [];
      const sql = await openPgSql({ connectionString: url, onError: (e) => errors.push(e) });
      try {
        const channel = `votal_test_${randomBytes(4).toString('hex')}`;
        const got: string[] = [];
        const unlisten = await sql.listen(channel, (p) => got.push(p));
        const killed = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1', [
          `LISTEN ${channel}`,
        ]);
        expect(killed.rowCount).toBe(1);
        const until = Date.now() + 20_000; // a message for a LISTEN never back, no speed bound
        while (!got.includes('again') && Date.now() < until) {
          await sql.notify(channel, 'again');
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(got).toContain('again');
        expect(errors.length).toBeGreaterThan(0); // the drop was reported, not swallowed
        await unlisten();
      } finally {
        await sql.close();
      }
    });
  });
} else if (required) {
  describe('store contract (postgres)', () => {
    it('PostgreSQL is reachable (VOTAL_REQUIRE_PG=1)', () => {
      throw new Error(`PostgreSQL not reachable at ${redactDatabaseUrl(url)}: ${problem}`);
    });
  });
} else {
  console.warn(
    `SKIPPED: PostgreSQL not reachable at ${redactDatabaseUrl(url)} (${problem}); set VOTAL_REQUIRE_PG=1 to fail instead`,
  );
  describe.skip('store contract (postgres)', () => {
    it('needs PostgreSQL', () => {});
  });
}
