import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteGame, createGame, gameOr404, updateGame, GameChange, NewGameInput } from '../app/games.js';
import { recordEvent } from '../app/events.js';
import { approveDraft, Approval, discardDraft, draftOr404, markPublished, PastedAt, staleness } from '../app/drafts.js';
import { parseInput } from '../app/errors.js';
import { pollNow } from '../app/poll.js';
import { publicSettings } from '../config/game-settings.js';
import { gameRuleset } from '../game/game-ruleset.js';
import { gmNews, NEWS_DISMISS } from '../game/gm-news.js';
import { playersNow } from '../game/players-now.js';
import { staleCount } from '../game/stale-count.js';
import { gameLateness, type PollLateness } from '../jobs/schedule.js';
import { DraftStatus, type Draft, type Publication } from '../model/draft.js';
import type { Game } from '../model/game.js';
import type { PublishResult } from '../publish/publish-draft.js';
import { NotFoundError } from '../store/errors.js';
import { commandDepsOf, type AppDeps } from './deps.js';
import { idParam, jsonBody, toResponse } from './errors.js';
import { freshnessOf } from './freshness.js';
import { GameEvents } from './live.js';
import { clientAddressOf, rateLimit } from './rate-limit.js';
import { GmAuth } from './ui/auth.js';
import { apiAccess, gameGuard, ownerOnly, ownGame, visibleGames, type AccessVariables } from './ui/gm-access.js';
import { createUiApp } from './ui/index.js';

export type { AppDeps, PollerPort } from './deps.js';

/**
 * The HTTP API of `votal serve` (DESIGN.md "HTTP API"), JSON throughout: each route that
 * changes something parses the request, runs one command (src/app) with the request's
 * actor, and answers with JSON; errors become statuses in one place (errors.ts).
 *
 * GM routes (`/api/*`) need `Authorization: Bearer $VOTAL_ADMIN_TOKEN`. Public routes
 * (`/g/:slug`, `/g/:slug/events`) are read-only and rate-limited per client IP.
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
  if (!adminToken) throw new TypeError('createApp needs env.adminToken (votal serve makes one when VOTAL_ADMIN_TOKEN is unset)');
  deps.scrubber?.add(adminToken);
  const commands = commandDepsOf(deps);
  const live = new GameEvents({
    sql: store.sql, bufferSize: deps.live?.bufferSize ?? 100, heartbeatMs: deps.live?.heartbeatMs ?? 20_000, ...(log ? { log } : {}),
  });
  const perClient = deps.live?.perClient ?? 8;
  // Behind a reverse proxy (VOTAL_TRUST_PROXY) every player is not the proxy's one address.
  const clientOf = clientAddressOf(env.trustProxy ?? false);
  const streamsByClient = new Map<string, number>();

  const app = new Hono();
  app.onError((error, c) => toResponse(c, error, log));
  app.notFound((c) => c.json({ error: `no route ${c.req.method} ${c.req.path}` }, 404));

  // ----------------------------------------------------------------------------- GM API
  // Sessions live in the store: the dashboard's GmAuth and this one see the same GMs.
  const now = deps.now ?? (() => new Date());
  const auth = new GmAuth({ adminToken, dataDir: env.dataDir, gms: store.gms, now: () => now().getTime() });
  const api = new Hono<{ Variables: AccessVariables }>();
  // The bearer admin token (everything), or a GM's session (their games; gm-access.ts). Sets `actor` and `gm`.
  api.use('*', apiAccess(auth, adminToken, deps.authRateLimit === false ? false : (deps.authRateLimit ?? {})));
  const guarded = [['/games/:id', 'game'], ['/games/:id/*', 'game'], ['/drafts/:id', 'draft'], ['/drafts/:id/*', 'draft']] as const;
  for (const [path, kind] of guarded) {
    api.use(path, gameGuard(store, kind, (c) => toResponse(c, new NotFoundError(kind, c.req.param('id') ?? ''), log)));
  }
  api.use('/games/:id', ownerOnly(store.gms, ['DELETE'], (c) => c.json({ error: "only the game's owner deletes it" }, 403)));
  // A GM request is small (a game, an event, a cookie export): refuse anything near a megabyte.
  api.use('*', bodyLimit({ maxSize: 1024 * 1024, onError: (c) => c.json({ error: 'request body too large (1 MB at most)' }, 413) }));

  api.get('/games', async (c) => {
    const games = await visibleGames(store.gms, c.get('gm'), await store.games.list());
    return c.json({ games: games.map(gameJson) });
  });

  api.post('/games', async (c) => {
    const game = await createGame(commands, c.get('actor'), parseInput(NewGameInput, await jsonBody(c)));
    await ownGame(store.gms, c, game.id, now());
    return c.json({ id: game.id, slug: game.slug, engine: game.engine, url: game.threadUrl, status: game.status }, 201);
  });

  api.get('/games/:id', async (c) => {
    const game = await gameOr404(commands, idParam(c));
    const [latest, poll] = await Promise.all([store.tallies.latest(game.id), store.polls.get(game.id)]);
    return c.json({
      ...gameJson(game),
      ...(await playersJson(game)),
      tallyId: latest?.id ?? null,
      poll: {
        lastPolledAt: poll.lastPolledAt, lastOkAt: poll.lastOkAt, lastError: poll.lastError, errorsInRow: poll.errorsInRow, polls: poll.polls,
        stale: staleCount(poll), ...latenessJson(gameLateness(game, poll, now().getTime())),
      },
    });
  });

  api.patch('/games/:id', async (c) => {
    const { game, recount } = await updateGame(commands, c.get('actor'), idParam(c), parseInput(GameChange, await jsonBody(c)));
    if (!recount) return c.json({ ...gameJson(game), ...(await playersJson(game)) });
    const latest = await store.tallies.latest(game.id);
    return c.json({
      ...gameJson(game), ...(await playersJson(game)), recounted: recount.done, ...(recount.note ? { note: recount.note } : {}),
      tallyId: latest?.id ?? null,
    });
  });

  /** Deletes the game and all its data; `?confirm=<the game's slug>` says the GM meant this game. */
  api.delete('/games/:id', async (c) => {
    const game = await deleteGame(commands, c.get('actor'), idParam(c), c.req.query('confirm'));
    return c.json({ deleted: { id: game.id, slug: game.slug } });
  });

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

  // What the GM's own posts announced that the game does not hold yet (proposals only).
  api.get('/games/:id/news', async (c) => {
    const game = await gameOr404(commands, idParam(c));
    const [posts, events, audit] = await Promise.all([
      store.posts.postsOf(game.id), store.events.list(game.id), store.audit.list({ gameId: game.id, action: NEWS_DISMISS, limit: 100_000 }),
    ]);
    return c.json(gmNews({ game, ruleset: gameRuleset(game), posts, events, audit }));
  });

  api.get('/games/:id/events', async (c) => {
    const game = await gameOr404(commands, idParam(c));
    return c.json({ events: await store.events.list(game.id) });
  });

  api.post('/games/:id/events', async (c) => {
    const r = await recordEvent(commands, c.get('actor'), idParam(c), await jsonBody(c));
    return c.json({
      event: r.event, recounted: r.recounted, ...(r.note ? { note: r.note } : {}), tallyId: r.tallyId, tallyChanged: r.tallyChanged, tally: r.tally,
    }, 201);
  });

  api.get('/games/:id/drafts', async (c) => {
    const game = await gameOr404(commands, idParam(c));
    const status = DraftStatus.safeParse(c.req.query('status'));
    const drafts = await store.drafts.list(game.id, status.success ? { status: status.data } : {});
    const withPublications = await Promise.all(drafts.map(async (d) => draftJson(d, await store.drafts.publicationOf(d.id))));
    return c.json({ drafts: withPublications });
  });

  api.post('/games/:id/poll', async (c) => {
    const id = idParam(c);
    const r = await pollNow(commands, id, { wait: c.req.query('wait') !== '0' });
    const [latest, poll] = await Promise.all([store.tallies.latest(id), store.polls.get(id)]);
    return c.json({
      polled: r.polled, ...(r.note ? { note: r.note } : {}),
      tallyId: latest?.id ?? null, lastError: poll.lastError, lastPolledAt: poll.lastPolledAt,
    }, r.polled ? 200 : 202);
  });

  api.get('/games/:id/posts', async (c) => {
    const game = await gameOr404(commands, idParam(c));
    const posts = await store.posts.postsOf(game.id);
    return c.json({
      posts: posts.map((p) => ({
        id: p.id, number: p.number, page: p.page, author: p.author, postedAt: p.postedAt, permalink: p.permalink,
        edit: p.edit, deleted: p.deleted, deletedAt: p.deletedAt, revisions: p.revisions, key: p.key,
      })),
    });
  });

  api.get('/games/:id/posts/:number/revisions', async (c) => {
    const game = await gameOr404(commands, idParam(c));
    const number = idParam(c, 'number');
    const post = (await store.posts.postsOf(game.id)).find((p) => p.number === number);
    if (!post) throw new NotFoundError('post', number);
    return c.json({ post: { id: post.id, number: post.number, author: post.author, deleted: post.deleted }, revisions: await store.posts.revisionsOf(post.key) });
  });

  api.get('/games/:id/audit', async (c) => {
    const game = await gameOr404(commands, idParam(c));
    const limit = Math.min(1000, Math.max(1, Number(c.req.query('limit') ?? 100) || 100));
    return c.json({ audit: await store.audit.list({ gameId: game.id, limit }) });
  });

  /** One draft, its publication, and (pending only) `stale`: what changed in the count since it was made, or null. */
  api.get('/drafts/:id', async (c) => {
    const draft = await draftOr404(commands, idParam(c));
    const stale = draft.status === 'pending' ? await staleness(commands, draft) : null;
    return c.json({ ...draftJson(draft, await store.drafts.publicationOf(draft.id)), stale });
  });

  api.post('/drafts/:id/approve', async (c) => {
    const result = await approveDraft(commands, c.get('actor'), idParam(c), parseInput(Approval, await jsonBody(c)));
    return c.json(publishJson(result), result.status === 'in-progress' ? 202 : 200);
  });

  api.post('/drafts/:id/discard', async (c) => {
    const draft = await discardDraft(commands, c.get('actor'), idParam(c));
    return c.json(draftJson(draft, await store.drafts.publicationOf(draft.id)));
  });

  /** A copied votal was pasted by the GM: record it (where, or let Votal find its marker). */
  api.post('/drafts/:id/published', async (c) => {
    const { draft, publication } = await markPublished(commands, c.get('actor'), idParam(c), parseInput(PastedAt, await jsonBody(c)));
    return c.json(draftJson(draft, publication));
  });

  app.route('/api', api);

  // ------------------------------------------------------------------------ public pages
  if (deps.rateLimit !== false) app.use('/g/*', rateLimit({ keyOf: clientOf, ...deps.rateLimit }));

  // A browser goes to the GM dashboard; anything else learns where things are.
  app.get('/', (c) => ((c.req.header('accept') ?? '').includes('text/html')
    ? c.redirect('/gm', 302)
    : c.json({ name: 'votal', dashboard: '/gm', api: '/api (Authorization: Bearer <admin token>)', live: '/g/:slug' })));
  app.route('/', createUiApp(deps, { commands, auth }));

  app.get('/g/:slug/events', async (c) => {
    const game = await store.games.bySlug(c.req.param('slug'));
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
      hello: async () => ({ slug: game.slug, status: game.status, tallyId: (await store.tallies.latest(game.id))?.id ?? null }),
      onEnd: () => {
        const n = (streamsByClient.get(ip) ?? 1) - 1;
        if (n <= 0) streamsByClient.delete(ip);
        else streamsByClient.set(ip, n);
      },
    });
    return new Response(body, {
      headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' },
    });
  });

  // ---------------------------------------------------------------------------- helpers
  /** The players as the latest count knows them (replacements, deaths); `roster` is the list as the GM set it. */
  async function playersJson(game: Game): Promise<Record<string, unknown>> {
    const [latest, events] = await Promise.all([store.tallies.latest(game.id), store.events.list(game.id)]);
    const players = playersNow(game.roster, events.map((e) => e.event), latest?.tally ?? null);
    return {
      players,
      roster: game.roster,
      alive: players.filter((p) => p.alive).map((p) => p.name),
      dead: players.filter((p) => !p.alive).map((p) => p.name),
    };
  }

  return Object.assign(app, {
    live,
    async shutdown() {
      await live.stop();
    },
  });
}

// ------------------------------------------------------------------------------ pure parts

/** The schedule's part of a game's JSON: when its poll is due, how late it is now, how late the last one started. */
function latenessJson(l: PollLateness): Record<string, unknown> {
  const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 1000));
  return { dueAt: l.dueAt, late: l.late, lateSeconds: seconds(l.overdueMs), lastLateSeconds: seconds(l.lastLateMs) };
}

function gameJson(game: Game): Record<string, unknown> {
  return {
    id: game.id, slug: game.slug, url: game.threadUrl, engine: game.engine, ruleset: game.ruleset, status: game.status,
    players: game.roster, pollIntervalSeconds: game.pollIntervalSeconds, nextPollAt: game.nextPollAt,
    settings: publicSettings(game.settings), createdAt: game.createdAt, updatedAt: game.updatedAt,
  };
}

function draftJson(draft: Draft, publication: Publication | null): Record<string, unknown> {
  return { ...draft, publication };
}

function publishJson(result: PublishResult): Record<string, unknown> {
  const base = { status: result.status, draft: draftJson(result.draft, result.publication) };
  switch (result.status) {
    case 'published': return { ...base, remote: result.remote, foundExisting: result.foundExisting };
    case 'copy': return { ...base, copy: result.text, note: 'no way to post is configured: paste this into the thread' };
    case 'failed': return { ...base, error: result.error };
    case 'in-progress': return { ...base, note: 'another Votal process is posting this votal right now; its result shows on the draft' };
  }
}
