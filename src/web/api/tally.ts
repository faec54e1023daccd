import { Hono } from 'hono';
import { gameOr404 } from '../../app/games.js';
import { staleCount } from '../../game/stale-count.js';
import { idParam } from '../errors.js';
import { freshnessOf } from '../freshness.js';
import type { ApiDeps, ApiEnv } from './deps.js';

/** `/games/:id/tally`: the latest stored count, and how fresh it is. */
export function tallyRoutes({ store, commands }: ApiDeps): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();

  api.get('/games/:id/tally', async (c) => {
    const game = await gameOr404(commands, idParam(c));
    const [latest, poll] = await Promise.all([store.tallies.latest(game.id), store.polls.get(game.id)]);
    const stale = staleCount(poll);
    if (!latest) {
      const why = stale ? `: ${stale.message}` : ': its thread has not been read';
      return c.json({ error: `game ${game.id} has no count yet${why}`, ...(stale ? { stale } : {}) }, 404);
    }
    const freshness = freshnessOf(poll, latest.createdAt);
    c.header('X-Votal-Tally-Id', String(latest.id));
    c.header('X-Votal-Counted-At', latest.createdAt);
    if (freshness.stale) c.header('X-Votal-Stale', 'true');
    // The count contract, plus how fresh it is; a count the last poll could not bring up to
    // date says why ("log in again" when the forum asked for a login).
    return c.json({ ...latest.tally, freshness, ...(stale ? { stale } : {}) });
  });

  return api;
}
