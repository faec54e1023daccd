import type { SecretBox } from '../config/secrets.js';
import type { Logger } from '../log/logger.js';
import type { Game } from '../model/game.js';
import type { PublishDeps } from '../publish/publish-draft.js';
import type { Repos } from '../store/open-store.js';
import type { Sql } from '../store/sql.js';

/** What a command needs of the poller (src/jobs/poller.ts `Poller`). */
export interface PollerPort {
  pollNow(gameId: string): Promise<void>;
}

/** The time a command sees; tests pass a fake one. `sleep` waits on the same clock. */
export interface Clock {
  now(): Date;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Everything a command may use, passed in explicitly. */
export interface CommandDeps {
  store: Repos & { sql: Sql };
  poller: PollerPort;
  clock: Clock;
  /** Seals forum credentials; null when VOTAL_SECRET_KEY is unset (credentials are refused). */
  box: SecretBox | null;
  /** Thread and webhook URLs on private or loopback addresses are allowed (tests, local forums). */
  allowPrivateHosts: boolean;
  /** Publishing an approved draft (src/publish/publish-draft.ts). */
  publish: PublishDeps;
  log?: Logger;
  /** How long a change that recounts waits for the poll to finish before answering. Default 20 s. */
  pollWaitMs?: number;
}

/**
 * Asks the poller to poll the game now and waits (at most `pollWaitMs`) until a poll that
 * started after the request has finished: one more poll, or two when one was running
 * already (it may have folded before the change). Null when it finished; else what to tell the GM.
 */
export async function pollAndWait(deps: CommandDeps, gameId: number): Promise<string | null> {
  const { store, clock } = deps;
  const waitMs = deps.pollWaitMs ?? 20_000;
  const before = await store.polls.get(gameId);
  const running =
    before.leaseOwner !== null && before.leaseUntil !== null && Date.parse(before.leaseUntil) > clock.now().getTime();
  const target = before.polls + (running ? 2 : 1);
  try {
    await deps.poller.pollNow(String(gameId));
  } catch (error) {
    return `could not ask for a poll: ${(error as Error).message}`;
  }
  // The wait is counted in the clock's sleeps: a fake clock makes it exact, a fixed one cannot make it endless.
  for (let waited = 0; waited < waitMs; waited += 100) {
    if ((await store.polls.get(gameId)).polls >= target) return null;
    await clock.sleep(100);
  }
  return `the poll is queued but did not finish within ${Math.round(waitMs / 1000)} s; the count follows`;
}

/** How a change to the count's basis was recounted: done, or why not yet. */
export interface Recount {
  done: boolean;
  note: string | null;
}

/**
 * The recount after a change to what the count depends on (`what`: "change", "event"): an
 * active game is polled now and the answer waits for it (`pollAndWait`); any other game
 * counts it from the next poll after it is resumed.
 */
export async function recountAfter(deps: CommandDeps, game: Game, what: string): Promise<Recount> {
  const note =
    game.status === 'active'
      ? await pollAndWait(deps, game.id)
      : `the game is ${game.status}: the ${what} counts from the next poll after it is resumed`;
  return { done: note === null, note };
}

/** Asks for a poll and does not wait; a failure is logged (the next scheduled poll comes anyway). */
export function kickPoll(deps: CommandDeps, gameId: number): void {
  deps.poller
    .pollNow(String(gameId))
    .catch((error: unknown) => deps.log?.warn({ err: error, gameId }, 'poll after a change failed'));
}
