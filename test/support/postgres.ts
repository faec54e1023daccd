import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, it } from 'vitest';
import { redactDatabaseUrl } from '../../src/store/sql.js';

/**
 * PostgreSQL for the tests that need it (store, poller, web): skipped loudly when it
 * cannot be reached, unless VOTAL_REQUIRE_PG=1 (CI), where that fails the run.
 */
export const PG_URL = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
export const PG_REQUIRED = process.env['VOTAL_REQUIRE_PG'] === '1';

export async function pgProblem(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3_000 });
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

/** Fresh schemas for one test file (the store's, and `<it>_boss` for pg-boss), dropped afterwards. */
export function pgSchemas(): { schema: () => Promise<string> } {
  const admin = new pg.Pool({ connectionString: PG_URL, max: 1 });
  const made: string[] = [];
  afterAll(async () => {
    for (const s of made)
      await admin.query(`DROP SCHEMA IF EXISTS ${s} CASCADE; DROP SCHEMA IF EXISTS ${s}_boss CASCADE`);
    await admin.end();
  });
  return {
    async schema() {
      const name = `votal_test_${randomBytes(6).toString('hex')}`;
      await admin.query(`CREATE SCHEMA ${name}`);
      made.push(name);
      return name;
    },
  };
}

/** The loud skip (or the failure, when PostgreSQL is required). */
export function pgUnavailable(suite: string, problem: string): void {
  const shown = redactDatabaseUrl(PG_URL);
  describe(suite, () => {
    if (PG_REQUIRED) {
      it('needs PostgreSQL (VOTAL_REQUIRE_PG=1)', () => {
        throw new Error(`PostgreSQL at ${shown} is required but unreachable: ${problem}`);
      });
    } else {
      console.warn(
        `SKIPPED ${suite}: PostgreSQL at ${shown} is unreachable (${problem}); set VOTAL_REQUIRE_PG=1 to fail instead`,
      );
      it.skip(`needs PostgreSQL at ${shown} (unreachable: ${problem})`, () => {});
    }
  });
}
