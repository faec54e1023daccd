import { Hono, type Context } from 'hono';
import type { AppDeps } from '../deps.js';
import { slugOf } from '../ids.js';
import type { GameEvents } from './game-events.js';

export interface LiveStreamDeps {
  store: Pick<AppDeps['store'], 'games' | 'tallies'>;
  /** The process's one LISTEN, fanned out to every stream. */
  live: GameEvents;
  /** Who is asking (the socket's address, or the forwarded one behind a trusted proxy). */
  clientOf: (c: Context) => string;
  /** Event streams open at once per client address. */
  perClient: number;
}

/**
 * `/g/:slug/events`: server-sent events for a game's live page (game-events.ts), public and
 * read-only. Each client address holds at most `perClient` streams, so one browser cannot
 * keep the server's streams to itself.
 */
export function liveStreamRoutes({ store, live, clientOf, perClient }: LiveStreamDeps): Hono {
  const app = new Hono();
  const streamsByClient = new Map<string, number>();

  app.get('/g/:slug/events', async (c) => {
    const slug = slugOf(c.req.param('slug'));
    const game = slug === null ? null : await store.games.bySlug(slug);
    if (!game) return c.json({ error: 'no such game' }, 404);
    const ip = clientOf(c);
    const open = streamsByClient.get(ip) ?? 0;
    if (open >= perClient) {
      c.header('Retry-After', '30');
      return c.json({ error: 'too many open event streams from this address' }, 429);
    }
    await live.start();
    const lastEventId = c.req.header('last-event-id') ?? c.req.query('lastEventId') ?? null;
    streamsByClient.set(ip, open + 1);
    const body = live.openStream({
      gameId: game.id,
      lastEventId,
      hello: async () => ({
        slug: game.slug,
        status: game.status,
        tallyId: (await store.tallies.latest(game.id))?.id ?? null,
      }),
      onEnd: () => {
        const n = (streamsByClient.get(ip) ?? 1) - 1;
        if (n <= 0) streamsByClient.delete(ip);
        else streamsByClient.set(ip, n);
      },
    });
    return new Response(body, {
      headers: {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      },
    });
  });

  return app;
}
