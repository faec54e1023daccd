import { Hono } from 'hono';
import { answerReview, recordEvent } from '../../../app/events.js';
import { answerNews, gameNews } from '../../../app/news.js';
import { answerLesson, gameChecks, markCheck } from '../../../app/checks.js';
import type { GmChecks } from '../../../model/gm-count.js';
import { GmChecksPanel } from '../gm-checks.js';
import { KnownNicknamesPanel } from '../known-nicknames.js';
import { dropNickname, gameNicknames } from '../../../app/nicknames.js';
import { pollNow } from '../../../app/poll.js';
import { draftNow } from '../../../app/drafts.js';
import { genericReading } from '../../../app/generic.js';
import type { GenericStanding } from '../../../game/generic-check.js';
import { GenericCheckPanel, ReaderSwitchPanel } from '../generic-check.js';
import { readerChoice, type ReaderChoice } from '../../../app/reader-switch.js';
import { NotFound } from '../../../app/errors.js';
import { gameRuleset } from '../../../game/game-ruleset.js';
import type { GmNews } from '../../../game/gm-news.js';
import { readingState, type ReadingState } from '../../../game/reading-state.js';
import { staleCount } from '../../../game/stale-count.js';
import type { AuditEntry } from '../../../model/audit.js';
import type { Draft, Publication } from '../../../model/draft.js';
import type { Game } from '../../../model/game.js';
import { settingsProblems } from '../../../model/game-settings.js';
import type { Tally } from '../../../model/tally.js';
import type { StoredGmEvent } from '../../../store/events-repo.js';
import type { PollState } from '../../../store/polls-repo.js';
import { Deadline, WagonsTable, outcomeText, thresholdText } from '../../live/live-page.js';
import { refusalOf } from '../../errors.js';
import { deadlineOf } from '../../../game/poll-settings.js';
import { titleOf } from '../game-data.js';
import { GmNav, Layout, LocalTime, Notice, PostButton } from '../layout.js';
import type { ReviewItem } from '../../../game/review-queue.js';
import { gameReview } from '../../../app/review.js';
import { safeHref } from '../safe-url.js';
import {
  activityLine,
  DraftsPanel,
  EventsPanel,
  LooseMark,
  PlayersPanel,
  ReviewQueue,
  UntimedNotice,
} from './game-panels.js';
import { field, gameOf, notFound, sessionFlash, type DashboardDeps, type UiEnv } from '../dashboard.js';

/** A game's page (`/gm/games/:id`): the count with its evidence, the review queue, GM events, drafts, activity. */

function GamePage(props: {
  csrf: string;
  game: Game;
  title: string;
  tally: Tally | null;
  tallyAt: string | null;
  poll: PollState;
  review: ReviewItem[];
  events: StoredGmEvent[];
  drafts: Draft[];
  publications: Map<number, Publication>;
  deadline: string | null;
  message?: string | null;
  error?: string | null;
  audit: AuditEntry[];
  news: GmNews;
  checks: GmChecks;
  reading: ReadingState;
  /** What the game cannot work with as it stands (settings, the last failed draft): each shown as an error. */
  problems: string[];
  /** A game read generically: where its reading stands (the GM's check of page 1). */
  generic?: GenericStanding | null;
  /** The reader the GM may switch to (the generic reader offered after a poll found no posts), or back. */
  reader?: ReaderChoice | null;
}) {
  const g = props.game;
  const t = props.tally;
  const thread = safeHref(g.threadUrl);
  return (
    <Layout title={`${props.title} — Votal`} nav={<GmNav csrf={props.csrf} />} scripts={['gm.js']}>
      <h1>{props.title}</h1>
      <p class="notice" hidden data-watch={`/g/${g.slug}/events`} role="status">
        The game changed since this page was loaded. <a href={`/gm/games/${g.id}`}>Reload</a>
      </p>
      <Notice message={props.message ?? null} error={props.error ?? null} />
      {props.problems.map((problem) => (
        <p class="notice error" role="alert" data-problem>
          {problem}
        </p>
      ))}
      <p>
        {thread ? (
          <a href={thread} rel="nofollow noopener noreferrer">
            Thread
          </a>
        ) : null}
        {' · '}
        <a href={`/g/${g.slug}`}>Live page</a>
        {' · '}
        <a href={`/gm/games/${g.id}/settings`}>Settings</a>
        {' · '}
        <span class="chip">{g.status}</span> <span class="chip">{g.ruleset}</span>{' '}
        <span class="chip">{g.engine ?? 'engine unknown'}</span>
      </p>
      <div class="actions">
        <PostButton action={`/gm/games/${g.id}/poll`} csrf={props.csrf} label="Poll now" />
        <span class="muted">
          {props.poll.lastOkAt ? (
            <>
              Last read <LocalTime iso={props.poll.lastOkAt} />
            </>
          ) : (
            'Not read yet'
          )}
        </span>
        <span class="chip" data-reading={props.reading.caughtUp ? 'caught-up' : 'reading'}>
          {readingText(props.reading)}
        </span>
        {/* Filled live while a poll reads the thread (gm.js, the game's event stream). */}
        <span class="chip" hidden data-read-progress></span>
      </div>
      {/* A failed poll is a banner here as on the live page: the count may be behind the thread. */}
      {staleCount(props.poll) ? (
        <p class="notice error" role="alert" data-stale={staleCount(props.poll)!.reason}>
          {staleCount(props.poll)!.message}
        </p>
      ) : null}
      <ReaderSwitchPanel gameId={g.id} choice={props.reader ?? null} csrf={props.csrf} />
      <GenericCheckPanel gameId={g.id} standing={props.generic ?? null} csrf={props.csrf} />
      <div class="grid">
        <div>
          <section class="panel" aria-labelledby="tally-h">
            <h2 id="tally-h">Current count</h2>
            {t ? (
              <>
                <p>
                  {`Day ${t.day} · ${thresholdText(t)}`}
                  {t.asOfPost !== null ? ` · as of post ${t.asOfPost}` : ''}
                  {props.tallyAt ? (
                    <>
                      {' '}
                      · counted <LocalTime iso={props.tallyAt} />
                    </>
                  ) : null}
                </p>
                <p>
                  Deadline:{' '}
                  <Deadline deadline={props.deadline} timeZone={g.settings.timeZone ?? null} ended={outcomeText(t)} />
                </p>
                <WagonsTable
                  tally={t}
                  id="gm-wagons"
                  voterNote={(v, w) => (
                    <LooseMark voter={v} wagon={w} day={t.day} review={props.review} gameId={g.id} csrf={props.csrf} />
                  )}
                />
                <UntimedNotice untimed={t.untimed} />
                <p>
                  <strong>Not voting ({t.notVoting.length}):</strong> {t.notVoting.join(', ') || '—'}
                </p>
                {t.outcome.status !== 'open' ? (
                  <p class="notice">
                    <strong>{`Outcome: ${t.outcome.status}`}</strong>
                    {t.outcome.eliminated.length ? ` — ${t.outcome.eliminated.join(', ')}` : ''}
                    {t.outcome.held ? ` — waits for you: ${t.outcome.held}` : ''}
                  </p>
                ) : null}
                {t.notes?.length ? (
                  <ul class="muted">
                    {t.notes.map((n) => (
                      <li>{n}</li>
                    ))}
                  </ul>
                ) : null}
              </>
            ) : (
              <p class="muted">
                {props.generic?.state === 'waiting'
                  ? 'Not counted yet: the game waits for your check of page 1 above.'
                  : 'Not counted yet: the first poll is on its way.'}
              </p>
            )}
          </section>
          <ReviewQueue items={props.review} news={props.news} offers={props.checks} gameId={g.id} csrf={props.csrf} />
          <DraftsPanel game={g} drafts={props.drafts} publications={props.publications} csrf={props.csrf} />
        </div>
        <div>
          <GmChecksPanel gameId={g.id} checks={props.checks} players={t?.players ?? []} csrf={props.csrf} />
          <KnownNicknamesPanel gameId={g.id} nicknames={gameNicknames(g)} csrf={props.csrf} />
          <EventsPanel game={g} tally={t} events={props.events} csrf={props.csrf} />
          <PlayersPanel game={g} tally={t} events={props.events} />
          <section class="panel" aria-labelledby="audit-h">
            <h2 id="audit-h">Recent activity</h2>
            <ol class="changes">
              {props.audit.slice(0, 12).map((a) => (
                <li>
                  {activityLine(a)}{' '}
                  <span class="muted">
                    — {a.actor}, <LocalTime iso={a.at} />
                  </span>
                </li>
              ))}
            </ol>
          </section>
        </div>
      </div>
    </Layout>
  );
}

/** How far the thread is read, in the GM's words. */
function readingText(r: ReadingState): string {
  if (r.pagesKnown === null) return 'Thread not read yet';
  const pages = `${r.pagesRead} of ${r.pagesKnown} page${r.pagesKnown === 1 ? '' : 's'} read`;
  return r.caughtUp
    ? `${pages} · caught up`
    : `${pages} · still reading: the count and news stand as at the last page read`;
}

/**
 * What stops this game's votal being drafted, for the GM to read rather than find out at the
 * deadline: a stored setting that cannot be used, and the last draft that failed to render
 * when no draft has been made since (the poller retries each poll; this says why it fails).
 */
function gameProblems(game: Game, audit: readonly AuditEntry[], drafts: readonly Draft[]): string[] {
  const settings = settingsProblems(game.settings).map(
    (p) => `This game's ${p}. No votal can be drafted with it: choose one in Settings.`,
  );
  const failed = audit.find((a) => a.action === 'draft.error');
  const since = failed && drafts.some((d) => Date.parse(d.createdAt) > Date.parse(failed.at));
  const error = typeof failed?.detail['error'] === 'string' ? failed.detail['error'] : null;
  return failed && !since && error ? [...settings, `The last votal draft failed (${failed.at}): ${error}`] : settings;
}

/** The game page and its forms: review answers, GM events, news dismissed, poll now, draft now. */
export function gameRoutes(deps: DashboardDeps): Hono<UiEnv> {
  const { store, commands } = deps;
  const { flashOf, back } = sessionFlash(deps.flashes);
  const app = new Hono<UiEnv>();

  app.get('/gm/games/:id', async (c) => {
    const game = await gameOf(store, c);
    if (!game) return notFound(c);
    const [latest, poll, events, drafts, audit, pages] = await Promise.all([
      store.tallies.latest(game.id),
      store.polls.get(game.id),
      store.events.list(game.id),
      store.drafts.list(game.id),
      store.audit.list({ gameId: game.id, limit: 200 }),
      store.threadPages.list(game.id),
    ]);
    // A ruleset that cannot be loaded leaves news and checks empty; the page says why (gameProblems).
    let counted = true;
    try {
      gameRuleset(game);
    } catch {
      counted = false;
    }
    const noNews: GmNews = { gms: [], proposals: [], unread: [] };
    const noChecks: GmChecks = { counts: [], lessons: [], ownVotals: [] };
    // Each part asks the store a fixed number of times, however many posts were edited or drafts made.
    const [publications, { items: review }, { news }, { checks }] = await Promise.all([
      store.drafts.publicationsOf(drafts.map((d) => d.id)),
      gameReview(commands, game.id),
      counted ? gameNews(commands, game.id) : { news: noNews },
      counted ? gameChecks(commands, game.id, deps.now()) : { checks: noChecks },
    ]);
    const tally = latest?.tally ?? null;
    const reading = readingState(poll, pages);
    const generic = (await genericReading(commands, game.id)).standing;
    const reader = (await readerChoice(commands, game.id)).choice;
    const flash = flashOf(c);
    return c.html(
      <GamePage
        problems={gameProblems(game, audit, drafts)}
        csrf={c.get('session').csrf}
        game={game}
        title={titleOf(game, poll)}
        tally={tally}
        tallyAt={latest?.createdAt ?? null}
        poll={poll}
        review={review}
        events={events}
        drafts={drafts}
        publications={publications}
        deadline={deadlineOf(game, poll)}
        audit={audit}
        news={news}
        checks={checks}
        reading={reading}
        generic={generic}
        reader={reader}
        message={flash.message ?? null}
        error={flash.error ?? null}
      />,
    );
  });

  // A proposal from the GM's posts: recorded (it becomes its event) or dismissed, as through the API.
  app.post('/gm/games/:id/news', async (c) => {
    const game = await gameOf(store, c);
    if (!game) return notFound(c);
    const form = await c.req.parseBody();
    const key = field(form, 'key');
    const answer = field(form, 'answer') === 'record' ? 'record' : 'dismiss';
    if (!/^[0-9a-f]{16}$/.test(key)) return back(c, `/gm/games/${game.id}#news`, { error: 'No proposal given.' });
    try {
      const r = await answerNews(commands, c.get('actor'), game.id, { key, answer });
      if (r.answer === 'dismiss') return back(c, `/gm/games/${game.id}#news`, { message: 'Dismissed.' });
      return back(c, `/gm/games/${game.id}#news`, {
        message: r.recorded.note ? `Recorded; ${r.recorded.note}.` : 'Recorded and recounted.',
      });
    } catch (e) {
      if (e instanceof NotFound)
        return back(c, `/gm/games/${game.id}#news`, { error: 'That proposal is no longer open.' });
      throw e;
    }
  });

  // The GM's mark on a difference between their own count and Votal's, as through the API.
  app.post('/gm/games/:id/checks', async (c) => {
    const game = await gameOf(store, c);
    if (!game) return notFound(c);
    const form = await c.req.parseBody();
    const key = field(form, 'key');
    const answer = field(form, 'answer');
    const to = `/gm/games/${game.id}#checks`;
    try {
      const r = await markCheck(commands, c.get('actor'), game.id, { key, answer }, deps.now());
      if (r.correct)
        return back(c, to, { message: `Marked Votal's error: correct post #${r.correct.post} below, or leave it.` });
      return back(c, to, { message: answer === 'slip' ? 'Marked as your slip.' : 'Dismissed.' });
    } catch (error) {
      return back(c, to, { error: refusalOf(error) });
    }
  });

  // What the GM's own count taught: counted (and the name learned), or dismissed, as through the API.
  app.post('/gm/games/:id/checks/lessons', async (c) => {
    const game = await gameOf(store, c);
    if (!game) return notFound(c);
    const form = await c.req.parseBody();
    const answer = field(form, 'answer') === 'accept' ? 'accept' : 'dismiss';
    const to = `/gm/games/${game.id}#lessons`;
    try {
      const r = await answerLesson(commands, c.get('actor'), game.id, { key: field(form, 'key'), answer }, deps.now());
      if (r.answer === 'dismiss') return back(c, to, { message: 'Dismissed.' });
      const counted = r.recorded.note ? `recorded; ${r.recorded.note}.` : 'recounted.';
      if (r.lesson.kind === 'author')
        return back(c, to, { message: `${r.lesson.poster} replaces ${r.lesson.slot}, ${counted}` });
      const learned = r.learned ? ` "${r.learned}" is read as ${r.lesson.wagon} from now on.` : '';
      return back(c, to, { message: `Post #${r.lesson.post} counted for ${r.lesson.wagon}, ${counted}${learned}` });
    } catch (error) {
      return back(c, to, { error: refusalOf(error) });
    }
  });

  // A nickname known from an earlier game on the site, dropped for this game, as through the API.
  app.post('/gm/games/:id/nicknames/drop', async (c) => {
    const game = await gameOf(store, c);
    if (!game) return notFound(c);
    const form = await c.req.parseBody();
    const to = `/gm/games/${game.id}#nicknames`;
    try {
      const given = { player: field(form, 'player'), nickname: field(form, 'nickname') };
      const r = await dropNickname(commands, c.get('actor'), game.id, given);
      const counted = r.recount.note ? `; ${r.recount.note}` : ', recounted';
      return back(c, to, {
        message: `"${r.dropped.nickname}" is no longer read as ${r.dropped.player} here${counted}.`,
      });
    } catch (error) {
      return back(c, to, { error: refusalOf(error) });
    }
  });

  app.post('/gm/games/:id/review', async (c) => {
    const game = await gameOf(store, c);
    if (!game) return notFound(c);
    const form = await c.req.parseBody();
    const post = Number(field(form, 'post'));
    const action = field(form, 'action');
    const key = field(form, 'key').slice(0, 100);
    const to = `/gm/games/${game.id}#review`;
    if (!Number.isInteger(post) || post < 1) return back(c, to, { error: 'No post given.' });
    if (action === 'accept' || action === 'dismiss') {
      try {
        await answerReview(commands, c.get('actor'), game.id, { answer: action, post, key });
      } catch (error) {
        return back(c, to, { error: refusalOf(error) });
      }
      return back(c, to, { message: action === 'accept' ? `Post ${post}: accepted.` : `Post ${post}: dismissed.` });
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
    const answer = target === null ? 'vote ignored' : `counted as a vote for ${target}`;
    return back(c, to, { message: `Post ${post}: ${answer}; ${done}` });
  });

  app.post('/gm/games/:id/events', async (c) => {
    const game = await gameOf(store, c);
    if (!game) return notFound(c);
    const form = await c.req.parseBody();
    const kind = field(form, 'kind');
    const atRaw = field(form, 'at');
    const at = atRaw === '' ? undefined : Number(atRaw);
    const pos = at !== undefined && Number.isInteger(at) && at >= 0 ? { at } : {};
    const hidden = form.hidden === '1';
    let event: Record<string, unknown>;
    switch (kind) {
      case 'kill':
      case 'revive':
      case 'modkill':
        event = { kind, player: field(form, 'player'), ...pos };
        break;
      case 'replace':
        event = { kind, player: field(form, 'player'), by: field(form, 'by'), ...pos };
        break;
      case 'weight':
        event = { kind, player: field(form, 'player'), weight: Number(field(form, 'weight')), hidden, ...pos };
        break;
      case 'vote': {
        const target = field(form, 'target');
        const voted = target === '(unvote)' || target === '' ? null : target;
        event = { kind, player: field(form, 'player'), target: voted, ...(hidden ? { hidden } : {}), ...pos };
        break;
      }
      case 'decide': {
        const eliminated = field(form, 'eliminated')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        event = { kind, eliminated, ...pos };
        break;
      }
      case 'day-end':
        event = { kind, ...pos };
        break;
      case 'day-start':
        event = { kind, day: Number(field(form, 'day')), ...pos };
        break;
      case 'deadline': {
        const day = Number(field(form, 'day'));
        event = { kind, time: field(form, 'time'), ...(Number.isInteger(day) && day > 0 ? { day } : {}), ...pos };
        break;
      }
      default:
        return back(c, `/gm/games/${game.id}`, { error: `Unknown event "${kind}".` });
    }
    try {
      const r = await recordEvent(commands, c.get('actor'), game.id, event);
      return back(c, `/gm/games/${game.id}`, { message: `Recorded: ${kind}.${r.note ? ` ${r.note}` : ''}` });
    } catch (error) {
      return back(c, `/gm/games/${game.id}`, { error: refusalOf(error) });
    }
  });

  app.post('/gm/games/:id/poll', async (c) => {
    const game = await gameOf(store, c);
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
    const message = note ? `Poll asked for: ${note}.` : 'Thread read and recounted.';
    return back(c, `/gm/games/${game.id}`, error ? { error } : { message });
  });

  app.post('/gm/games/:id/drafts', async (c) => {
    const game = await gameOf(store, c);
    if (!game) return notFound(c);
    let draft;
    try {
      draft = await draftNow(commands, c.get('actor'), game.id);
    } catch (error) {
      return back(c, `/gm/games/${game.id}`, { error: refusalOf(error) });
    }
    return back(c, `/gm/drafts/${draft.id}`, { message: 'Drafted from the current count.' });
  });

  return app;
}
