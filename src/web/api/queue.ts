import { Hono } from 'hono';
import { answerQueue, gmQueue } from '../../app/queue.js';
import { idParam, jsonBody } from '../errors.js';
import type { ApiDeps, ApiEnv } from './deps.js';
import { readingJson, recordedJson } from './json.js';

/**
 * `/games/:id/queue`: the GM's one queue (review items, news, and what the GM's counts
 * teach and propose, app/queue.ts); `POST /games/:id/queue/:key` answers one item as its
 * own route does (`/news/:key`, `/checks/lessons|threshold|deaths/:key`, the dashboard's
 * review forms), and those routes stay.
 */
export function queueRoutes({ store, commands }: ApiDeps): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();

  api.get('/games/:id/queue', async (c) => {
    const id = idParam(c);
    const queue = await gmQueue(commands, id);
    return c.json({ ...queue, reading: await readingJson(store, id) });
  });

  api.post('/games/:id/queue/:key', async (c) => {
    const given = (await jsonBody(c)) as Record<string, unknown> | null;
    const r = await answerQueue(commands, c.get('actor'), idParam(c), {
      ...(given && typeof given === 'object' ? given : {}),
      key: c.req.param('key'),
    });
    // A threshold set records no event: the answer says how the recount went.
    if ('recount' in r) return c.json({ source: r.source, answer: r.answer, recount: r.recount });
    if (!('recorded' in r)) return c.json({ source: r.source, answer: r.answer });
    const rec = r.recorded;
    return c.json(
      {
        source: r.source,
        answer: r.answer,
        ...recordedJson(rec),
      },
      201,
    );
  });

  return api;
}
