import type { Context, MiddlewareHandler } from 'hono';
import type { BookReader } from '../app/forum-book.js';
import { actorOf, type Gm } from '../model/gm.js';
import type { Game } from '../model/game.js';
import type { GmsRepo } from '../store/gms-repo.js';
import type { DraftsRepo } from '../store/drafts-repo.js';
import { requireAdmin } from './auth.js';
import { rowIdParam } from './ids.js';
import type { RateLimitOptions } from './rate-limit.js';
import { sameSecret, sessionIdOf, type GmAuth } from './gm-sessions.js';

/**
 * Who may see which game: the one place that decides it.
 *
 * - The instance admin (signed in, or the API's bearer token) sees every game.
 * - Any other GM sees the games they own or co-host; every other game answers 404 (never
 *   403: a GM does not learn that a game exists). `gameGuard` is mounted on every route
 *   keyed by a game or a draft id, `visibleGames` filters the lists, `bookReaderOf` says
 *   whose games a page spanning games (the forum's nickname book) may name.
 */

/** The request's variables once access is settled. `gm` unset: the API's bearer admin token. */
export type AccessVariables = { gm?: Gm; actor: string };

/** What the audit names for the API's bearer token (whoever holds it). */
const TOKEN_ACTOR = 'gm';

/** The header a session-authenticated API request carries its CSRF token in (a form field elsewhere). */
const CSRF_HEADER = 'x-votal-csrf';

/** Whether `gm` sees every game: the admin, or no GM at all (the bearer admin token). */
const seesAll = (gm: Gm | undefined): boolean => gm === undefined || gm.admin;

/** The games of `all` that `gm` may see. */
export async function visibleGames(gms: GmsRepo, gm: Gm | undefined, all: Game[]): Promise<Game[]> {
  if (seesAll(gm)) return all;
  const mine = new Set(await gms.gameIds(gm!.id));
  return all.filter((game) => mine.has(game.id));
}

/**
 * Who reads what spans games (the forum's nickname book, src/app/forum-book.ts): the admin
 * every game, any other GM the games they own or co-host.
 */
export async function bookReaderOf(gms: GmsRepo, gm: Gm | undefined): Promise<BookReader> {
  if (seesAll(gm)) return { all: true, games: new Set() };
  return { all: false, games: new Set(await gms.gameIds(gm!.id)) };
}

/** Whether `gm` may delete the game with this id: its owner, or the admin. */
export async function deletesGame(gms: GmsRepo, gm: Gm | undefined, gameId: number): Promise<boolean> {
  return seesAll(gm) || (await gms.roleIn(gameId, gm!.id)) === 'owner';
}

/** Whether `gm` may see the game with this id. */
async function seesGame(gms: GmsRepo, gm: Gm | undefined, gameId: number): Promise<boolean> {
  return seesAll(gm) || (await gms.roleIn(gameId, gm!.id)) !== null;
}

export interface GuardDeps {
  gms: GmsRepo;
  drafts: Pick<DraftsRepo, 'get'>;
}

/**
 * 404 unless the request's GM may see the game named by the route: `:id` of a game route,
 * or the game of the draft `:id` of a draft route (`kind`). The id is read by the parser
 * every handler uses (ids.ts); what it refuses (`0002`, `+2`, `2e0`, ...) is a 404 here, for
 * every caller, the admin included: nothing is left to the handler.
 */
export function gameGuard(
  deps: GuardDeps,
  kind: 'game' | 'draft',
  notFound: (c: Context) => Response | Promise<Response>,
): MiddlewareHandler {
  return async (c, next) => {
    const gm = c.get('gm') as Gm | undefined;
    const id = rowIdParam(c);
    if (id === null) return notFound(c);
    if (seesAll(gm)) return next();
    const gameId = kind === 'game' ? id : (await deps.drafts.get(id))?.gameId;
    if (gameId === undefined || !(await seesGame(deps.gms, gm, gameId))) return notFound(c);
    return next();
  };
}

/**
 * Deleting a game is its owner's (or the admin's) decision: a co-host runs the game but gets
 * 403 here (they see the game, so a 404 would hide nothing). Only `methods` are checked;
 * mounted behind `gameGuard`, so an id it cannot parse never gets here (refused if it did).
 */
export function ownerOnly(
  gms: GmsRepo,
  methods: readonly string[],
  refuse: (c: Context) => Response | Promise<Response>,
): MiddlewareHandler {
  return async (c, next) => {
    const gm = c.get('gm') as Gm | undefined;
    if (!methods.includes(c.req.method) || seesAll(gm)) return next();
    const id = rowIdParam(c);
    return id !== null && (await gms.roleIn(id, gm!.id)) === 'owner' ? next() : refuse(c);
  };
}

/**
 * The API's door: `Authorization: Bearer <admin token>` (full access, actor `gm`, wrong
 * tokens throttled as before), or a GM's session cookie (their games only, actor
 * `gm:<name>`; anything but GET carries the session's CSRF token in `X-Votal-CSRF`).
 */
export function apiAccess(auth: GmAuth, adminToken: string, throttle: RateLimitOptions | false): MiddlewareHandler {
  const bearer = requireAdmin(adminToken, throttle);
  return async (c, next) => {
    if (c.req.header('authorization') === undefined && sessionIdOf(c) !== undefined) {
      const session = await auth.get(sessionIdOf(c));
      if (session) {
        const safe = c.req.method === 'GET' || c.req.method === 'HEAD';
        if (!safe && !sameSecret(c.req.header(CSRF_HEADER) ?? '', session.csrf)) {
          const error = `a signed-in GM's ${c.req.method} needs the session's CSRF token in ${CSRF_HEADER}`;
          return c.json({ error }, 403);
        }
        c.set('gm', session.gm);
        c.set('actor', actorOf(session.gm));
        return next();
      }
    }
    return bearer(c, async () => {
      c.set('actor', TOKEN_ACTOR);
      await next();
    });
  };
}
