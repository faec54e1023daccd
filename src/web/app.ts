import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { PublishInput, publicSettings, sealPublish, type GameSettings } from '../config/game-settings.js';
import type { VotalEnv } from '../config/env.js';
import { SecretBox } from '../config/secrets.js';
import { assertPublicUrl } from '../fetch/private-host.js';
import { gameRuleset } from '../game/game-ruleset.js';
import { DaySetting } from '../game/game-settings.js';
import { gmNews, NEWS_DISMISS } from '../game/gm-news.js';
import { playersNow } from '../game/players-now.js';
import { staleCount } from '../game/stale-count.js';
import { gameLateness, type PollLateness } from '../jobs/schedule.js';
import type { Logger, SecretScrubber } from '../log/logger.js';
import { EngineId } from '../model/engine.js';
import { GmEvent, positionedNow } from '../model/event.js';
import { parsePlayerList, Slot, type Roster } from '../model/roster.js';
import { cookieJarFromExport } from '../publish/cookie-jar.js';
import { PublishHttp } from '../publish/http.js';
import { confirmCopied, publishDraft, type PublishDeps, type PublishResult } from '../publish/publish-draft.js';
import { publisherFor } from '../publish/publisher-for.js';
import { listRulesets, loadRuleset } from '../rules/load-ruleset.js';
import type { Draft, Publication } from '../store/drafts-repo.js';
import { NotFoundError, StaleDraftError, StateError } from '../store/errors.js';
import { Slug, type Game } from '../store/games-repo.js';
import type { Repos } from '../store/open-store.js';
import type { Sql } from '../store/sql.js';
import { countChanges, type CountChanges } from '../votal/count-changes.js';
import { DraftSettings } from '../votal/draft-triggers.js';
import { normaliseLineEndings } from '../votal/line-endings.js';
import { compileTemplate, TemplateError } from '../votal/template.js';
import { adapterOf, engineFromUrl } from '../../scrapers/identify.js';
import { requireAdmin } from './auth.js';
import { BadRequest, idParam, jsonBody, parseWith, toResponse } from './errors.js';
import { freshnessOf } from './freshness.js';
import { GameEvents } from './live.js';
import { clientAddressOf, rateLimit, type RateLimitOptions } from './rate-limit.js';
import { createUiApp } from './ui/index.js';

/**
 * The HTTP API of `votal serve` (DESIGN.md "HTTP API"), JSON throughout.
 *
 * GM routes (`/api/*`) need `Authorization: Bearer $VOTAL_ADMIN_TOKEN`. Public routes
 * (`/g/:slug`, `/g/:slug/events`) are read-only and rate-limited per client IP.
 */

/** What the API needs of the poller (src/jobs/poller.ts `Poller`). */
export interface PollerPort {
  pollNow(gameId: string): Promise<void>;
}

export interface AppDeps {
  store: Repos & { sql: Sql };
  poller: PollerPort;
  env: VotalEnv;
  now?: () => Date;
  log?: Logger;
  /** Learns decrypted secrets so that they never reach a log line. */
  scrubber?: SecretScrubber;
  /** Publishing: timeouts and retries (tests make them short). */
  publish?: {
    timeoutMs?: number;
    maxAttempts?: number;
    backoffMs?: number;
    recheckMs?: number[];
    sleep?: (ms: number) => Promise<void>;
    /** How long one process's claim on a publication holds (publish-draft.ts). */
    claimMs?: number;
  };
  live?: {
    /** A `: heartbeat` comment this often on idle event streams. Default 20 s. */
    heartbeatMs?: number;
    bufferSize?: number;
    /** Event streams open at once per client IP. Default 8. */
    perClient?: number;
    /** How often the live page reloads itself where no script runs. Default 30 s. */
    noscriptRefreshSeconds?: number;
  };
  /** Public routes' token bucket; false turns it off. */
  rateLimit?: RateLimitOptions | false;
  /** Wrong admin tokens on `/api` allowed per client address (a bucket of failures); false turns it off. */
  authRateLimit?: RateLimitOptions | false;
  /** How long a GM event or "poll now" waits for the poll to finish before answering. Default 20 s. */
  pollWaitMs?: number;
}

export type VotalApp = Hono & {
  /** The live-update hub behind `/g/:slug/events`. */
  live: GameEvents;
  /** Ends open event streams and stops listening (call before closing the store). */
  shutdown(): Promise<void>;
};

const ACTOR = 'gm';

const PlayerInput = z.union([
  z.string().trim().min(1, { message: 'a player name cannot be empty' }),
  z.strictObject({
    name: z.string().trim().min(1),
    aliases: z.array(z.string().trim().min(1)).optional(),
    formerNames: z.array(z.string().trim().min(1)).optional(),
    alive: z.boolean().optional(),
  }),
]);

const Players = z
  .array(PlayerInput, { error: 'must be a list of player names' })
  .min(1, { message: 'must name at least one player' });

const CreateGame = z.strictObject({
  url: z.string({ error: 'required: the URL of the game thread' }).trim().min(1, { message: 'required: the URL of the game thread' }),
  ruleset: z.string({ error: `required: a ruleset name (${listRulesets().join(', ')})` }).trim().min(1),
  players: Players,
  engine: z.string().optional(),
  slug: Slug.optional(),
  pollIntervalSeconds: z.number().int().min(10).max(86_400).optional(),
  webhookUrl: z.string().nullable().optional(),
  publish: z.unknown().optional(),
  drafts: z.unknown().optional(),
  day: z.unknown().optional(),
});

const PatchGame = z.strictObject({
  status: z.enum(['active', 'paused', 'finished', 'archived']).optional(),
  /** `archive`: not polled, off the dashboard's main list, everything kept; `unarchive`: back, paused. */
  action: z.enum(['pause', 'resume', 'finish', 'archive', 'unarchive']).optional(),
  ruleset: z.string().trim().min(1).optional(),
  /** The game's name on the dashboard and the live page (the thread's title otherwise). */
  title: z.string().trim().min(1).max(200).nullable().optional(),
  /** The Day's deadline (ISO 8601 with an offset); null: no deadline. */
  deadline: z.iso.datetime({ offset: true }).nullable().optional(),
  pollIntervalSeconds: z.number().int().min(10).max(86_400).optional(),
  players: Players.optional(),
  drafts: z.unknown().optional(),
  webhookUrl: z.string().nullable().optional(),
  publish: z.unknown().optional(),
  day: z.unknown().optional(),
  votalTitle: z.string().min(1).nullable().optional(),
  timeZone: z.string().min(1).nullable().optional(),
  votalTemplate: z.string().min(1).nullable().optional(),
  /** The GM's forum name, or the names of co-hosts: whose posts are read for news. */
  gm: z.union([z.string().trim().min(1).max(100), z.array(z.string().trim().min(1).max(100)).min(1).max(10)]).nullable().optional(),
});

const Approve = z.strictObject({
  body: z.string().min(1, { message: 'the edited votal is empty' }).optional(),
  /** Approve a draft older than the current count anyway (`force` is the same). */
  confirm: z.boolean().optional(),
  force: z.boolean().optional(),
});
const Confirm = z.strictObject({ url: z.url({ protocol: /^https?$/ }).optional(), postId: z.string().min(1).optional() });

/** A votal template that will render: size, placeholders and sections (400 naming what is wrong). */
function checkTemplate(template: string): void {
  try {
    compileTemplate(template);
  } catch (error) {
    if (error instanceof TemplateError) throw BadRequest.field('votalTemplate', error.message.replace(/^votal template: /, ''));
    throw error;
  }
}

export function createApp(deps: AppDeps): VotalApp {
  const { store, env, log } = deps;
  const now = deps.now ?? (() => new Date());
  const adminToken = env.adminToken;
  if (!adminToken) throw new TypeError('createApp needs env.adminToken (votal serve makes one when VOTAL_ADMIN_TOKEN is unset)');
  deps.scrubber?.add(adminToken);
  const box = env.secretKey ? new SecretBox(env.secretKey) : null;
  const http = new PublishHttp({ timeoutMs: deps.publish?.timeoutMs ?? 30_000, allowPrivateHosts: env.allowPrivateHosts });
  const live = new GameEvents({
    sql: store.sql, bufferSize: deps.live?.bufferSize ?? 100, heartbeatMs: deps.live?.heartbeatMs ?? 20_000, ...(log ? { log } : {}),
  });
  const perClient = deps.live?.perClient ?? 8;
  // Behind a reverse proxy (VOTAL_TRUST_PROXY) every player is not the proxy's one address.
  const clientOf = clientAddressOf(env.trustProxy ?? false);
  const streamsByClient = new Map<string, number>();
  const pollWaitMs = deps.pollWaitMs ?? 20_000;

  const publishDeps: PublishDeps = {
    store,
    publisherFor: async (game) => publisherFor(game, game.engine ?? (await store.tallies.latest(game.id))?.tally.engine ?? null, {
      http, box, ...(deps.scrubber ? { scrubber: deps.scrubber } : {}),
    }),
    ...(log ? { log } : {}),
    ...(deps.publish?.maxAttempts !== undefined ? { maxAttempts: deps.publish.maxAttempts } : {}),
    ...(deps.publish?.backoffMs !== undefined ? { backoffMs: deps.publish.backoffMs } : {}),
    ...(deps.publish?.recheckMs !== undefined ? { recheckMs: deps.publish.recheckMs } : {}),
    ...(deps.publish?.sleep ? { sleep: deps.publish.sleep } : {}),
    ...(deps.publish?.claimMs !== undefined ? { claimMs: deps.publish.claimMs } : {}),
    now,
  };

  const app = new Hono();
  app.onError((error, c) => toResponse(c, error, log));
  app.notFound((c) => c.json({ error: `no route ${c.req.method} ${c.req.path}` }, 404));

  // ----------------------------------------------------------------------------- GM API
  const api = new Hono();
  api.use('*', requireAdmin(adminToken, deps.authRateLimit === false ? false : (deps.authRateLimit ?? {})));
  // A GM request is small (a game, an event, a cookie export): refuse anything near a megabyte.
  api.use('*', bodyLimit({ maxSize: 1024 * 1024, onError: (c) => c.json({ error: 'request body too large (1 MB at most)' }, 413) }));

  const gameOr404 = async (id: number): Promise<Game> => {
    const game = await store.games.get(id);
    if (!game) throw new NotFoundError('game', id);
    return game;
  };
  const draftOr404 = async (id: number): Promise<Draft> => {
    const draft = await store.drafts.get(id);
    if (!draft) throw new NotFoundError('draft', id);
    return draft;
  };

  api.get('/games', async (c) => {
    const games = await store.games.list();
    return c.json({ games: games.map(gameJson) });
  });

  api.post('/games', async (c) => {
    const input = parseWith(CreateGame, await jsonBody(c));
    const url = await checkThreadUrl(input.url, env.allowPrivateHosts);
    const engine = pickEngine(input.engine, url);
    const ruleset = checkRuleset(input.ruleset);
    const roster = rosterOf(input.players, 'players');
    const settings = await settingsFrom(input, url.href, box);
    const key = threadKeyFor(url, engine);
    const game = await store.games.create({
      threadUrl: url.href,
      engine,
      ruleset,
      roster,
      ...(input.slug ? { slug: input.slug } : {}),
      ...(input.pollIntervalSeconds ? { pollIntervalSeconds: input.pollIntervalSeconds } : {}),
      nextPollAt: now(),
      settings: settings.values,
    }, ACTOR, { sameThread: (other) => sameThreadKey(other) === key });
    log?.info({ gameId: game.id, slug: game.slug, engine: game.engine }, 'game added');
    kickPoll(game.id);
    return c.json({ id: game.id, slug: game.slug, engine: game.engine, url: game.threadUrl, status: game.status }, 201);
  });

  api.get('/games/:id', async (c) => {
    const game = await gameOr404(idParam(c));
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
    let game = await gameOr404(idParam(c));
    const input = parseWith(PatchGame, await jsonBody(c));
    if (input.status && input.action) throw BadRequest.field('action', 'give status or action, not both');
    const status = input.status ?? (input.action
      ? ({ pause: 'paused', resume: 'active', finish: 'finished', archive: 'archived', unarchive: 'paused' } as const)[input.action]
      : undefined);
    if (input.action === 'unarchive' && game.status !== 'archived') throw new StateError(`game ${game.id} is ${game.status}, not archived`);
    if (input.day !== undefined && input.deadline !== undefined) throw BadRequest.field('deadline', 'give day or deadline, not both');
    // Checked before anything is written: a bad field changes nothing.
    const roster = input.players ? rosterOf(input.players, 'players') : null;
    const ruleset = input.ruleset !== undefined ? checkRuleset(input.ruleset) : null;
    // A template is checked when set, not when the next votal is drawn up and fails.
    if (typeof input.votalTemplate === 'string') checkTemplate(input.votalTemplate);
    const settings = await settingsFrom(input, game.threadUrl, box);
    for (const key of ['votalTitle', 'timeZone', 'votalTemplate', 'gm', 'title'] as const) {
      if (input[key] !== undefined) {
        settings.values[key] = input[key];
        settings.audit[key] = input[key];
      }
    }
    if (input.deadline !== undefined) settings.values.day = settings.audit.day = dayWithDeadline(game, input.deadline, now());
    // What changes the count: the roster, the ruleset, the Day's clock.
    const recount = roster !== null || (ruleset !== null && ruleset !== game.ruleset) || settings.values.day !== undefined;
    if (roster) game = await store.games.setRoster(game.id, roster, ACTOR);
    if (ruleset !== null && ruleset !== game.ruleset) game = await store.games.setRuleset(game.id, ruleset, ACTOR);
    if (Object.keys(settings.values).length > 0 || input.pollIntervalSeconds !== undefined) {
      game = await store.games.updateSettings(game.id, {
        settings: settings.values,
        ...(input.pollIntervalSeconds !== undefined ? { pollIntervalSeconds: input.pollIntervalSeconds } : {}),
      }, ACTOR, { ...settings.audit, ...(input.pollIntervalSeconds !== undefined ? { pollIntervalSeconds: input.pollIntervalSeconds } : {}) });
    }
    if (status && status !== game.status) {
      // A finished game taken up again must not join another game on its thread.
      const key = sameThreadKey(game);
      const check = game.status === 'finished' ? { sameThread: (other: Game) => sameThreadKey(other) === key } : {};
      game = await store.games.setStatus(game.id, status, ACTOR, check);
      if (status === 'active') {
        await store.games.setNextPoll(game.id, now());
        if (!recount) kickPoll(game.id);
      }
    }
    if (!recount) return c.json({ ...gameJson(game), ...(await playersJson(game)) });
    // Like a GM event: the fold takes the new roster / ruleset / clock at the next poll; wait for it.
    const note = game.status === 'active'
      ? await pollAndWait(game.id)
      : `the game is ${game.status}: the change counts from the next poll after it is resumed`;
    const latest = await store.tallies.latest(game.id);
    return c.json({ ...gameJson(game), ...(await playersJson(game)), recounted: note === null, ...(note ? { note } : {}), tallyId: latest?.id ?? null });
  });

  /** Deletes the game and all its data; `?confirm=<the game's slug>` says the GM meant this game. */
  api.delete('/games/:id', async (c) => {
    const game = await gameOr404(idParam(c));
    const confirm = c.req.query('confirm');
    if (confirm !== game.slug) {
      throw BadRequest.field('confirm', confirm === undefined
        ? `deleting game ${game.id} removes all of its posts, counts, drafts and history: confirm with ?confirm=${game.slug}`
        : `"${confirm}" is not this game's slug (${game.slug}); nothing was deleted`);
    }
    // A poll in progress would write into the game as it goes: let it finish first.
    const poll = await store.polls.get(game.id);
    if (poll.leaseOwner !== null && poll.leaseUntil !== null && Date.parse(poll.leaseUntil) > now().getTime()) {
      throw new StateError(`game ${game.id} is being read right now; nothing was deleted: try again in a moment`);
    }
    await store.games.remove(game.id, ACTOR);
    log?.info({ gameId: game.id, slug: game.slug }, 'game deleted');
    return c.json({ deleted: { id: game.id, slug: game.slug } });
  });

  api.get('/games/:id/tally', async (c) => {
    const game = await gameOr404(idParam(c));
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
    const game = await gameOr404(idParam(c));
    const [posts, events, audit] = await Promise.all([
      store.posts.postsOf(game.id), store.events.list(game.id), store.audit.list({ gameId: game.id, action: NEWS_DISMISS, limit: 100_000 }),
    ]);
    return c.json(gmNews({ game, ruleset: gameRuleset(game), posts, events, audit }));
  });

  api.get('/games/:id/events', async (c) => {
    const game = await gameOr404(idParam(c));
    return c.json({ events: await store.events.list(game.id) });
  });

  api.post('/games/:id/events', async (c) => {
    const game = await gameOr404(idParam(c));
    const event = positionedNow(parseWith(GmEvent, await jsonBody(c)), now());
    const stored = await store.events.append(game.id, event, ACTOR);
    const before = await store.tallies.latest(game.id);
    // A recount is a poll: the fold takes every GM event, this one included. The poller
    // queues it; the answer waits (a while) for that poll to finish.
    let recount: string | null = null;
    if (game.status === 'active') {
      recount = await pollAndWait(game.id);
    } else {
      recount = `the game is ${game.status}: the event counts from the next poll after it is resumed`;
    }
    const after = await store.tallies.latest(game.id);
    return c.json({
      event: stored,
      recounted: recount === null,
      ...(recount ? { note: recount } : {}),
      tallyId: after?.id ?? null,
      tallyChanged: (after?.id ?? null) !== (before?.id ?? null),
      tally: after?.tally ?? null,
    }, 201);
  });

  api.get('/games/:id/drafts', async (c) => {
    const game = await gameOr404(idParam(c));
    const status = c.req.query('status');
    const filter = status && ['pending', 'approved', 'discarded', 'published', 'superseded'].includes(status)
      ? { status: status as Draft['status'] } : {};
    const drafts = await store.drafts.list(game.id, filter);
    const withPublications = await Promise.all(drafts.map(async (d) => draftJson(d, await store.drafts.publicationOf(d.id))));
    return c.json({ drafts: withPublications });
  });

  api.post('/games/:id/poll', async (c) => {
    const game = await gameOr404(idParam(c));
    if (game.status !== 'active') return c.json({ error: `game ${game.id} is ${game.status}; resume it to poll` }, 409);
    const wait = c.req.query('wait') !== '0';
    const note = wait ? await pollAndWait(game.id) : await deps.poller.pollNow(String(game.id)).then(() => 'queued');
    const [latest, poll] = await Promise.all([store.tallies.latest(game.id), store.polls.get(game.id)]);
    return c.json({
      polled: note === null, ...(note ? { note } : {}),
      tallyId: latest?.id ?? null, lastError: poll.lastError, lastPolledAt: poll.lastPolledAt,
    }, note === null ? 200 : 202);
  });

  api.get('/games/:id/posts', async (c) => {
    const game = await gameOr404(idParam(c));
    const posts = await store.posts.postsOf(game.id);
    return c.json({
      posts: posts.map((p) => ({
        id: p.id, number: p.number, page: p.page, author: p.author, postedAt: p.postedAt, permalink: p.permalink,
        edit: p.edit, deleted: p.deleted, deletedAt: p.deletedAt, revisions: p.revisions, key: p.key,
      })),
    });
  });

  api.get('/games/:id/posts/:number/revisions', async (c) => {
    const game = await gameOr404(idParam(c));
    const number = idParam(c, 'number');
    const post = (await store.posts.postsOf(game.id)).find((p) => p.number === number);
    if (!post) throw new NotFoundError('post', number);
    return c.json({ post: { id: post.id, number: post.number, author: post.author, deleted: post.deleted }, revisions: await store.posts.revisionsOf(post.key) });
  });

  api.get('/games/:id/audit', async (c) => {
    const game = await gameOr404(idParam(c));
    const limit = Math.min(1000, Math.max(1, Number(c.req.query('limit') ?? 100) || 100));
    return c.json({ audit: await store.audit.list({ gameId: game.id, limit }) });
  });

  /** One draft, its publication, and (pending only) `stale`: what changed in the count since it was made, or null. */
  api.get('/drafts/:id', async (c) => {
    const draft = await draftOr404(idParam(c));
    const stale = draft.status === 'pending' ? await staleness(draft) : null;
    return c.json({ ...draftJson(draft, await store.drafts.publicationOf(draft.id)), stale });
  });

  api.post('/drafts/:id/approve', async (c) => {
    let draft = await draftOr404(idParam(c));
    const input = parseWith(Approve, await jsonBody(c));
    if (draft.status === 'discarded') throw new StateError(`draft ${draft.id} was discarded; it cannot be approved`);
    if (draft.status === 'superseded') {
      throw new StateError(`draft ${draft.id} was superseded by draft ${draft.supersededBy} (a newer count); approve that one`);
    }
    if (draft.status === 'pending' && !input.confirm && !input.force) {
      const stale = await staleness(draft);
      if (stale) return c.json({ error: stale.message, stale }, 409);
    }
    // A browser's text box sends CRLF: an unedited draft must not come back as an edit.
    const body = input.body === undefined ? undefined : normaliseLineEndings(input.body);
    if (body !== undefined && body !== normaliseLineEndings(draft.body)) {
      if (draft.status !== 'pending') throw new StateError(`draft ${draft.id} is ${draft.status}; only a pending draft can be edited`);
      draft = await store.drafts.edit(draft.id, body, ACTOR);
    }
    if (draft.status === 'pending') {
      try {
        draft = await approveOnce(draft, !input.confirm && !input.force);
      } catch (error) {
        // The count moved on between the check above and the approval.
        const stale = error instanceof StaleDraftError ? await staleness(draft) : null;
        if (stale) return c.json({ error: stale.message, stale }, 409);
        throw error;
      }
    }
    const result = await publishDraft(publishDeps, draft.id, ACTOR);
    return c.json(publishJson(result), result.status === 'in-progress' ? 202 : 200);
  });

  api.post('/drafts/:id/discard', async (c) => {
    const draft = await store.drafts.discard(idParam(c), ACTOR);
    return c.json(draftJson(draft, await store.drafts.publicationOf(draft.id)));
  });

  /** A copied votal was pasted by the GM: record it (where, or let Votal find its marker). */
  api.post('/drafts/:id/published', async (c) => {
    const draft = await draftOr404(idParam(c));
    const input = parseWith(Confirm, await jsonBody(c));
    const remote = input.url || input.postId ? { id: input.postId ?? null, url: input.url ?? null } : undefined;
    const publication = await confirmCopied(publishDeps, draft.id, ACTOR, remote);
    if (!publication) return c.json({ error: 'the votal was not found in the thread yet; paste it, or give its url' }, 409);
    return c.json(draftJson((await store.drafts.get(draft.id)) ?? draft, publication));
  });

  app.route('/api', api);

  // ------------------------------------------------------------------------ public pages
  if (deps.rateLimit !== false) app.use('/g/*', rateLimit({ keyOf: clientOf, ...deps.rateLimit }));

  // A browser goes to the GM dashboard; anything else learns where things are.
  app.get('/', (c) => ((c.req.header('accept') ?? '').includes('text/html')
    ? c.redirect('/gm', 302)
    : c.json({ name: 'votal', dashboard: '/gm', api: '/api (Authorization: Bearer <admin token>)', live: '/g/:slug' })));
  app.route('/', createUiApp(deps));

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
  /**
   * Asks the poller to poll the game now and waits (at most `pollWaitMs`) until a poll that
   * started after this request has finished: one more poll, or two when one was running
   * already (it may have folded before the request's change). Null when it finished; else
   * what to tell the GM.
   */
  async function pollAndWait(gameId: number): Promise<string | null> {
    const before = await store.polls.get(gameId);
    const running = before.leaseOwner !== null && before.leaseUntil !== null && Date.parse(before.leaseUntil) > Date.now();
    const target = before.polls + (running ? 2 : 1);
    try {
      await deps.poller.pollNow(String(gameId));
    } catch (error) {
      return `could not ask for a poll: ${(error as Error).message}`;
    }
    const until = Date.now() + pollWaitMs;
    while (Date.now() < until) {
      if ((await store.polls.get(gameId)).polls >= target) return null;
      await new Promise((r) => setTimeout(r, 100));
    }
    return `the poll is queued but did not finish within ${Math.round(pollWaitMs / 1000)} s; the count follows`;
  }

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

  function kickPoll(gameId: number): void {
    deps.poller.pollNow(String(gameId)).catch((error: unknown) => log?.warn({ err: error, gameId }, 'poll after a change failed'));
  }

  /** pending -> approved; a GM approving at the same time elsewhere (another tab, another server) is no error. */
  async function approveOnce(draft: Draft, current: boolean): Promise<Draft> {
    try {
      return await store.drafts.approve(draft.id, ACTOR, { current });
    } catch (error) {
      const now = error instanceof StateError && !(error instanceof StaleDraftError) ? await store.drafts.get(draft.id) : null;
      if (now && (now.status === 'approved' || now.status === 'published')) return now;
      throw error;
    }
  }

  /** Null when the draft was made from the game's current count; else what changed since, and how to approve it anyway. */
  async function staleness(draft: Draft): Promise<Staleness | null> {
    const latest = await store.tallies.latest(draft.gameId);
    if (!latest || latest.id === draft.tallyId) return null;
    const made = await store.tallies.get(draft.tallyId);
    if (!made) return null;
    const changes = countChanges(made.tally, latest.tally);
    const at = (post: number | null) => (post === null ? 'before any post' : `as of post ${post}`);
    return {
      message: `draft ${draft.id} was made from an older count (${at(made.tally.asOfPost)}); the count now stands ${at(latest.tally.asOfPost)}. `
        + `${changes.summary.join(' ')} Approve again with "confirm": true to post it as it is, or draft from the current count.`,
      draftTallyId: made.id, currentTallyId: latest.id, changes,
    };
  }

  async function settingsFrom(
    input: { webhookUrl?: string | null | undefined; publish?: unknown; drafts?: unknown; day?: unknown },
    threadUrl: string,
    secrets: SecretBox | null,
  ): Promise<{ values: Record<string, unknown>; audit: Record<string, unknown> }> {
    const values: Record<string, unknown> = {};
    const audit: Record<string, unknown> = {};
    if (input.webhookUrl !== undefined) {
      if (input.webhookUrl === null || input.webhookUrl === '') {
        values.webhookUrl = null;
        audit.webhookUrl = null;
      } else {
        const url = await checkUrl(input.webhookUrl, 'webhookUrl', env.allowPrivateHosts);
        values.webhookUrl = url.href;
        audit.webhookUrl = '(set)';
      }
    }
    if (input.drafts !== undefined) {
      values.drafts = input.drafts === null ? null : parseWith(DraftSettings.partial(), input.drafts, ['drafts']);
      audit.drafts = values.drafts;
    }
    if (input.day !== undefined) {
      values.day = input.day === null ? null : parseWith(DaySetting, input.day, ['day']);
      audit.day = values.day;
    }
    if (input.publish !== undefined) {
      if (input.publish === null) {
        values.publish = null;
      } else {
        const publish = parseWith(PublishInput, input.publish, ['publish']);
        try {
          values.publish = await sealPublish(publish, threadUrl, secrets, cookieJarFromExport);
        } catch (error) {
          if ((error as Error).name === 'MissingSecretKeyError') throw BadRequest.field('publish', (error as Error).message);
          throw BadRequest.field(publish.method === 'form' ? 'publish.cookies' : 'publish', (error as Error).message);
        }
      }
      audit.publish = input.publish === null ? null : { method: (values.publish as GameSettings['publish'])?.method };
    }
    return { values, audit };
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

/** A pending draft made from an older count than the game's current one. */
interface Staleness {
  message: string;
  draftTallyId: number;
  currentTallyId: number;
  changes: CountChanges;
}

/** The game's Day clock with a new deadline (null: no clock); the Day's number and start are kept. */
function dayWithDeadline(game: Game, deadline: string | null, at0: Date): Record<string, unknown> | null {
  if (deadline === null) return null;
  const current = DaySetting.safeParse(game.settings.day);
  const at = Date.parse(deadline);
  const start = current.success && Date.parse(current.data.start) < at ? current.data.start : new Date(Math.min(at0.getTime(), at - 86_400_000)).toISOString();
  return { number: current.success ? current.data.number : 1, start, deadline: new Date(at).toISOString() };
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

async function checkUrl(raw: string, field: string, allowPrivate: boolean): Promise<URL> {
  if (!URL.canParse(raw)) throw BadRequest.field(field, 'not a URL');
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw BadRequest.field(field, 'must be an http or https URL');
  if (url.username || url.password) throw BadRequest.field(field, 'must not contain a user name or password');
  try {
    return await assertPublicUrl(url, { allowPrivate });
  } catch (error) {
    const message = (error as Error).message.replace(/\s*\([^)]*\)$/, '');
    throw BadRequest.field(field, (error as Error).name === 'PrivateHostError'
      ? `${message}: private and loopback addresses are refused (set VOTAL_ALLOW_PRIVATE_HOSTS=1 for a local forum)`
      : message);
  }
}

function checkThreadUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  return checkUrl(raw, 'url', allowPrivate);
}

/**
 * One game per thread: the thread's canonical URL, as its engine's adapter gives page 1
 * (no page, post anchor or session id), with no fragment or trailing slash. URL parsing
 * already put scheme and host in lower case and dropped a default port.
 */
export function threadKeyFor(url: URL, engine: EngineId | null): string {
  let canonical = url;
  if (engine) {
    try {
      canonical = new URL(adapterOf(engine).threadRef(url).url);
    } catch {
      // The adapter cannot read this URL: compare it as given.
    }
  }
  return `${canonical.protocol}//${canonical.host}${canonical.pathname.replace(/\/+$/, '')}${canonical.search}`;
}

/** A stored game's thread key (its URL as stored, read with its engine). */
function sameThreadKey(game: Game): string | null {
  return URL.canParse(game.threadUrl) ? threadKeyFor(new URL(game.threadUrl), game.engine) : null;
}

function pickEngine(given: string | undefined, url: URL): EngineId | null {
  if (given !== undefined) {
    const parsed = EngineId.safeParse(given);
    if (!parsed.success) throw BadRequest.field('engine', `unknown engine "${given}" (known: ${EngineId.options.join(', ')})`);
    try {
      adapterOf(parsed.data).threadRef(url);
    } catch (error) {
      throw BadRequest.field('url', `not a ${parsed.data} thread URL: ${(error as Error).message}`);
    }
    return parsed.data;
  }
  // Unknown from the URL: the first poll tells it from the page's fingerprints.
  return engineFromUrl(url);
}

function checkRuleset(name: string): string {
  const names = listRulesets();
  if (!names.includes(name)) throw BadRequest.field('ruleset', `unknown ruleset "${name}" (known: ${names.join(', ')})`);
  try {
    loadRuleset(name);
  } catch (error) {
    throw BadRequest.field('ruleset', (error as Error).message);
  }
  return name;
}

function rosterOf(players: z.infer<typeof Players>, field: string): Roster {
  const roster: Roster = [];
  players.forEach((p, i) => {
    const slots = typeof p === 'string' ? parsePlayerList(p) : [Slot.parse(p)];
    if (slots.length === 0) throw BadRequest.field(`${field}.${i}`, 'a player name cannot be empty');
    roster.push(...slots);
  });
  const seen = new Map<string, number>();
  roster.forEach((slot, i) => {
    for (const name of [slot.name, ...slot.aliases]) {
      const key = name.toLowerCase();
      const other = seen.get(key);
      if (other !== undefined && other !== i) throw BadRequest.field(field, `"${name}" is listed twice`);
      seen.set(key, i);
    }
  });
  return roster;
}

export type { Context };
