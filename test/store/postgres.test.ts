import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, it } from 'vitest';
import { openSql } from '../../src/store/open-store.js';
import { redactUrl } from '../../src/store/sql.js';
import { storeContract } from './contract.js';

// CI sets VOTAL_REQUIRE_PG=1 so that an unreachable PostgreSQL fails the run instead of skipping it.
const url = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
const required = process.env['VOTAL_REQUIRE_PG'] === '1';
const schema = `votal_test_${randomBytes(6).toString('hex')}`;

async function reachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

const problem = await reachable();

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
} else if (required) {
  describe('store contract (postgres)', () => {
    it('PostgreSQL is reachable (VOTAL_REQUIRE_PG=1)', () => {
      throw new Error(`PostgreSQL not reachable at ${redactUrl(url)}: ${problem}`);
    });
  });
} else {
  console.warn(`SKIPPED: PostgreSQL not reachable at ${redactUrl(url)} (${problem}); set VOTAL_REQUIRE_PG=1 to fail instead`);
  describe.skip('store contract (postgres)', () => {
    it('needs PostgreSQL', () => {});
  });
}
