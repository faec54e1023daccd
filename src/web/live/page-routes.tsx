import { Hono, type Context } from 'hono';
import type { Game } from '../../model/game.js';
import { slugOf } from '../ids.js';
import type { UiStore } from '../ui/game-data.js';
import { ErrorPage } from '../ui/pages/error-page.js';
import type { LiveRenders } from './live-render.js';

export interface LivePageDeps {
  store: UiStore;
  now: () => Date;
  /** The render cache every request of a game's page and fragment shares. */
  renders: LiveRenders;
}

/**
 * The players' live page (`/g/:slug`) and its `#live` part alone (`/g/:slug/fragment`), which
 * live.js swaps in when the event stream (stream-route.ts) says the game changed, or polls
 * while that stream is down. Mounted by the dashboard's app, whose headers (CSP) and error
 * page cover it.
 */
export function livePageRoutes({ store, now, renders }: LivePageDeps): Hono {
  const app = new Hono();
  // Only a slug can name a game here: anything else is not looked up.
  const gameBySlug = async (c: Context): Promise<Game | null> => {
    const slug = slugOf(c.req.param('slug'));
    return slug === null ? null : store.games.bySlug(slug);
  };

  app.get('/g/:slug', async (c) => {
    const game = await gameBySlug(c);
    if (!game) return c.html(<ErrorPage status={404} message="No game has this address." />, 404);
    return c.html((await renders.view(store, game, now())).page);
  });

  app.get('/g/:slug/fragment', async (c) => {
    const game = await gameBySlug(c);
    if (!game) return c.text('No such game.', 404);
    return c.html((await renders.view(store, game, now())).fragment);
  });

  return app;
}
