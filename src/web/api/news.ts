import { Hono } from 'hono';
import { gameOr404 } from '../../app/games.js';
import { gameRuleset } from '../../game/game-ruleset.js';
import { gmNews, NEWS_DISMISS, newsReadsBodyOf } from '../../game/gm-news.js';
import { withBodies } from '../../game/post-bodies.js';
import { idParam } from '../errors.js';
import type { ApiDeps, ApiEnv } from './deps.js';

/** `/games/:id/news`: what the GM's own posts announced that the game does not hold yet (proposals only). */
export function newsRoutes({ store, commands }: ApiDeps): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();

  api.get('/games/:id/news', async (c) => {
    const game = await gameOr404(commands, idParam(c));
    const [heads, events, audit] = await Promise.all([
      store.posts.headsOf(game.id),
      store.events.list(game.id),
      store.audit.list({ gameId: game.id, action: NEWS_DISMISS, limit: 100_000 }),
    ]);
    // Only the GM's own posts are read for news: their bodies, no one else's.
    const posts = await withBodies(store.posts, heads, newsReadsBodyOf(game.settings, heads));
    return c.json(gmNews({ game, ruleset: gameRuleset(game), posts, events, audit }));
  });

  return api;
}
