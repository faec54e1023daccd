import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { NotFoundError } from '../store/errors.js';
import { auditRoutes } from './api/audit.js';
import { draftsRoutes } from './api/drafts.js';
import { eventsRoutes } from './api/events.js';
import { gamesRoutes } from './api/games.js';
import { genericRoutes } from './api/generic.js';
import { newsRoutes } from './api/news.js';
import { checksRoutes } from './api/checks.js';
import { nicknamesRoutes } from './api/nicknames.js';
import { queueRoutes } from './api/queue.js';
import { postsRoutes } from './api/posts.js';
import { tallyRoutes } from './api/tally.js';
import { commandDepsOf, type AppDeps } from './deps.js';
import { toResponse } from './errors.js';
import { GameEvents } from './live/game-events.js';
import { liveStreamRoutes } from './live/stream-route.js';
import { clientAddressOf, rateLimit } from './rate-limit.js';
import { GmAuth } from './gm-sessions.js';
import { apiAccess, gameGuard, ownerOnly, type AccessVariables } from './gm-access.js';
import { createUiApp } from './ui/index.js';

export type { AppDeps, PollerPort } from './deps.js';

/**
 * The web app of `votal serve`, composed: the JSON API under `/api` (one routes file per
 * resource in api/, each a thin caller of the commands in src/app; errors become statuses
 * in one place, errors.ts), the GM dashboard (ui/) and the public live pages (live/).
 *
 * This file holds what is shared across them: who may call the API (the bearer admin token
 * or a GM's session), which game a request may touch, the body limit, the public routes'
 * rate limit, and the mounting order.
 */

export type VotalApp = Hono & {
  /** The live-update hub behind `/g/:slug/events`. */
  live: GameEvents;
  /** Ends open event streams and stops listening (call before closing the store). */
  shutdown(): Promise<void>;
};

export function createApp(deps: AppDeps): VotalApp {
  const { store, env, log } = deps;
  const adminToken = env.adminToken;
  if (!adminToken) {
    throw new TypeError('createApp needs env.adminToken (votal serve makes one when VOTAL_ADMIN_TOKEN is unset)');
  }
  deps.scrubber?.add(adminToken);
  const commands = commandDepsOf(deps);
  const live = new GameEvents({
    sql: store.sql,
    bufferSize: deps.live?.bufferSize ?? 100,
    heartbeatMs: deps.live?.heartbeatMs ?? 20_000,
    ...(log ? { log } : {}),
  });
  const perClient = deps.live?.perClient ?? 8;
  // Behind a reverse proxy (VOTAL_TRUST_PROXY) every player is not the proxy's one address.
  const clientOf = clientAddressOf(env.trustProxy ?? false);

  const app = new Hono();
  app.onError((error, c) => toResponse(c, error, log));
  app.notFound((c) => c.json({ error: `no route ${c.req.method} ${c.req.path}` }, 404));

  // ----------------------------------------------------------------------------- GM API
  // Sessions live in the store: the dashboard's GmAuth and this one see the same GMs.
  const now = deps.now ?? (() => new Date());
  const auth = new GmAuth({ adminToken, dataDir: env.dataDir, gms: store.gms, now: () => now().getTime() });
  const api = new Hono<{ Variables: AccessVariables }>();
  // The bearer admin token (everything), or a GM's session (their games; gm-access.ts). Sets `actor` and `gm`.
  // Wrong tokens are counted per client as the public routes see it (behind a proxy, not the proxy's one address).
  const throttle = deps.authRateLimit === false ? false : { keyOf: clientOf, ...(deps.authRateLimit ?? {}) };
  api.use('*', apiAccess(auth, adminToken, throttle));
  const guarded = [
    ['/games/:id', 'game'],
    ['/games/:id/*', 'game'],
    ['/drafts/:id', 'draft'],
    ['/drafts/:id/*', 'draft'],
  ] as const;
  for (const [path, kind] of guarded) {
    api.use(
      path,
      gameGuard(store, kind, (c) => toResponse(c, new NotFoundError(kind, c.req.param('id') ?? ''), log)),
    );
  }
  const ownersOnly = (c: Context) => c.json({ error: "only the game's owner deletes it" }, 403);
  api.use('/games/:id', ownerOnly(store.gms, ['DELETE'], ownersOnly));
  // A GM request is small (a game, an event, a cookie export): refuse anything near a megabyte.
  const tooLarge = (c: Context) => c.json({ error: 'request body too large (1 MB at most)' }, 413);
  api.use('*', bodyLimit({ maxSize: 1024 * 1024, onError: tooLarge }));

  // One routes file per resource (api/*.ts); the guards above run before each of them.
  const resources = { store, commands, now };
  for (const routes of [
    gamesRoutes,
    tallyRoutes,
    newsRoutes,
    checksRoutes,
    queueRoutes,
    eventsRoutes,
    postsRoutes,
    auditRoutes,
    draftsRoutes,
    genericRoutes,
    nicknamesRoutes,
  ]) {
    api.route('/', routes(resources));
  }

  app.route('/api', api);

  // ------------------------------------------------------------------------ public pages
  if (deps.rateLimit !== false) app.use('/g/*', rateLimit({ keyOf: clientOf, ...deps.rateLimit }));

  // A browser goes to the GM dashboard; anything else learns where things are.
  app.get('/', (c) =>
    (c.req.header('accept') ?? '').includes('text/html')
      ? c.redirect('/gm', 302)
      : c.json({
          name: 'votal',
          dashboard: '/gm',
          api: '/api (Authorization: Bearer <admin token>)',
          live: '/g/:slug',
        }),
  );
  app.route('/', createUiApp(deps, { commands, auth }));

  // The live page's event stream (the page and its fragment are mounted by the dashboard's app).
  app.route('/', liveStreamRoutes({ store, live, clientOf, perClient }));

  return Object.assign(app, {
    live,
    async shutdown() {
      await live.stop();
    },
  });
}
