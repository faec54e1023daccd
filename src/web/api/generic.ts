import { Hono } from 'hono';
import { ConfirmReading, confirmGenericReading, genericReading, recheckGenericReading } from '../../app/generic.js';
import { parseInput } from '../../app/errors.js';
import { readerChoice, switchToAdapter, switchToGeneric } from '../../app/reader-switch.js';
import { idParam, jsonBody } from '../errors.js';
import type { ApiDeps, ApiEnv } from './deps.js';

/**
 * `/games/:id/generic`: a game no adapter reads, as the generic reader read it. `GET` tells
 * where it stands (page 1 waiting for the GM's check, or the layout confirmed, by whom);
 * `POST /games/:id/generic/confirm` is the GM's check (body `{ readAt? }`, the reading seen);
 * `POST /games/:id/generic/recheck` has page 1 read again after a layout change (`held`: how
 * many other games on the host wait for their GMs' checks too). `reader` says what the GM
 * may do with the game's reader: `POST /games/:id/generic/switch` takes the generic reading
 * a poll offered (its engine's adapter found no posts), `POST /games/:id/generic/switch-back`
 * goes back to the engine's adapter.
 */
export function genericRoutes({ commands }: ApiDeps): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();

  api.get('/games/:id/generic', async (c) => {
    const { game, standing } = await genericReading(commands, idParam(c));
    const { choice } = await readerChoice(commands, game.id);
    return c.json({ gameId: game.id, engine: game.engine, generic: standing, reader: choice });
  });

  api.post('/games/:id/generic/confirm', async (c) => {
    const body = (await jsonBody(c)) ?? {};
    const r = await confirmGenericReading(commands, c.get('actor'), idParam(c), parseInput(ConfirmReading, body));
    const { standing } = await genericReading(commands, r.game.id);
    return c.json({ gameId: r.game.id, learned: r.learned, generic: standing });
  });

  /** The layout changed: page 1 is read generically again, for the GM to check once more. */
  api.post('/games/:id/generic/recheck', async (c) => {
    const { game, held } = await recheckGenericReading(commands, c.get('actor'), idParam(c));
    const { standing } = await genericReading(commands, game.id);
    return c.json({ gameId: game.id, generic: standing, held: held.length });
  });

  /** The engine's adapter found no posts: the GM takes the generic reading offered. */
  api.post('/games/:id/generic/switch', async (c) => {
    const { game } = await switchToGeneric(commands, c.get('actor'), idParam(c));
    const [{ standing }, { choice }] = await Promise.all([
      genericReading(commands, game.id),
      readerChoice(commands, game.id),
    ]);
    return c.json({ gameId: game.id, engine: game.engine, generic: standing, reader: choice });
  });

  /** The way back: the engine's adapter reads the thread again. */
  api.post('/games/:id/generic/switch-back', async (c) => {
    const { game } = await switchToAdapter(commands, c.get('actor'), idParam(c));
    const { choice } = await readerChoice(commands, game.id);
    return c.json({ gameId: game.id, engine: game.engine, generic: null, reader: choice });
  });

  return api;
}
