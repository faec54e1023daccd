import { Hono } from 'hono';
import { readingState } from '../../game/reading-state.js';
import { createGame, deleteGame, gameOr404, GameChange, NewGameInput, updateGame } from '../../app/games.js';
import { parseInput } from '../../app/errors.js';
import { pollNow } from '../../app/poll.js';
import { staleCount } from '../../game/stale-count.js';
import { gameLateness } from '../../jobs/schedule.js';
import { idParam, jsonBody } from '../errors.js';
import { visibleGames } from '../ui/gm-access.js';
import type { ApiDeps, ApiEnv } from './deps.js';
import { gameJson, latenessJson, playersJson } from './json.js';

/** `/games`, `/games/:id` and "poll now": the games a GM runs, made, changed, deleted. */
export function gamesRoutes({ store, commands, now }: ApiDeps): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();

  api.get('/games', async (c) => {
    const games = await visibleGames(store.gms, c.get('gm'), await store.games.list());
    return c.json({ games: games.map(gameJson) });
  });

  api.post('/games', async (c) => {
    const input = parseInput(NewGameInput, await jsonBody(c));
    const game = await createGame(commands, c.get('actor'), input, { owner: c.get('gm')?.id });
    return c.json({ id: game.id, slug: game.slug, engine: game.engine, url: game.threadUrl, status: game.status }, 201);
  });

  api.get('/games/:id', async (c) => {
    const game = await gameOr404(commands, idParam(c));
    const [latest, poll, pages] = await Promise.all([
      store.tallies.latest(game.id),
      store.polls.get(game.id),
      store.threadPages.list(game.id),
    ]);
    return c.json({
      ...gameJson(game),
      ...(await playersJson(store, game)),
      tallyId: latest?.id ?? null,
      reading: readingState(poll, pages),
      poll: {
        lastPolledAt: poll.lastPolledAt,
        lastOkAt: poll.lastOkAt,
        lastError: poll.lastError,
        errorsInRow: poll.errorsInRow,
        polls: poll.polls,
        stale: staleCount(poll),
        ...latenessJson(gameLateness(game, poll, now().getTime())),
      },
    });
  });

  api.patch('/games/:id', async (c) => {
    const id = idParam(c);
    const { game, recount } = await updateGame(commands, c.get('actor'), id, parseInput(GameChange, await jsonBody(c)));
    if (!recount) return c.json({ ...gameJson(game), ...(await playersJson(store, game)) });
    const latest = await store.tallies.latest(game.id);
    return c.json({
      ...gameJson(game),
      ...(await playersJson(store, game)),
      recounted: recount.done,
      ...(recount.note ? { note: recount.note } : {}),
      tallyId: latest?.id ?? null,
    });
  });

  /** Deletes the game and all its data; `?confirm=<the game's slug>` says the GM meant this game. */
  api.delete('/games/:id', async (c) => {
    const game = await deleteGame(commands, c.get('actor'), idParam(c), c.req.query('confirm'));
    return c.json({ deleted: { id: game.id, slug: game.slug } });
  });

  api.post('/games/:id/poll', async (c) => {
    const id = idParam(c);
    const r = await pollNow(commands, id, { wait: c.req.query('wait') !== '0' });
    const [latest, poll] = await Promise.all([store.tallies.latest(id), store.polls.get(id)]);
    return c.json(
      {
        polled: r.polled,
        ...(r.note ? { note: r.note } : {}),
        tallyId: latest?.id ?? null,
        lastError: poll.lastError,
        lastPolledAt: poll.lastPolledAt,
      },
      r.polled ? 200 : 202,
    );
  });

  return api;
}
