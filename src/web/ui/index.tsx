import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { CommandDeps } from '../../app/deps.js';
import { NotFound } from '../../app/errors.js';
import type { VotalEnv } from '../../config/env.js';
import { commandDepsOf, type AppDeps } from '../deps.js';
import { LiveRenders } from '../live/live-render.js';
import { livePageRoutes } from '../live/page-routes.js';
import { clientAddressOf, rateLimit } from '../rate-limit.js';
import { GmAuth, clearSessionCookie, requireGm } from '../gm-sessions.js';
import type { DashboardDeps, UiEnv } from './dashboard.js';
import { Flashes } from './flash.js';
import { gameGuard, ownerOnly } from '../gm-access.js';
import { gmsRoutes } from './gms-page.js';
import { deleteGameRoutes } from './pages/delete-game.js';
import { draftRoutes } from './pages/draft.js';
import { ErrorPage } from './pages/error-page.js';
import { checkProposalRoutes } from './pages/check-proposals.js';
import { gameRoutes } from './pages/game.js';
import { genericCheckRoutes } from './generic-check.js';
import { gamesListRoutes } from './pages/games.js';
import { newGameRoutes } from './pages/new-game.js';
import { settingsRoutes } from './pages/settings.js';
import { sameSiteForms, uiHeaders } from './security.js';
import { signInRoutes } from './sign-in.js';
import { staticFiles } from './static.js';

/**
 * The web pages of `votal serve`: the public live tally (`/g/:slug`) and the GM dashboard
 * (`/gm/...`), server-rendered with hono/jsx (every interpolation escaped), a few small
 * scripts served from /ui/static/, a strict CSP and no inline script anywhere.
 *
 * The dashboard is a thin caller of the commands (src/app), as the JSON API is: each form
 * that changes something runs the command the API runs, with the signed-in GM as actor,
 * so validation, auditing, recounts and publishing have one code path; a refusal comes
 * back as a flash message. It reads the store directly to show things.
 *
 * This file is the composition: headers, static files, the error page, sign-in, who sees
 * which game; each page and its forms live in pages/*.tsx, the live page in ../live/.
 */

export interface UiOptions {
  /** Sign-in state (tests share one between apps). */
  auth?: GmAuth;
  /** The commands' dependencies (the API's, when mounted by `createApp`). Default: made from `deps`. */
  commands?: CommandDeps;
  /** The live page's render cache (tests count its renders). */
  liveRenders?: LiveRenders;
  /** Token bucket for sign-in attempts; false turns it off. */
  loginRateLimit?: { capacity?: number; perSecond?: number } | false;
}

/** Flash messages for the next page a session sees (after a redirect). */
const flashes = new Flashes();

export function createUiApp(deps: AppDeps, options: UiOptions = {}): Hono<UiEnv> {
  const store = deps.store;
  const commands = options.commands ?? commandDepsOf(deps);
  const env: VotalEnv = deps.env;
  const now = deps.now ?? (() => new Date());
  const auth =
    options.auth ??
    new GmAuth({ adminToken: env.adminToken, dataDir: env.dataDir, gms: store.gms, now: () => now().getTime() });
  const app = new Hono<UiEnv>();
  app.use('/g/*', uiHeaders());
  app.use('/gm', uiHeaders());
  app.use('/gm/*', uiHeaders());
  app.route('/', staticFiles());

  app.onError((error, c) => {
    if (error instanceof HTTPException && error.status < 500) {
      // hono/csrf: a form from another origin.
      const message = error.status === 403 ? 'This form did not come from this site.' : 'Bad request.';
      return c.html(<ErrorPage status={error.status} message={message} />, error.status);
    }
    deps.log?.error({ err: error, path: c.req.path }, 'page failed');
    const missing = (error as { status?: number }).status === 404 || error instanceof NotFound;
    const status = missing ? 404 : 500;
    const message = missing ? 'There is nothing here.' : 'The page could not be shown; the server log has the details.';
    return c.html(<ErrorPage status={status} message={message} />, status);
  });

  // --------------------------------------------------------------------------- live page
  const liveRenders =
    options.liveRenders ??
    new LiveRenders(
      deps.live?.noscriptRefreshSeconds ? { noscriptRefreshSeconds: deps.live.noscriptRefreshSeconds } : {},
    );
  app.route('/', livePageRoutes({ store, now, renders: liveRenders }));

  // ----------------------------------------------------------------------------- sign-in
  // On the app's clock, like sessions and invites (tests drive it).
  const loginLimit =
    options.loginRateLimit === false
      ? null
      : rateLimit({
          capacity: 10,
          perSecond: 0.2,
          now: () => now().getTime(),
          // Per client, as the rest of the app tells clients apart (VOTAL_TRUST_PROXY): behind a
          // reverse proxy, one client's wrong passwords must not lock everyone out.
          keyOf: clientAddressOf(env.trustProxy ?? false),
          ...(options.loginRateLimit ?? {}),
        });
  const origin = sameSiteForms(deps.env.publicUrl);

  app.route(
    '/',
    signInRoutes({
      auth,
      gms: deps.store.gms,
      audit: store.audit,
      flashes,
      now,
      limit: loginLimit,
      origin,
    }),
  );

  // ------------------------------------------------------------------- everything else /gm
  const gm = requireGm(auth);
  app.use('/gm', gm);
  app.use('/gm/*', async (c, next) => {
    const path = c.req.path;
    if (path === '/gm/login' || path === '/gm/setup' || path.startsWith('/gm/invite/')) return next();
    return gm(c, next);
  });
  app.use('/gm/*', async (c, next) => (c.req.method === 'POST' ? origin(c, next) : next()));
  // Who sees which game: one guard for every route keyed by a game or a draft (gm-access.ts).
  const hidden = (c: Context) => c.html(<ErrorPage status={404} message="There is nothing here." />, 404);
  for (const path of ['/gm/games/:id', '/gm/games/:id/*']) app.use(path, gameGuard(deps.store, 'game', hidden));
  for (const path of ['/gm/drafts/:id', '/gm/drafts/:id/*']) app.use(path, gameGuard(deps.store, 'draft', hidden));
  const ownersOnly = (c: Context) =>
    c.html(<ErrorPage status={403} message="Only the game's owner or the instance admin deletes a game." />, 403);
  app.use('/gm/games/:id/delete', ownerOnly(deps.store.gms, ['GET', 'POST'], ownersOnly));
  app.route('/', gmsRoutes({ gms: deps.store.gms, commands, flashes, now, publicUrl: env.publicUrl }));

  app.post('/gm/logout', async (c) => {
    await auth.end(c.get('session').id);
    clearSessionCookie(c);
    return c.redirect('/gm/login', 303);
  });

  // ------------------------------------------------------------------ one file per page
  const pages: DashboardDeps = { store, commands, env, now, flashes };
  for (const routes of [
    gamesListRoutes,
    newGameRoutes,
    gameRoutes,
    checkProposalRoutes,
    genericCheckRoutes,
    draftRoutes,
    settingsRoutes,
    deleteGameRoutes,
  ]) {
    app.route('/', routes(pages));
  }

  return app;
}

export { GmAuth } from '../gm-sessions.js';
