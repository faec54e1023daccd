import { openStore } from '../../src/store/open-store.js';
import { PG_URL, pgProblem, pgSchemas, pgUnavailable } from '../support/postgres.js';
import { countLessonsContract } from './count-lessons.js';

const problem = await pgProblem();

if (problem !== null) {
  pgUnavailable("what the GM's count teaches, on PostgreSQL", problem);
} else {
  const schemas = pgSchemas();
  const open = async () => openStore({ databaseUrl: PG_URL, schema: await schemas.schema() });
  countLessonsContract('PostgreSQL', open, 7_960);
}
