import { z } from 'zod';
import { ADMIN_NAME, GmName } from '../model/gm.js';
import type { Game } from '../model/game.js';
import type { GameGm } from '../store/gms-repo.js';
import { storeOn, type Repos } from '../store/open-store.js';
import { recountAfter, type CommandDeps, type Recount } from './deps.js';
import { Invalid, NotFound, parseInput } from './errors.js';
import { gameOr404 } from './games.js';

/**
 * A game's co-hosts: invited GM accounts who run the game with its owner, and each one's
 * name on the forum (`settings.cohostForumNames`). That name makes them a host in the count
 * (gm-news.ts `gmNames`: never a "non-player", their vote counts not votes), so a change to
 * it changes the count's basis and recounts at once, as a change to the players does.
 * Who may add and remove co-hosts (the owner, the admin) is the web's guard, not these.
 */

/** A co-host's name on the forum; empty or null: none. */
const ForumName = z
  .string()
  .trim()
  .max(100, { message: 'a forum name has 100 characters at most' })
  .nullable()
  .transform((name) => (name === '' ? null : name));

export const CohostInput = z.strictObject({
  /** Their GM name on this instance (as the admin invited them). */
  name: z.string().trim().min(1, { message: 'name the GM to add' }),
  /** Their forum name; absent: the one they have stays. */
  forum: ForumName.optional(),
});
export type CohostInput = z.input<typeof CohostInput>;

export const CohostForumInput = z.strictObject({ forum: ForumName });
export type CohostForumInput = z.input<typeof CohostForumInput>;

export interface CohostChanged {
  member: GameGm;
  /** Their forum name in the game after the change (null: none). */
  forum: string | null;
  /** Null when the hosts' forum names did not change (nothing to recount). */
  recount: Recount | null;
}

/** Adds a GM as the game's co-host (an owner stays owner), with their forum name when given. */
export async function addCohost(
  deps: CommandDeps,
  actor: string,
  gameId: number,
  given: CohostInput,
): Promise<CohostChanged> {
  const input = parseInput(CohostInput, given);
  const game = await gameOr404(deps, gameId);
  // The admin sees every game already: co-hosts are invited GMs.
  const named = input.name.toLowerCase() !== ADMIN_NAME && GmName.safeParse(input.name).success;
  const found = named ? await deps.store.gms.credentials(input.name) : null;
  if (!found || found.revokedAt) {
    throw Invalid.field('name', `No GM is called "${input.name}". Ask the instance admin to invite them first.`);
  }
  return hostsChange(deps, actor, game, found.name, input.forum, (on) =>
    on.gms.addToGame(game.id, found.id, 'cohost', actor, deps.clock.now()),
  );
}

/** Removes a co-host from the game and forgets their forum name (their posts are a poster's again). */
export async function removeCohost(
  deps: CommandDeps,
  actor: string,
  gameId: number,
  gmId: number,
): Promise<CohostChanged> {
  const game = await gameOr404(deps, gameId);
  const member = await memberOr404(deps, game.id, gmId);
  return hostsChange(deps, actor, game, member.gm.name, null, async (on) => {
    await on.gms.removeFromGame(game.id, gmId, actor);
    return member;
  });
}

/** Sets (or, with null, forgets) the forum name of one of the game's GMs. */
export async function setCohostForumName(
  deps: CommandDeps,
  actor: string,
  gameId: number,
  gmId: number,
  given: CohostForumInput,
): Promise<CohostChanged> {
  const input = parseInput(CohostForumInput, given);
  const game = await gameOr404(deps, gameId);
  const member = await memberOr404(deps, game.id, gmId);
  return hostsChange(deps, actor, game, member.gm.name, input.forum, async () => member);
}

/**
 * One change to the game's GMs and the forum names kept for them, in one transaction (a
 * refusal on the way leaves both as they were); then, when the hosts' names changed, the
 * recount. `forum` undefined keeps the name the GM has.
 */
async function hostsChange(
  deps: CommandDeps,
  actor: string,
  game: Game,
  gmName: string,
  forum: string | null | undefined,
  write: (on: Repos) => Promise<GameGm>,
): Promise<CohostChanged> {
  const before = game.settings.cohostForumNames ?? {};
  const names = { ...before };
  if (forum === null) delete names[gmName];
  else if (forum !== undefined) names[gmName] = forum;
  const changed = before[gmName] !== names[gmName];
  const member = await deps.store.sql.transaction(async (tx) => {
    const on = storeOn(tx);
    const done = await write(on);
    if (changed) {
      const value = Object.keys(names).length ? names : null;
      await on.games.updateSettings(game.id, { settings: { cohostForumNames: value } }, actor, {
        cohostForumNames: { gm: gmName, forum: names[gmName] ?? null },
      });
    }
    return done;
  });
  return {
    member,
    forum: names[gmName] ?? null,
    recount: changed ? await recountAfter(deps, game, 'change') : null,
  };
}

/** One of the game's GMs, by id: a 404 for any other. */
async function memberOr404(deps: CommandDeps, gameId: number, gmId: number) {
  const member = (await deps.store.gms.ofGame(gameId)).find((m) => m.gm.id === gmId);
  if (!member) throw new NotFound('co-host', gmId);
  return member;
}
