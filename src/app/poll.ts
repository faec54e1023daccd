import { pollAndWait, type CommandDeps } from './deps.js';
import { Conflict } from './errors.js';
import { gameOr404 } from './games.js';

export interface Polled {
  /** The poll finished before the answer; else `note` says why not (`queued` when not waited for). */
  polled: boolean;
  note: string | null;
}

/** Reads the game's thread now (an active game only); `wait: false` only asks. */
export async function pollNow(deps: CommandDeps, gameId: number, opts: { wait?: boolean } = {}): Promise<Polled> {
  const game = await gameOr404(deps, gameId);
  if (game.status !== 'active')
    throw new Conflict(`game ${game.id} is ${game.status}; resume it to poll`, { status: game.status });
  const waiting = game.engine === 'generic' ? await deps.store.siteProfiles.check(game.id) : null;
  if (waiting && waiting.confirmedAt === null) {
    throw new Conflict(`game ${game.id} is not polled until you check page 1 as the generic reader read it`, {
      check: 'waiting',
    });
  }
  if (opts.wait === false) {
    await deps.poller.pollNow(String(game.id));
    return { polled: false, note: 'queued' };
  }
  const note = await pollAndWait(deps, game.id);
  return { polled: note === null, note };
}
