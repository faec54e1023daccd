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
