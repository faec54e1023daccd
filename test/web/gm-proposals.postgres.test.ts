import { openStore } from '../../src/store/open-store.js';
import { PG_URL, pgProblem, pgSchemas, pgUnavailable } from '../support/postgres.js';
import { gmProposalsContract } from './gm-proposals.js';

const problem = await pgProblem();

if (problem !== null) {
  pgUnavailable("what the GM's own counts propose, on PostgreSQL", problem);
} else {
  const schemas = pgSchemas();
  const open = async () => openStore({ databaseUrl: PG_URL, schema: await schemas.schema() });
  gmProposalsContract('PostgreSQL', open, 7_980);
}
