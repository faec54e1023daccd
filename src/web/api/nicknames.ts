import { Hono } from 'hono';
import { forgetNickname, forumBooks } from '../../app/forum-book.js';
import { dropNickname, gameNicknames } from '../../app/nicknames.js';
import { NotFoundError } from '../../store/errors.js';
import { idParam, jsonBody } from '../errors.js';
import { bookReaderOf } from '../gm-access.js';
import type { ApiDeps, ApiEnv } from './deps.js';

/**
 * `/games/:id/nicknames`: the nicknames this game knows from earlier games on its site (the
 * forum's nickname book), GM routes guarded like every `/games/:id` route. `POST
 * /games/:id/nicknames/drop` with `{ player, nickname }` drops one for this game (recounted).
 *
 * `/nicknames` (`?site=host` for one): the forum's whole book by site, as the caller may see it
 * (src/app/forum-book.ts); `POST /nicknames/forget` with `{ site, forumName, nickname }` forgets
 * one for every game of the forum (403 when it is another GM's; the games that read it recount).
 */
export function nicknamesRoutes({ store, commands }: ApiDeps): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();

  api.get('/games/:id/nicknames', async (c) => {
    const game = await store.games.get(idParam(c));
    if (!game) throw new NotFoundError('game', idParam(c));
    return c.json({ nicknames: gameNicknames(game) });
  });

  api.post('/games/:id/nicknames/drop', async (c) => {
    const r = await dropNickname(commands, c.get('actor'), idParam(c), await jsonBody(c));
    return c.json(r);
  });

  api.get('/nicknames', async (c) => {
    const reader = await bookReaderOf(store.gms, c.get('gm'));
    return c.json({ sites: await forumBooks(commands, reader, c.req.query('site')) });
  });

  api.post('/nicknames/forget', async (c) => {
    const reader = await bookReaderOf(store.gms, c.get('gm'));
    return c.json(await forgetNickname(commands, c.get('actor'), reader, await jsonBody(c)));
  });

  return api;
}
