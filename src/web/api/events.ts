import { Hono } from 'hono';
import { recordEvent } from '../../app/events.js';
import { gameOr404 } from '../../app/games.js';
import { idParam, jsonBody } from '../errors.js';
import type { ApiDeps, ApiEnv } from './deps.js';
import { recordedJson } from './json.js';

/** `/games/:id/events`: the GM's events of a game; recording one recounts. */
export function eventsRoutes({ store, commands }: ApiDeps): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();

  api.get('/games/:id/events', async (c) => {
    const game = await gameOr404(commands, idParam(c));
    return c.json({ events: await store.events.list(game.id) });
  });

  api.post('/games/:id/events', async (c) => {
    const r = await recordEvent(commands, c.get('actor'), idParam(c), await jsonBody(c));
    return c.json(
      {
        ...recordedJson(r),
      },
      201,
    );
  });

  return api;
}
