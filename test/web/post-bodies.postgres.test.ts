import { openStore } from '../../src/store/open-store.js';
import { PG_URL, pgProblem, pgSchemas, pgUnavailable } from '../support/postgres.js';
import { postBodiesContract } from './post-bodies.js';

const problem = await pgProblem();

if (problem !== null) {
  pgUnavailable('the web loads bodies only where it reads them, on PostgreSQL', problem);
} else {
  const schemas = pgSchemas();
  const open = async () => openStore({ databaseUrl: PG_URL, schema: await schemas.schema() });
  postBodiesContract('PostgreSQL', open, 7_800);
}
