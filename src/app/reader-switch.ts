import { adapterOf } from '../../scrapers/identify.js';
import type { EngineId } from '../model/engine.js';
import type { Game } from '../model/game.js';
import { storeOn } from '../store/open-store.js';
import { kickPoll, type CommandDeps } from './deps.js';
import { Conflict } from './errors.js';
import { gameOr404 } from './games.js';

/**
 * The GM trades a game's reader (issue #26): when the engine's adapter finds no posts where
 * its layout should be (a theme moved its landmarks), the poll's error offers the generic
 * reader, and the GM may take it; never switched silently. The generic reader's gate then
 * holds the game as for any game read generically (page 1 read for the GM's check, confirmed,
 * then polled: src/game/generic-check.ts). The way back is open while the GM changes their
 * mind. Posts already stored stay, and a reading by the other reader keeps their ids
 * (src/game/reader-switch.ts): nothing is counted twice.
 */

/** What the GM may do with the game's reader now. */
export interface ReaderChoice {
  /** The engine whose layout its adapter did not find on the last poll: the generic reader is offered. */
  offer: EngineId | null;
  /** The game was switched to the generic reader from this engine's adapter (null: never identified), when. */
  switchedFrom: { engine: EngineId | null; at: string } | null;
  /** The way back is open: the game is read generically since the GM switched it. */
  canSwitchBack: boolean;
  /** The offered or the way back's engine as the GM knows it ("XenForo 2"), or null. */
  adapterName: string | null;
}

export async function readerChoice(
  deps: Pick<CommandDeps, 'store'>,
  gameId: number,
): Promise<{ game: Game; choice: ReaderChoice }> {
  const game = await gameOr404(deps, gameId);
  const { state } = await deps.store.polls.get(game.id);
  const switchedFrom = state.switchedFrom ?? null;
  const offer = game.engine === 'generic' ? null : (state.genericOffer ?? null);
  const back = backTo(game, switchedFrom);
  const named = offer ?? back ?? null;
  return {
    game,
    choice: {
      offer,
      switchedFrom,
      canSwitchBack: back !== undefined,
      adapterName: named ? adapterOf(named).descriptor.name : null,
    },
  };
}

/** The engine a game switched to the generic reader goes back to; undefined where it was not switched. */
function backTo(game: Game, switchedFrom: ReaderChoice['switchedFrom']): EngineId | null | undefined {
  if (game.engine !== 'generic' || !switchedFrom || switchedFrom.engine === 'generic') return undefined;
  return switchedFrom.engine;
}

/**
 * The GM takes the generic reading the last poll offered: the game's engine becomes
 * `generic` (audited `game.engine`, with the engine whose layout was not found), an earlier
 * check of page 1 is forgotten, and the game is polled now: the generic gate reads page 1
 * for the GM's check unless the host's layout is kept already. Refused (409) where nothing
 * was offered: the adapter reads the thread, or the game is read generically already.
 */
export async function switchToGeneric(deps: CommandDeps, actor: string, gameId: number): Promise<{ game: Game }> {
  const { game, choice } = await readerChoice(deps, gameId);
  if (game.engine === 'generic') {
    throw new Conflict(`game ${game.id} is read generically already`, { engine: game.engine });
  }
  if (choice.offer === null) {
    throw new Conflict(
      `the generic reader is offered only when the engine's adapter finds no posts where its layout should be; the last poll of game ${game.id} did not fail so`,
      { engine: game.engine },
    );
  }
  const now = deps.clock.now();
  const poll = await deps.store.polls.get(game.id);
  const switched = await deps.store.sql.transaction(async (tx) => {
    const on = storeOn(tx);
    const changed = await on.games.setEngine(game.id, 'generic', actor, {
      offeredFor: choice.offer,
      error: poll.lastError,
    });
    await on.polls.mergeState(game.id, {
      genericOffer: null,
      switchedFrom: { engine: game.engine, at: now.toISOString() },
    });
    await on.siteProfiles.forgetCheck(game.id);
    await on.games.setNextPoll(game.id, now);
    return changed;
  });
  deps.log?.info({ gameId: game.id, from: game.engine }, 'switched to the generic reader');
  if (switched.status === 'active') kickPoll(deps, game.id);
  return { game: switched };
}

/**
 * The way back: a game the GM switched to the generic reader is read by its engine's adapter
 * again (audited `game.engine`), its check of page 1 forgotten (the host's learned layout
 * stays: it is the host's), and polled now. Posts the generic reader stored keep their ids
 * when the adapter reads them. Refused (409) for a game that was not switched.
 */
export async function switchToAdapter(deps: CommandDeps, actor: string, gameId: number): Promise<{ game: Game }> {
  const { game, choice } = await readerChoice(deps, gameId);
  const engine = backTo(game, choice.switchedFrom);
  if (engine === undefined) {
    throw new Conflict(
      game.engine === 'generic'
        ? `game ${game.id} was added to be read generically: name its engine in its settings instead`
        : `game ${game.id} is read by the ${game.engine ?? 'identified'} engine's adapter already`,
      { engine: game.engine },
    );
  }
  const now = deps.clock.now();
  const back = await deps.store.sql.transaction(async (tx) => {
    const on = storeOn(tx);
    const changed = await on.games.setEngine(game.id, engine, actor, { back: true });
    await on.polls.mergeState(game.id, {
      genericOffer: null,
      switchedFrom: { engine: 'generic', at: now.toISOString() },
    });
    await on.siteProfiles.forgetCheck(game.id);
    await on.games.setNextPoll(game.id, now);
    return changed;
  });
  deps.log?.info({ gameId: game.id, to: engine }, 'switched back to the engine adapter');
  if (back.status === 'active') kickPoll(deps, game.id);
  return { game: back };
}
