import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { CommandDeps } from '../../app/deps.js';
import { approveDraft, discardDraft, draftNow, editDraft, markPublished, staleness } from '../../app/drafts.js';
import { answerReview, dismissNews, recordEvent } from '../../app/events.js';
import { createGame, deleteGame, updateGame, type GameChange } from '../../app/games.js';
import { pollNow } from '../../app/poll.js';
import type { VotalEnv } from '../../config/env.js';
import { EngineId } from '../../model/engine.js';
import { GameStatus, type Game } from '../../model/game.js';
import { parsePlayerList } from '../../model/roster.js';
import { listRulesets, loadRuleset } from '../../rules/load-ruleset.js';
import type { Publication } from '../../model/draft.js';
import { gameRuleset } from '../../game/game-ruleset.js';
import { gmNews, NEWS_DISMISS } from '../../game/gm-news.js';
import { gameLateness } from '../../jobs/schedule.js';
import { copiedText } from '../../publish/copy.js';
import { openFlags } from '../../votal/render-votal.js';
import { normaliseLineEndings, sameVotalText } from '../../votal/line-endings.js';
import { commandDepsOf, type AppDeps } from '../deps.js';
import { refusalOf } from '../errors.js';
import { rateLimit } from '../rate-limit.js';
import { GmAuth, clearSessionCookie, requireGm, type GmVariables } from './auth.js';
import { Flashes, type Flash } from './flash.js';
import { gameGuard, ownerOnly, ownGame, visibleGames } from './gm-access.js';
import { gameGmsPanel, gmsRoutes } from './gms-page.js';
import { signInRoutes } from './sign-in.js';
import { deadlineOf, titleOf, type UiStore } from './game-data.js';
import {
  DashboardPage, DeleteGamePage, DraftPage, ErrorPage, GamePage, NewGamePage, SettingsPage, rosterText, type NewGameForm,
  type RulesetChoice,
} from './gm-pages.js';
import { inspectThread } from './inspect-thread.js';
import { LiveRenders } from './live-render.js';
import { reviewQueue } from './review.js';
import { sameSiteForms, uiHeaders } from './security.js';
import { staticFiles } from './static.js';
import { isTimeZone, localToUtc } from './time-zone.js';

/**
 * The web pages of `votal serve`: the public live tally (`/g/:slug`) and the GM dashboard
 * (`/gm/...`), server-rendered with hono/jsx (every interpolation escaped), a few small
 * scripts served from /ui/static/, a strict CSP and no inline script anywhere.
 *
 * The dashboard is a thin caller of the commands (src/app), as the JSON API is: each form
 * that changes something runs the command the API runs, with the signed-in GM as actor,
 * so validation, auditing, recounts and publishing have one code path; a refusal comes
 * back as a flash message. It reads the store directly to show things.
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

type UiEnv = { Variables: GmVariables };

/** Flash messages for the next page a session sees (after a redirect). */
const flashes = new Flashes();

/** A few common zones to suggest; any IANA name is accepted. */
const ZONES = [
  'UTC', 'Europe/London', 'Europe/Berlin', 'Europe/Paris', 'Europe/Madrid', 'Europe/Moscow', 'America/New_York',
  'America/Chicago', 'America/Denver', 'America/Los_Angeles', 'America/Sao_Paulo', 'Asia/Tokyo', 'Asia/Singapore',
  'Asia/Kolkata', 'Australia/Sydney', 'Pacific/Auckland',
];

export function createUiApp(deps: AppDeps, options: UiOptions = {}): Hono<UiEnv> {
  const store: UiStore = deps.store;
  const commands = options.commands ?? commandDepsOf(deps);
  const env: VotalEnv = deps.env;
  const now = deps.now ?? (() => new Date());
  const auth = options.auth
    ?? new GmAuth({ adminToken: env.adminToken, dataDir: env.dataDir, gms: deps.store.gms, now: () => now().getTime() });
  /**
   * The API queues a recount (a poll) after a GM event; the page the GM lands on should show
   * it. When a poll was asked for since `since`, waits (at most `ms`) until one finished
   * after the request; when none was asked for (a paused game, a poller that only queues
   * elsewhere), returns at once.
   */
  const awaitPoll = async (gameId: number, since: number, ms = 8_000): Promise<boolean> => {
    const until = Date.now() + ms;
    for (;;) {
      const p = await store.polls.get(gameId);
      const requested = p.pollRequestedAt === null ? null : Date.parse(p.pollRequestedAt);
      if (requested === null || requested < since - 2_000) return false;
      if (p.lastPolledAt && Date.parse(p.lastPolledAt) >= requested && p.leaseOwner === null) return true;
      if (Date.now() > until) return false;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const app = new Hono<UiEnv>();
  app.use('/g/*', uiHeaders());
  app.use('/gm', uiHeaders());
  app.use('/gm/*', uiHeaders());
  app.route('/', staticFiles());

  app.onError((error, c) => {
    if (error instanceof HTTPException && error.status < 500) {
      // hono/csrf: a form from another origin.
      return c.html(<ErrorPage status={error.status} message={error.status === 403 ? 'This form did not come from this site.' : 'Bad request.'} />, error.status);
    }
    deps.log?.error({ err: error, path: c.req.path }, 'page failed');
    const status = (error as { status?: number }).status === 404 || (error as Error).name === 'NotFoundError' ? 404 : 500;
    return c.html(<ErrorPage status={status} message={status === 404 ? 'There is nothing here.' : 'The page could not be shown; the server log has the details.'} />, status);
  });

  // --------------------------------------------------------------------------- live page
  const gameBySlug = async (c: Context): Promise<Game | null> => {
    const slug = c.req.param('slug') ?? '';
    return /^[a-z0-9][a-z0-9-]{0,63}$/.test(slug) ? store.games.bySlug(slug) : null;
  };

  const liveRenders = options.liveRenders ?? new LiveRenders(
    deps.live?.noscriptRefreshSeconds ? { noscriptRefreshSeconds: deps.live.noscriptRefreshSeconds } : {},
  );
  app.get('/g/:slug', async (c) => {
    const game = await gameBySlug(c);
    if (!game) return c.html(<ErrorPage status={404} message="No game has this address." />, 404);
    return c.html((await liveRenders.view(store, game, now())).page);
  });

  app.get('/g/:slug/fragment', async (c) => {
    const game = await gameBySlug(c);
    if (!game) return c.text('No such game.', 404);
    return c.html((await liveRenders.view(store, game, now())).fragment);
  });

  // ----------------------------------------------------------------------------- sign-in
  // On the app's clock, like sessions and invites (tests drive it).
  const loginLimit = options.loginRateLimit === false
    ? null
    : rateLimit({ capacity: 10, perSecond: 0.2, now: () => now().getTime(), ...(options.loginRateLimit ?? {}) });
  const origin = sameSiteForms(deps.env.publicUrl);

  app.route('/', signInRoutes({
    auth, gms: deps.store.gms, audit: store.audit, flashes, now, limit: loginLimit, origin,
  }));

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
  app.route('/', gmsRoutes({ gms: deps.store.gms, games: store.games, flashes, now, publicUrl: env.publicUrl }));

  const flashOf = (c: Context<UiEnv>): Flash => {
    const s = c.get('session');
    const f = flashes.get(s) ?? {};
    flashes.delete(s);
    return f;
  };
  const back = (c: Context<UiEnv>, to: string, flash: Flash) => {
    flashes.set(c.get('session'), flash);
    return c.redirect(to, 303);
  };
  const idOf = (c: Context, name: string): number | null => {
    const raw = c.req.param(name) ?? '';
    return /^\d{1,12}$/.test(raw) ? Number(raw) : null;
  };
  const field = (form: Record<string, unknown>, name: string): string => (typeof form[name] === 'string' ? (form[name] as string).trim() : '');
  const gameOf = async (c: Context): Promise<Game | null> => {
    const id = idOf(c, 'id');
    return id === null ? null : store.games.get(id);
  };
  const notFound = (c: Context<UiEnv>) => c.html(<ErrorPage status={404} message="There is nothing here." />, 404);

  app.post('/gm/logout', async (c) => {
    await auth.end(c.get('session').id);
    clearSessionCookie(c);
    return c.redirect('/gm/login', 303);
  });

  app.get('/gm', async (c) => {
    // Archived games are off the main list, one click away.
    const showArchived = c.req.query('archived') === '1';
    const all = await visibleGames(deps.store.gms, c.get('gm'), await store.games.list());
    const games = all.filter((g) => (g.status === 'archived') === showArchived);
    const summaries = await Promise.all(games.map(async (game) => {
      const [latest, poll, pending] = await Promise.all([
        store.tallies.latest(game.id), store.polls.get(game.id), store.drafts.list(game.id, { status: 'pending' }),
      ]);
      const tally = latest?.tally ?? null;
      const toReview = tally ? openFlags(tally).length : 0;
      return {
        game, title: titleOf(game, poll), tally, poll, pending: pending.length, toReview, deadline: deadlineOf(game, poll),
        lateness: gameLateness(game, poll, now().getTime()),
      };
    }));
    const flash = flashOf(c);
    return c.html(<DashboardPage csrf={c.get('session').csrf} games={summaries.reverse()} message={flash.message ?? null}
      showArchived={showArchived} archived={all.filter((g) => g.status === 'archived').length} gm={c.get('gm')} />);
  });

  // ------------------------------------------------------------------------- new game
  const rulesets = (): RulesetChoice[] => listRulesets().map((name) => {
    try {
      const r = loadRuleset(name);
      return { name, title: r.title ?? null, source: r.source ?? null };
    } catch {
      return { name, title: null, source: null };
    }
  });
  app.get('/gm/new', (c) => {
    const flash = flashOf(c);
    return c.html(<NewGamePage csrf={c.get('session').csrf} form={{}} rulesets={rulesets()} inspected={false} zones={ZONES} error={flash.error ?? null} />);
  });

  app.post('/gm/new/inspect', async (c) => {
    const form = await c.req.parseBody();
    const url = field(form, 'url');
    const engine = EngineId.safeParse(field(form, 'engine'));
    const csrfToken = c.get('session').csrf;
    try {
      const facts = await inspectThread(url, { allowPrivateHosts: env.allowPrivateHosts, ...(engine.success ? { engine: engine.data } : {}) });
      const notes = [
        `Read ${facts.posts} posts of a ${facts.engine} thread.`,
        facts.playersFrom === 'opening-post' ? 'Players: the list in the opening post.'
          : facts.playersFrom === 'posters' ? 'Players: everyone who posted after the opening post (remove anyone who is not playing).'
            : 'No players found: type the list.',
      ];
      return c.html(<NewGamePage csrf={csrfToken} rulesets={rulesets()} inspected={true} zones={ZONES} notes={notes} form={{
        url: facts.url, engine: facts.engine, title: facts.title ?? '', gm: facts.gm ?? '', ruleset: '',
        players: facts.players.join('\n'), day: '1', startPost: String(facts.startPost), timeZone: 'UTC', pollSeconds: '300',
      }} />);
    } catch (error) {
      return c.html(<NewGamePage csrf={csrfToken} rulesets={rulesets()} inspected={false} zones={ZONES}
        form={{ url, engine: engine.success ? engine.data : '' }} error={`Could not read that thread: ${(error as Error).message}`} />, 400);
    }
  });

  app.post('/gm/games', async (c) => {
    const form = await c.req.parseBody();
    const f: NewGameForm = {
      url: field(form, 'url'), engine: field(form, 'engine'), title: field(form, 'title'), gm: field(form, 'gm'),
      ruleset: field(form, 'ruleset'), players: typeof form.players === 'string' ? form.players : '', day: field(form, 'day') || '1',
      startPost: field(form, 'startPost') || '0', deadline: field(form, 'deadline'), timeZone: field(form, 'timeZone') || 'UTC',
      pollSeconds: field(form, 'pollSeconds') || '300',
    };
    const again = (error: string) => c.html(<NewGamePage csrf={c.get('session').csrf} rulesets={rulesets()} inspected={true} zones={ZONES} form={f} error={error} />, 400);
    const players = parsePlayerList(f.players).map((s) => (s.aliases.length ? { name: s.name, aliases: s.aliases } : s.name));
    if (players.length === 0) return again('Name at least one player.');
    const day = Number(f.day);
    const startPost = Number(f.startPost);
    if (!Number.isInteger(day) || day < 1) return again('The Day is a whole number from 1.');
    if (!Number.isInteger(startPost) || startPost < 0) return again('The Day starts after a post number (0: the very start).');
    if (!isTimeZone(f.timeZone)) return again(`"${f.timeZone}" is not a time zone (try Europe/Berlin or America/New_York).`);
    let daySetting: { number: number; start: string; deadline: string } | undefined;
    if (f.deadline) {
      const deadline = localToUtc(f.deadline, f.timeZone);
      if (!deadline) return again('The deadline is not a date and time.');
      daySetting = { number: day, start: now().toISOString(), deadline };
      if (Date.parse(deadline) <= Date.parse(daySetting.start)) daySetting.start = new Date(Date.parse(deadline) - 86_400_000).toISOString();
    }
    const pollSeconds = Number(f.pollSeconds);
    const actor = c.get('actor');
    let id: number;
    try {
      id = (await createGame(commands, actor, {
        url: f.url, ruleset: f.ruleset, players, ...(f.engine ? { engine: f.engine } : {}),
        ...(Number.isInteger(pollSeconds) && pollSeconds >= 10 ? { pollIntervalSeconds: pollSeconds } : {}),
        ...(daySetting ? { day: daySetting } : {}),
        timeZone: f.timeZone, ...(f.title ? { votalTitle: `${f.title} — vote count` } : {}), ...(f.gm.trim() ? { gm: f.gm.trim() } : {}),
      })).id;
    } catch (error) {
      return again(refusalOf(error));
    }
    await ownGame(deps.store.gms, c, id, now());
    if (startPost > 0 || day > 1) await recordEvent(commands, actor, id, { kind: 'day-start', day, at: startPost });
    await awaitPoll(id, 0);
    return back(c, `/gm/games/${id}`, { message: 'The game is watched: the first count is on its way.' });
  });

  // --------------------------------------------------------------------------- game page
  app.get('/gm/games/:id', async (c) => {
    const game = await gameOf(c);
    if (!game) return notFound(c);
    const [latest, poll, posts, events, drafts, audit] = await Promise.all([
      store.tallies.latest(game.id), store.polls.get(game.id), store.posts.postsOf(game.id), store.events.list(game.id),
      store.drafts.list(game.id), store.audit.list({ gameId: game.id, limit: 200 }),
    ]);
    const previousBodies = new Map<number, (typeof posts)[number]['body']>();
    for (const p of posts.filter((x) => x.revisions > 1)) {
      const revisions = await store.posts.revisionsOf(p.key);
      const current = revisions.findIndex((r) => r.current);
      const before = revisions[(current > 0 ? current : revisions.length) - 1];
      if (before && !before.current) previousBodies.set(p.key, before.body);
    }
    const publications = new Map<number, Publication>();
    for (const d of drafts) {
      const pub = await store.drafts.publicationOf(d.id);
      if (pub) publications.set(d.id, pub);
    }
    let ruleset;
    try {
      ruleset = gameRuleset(game);
    } catch {
      ruleset = null;
    }
    // The GM's answers, however long ago (the activity list shows only the latest entries).
    const [accepted, dismissed] = await Promise.all([
      store.audit.list({ gameId: game.id, action: 'review.accept', limit: 100_000 }),
      store.audit.list({ gameId: game.id, action: NEWS_DISMISS, limit: 100_000 }),
    ]);
    const review = ruleset ? reviewQueue({ game, ruleset, tally: latest?.tally ?? null, posts, events, audit: accepted, previousBodies }) : [];
    const news = ruleset ? gmNews({ game, ruleset, posts, events, audit: dismissed }) : { gms: [], proposals: [], unread: [] };
    const flash = flashOf(c);
    return c.html(<GamePage csrf={c.get('session').csrf} game={game} title={titleOf(game, poll)} tally={latest?.tally ?? null}
      tallyAt={latest?.createdAt ?? null} poll={poll} review={review} events={events} drafts={drafts} publications={publications}
      deadline={deadlineOf(game, poll)} audit={audit} news={news} message={flash.message ?? null} error={flash.error ?? null} />);
  });

  // A proposal from the GM's posts the GM does not want: recorded, so it is not shown again.
  app.post('/gm/games/:id/news', async (c) => {
    const game = await gameOf(c);
    if (!game) return notFound(c);
    const key = field(await c.req.parseBody(), 'key');
    if (!/^[0-9a-f]{16}$/.test(key)) return back(c, `/gm/games/${game.id}#news`, { error: 'No proposal given.' });
    await dismissNews(commands, c.get('actor'), game.id, key);
    return back(c, `/gm/games/${game.id}#news`, { message: 'Dismissed.' });
  });

  app.post('/gm/games/:id/review', async (c) => {
    const game = await gameOf(c);
    if (!game) return notFound(c);
    const form = await c.req.parseBody();
    const post = Number(field(form, 'post'));
    const action = field(form, 'action');
    const key = field(form, 'key').slice(0, 100);
    const to = `/gm/games/${game.id}#review`;
    if (!Number.isInteger(post) || post < 1) return back(c, to, { error: 'No post given.' });
    if (action === 'accept') {
      await answerReview(commands, c.get('actor'), game.id, { answer: 'accept', post, key });
      return back(c, to, { message: `Post ${post}: accepted.` });
    }
    if (action !== 'correct') return back(c, to, { error: 'Unknown answer.' });
    const target = field(form, 'target') || null;
    // "Pick" names a player; an empty pick is no answer (ignoring the vote has its own button).
    if (target === null && form.pick === '1') return back(c, to, { error: `Post ${post}: choose the player meant.` });
    // The correction is a GM event; the command waits (a while) for the recount.
    let answered;
    try {
      answered = await answerReview(commands, c.get('actor'), game.id, { answer: 'correct', post, target });
    } catch (error) {
      return back(c, to, { error: refusalOf(error) });
    }
    const r = answered.answer === 'correct' ? answered.recorded : null;
    const done = r?.recounted ? 'recounted.' : `${r?.note ?? 'the count follows'}.`;
    return back(c, to, { message: `Post ${post}: ${target === null ? 'vote ignored' : `counted as a vote for ${target}`}; ${done}` });
  });

  app.post('/gm/games/:id/events', async (c) => {
    const game = await gameOf(c);
    if (!game) return notFound(c);
    const form = await c.req.parseBody();
    const kind = field(form, 'kind');
    const atRaw = field(form, 'at');
    const at = atRaw === '' ? undefined : Number(atRaw);
    const pos = at !== undefined && Number.isInteger(at) && at >= 0 ? { at } : {};
    const hidden = form.hidden === '1';
    let event: Record<string, unknown>;
    switch (kind) {
      case 'kill': case 'revive': case 'modkill': event = { kind, player: field(form, 'player'), ...pos }; break;
      case 'replace': event = { kind, player: field(form, 'player'), by: field(form, 'by'), ...pos }; break;
      case 'weight': event = { kind, player: field(form, 'player'), weight: Number(field(form, 'weight')), hidden, ...pos }; break;
      case 'vote': {
        const target = field(form, 'target');
        event = { kind, player: field(form, 'player'), target: target === '(unvote)' || target === '' ? null : target, ...(hidden ? { hidden } : {}), ...pos };
        break;
      }
      case 'decide': event = { kind, eliminated: field(form, 'eliminated').split(',').map((s) => s.trim()).filter(Boolean), ...pos }; break;
      case 'day-end': event = { kind, ...pos }; break;
      case 'day-start': event = { kind, day: Number(field(form, 'day')), ...pos }; break;
      case 'deadline': {
        const day = Number(field(form, 'day'));
        event = { kind, time: field(form, 'time'), ...(Number.isInteger(day) && day > 0 ? { day } : {}), ...pos };
        break;
      }
      default: return back(c, `/gm/games/${game.id}`, { error: `Unknown event "${kind}".` });
    }
    try {
      const r = await recordEvent(commands, c.get('actor'), game.id, event);
      return back(c, `/gm/games/${game.id}`, { message: `Recorded: ${kind}.${r.note ? ` ${r.note}` : ''}` });
    } catch (error) {
      return back(c, `/gm/games/${game.id}`, { error: refusalOf(error) });
    }
  });

  app.post('/gm/games/:id/poll', async (c) => {
    const game = await gameOf(c);
    if (!game) return notFound(c);
    let note: string | null = null;
    let refused: string | null = null;
    try {
      note = (await pollNow(commands, game.id)).note;
    } catch (error) {
      refused = refusalOf(error);
    }
    const lastError = (await store.polls.get(game.id)).lastError;
    const error = refused ?? (lastError ? `The poll failed: ${lastError}` : null);
    return back(c, `/gm/games/${game.id}`, error ? { error } : { message: note ? `Poll asked for: ${note}.` : 'Thread read and recounted.' });
  });

  app.post('/gm/games/:id/drafts', async (c) => {
    const game = await gameOf(c);
    if (!game) return notFound(c);
    let draft;
    try {
      draft = await draftNow(commands, c.get('actor'), game.id);
    } catch (error) {
      return back(c, `/gm/games/${game.id}`, { error: refusalOf(error) });
    }
    return back(c, `/gm/drafts/${draft.id}`, { message: 'Drafted from the current count.' });
  });

  // ------------------------------------------------------------------------------ drafts
  const draftAndGame = async (c: Context) => {
    const id = idOf(c, 'id');
    const draft = id === null ? null : await store.drafts.get(id);
    const game = draft ? await store.games.get(draft.gameId) : null;
    return draft && game ? { draft, game } : null;
  };

  /** The draft page; `edited`: the GM's unsaved edit, previewed in place of the draft's text. */
  const draftPage = async (c: Context<UiEnv>, found: NonNullable<Awaited<ReturnType<typeof draftAndGame>>>, edited: string | null) => {
    const { draft, game } = found;
    const [publication, poll, stale] = await Promise.all([
      store.drafts.publicationOf(draft.id), store.polls.get(game.id), draft.status === 'pending' ? staleness(commands, draft) : null,
    ]);
    const method = game.settings.publish?.method ?? 'copy';
    const flash = flashOf(c);
    const copyText = publication && publication.method === 'copy' && publication.status !== 'published' && draft.status === 'approved'
      ? copiedText(draft.body) : null;
    const shown = edited === null ? draft : { ...draft, body: edited };
    const message = edited === null ? flash.message ?? null : 'Preview of your edit: it is not saved until you save or approve it.';
    return c.html(<DraftPage csrf={c.get('session').csrf} game={game} title={titleOf(game, poll)} draft={shown} publication={publication}
      staleChanges={stale?.changes.summary ?? null} copyText={copyText} canPost={method !== 'copy'} message={message} error={flash.error ?? null} />);
  };

  app.get('/gm/drafts/:id', async (c) => {
    const found = await draftAndGame(c);
    if (!found) return notFound(c);
    return draftPage(c, found, null);
  });

  // The preview follows the GM's edit: the page again, with the edited text shown (nothing stored).
  app.post('/gm/drafts/:id/preview', async (c) => {
    const found = await draftAndGame(c);
    if (!found) return notFound(c);
    const body = normaliseLineEndings(String((await c.req.parseBody()).body ?? ''));
    if (found.draft.status !== 'pending') return back(c, `/gm/drafts/${found.draft.id}`, { error: `Draft ${found.draft.id} is ${found.draft.status}; only a pending draft can be edited.` });
    return draftPage(c, found, body.trim() ? body : found.draft.body);
  });

  app.post('/gm/drafts/:id/edit', async (c) => {
    const found = await draftAndGame(c);
    if (!found) return notFound(c);
    const body = String((await c.req.parseBody()).body ?? '');
    const { draft } = found;
    try {
      // Drafts are snapshots: an edit is a new draft, and the old one is discarded.
      const edited = await editDraft(commands, c.get('actor'), draft.id, body);
      if (!edited.changed) return back(c, `/gm/drafts/${draft.id}`, { message: 'No change.' });
      return back(c, `/gm/drafts/${edited.draft.id}`, { message: `Saved as draft #${edited.draft.id}.` });
    } catch (error) {
      return back(c, `/gm/drafts/${draft.id}`, { error: refusalOf(error) });
    }
  });

  app.post('/gm/drafts/:id/approve', async (c) => {
    const found = await draftAndGame(c);
    if (!found) return notFound(c);
    const { draft } = found;
    const form = await c.req.parseBody();
    const body = typeof form.body === 'string' && form.body.trim() && !sameVotalText(form.body, draft.body) ? form.body : undefined;
    const confirm = form.confirm === '1';
    let r;
    try {
      r = await approveDraft(commands, c.get('actor'), draft.id, { ...(body ? { body } : {}), ...(confirm ? { confirm } : {}) });
    } catch (error) {
      return back(c, `/gm/drafts/${draft.id}`, { error: refusalOf(error) });
    }
    const published = r.draft.id;
    switch (r.status) {
      case 'published': return back(c, `/gm/drafts/${published}`, { message: 'Approved and posted in the thread.' });
      case 'copy': return back(c, `/gm/drafts/${published}`, { message: 'Approved. Copy it into the thread, then press "I have posted it".' });
      case 'in-progress': return back(c, `/gm/drafts/${published}`, { message: 'Approved. Another Votal process is posting it right now; reload to see the result.' });
      case 'failed': return back(c, `/gm/drafts/${published}`, { error: `Approved, but posting failed: ${r.error}` });
    }
  });

  app.post('/gm/drafts/:id/discard', async (c) => {
    const found = await draftAndGame(c);
    if (!found) return notFound(c);
    try {
      await discardDraft(commands, c.get('actor'), found.draft.id);
      return back(c, `/gm/games/${found.game.id}`, { message: `Draft #${found.draft.id} discarded.` });
    } catch (error) {
      return back(c, `/gm/games/${found.game.id}`, { error: refusalOf(error) });
    }
  });

  app.post('/gm/drafts/:id/published', async (c) => {
    const found = await draftAndGame(c);
    if (!found) return notFound(c);
    const url = field(await c.req.parseBody(), 'url');
    try {
      await markPublished(commands, c.get('actor'), found.draft.id, url ? { url } : {});
      return back(c, `/gm/drafts/${found.draft.id}`, { message: 'Marked as published.' });
    } catch (error) {
      return back(c, `/gm/drafts/${found.draft.id}`, { error: refusalOf(error) });
    }
  });

  // ---------------------------------------------------------------------------- settings
  const publishMethod = (game: Game): string => {
    const m = game.settings.publish?.method;
    return m === 'form' ? 'reply form with a stored session' : m === 'xenforo-api' ? 'XenForo API' : m === 'discourse-api' ? 'Discourse API' : 'copy and paste';
  };

  app.get('/gm/games/:id/settings', async (c) => {
    const game = await gameOf(c);
    if (!game) return notFound(c);
    const poll = await store.polls.get(game.id);
    const flash = flashOf(c);
    return c.html(<SettingsPage csrf={c.get('session').csrf} game={game} title={titleOf(game, poll)} zones={ZONES} publishMethod={publishMethod(game)}
      secretKey={env.secretKey !== undefined} message={flash.message ?? null} error={flash.error ?? null} rulesets={rulesets()}
      gms={await gameGmsPanel(deps.store.gms, c, game)} />);
  });

  app.post('/gm/games/:id/settings', async (c) => {
    const game = await gameOf(c);
    if (!game) return notFound(c);
    const form = await c.req.parseBody();
    const to = `/gm/games/${game.id}/settings`;
    const zone = field(form, 'timeZone') || 'UTC';
    if (!isTimeZone(zone)) return back(c, to, { error: `"${zone}" is not a time zone.` });
    const patch: GameChange = { timeZone: zone };
    // The game itself: title, ruleset, players (sent only when changed: the last two recount).
    const title = field(form, 'title');
    const currentTitle = game.settings.title ?? '';
    if ('title' in form && title !== currentTitle) patch.title = title || null;
    const ruleset = field(form, 'ruleset');
    if (ruleset && ruleset !== game.ruleset) patch.ruleset = ruleset;
    if (typeof form.players === 'string') {
      const roster = parsePlayerList(form.players);
      if (roster.length === 0) return back(c, to, { error: 'Name at least one player.' });
      if (rosterText(roster) !== rosterText(game.roster)) {
        // A slot that keeps its name keeps its history (former names from replacements).
        patch.players = roster.map((slot) => {
          const before = game.roster.find((s) => s.name.toLowerCase() === slot.name.toLowerCase());
          return { name: slot.name, aliases: slot.aliases, ...(before?.formerNames.length ? { formerNames: before.formerNames } : {}) };
        });
      }
    }
    const poll = Number(field(form, 'pollSeconds'));
    if (Number.isInteger(poll) && poll > 0 && poll !== game.pollIntervalSeconds) patch.pollIntervalSeconds = poll;
    const status = GameStatus.safeParse(field(form, 'status'));
    if (field(form, 'status') && !status.success) return back(c, to, { error: `"${field(form, 'status')}" is not a game status.` });
    if (status.success && status.data !== game.status) patch.status = status.data;
    const positive = (name: string): number | null => {
      const v = Number(field(form, name));
      return field(form, name) === '' || !Number.isFinite(v) || v <= 0 ? null : v;
    };
    const everyNVotes = positive('everyNVotes');
    patch.drafts = {
      everyNVotes: everyNVotes === null ? null : Math.round(everyNVotes),
      everyHours: positive('everyHours'),
      onLMinus1: form.onLMinus1 === '1',
      onMajority: form.onMajority === '1',
      onDeadline: form.onDeadline === '1',
      requestKeywords: field(form, 'requestKeywords').split(',').map((k) => k.trim()).filter(Boolean),
    };
    const webhook = field(form, 'webhookUrl');
    const currentHook = game.settings.webhookUrl ?? '';
    if (webhook !== currentHook) patch.webhookUrl = webhook || null;
    const deadlineLocal = field(form, 'deadline');
    if (deadlineLocal) {
      const deadline = localToUtc(deadlineLocal, zone);
      if (!deadline) return back(c, to, { error: 'The deadline is not a date and time.' });
      const current = game.settings.day;
      const dayNumber = Number(field(form, 'dayNumber') || '1');
      const start = current && Date.parse(current.start) < Date.parse(deadline) ? current.start : now().toISOString();
      const number = Number.isInteger(dayNumber) && dayNumber > 0 ? dayNumber : 1;
      // Unchanged, it is not sent: a new Day clock recounts.
      const same = current !== undefined && Date.parse(current.deadline) === Date.parse(deadline) && current.number === number;
      if (!same) patch.day = { number, start, deadline };
    } else if (game.settings.day && 'deadline' in form) {
      patch.deadline = null; // the GM emptied the deadline: no Day clock
    }
    const method = field(form, 'publishMethod');
    if (method === 'copy') patch.publish = { method };
    else if (method === 'form') patch.publish = { method, cookies: typeof form.cookies === 'string' ? form.cookies : '' };
    else if (method === 'xenforo-api') patch.publish = { method, apiKey: field(form, 'apiKey'), ...(field(form, 'apiUser') ? { apiUser: field(form, 'apiUser') } : {}) };
    else if (method === 'discourse-api') patch.publish = { method, apiUsername: field(form, 'apiUser'), apiKey: field(form, 'apiKey') };
    let changed;
    try {
      changed = await updateGame(commands, c.get('actor'), game.id, patch);
    } catch (error) {
      return back(c, to, { error: refusalOf(error) });
    }
    const r = changed.recount;
    const recount = r?.done ? ' The game was counted again.' : r?.note ? ` Recount: ${r.note}.` : '';
    return back(c, to, { message: `Settings saved.${recount}` });
  });

  app.post('/gm/games/:id/archive', async (c) => {
    const game = await gameOf(c);
    if (!game) return notFound(c);
    const form = await c.req.parseBody();
    const archive = field(form, 'archive') !== '0';
    try {
      await updateGame(commands, c.get('actor'), game.id, { action: archive ? 'archive' : 'unarchive' });
    } catch (error) {
      return back(c, `/gm/games/${game.id}/settings`, { error: refusalOf(error) });
    }
    return archive
      ? back(c, '/gm', { message: 'The game is archived: it is no longer read. Find it under archived games.' })
      : back(c, `/gm/games/${game.id}/settings`, { message: 'The game is back, paused: resume it to read the thread again.' });
  });

  app.get('/gm/games/:id/delete', async (c) => {
    const game = await gameOf(c);
    if (!game) return notFound(c);
    const poll = await store.polls.get(game.id);
    const flash = flashOf(c);
    return c.html(<DeleteGamePage csrf={c.get('session').csrf} game={game} title={titleOf(game, poll)} error={flash.error ?? null} />);
  });

  app.post('/gm/games/:id/delete', async (c) => {
    const game = await gameOf(c);
    if (!game) return notFound(c);
    const title = titleOf(game, await store.polls.get(game.id));
    const form = await c.req.parseBody();
    const confirm = field(form, 'confirm');
    if (confirm !== game.slug) {
      return back(c, `/gm/games/${game.id}/delete`, { error: `Nothing was deleted: type ${game.slug} to confirm.` });
    }
    try {
      await deleteGame(commands, c.get('actor'), game.id, confirm);
    } catch (error) {
      return back(c, `/gm/games/${game.id}/delete`, { error: refusalOf(error) });
    }
    return back(c, '/gm', { message: `“${title}” and all its data were deleted.` });
  });

  return app;
}

export { GmAuth } from './auth.js';
