import { systemClock, type CommandDeps, type PollerPort } from '../app/deps.js';
import type { VotalEnv } from '../config/env.js';
import { SecretBox } from '../config/secrets.js';
import type { Logger, SecretScrubber } from '../log/logger.js';
import { PublishHttp } from '../publish/http.js';
import type { PublishDeps } from '../publish/publish-draft.js';
import { publisherFor } from '../publish/publisher-for.js';
import type { Repos } from '../store/open-store.js';
import type { Sql } from '../store/sql.js';
import type { RateLimitOptions } from './rate-limit.js';

export type { PollerPort };

/** What the web app of `votal serve` is made from (the API, the dashboard and the live pages share it). */
export interface AppDeps {
  store: Repos & { sql: Sql };
  poller: PollerPort;
  env: VotalEnv;
  now?: () => Date;
  log?: Logger;
  /** Learns decrypted secrets so that they never reach a log line. */
  scrubber?: SecretScrubber;
  /** Publishing: timeouts and retries (tests make them short). */
  publish?: {
    timeoutMs?: number;
    maxAttempts?: number;
    backoffMs?: number;
    recheckMs?: number[];
    sleep?: (ms: number) => Promise<void>;
    /** How long one process's claim on a publication holds (publish-draft.ts). */
    claimMs?: number;
  };
  live?: {
    /** A `: heartbeat` comment this often on idle event streams. Default 20 s. */
    heartbeatMs?: number;
    bufferSize?: number;
    /** Event streams open at once per client IP. Default 8. */
    perClient?: number;
    /** How often the live page reloads itself where no script runs. Default 30 s. */
    noscriptRefreshSeconds?: number;
  };
  /** Public routes' token bucket; false turns it off. */
  rateLimit?: RateLimitOptions | false;
  /** Wrong admin tokens on `/api` allowed per client address (a bucket of failures); false turns it off. */
  authRateLimit?: RateLimitOptions | false;
  /** How long a GM event or "poll now" waits for the poll to finish before answering. Default 20 s. */
  pollWaitMs?: number;
}

/** What the commands (src/app) get from the web app's dependencies. */
export function commandDepsOf(deps: AppDeps): CommandDeps {
  const { store, env, log } = deps;
  const box = env.secretKey ? new SecretBox(env.secretKey) : null;
  const http = new PublishHttp({
    timeoutMs: deps.publish?.timeoutMs ?? 30_000,
    allowPrivateHosts: env.allowPrivateHosts,
  });
  const now = deps.now ?? systemClock.now;
  const publish: PublishDeps = {
    store,
    publisherFor: async (game) =>
      publisherFor(game, game.engine ?? (await store.tallies.latest(game.id))?.tally.engine ?? null, {
        http,
        box,
        ...(deps.scrubber ? { scrubber: deps.scrubber } : {}),
      }),
    ...(log ? { log } : {}),
    ...(deps.publish?.maxAttempts !== undefined ? { maxAttempts: deps.publish.maxAttempts } : {}),
    ...(deps.publish?.backoffMs !== undefined ? { backoffMs: deps.publish.backoffMs } : {}),
    ...(deps.publish?.recheckMs !== undefined ? { recheckMs: deps.publish.recheckMs } : {}),
    ...(deps.publish?.sleep ? { sleep: deps.publish.sleep } : {}),
    ...(deps.publish?.claimMs !== undefined ? { claimMs: deps.publish.claimMs } : {}),
    now,
  };
  return {
    store,
    poller: deps.poller,
    clock: { now, sleep: systemClock.sleep },
    box,
    allowPrivateHosts: env.allowPrivateHosts,
    publish,
    ...(log ? { log } : {}),
    ...(deps.pollWaitMs !== undefined ? { pollWaitMs: deps.pollWaitMs } : {}),
  };
}
