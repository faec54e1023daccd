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

  // Each answer route: the JSON body with the path's key, handed to its command.
  const answers = [
    ['/games/:id/checks/:key', markCheck],
    ['/games/:id/checks/lessons/:key', answerLesson],
    ['/games/:id/checks/threshold/:key', answerThreshold],
    ['/games/:id/checks/deaths/:key', answerDeath],
  ] as const;
  for (const [path, answer] of answers)
    api.post(path, async (c) => {
      const given = (await jsonBody(c)) as Record<string, unknown> | null;
      const body = { ...(given && typeof given === 'object' ? given : {}), key: c.req.param('key') };
      return c.json(await answer(commands, c.get('actor'), idParam(c), body, now()));
    });

  return api;
}
