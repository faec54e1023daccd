import { openStore } from '../../src/store/open-store.js';
import { PG_URL, pgProblem, pgSchemas, pgUnavailable } from '../support/postgres.js';
import { gmChecksContract } from './gm-checks.js';

const problem = await pgProblem();

if (problem !== null) {
  pgUnavailable("the GM's own counts checked, on PostgreSQL", problem);
} else {
  const schemas = pgSchemas();
  const open = async () => openStore({ databaseUrl: PG_URL, schema: await schemas.schema() });
  gmChecksContract('PostgreSQL', open, 7_950);
}
