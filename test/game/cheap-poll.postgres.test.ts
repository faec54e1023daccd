import { openStore } from '../../src/store/open-store.js';
import { PG_URL, pgProblem, pgSchemas, pgUnavailable } from '../support/postgres.js';
import { cheapPollContract } from './cheap-poll.js';

const problem = await pgProblem();

if (problem !== null) {
  pgUnavailable('the cheap poll on PostgreSQL', problem);
} else {
  const schemas = pgSchemas();
  const open = async () => openStore({ databaseUrl: PG_URL, schema: await schemas.schema() });
  cheapPollContract('PostgreSQL', open, 7_600);
}
