import { z } from 'zod';
import { siteOf } from '../game/book-roster.js';
import type { Game } from '../model/game.js';
import type { Roster } from '../model/roster.js';
import { nameKey } from '../parse/name-form.js';
import { storeOn, type Repos } from '../store/open-store.js';
import { recountAfter, type CommandDeps, type Recount } from './deps.js';
import { NotFound, parseInput } from './errors.js';

export { rosterWithBook, siteOf } from '../game/book-roster.js';

/**
 * The forum's nickname book in the app (issue #24): a nickname the GM accepted (a count's
 * lesson) or typed for a player's forum name is kept for the game's site (the thread's host);
 * a later game on the site whose roster has that forum name reads the nickname as the player,
 * shown as a nickname from that game (src/parse/nicknames.ts keeps "never guess"). The GM can
 * drop a known nickname for one game.
 */

/** A game's name in the book: its title, else its number. */
export const bookTitle = (game: Pick<Game, 'id' | 'settings'>): string => game.settings.title ?? `#${game.id}`;

/** Records a nickname of the slot's forum name in the game's site's book (no-op when known). */
export async function learnNickname(
  on: Pick<Repos, 'nicknames'>,
  game: Pick<Game, 'id' | 'threadUrl' | 'settings'>,
  forumName: string,
  nickname: string,
  actor: string,
  at: Date,
): Promise<boolean> {
  const site = siteOf(game.threadUrl);
  if (site === '' || nameKey(nickname) === nameKey(forumName)) return false;
  return on.nicknames.learn(
    {
      site,
      forumName,
      forumKey: nameKey(forumName),
      nickname,
      nicknameKey: nameKey(nickname),
      fromGame: game.id,
      fromTitle: bookTitle(game),
    },
    actor,
    at,
  );
}

/** The aliases a GM typed in a roster, each kept in the site's book for the slot's forum name. */
export async function learnTyped(
  on: Pick<Repos, 'nicknames'>,
  game: Pick<Game, 'id' | 'threadUrl' | 'settings'>,
  roster: Roster,
  actor: string,
  at: Date,
): Promise<void> {
  for (const slot of roster)
    for (const alias of slot.aliases) await learnNickname(on, game, slot.name, alias, actor, at);
}

/** A known nickname of the game, as the GM sees it. */
export interface GameNickname {
  player: string;
  nickname: string;
  from: string;
}

export function gameNicknames(game: Pick<Game, 'roster'>): GameNickname[] {
  return game.roster.flatMap((s) =>
    (s.nicknames ?? []).map((n) => ({ player: s.name, nickname: n.name, from: n.from })),
  );
}

export const NicknameDrop = z.strictObject({
  player: z.string().min(1),
  nickname: z.string().min(1),
});

/**
 * The GM drops a known nickname for this game: it is taken off the slot, recorded so that
 * the book does not bring it back, audited, and the game recounted (its votes go to review).
 * The site's book keeps it for other games.
 */
export async function dropNickname(
  deps: CommandDeps,
  actor: string,
  gameId: number,
  given: unknown,
): Promise<{ dropped: GameNickname; recount: Recount }> {
  const input = parseInput(NicknameDrop, given);
  const game = await deps.store.games.get(gameId);
  if (!game) throw new NotFound('game', gameId);
  const found = gameNicknames(game).find(
    (n) => n.player === input.player && nameKey(n.nickname) === nameKey(input.nickname),
  );
  if (!found) throw new NotFound('known nickname', `"${input.nickname}" of ${input.player}`);
  const at = deps.clock.now();
  const roster = game.roster.map((s) => {
    if (s.name !== found.player) return s;
    const { nicknames, ...rest } = s;
    const kept = (nicknames ?? []).filter((n) => nameKey(n.name) !== nameKey(found.nickname));
    return kept.length > 0 ? { ...rest, nicknames: kept } : rest;
  });
  const changed = await deps.store.sql.transaction(async (tx) => {
    const on = storeOn(tx);
    const d = { forumName: found.player, nickname: found.nickname };
    await on.nicknames.drop(
      game.id,
      { ...d, forumKey: nameKey(d.forumName), nicknameKey: nameKey(d.nickname) },
      actor,
      at,
    );
    const saved = await on.games.setRoster(game.id, roster, actor);
    await on.audit.record({ gameId: game.id, actor, action: 'game.nickname-drop', detail: { ...found } });
    return saved;
  });
  return { dropped: found, recount: await recountAfter(deps, changed, 'change') };
}
