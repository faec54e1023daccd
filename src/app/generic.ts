import { z } from 'zod';
import { genericStanding, hostOf, type GenericStanding } from '../game/generic-check.js';
import type { Game } from '../model/game.js';
import type { LearnedProfile } from '../model/generic-check.js';
import { recordAudit } from '../store/audit-repo.js';
import { storeOn } from '../store/open-store.js';
import { kickPoll, type CommandDeps } from './deps.js';
import { Conflict, NotFound, parseInput } from './errors.js';
import { gameOr404 } from './games.js';

/**
 * The GM's check of a generic reading (issue #26): a game no adapter reads is polled only
 * once the GM has compared three posts of page 1, as Votal read them, with the thread.
 * The poll reads page 1 and waits (src/game/generic-check.ts); `confirmGenericReading`
 * keeps what it found as the host's site profile and lets the game be polled.
 */

/** Where a game read generically stands (null for a game an engine's adapter reads). */
export async function genericReading(
  deps: Pick<CommandDeps, 'store'>,
  gameId: number,
): Promise<{ game: Game; standing: GenericStanding | null }> {
  const game = await gameOr404(deps, gameId);
  if (game.engine !== 'generic') return { game, standing: null };
  const [check, learned, held] = await Promise.all([
    deps.store.siteProfiles.check(game.id),
    deps.store.siteProfiles.learned(new URL(game.threadUrl).hostname),
    deps.store.audit.list({ gameId: game.id, action: 'generic.held', limit: 1 }),
  ]);
  const forgotten = held[0] ? { by: held[0].actor, at: held[0].at } : null;
  return { game, standing: genericStanding(game, check, learned, forgotten) };
}

export const ConfirmReading = z.strictObject({
  /**
   * When the reading the GM checked was made (`check.readAt`): a reading made again since
   * (the thread was read anew) is not confirmed unseen.
   */
  readAt: z.iso.datetime({ offset: true }).optional(),
});
export type ConfirmReading = z.input<typeof ConfirmReading>;

export interface Confirmed {
  game: Game;
  learned: LearnedProfile;
}

/**
 * The GM confirms page 1's generic reading: the check is marked confirmed by the GM, what
 * it found becomes the host's site profile (later polls read with its plain selectors), and
 * the game is polled now. Audited `generic.confirm` with the GM's name, in one transaction.
 */
export async function confirmGenericReading(
  deps: CommandDeps,
  actor: string,
  gameId: number,
  given: ConfirmReading = {},
): Promise<Confirmed> {
  const input = parseInput(ConfirmReading, given);
  const game = await gameOr404(deps, gameId);
  if (game.engine !== 'generic') {
    throw new Conflict(`game ${game.id} is read by the ${game.engine ?? 'unknown'} engine's adapter, not generically`, {
      engine: game.engine,
    });
  }
  const check = await deps.store.siteProfiles.check(game.id);
  if (!check) throw new NotFound('generic check', game.id);
  if (check.confirmedAt !== null) {
    throw new Conflict(`page 1 of game ${game.id} was confirmed already, by ${check.confirmedBy}`, {
      confirmedBy: check.confirmedBy,
      confirmedAt: check.confirmedAt,
    });
  }
  if (input.readAt !== undefined && Date.parse(input.readAt) !== Date.parse(check.readAt)) {
    throw new Conflict('page 1 was read again since you looked: check the new reading', { readAt: check.readAt });
  }
  const now = deps.clock.now();
  const learned = await deps.store.sql.transaction(async (tx) => {
    const on = storeOn(tx);
    const { learned } = await on.siteProfiles.confirm(game.id, actor, now);
    const f = check.finding;
    await recordAudit(tx, {
      gameId: game.id,
      actor,
      action: 'generic.confirm',
      detail: {
        host: check.host,
        page: f.pageUrl,
        posts: f.posts,
        authors: f.authors,
        checked: f.samples.map((s) => s.number),
        selectors: learned.profile['selectors'] ?? null,
      },
    });
    await on.games.setNextPoll(game.id, now);
    return learned;
  });
  deps.log?.info({ gameId: game.id, host: check.host }, 'generic reading confirmed');
  if (game.status === 'active') kickPoll(deps, game.id);
  return { game, learned };
}

/**
 * The forum's layout changed (the learned selectors stop matching, a poll error says so):
 * the GM has page 1 read generically again and checks it once more. The host's learned
 * profile is forgotten, and the game's check with it. The profile is the host's: every other
 * game on that host read with it (active or paused, read generically) is held too, never
 * read silently with a forgotten layout. Each is audited `generic.held` naming the game that
 * asked, its standing says why, and the active ones are polled now: page 1 is read for their
 * own GM's check (the gate, src/game/generic-check.ts). A held game not polled before a
 * layout is confirmed again for the host (a paused one) is read with that one, as any game on
 * a host with a kept layout. Audited `generic.recheck` with the profile forgotten and the
 * games held; the game's next poll reads page 1.
 */
export async function recheckGenericReading(
  deps: CommandDeps,
  actor: string,
  gameId: number,
): Promise<{ game: Game; held: Game[] }> {
  const game = await gameOr404(deps, gameId);
  if (game.engine !== 'generic') {
    throw new Conflict(`game ${game.id} is read by the ${game.engine ?? 'unknown'} engine's adapter, not generically`, {
      engine: game.engine,
    });
  }
  const host = hostOf(game.threadUrl);
  const now = deps.clock.now();
  const held = await deps.store.sql.transaction(async (tx) => {
    const on = storeOn(tx);
    const forgotten = await on.siteProfiles.forget(host);
    await on.siteProfiles.forgetCheck(game.id);
    const others = forgotten
      ? (await on.games.list()).filter(
          (g) =>
            g.id !== game.id &&
            g.engine === 'generic' &&
            (g.status === 'active' || g.status === 'paused') &&
            hostOf(g.threadUrl) === host,
        )
      : [];
    await recordAudit(tx, {
      gameId: game.id,
      actor,
      action: 'generic.recheck',
      detail: {
        host,
        forgotten: forgotten ? (forgotten.profile['selectors'] ?? null) : null,
        held: others.map((g) => g.id),
      },
    });
    for (const other of others) {
      await recordAudit(tx, {
        gameId: other.id,
        actor,
        action: 'generic.held',
        detail: { host, askedIn: game.id, confirmedBy: forgotten?.confirmedBy ?? null },
      });
      if (other.status === 'active') await on.games.setNextPoll(other.id, now);
    }
    await on.games.setNextPoll(game.id, now);
    return others;
  });
  if (game.status === 'active') kickPoll(deps, game.id);
  for (const other of held) if (other.status === 'active') kickPoll(deps, other.id);
  return { game, held };
}
