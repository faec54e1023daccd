import { Hono } from 'hono';
import { gameOr404 } from '../../app/games.js';
import { idParam } from '../errors.js';
import type { ApiDeps, ApiEnv } from './deps.js';

/** `/games/:id/audit`: what was done to a game, by whom, newest first. */
export function auditRoutes({ store, commands }: ApiDeps): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();

  api.get('/games/:id/audit', async (c) => {
    const game = await gameOr404(commands, idParam(c));
    const limit = Math.min(1000, Math.max(1, Number(c.req.query('limit') ?? 100) || 100));
    return c.json({ audit: await store.audit.list({ gameId: game.id, limit }) });
  });

  return api;
}
