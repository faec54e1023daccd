import type { CommandDeps } from '../../app/deps.js';
import type { AppDeps } from '../deps.js';
import type { AccessVariables } from '../gm-access.js';

/** What every resource of the JSON API is made from: the commands it runs and the store it reads. */
export interface ApiDeps {
  store: AppDeps['store'];
  commands: CommandDeps;
  now: () => Date;
}

/** Set by `apiAccess` (gm-access.ts) before any route runs: who is asking. */
export type ApiEnv = { Variables: AccessVariables };
