import { afterAll, describe, expect, it } from 'vitest';
import { createPoller, type Poller } from '../../src/jobs/poller.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { testSource } from '../game/support.js';
import { PG_URL, pgProblem, pgSchemas, pgUnavailable } from '../support/postgres.js';

/**
 * Issue #17: `votal serve` and `votal worker` started at the same moment on a fresh
 * database deadlocked in pg-boss's queue set-up. Any number of pollers start at once.
 */
const problem = await pgProblem();

if (problem !== null) {
  pgUnavailable('pollers starting at once on PostgreSQL', problem);
} else {
  const schemas = pgSchemas();
  const stores: Store[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close().catch(() => {});
  });

  describe('pollers starting at once on one fresh PostgreSQL schema', () => {
    it('five pollers (five pools, five pg-boss instances) start together, five rounds, never failing', {
      timeout: 120_000,
    }, async () => {
      for (let round = 0; round < 5; round++) {
        const schema = await schemas.schema();
        const errors: string[] = [];
        const pollers: Poller[] = [];
        for (let i = 0; i < 5; i++) {
          const store = await openStore({ databaseUrl: PG_URL, schema });
          stores.push(store);
          pollers.push(
            createPoller({
              store,
              source: testSource(),
              schema: `${schema}_boss`,
              databaseUrl: PG_URL,
              pollingIntervalSeconds: 0.5,
              log: { error: (fields, message) => errors.push(`${message} ${JSON.stringify(fields)}`) },
            }),
          );
        }
        const started = await Promise.allSettled(pollers.map((p) => p.start()));
        expect(
          started.filter((s) => s.status === 'rejected'),
          `round ${round}`,
        ).toEqual([]);
        await Promise.all(pollers.map((p) => p.stop()));
        expect(errors, `round ${round}`).toEqual([]);
      }
    });
  });
}
