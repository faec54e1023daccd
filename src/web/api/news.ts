import { Hono } from 'hono';
import { answerNews, gameNews } from '../../app/news.js';
import { idParam, jsonBody } from '../errors.js';
import type { ApiDeps, ApiEnv } from './deps.js';
import { readingJson, recordedJson } from './json.js';

/**
 * `/games/:id/news`: what the GM's own posts announced that the game does not hold yet,
 * with how far the thread is read; `POST /games/:id/news/:key` records or dismisses one.
 */
export function newsRoutes({ store, commands }: ApiDeps): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();

  api.get('/games/:id/news', async (c) => {
    const { game, news } = await gameNews(commands, idParam(c));
    return c.json({ ...news, reading: await readingJson(store, game.id) });
  });

  api.post('/games/:id/news/:key', async (c) => {
    const given = (await jsonBody(c)) as Record<string, unknown> | null;
    const r = await answerNews(commands, c.get('actor'), idParam(c), {
      ...(given && typeof given === 'object' ? given : {}),
      key: c.req.param('key'),
    });
    if (r.answer === 'dismiss') return c.json({ answer: 'dismiss' });
    const rec = r.recorded;
    return c.json(
      {
        answer: 'record',
        ...recordedJson(rec),
      },
      201,
    );
  });

  return api;
}
