import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, it } from 'vitest';
import type { VotalEnv } from '../../src/config/env.js';
import type { Tally } from '../../src/model/tally.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { PG_REQUIRED, PG_URL, pgProblem as reachable } from '../support/postgres.js';
import { redactDatabaseUrl } from '../../src/store/sql.js';

/** Shared by the web, publish, notify and serve tests. */

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
export const SECRET_KEY = Buffer.alloc(32, 7);

export function testEnv(overrides: Partial<VotalEnv> = {}): VotalEnv {
  return {
    databaseUrl: undefined,
    dataDir: 'memory://',
    adminToken: ADMIN_TOKEN,
    secretKey: SECRET_KEY,
    port: 0,
    host: '127.0.0.1',
    allowPrivateHosts: true,
    logLevel: 'silent',
    ...overrides,
  };
}

export { PG_URL };
const REQUIRED = PG_REQUIRED;

/** Null when PostgreSQL answers; else why not. Checked once per test file. */
const pgProblem: Promise<string | null> = reachable();

/**
 * `describe` for a PostgreSQL suite: runs when PostgreSQL answers, fails when it does not
 * and VOTAL_REQUIRE_PG=1, else is skipped with a warning naming why.
 */
export async function describePg(name: string, body: () => void): Promise<void> {
  const problem = await pgProblem;
  if (problem === null) {
    describe(name, body);
  } else if (REQUIRED) {
    describe(name, () => {
      it('PostgreSQL is reachable (VOTAL_REQUIRE_PG=1)', () => {
        throw new Error(`PostgreSQL not reachable at ${redactDatabaseUrl(PG_URL)}: ${problem}`);
      });
    });
  } else {
    console.warn(
      `SKIPPED ${name}: PostgreSQL not reachable at ${redactDatabaseUrl(PG_URL)} (${problem}); set VOTAL_REQUIRE_PG=1 to fail instead`,
    );
    describe.skip(name, () => {
      it('needs PostgreSQL', () => {});
    });
  }
}

/** A fresh schema on the test PostgreSQL; `drop()` removes it. */
export async function pgSchema(): Promise<{ schema: string; url: string; drop(): Promise<void> }> {
  const schema = `votal_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  // search_path through the URL: a child process (votal serve) gets the same schema.
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    schema,
    url: url.href,
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}

export async function openTestStore(
  driver: 'pglite' | 'pg' = 'pglite',
): Promise<{ store: Store; close(): Promise<void> }> {
  if (driver === 'pglite') {
    const store = await openStore({ dataDir: 'memory://' });
    return { store, close: () => store.close() };
  }
  const { schema, drop } = await pgSchema();
  const store = await openStore({ databaseUrl: PG_URL, schema });
  return {
    store,
    async close() {
      await store.close();
      await drop();
    },
  };
}

export function sampleTally(overrides: Partial<Tally> = {}): Tally {
  return {
    engine: 'xenforo2',
    ruleset: 'plurality',
    day: 1,
    postsRead: 3,
    asOfPost: 3,
    living: 3,
    players: ['Alice', 'Bob', 'Carol'],
    threshold: { kind: 'plurality', votes: null },
    wagons: [
      {
        target: 'Alice',
        votes: 1,
        penalty: 0,
        total: 1,
        voters: [{ player: 'Bob', post: 2, weight: 1, permalink: null }],
        toThreshold: null,
      },
    ],
    notVoting: ['Alice', 'Carol'],
    violations: [],
    flags: [],
    outcome: { status: 'open', eliminated: [], decidedAt: null, leaders: ['Alice'] },
    ...overrides,
  };
}

/** A poller stand-in that records what it was asked. */
export function recordingPoller(onPoll?: (gameId: string) => Promise<void>): {
  pollNow(gameId: string): Promise<void>;
  calls: string[];
} {
  const calls: string[] = [];
  return {
    calls,
    async pollNow(gameId: string) {
      calls.push(gameId);
      await onPoll?.(gameId);
    },
  };
}

export async function eventually(
  predicate: () => boolean | Promise<boolean>,
  ms = 20_000, // only names a wait that never ends: no speed bound, so generous (under the 30 s test limit)
  what = 'condition',
): Promise<void> {
  const until = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
