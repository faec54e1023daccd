import { openStore } from '../../src/store/open-store.js';
import { PG_URL, pgProblem, pgSchemas, pgUnavailable } from '../support/postgres.js';
import { gmQueueContract } from './gm-queue.js';

const problem = await pgProblem();

if (problem !== null) {
  pgUnavailable("the GM's one queue, on PostgreSQL", problem);
} else {
  const schemas = pgSchemas();
  const open = async () => openStore({ databaseUrl: PG_URL, schema: await schemas.schema() });
  gmQueueContract('PostgreSQL', open, 7_950);
}
