import { Hono } from 'hono';
import { answerDeath, answerLesson, answerThreshold, gameChecks, markCheck } from '../../app/checks.js';
import { idParam, jsonBody } from '../errors.js';
import type { ApiDeps, ApiEnv } from './deps.js';
import { readingJson } from './json.js';

/**
 * `/games/:id/checks`: the GM's own vote counts checked against Votal's (GM routes, guarded
 * like every `/games/:id` route); `POST /games/:id/checks/:key` marks one difference
 * `slip`, `votal-error` or `dismiss`; `POST /games/:id/checks/lessons/:key` accepts or dismisses
 * what a count taught (a vote Votal could not read, placed by the GM's count);
 * `POST /games/:id/checks/threshold/:key` accepts or dismisses the threshold the counts state
 * (accepted: the game's ruleset overrides, recounted); `POST /games/:id/checks/deaths/:key`
 * records or dismisses a death a count's alive count implies.
 */
export function checksRoutes({ store, commands, now }: ApiDeps): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();

  api.get('/games/:id/checks', async (c) => {
    const { game, checks } = await gameChecks(commands, idParam(c), now());
    // How far the thread is read: a count made after the last page read is not checked yet.
    return c.json({ ...checks, reading: await readingJson(store, game.id) });
  });

  api.post('/games/:id/checks/:key', async (c) => {
    const given = (await jsonBody(c)) as Record<string, unknown> | null;
    const r = await markCheck(
      commands,
      c.get('actor'),
      idParam(c),
      {
        ...(given && typeof given === 'object' ? given : {}),
        key: c.req.param('key'),
      },
      now(),
    );
    return c.json(r);
  });

  api.post('/games/:id/checks/lessons/:key', async (c) => {
    const given = (await jsonBody(c)) as Record<string, unknown> | null;
    const r = await answerLesson(
      commands,
      c.get('actor'),
      idParam(c),
      { ...(given && typeof given === 'object' ? given : {}), key: c.req.param('key') },
      now(),
    );
    return c.json(r);
  });

  api.post('/games/:id/checks/threshold/:key', async (c) => {
    const given = (await jsonBody(c)) as Record<string, unknown> | null;
    const r = await answerThreshold(
      commands,
      c.get('actor'),
      idParam(c),
      { ...(given && typeof given === 'object' ? given : {}), key: c.req.param('key') },
      now(),
    );
    return c.json(r);
  });

  api.post('/games/:id/checks/deaths/:key', async (c) => {
    const given = (await jsonBody(c)) as Record<string, unknown> | null;
    const r = await answerDeath(
      commands,
      c.get('actor'),
      idParam(c),
      { ...(given && typeof given === 'object' ? given : {}), key: c.req.param('key') },
      now(),
    );
    return c.json(r);
  });

  return api;
}
