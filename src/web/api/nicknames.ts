import { Hono } from 'hono';
import { dropNickname, gameNicknames } from '../../app/nicknames.js';
import { NotFoundError } from '../../store/errors.js';
import { idParam, jsonBody } from '../errors.js';
import type { ApiDeps, ApiEnv } from './deps.js';

/**
 * `/games/:id/nicknames`: the nicknames this game knows from earlier games on its site (the
 * forum's nickname book), GM routes guarded like every `/games/:id` route. `POST
 * /games/:id/nicknames/drop` with `{ player, nickname }` drops one for this game (recounted).
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

  return api;
}
