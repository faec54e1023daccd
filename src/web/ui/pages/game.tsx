import { Hono, type Context } from 'hono';
import { answerReview, recordEvent, type ReviewAnswer, type ReviewAnswered } from '../../../app/events.js';
import { answerNews, gameNews } from '../../../app/news.js';
import { answerLesson, gameChecks, markCheck, type LessonAnswered } from '../../../app/checks.js';
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
import { field, gameOf, notFound, pageDeps, type DashboardDeps, type PageDeps, type UiEnv } from '../dashboard.js';

/** A game's page (`/gm/games/:id`): the count with its evidence, the review queue, GM events, drafts, activity. */

interface GamePageProps {
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
}

/** The game's links (thread, live page, settings) and what it is: status, ruleset, forum engine. */
function GameLinks(props: { game: Game }) {
  const g = props.game;
  const thread = safeHref(g.threadUrl);
  return (
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
  );
}

/** Poll now, when the thread was last read and how far; a failed poll as a banner. */
function ReadingBar(props: { gameId: number; poll: PollState; reading: ReadingState; csrf: string }) {
  const stale = staleCount(props.poll);
  return (
    <>
      <div class="actions">
        <PostButton action={`/gm/games/${props.gameId}/poll`} csrf={props.csrf} label="Poll now" />
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
      {stale ? (
        <p class="notice error" role="alert" data-stale={stale.reason}>
          {stale.message}
        </p>
      ) : null}
    </>
  );
}

/** The Day's count: threshold, deadline, wagons (loose votes marked), who is not voting, the outcome, notes. */
function CountShown(props: {
  game: Game;
  tally: Tally;
  tallyAt: string | null;
  deadline: string | null;
  review: ReviewItem[];
  csrf: string;
}) {
  const { game: g, tally: t } = props;
  return (
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
        Deadline: <Deadline deadline={props.deadline} timeZone={g.settings.timeZone ?? null} ended={outcomeText(t)} />
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
  );
}

/** The current count, or why there is none yet. */
function CountPanel(props: GamePageProps) {
  return (
    <section class="panel" aria-labelledby="tally-h">
      <h2 id="tally-h">Current count</h2>
      {props.tally ? (
        <CountShown
          game={props.game}
          tally={props.tally}
          tallyAt={props.tallyAt}
          deadline={props.deadline}
          review={props.review}
          csrf={props.csrf}
        />
      ) : (
        <p class="muted">
          {props.generic?.state === 'waiting'
            ? 'Not counted yet: the game waits for your check of page 1 above.'
            : 'Not counted yet: the first poll is on its way.'}
        </p>
      )}
    </section>
  );
}

/** The game's latest audit entries, newest first. */
function ActivityPanel(props: { audit: AuditEntry[] }) {
  return (
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
  );
}

function GamePage(props: GamePageProps) {
  const g = props.game;
  const t = props.tally;
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
      <GameLinks game={g} />
      <ReadingBar gameId={g.id} poll={props.poll} reading={props.reading} csrf={props.csrf} />
      <ReaderSwitchPanel gameId={g.id} choice={props.reader ?? null} csrf={props.csrf} />
      <GenericCheckPanel gameId={g.id} standing={props.generic ?? null} csrf={props.csrf} />
      <div class="grid">
        <div>
          <CountPanel {...props} />
          <ReviewQueue items={props.review} news={props.news} offers={props.checks} gameId={g.id} csrf={props.csrf} />
          <DraftsPanel game={g} drafts={props.drafts} publications={props.publications} csrf={props.csrf} />
        </div>
        <div>
          <GmChecksPanel gameId={g.id} checks={props.checks} players={t?.players ?? []} csrf={props.csrf} />
          <KnownNicknamesPanel gameId={g.id} nicknames={gameNicknames(g)} csrf={props.csrf} />
          <EventsPanel game={g} tally={t} events={props.events} csrf={props.csrf} />
          <PlayersPanel game={g} tally={t} events={props.events} />
          <ActivityPanel audit={props.audit} />
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

type Ctx = Context<UiEnv>;

/** A handler of one game: not found unless the path names a game (gameGuard has checked the GM may see it). */
const ofGame =
  (d: PageDeps, handle: (d: PageDeps, c: Ctx, game: Game) => Promise<Response>) =>
  async (c: Ctx): Promise<Response> => {
    const game = await gameOf(d.store, c);
    return game ? handle(d, c, game) : notFound(c);
  };

/** Whether the game's ruleset loads: one that cannot leaves news and checks empty; the page says why (gameProblems). */
function rulesetLoads(game: Game): boolean {
  try {
    gameRuleset(game);
    return true;
  } catch {
    return false;
  }
}

const NO_NEWS: GmNews = { gms: [], proposals: [], unread: [] };
const NO_CHECKS: GmChecks = { counts: [], lessons: [], ownVotals: [] };

/** What the game page shows of the game, read from the store and the app's readings. */
async function gamePageData(d: PageDeps, game: Game): Promise<Omit<GamePageProps, 'csrf' | 'message' | 'error'>> {
  const { store, commands } = d;
  const [latest, poll, events, drafts, audit, pages] = await Promise.all([
    store.tallies.latest(game.id),
    store.polls.get(game.id),
    store.events.list(game.id),
    store.drafts.list(game.id),
    store.audit.list({ gameId: game.id, limit: 200 }),
    store.threadPages.list(game.id),
  ]);
  const counted = rulesetLoads(game);
  // Each part asks the store a fixed number of times, however many posts were edited or drafts made.
  const [publications, { items: review }, { news }, { checks }] = await Promise.all([
    store.drafts.publicationsOf(drafts.map((draft) => draft.id)),
    gameReview(commands, game.id),
    counted ? gameNews(commands, game.id) : { news: NO_NEWS },
    counted ? gameChecks(commands, game.id, d.now()) : { checks: NO_CHECKS },
  ]);
  const generic = (await genericReading(commands, game.id)).standing;
  const reader = (await readerChoice(commands, game.id)).choice;
  return {
    problems: gameProblems(game, audit, drafts),
    game,
    title: titleOf(game, poll),
    tally: latest?.tally ?? null,
    tallyAt: latest?.createdAt ?? null,
    poll,
    review,
    events,
    drafts,
    publications,
    deadline: deadlineOf(game, poll),
    audit,
    news,
    checks,
    reading: readingState(poll, pages),
    generic,
    reader,
  };
}

/** `GET /gm/games/:id`. */
async function showGame(d: PageDeps, c: Ctx, game: Game) {
  const data = await gamePageData(d, game);
  const flash = d.flashOf(c);
  return c.html(
    <GamePage {...data} csrf={c.get('session').csrf} message={flash.message ?? null} error={flash.error ?? null} />,
  );
}

/** The news answer the form asks for, or null when it names no proposal. */
function newsAnswerOf(form: Record<string, unknown>): { key: string; answer: 'record' | 'dismiss' } | null {
  const key = field(form, 'key');
  const answer = field(form, 'answer') === 'record' ? 'record' : 'dismiss';
  return /^[0-9a-f]{16}$/.test(key) ? { key, answer } : null;
}

/** `POST …/news`: a proposal from the GM's posts recorded (it becomes its event) or dismissed, as through the API. */
async function answerGmNews(d: PageDeps, c: Ctx, game: Game) {
  const to = `/gm/games/${game.id}#news`;
  const given = newsAnswerOf(await c.req.parseBody());
  if (!given) return d.back(c, to, { error: 'No proposal given.' });
  try {
    const r = await answerNews(d.commands, c.get('actor'), game.id, given);
    if (r.answer === 'dismiss') return d.back(c, to, { message: 'Dismissed.' });
    return d.back(c, to, { message: r.recorded.note ? `Recorded; ${r.recorded.note}.` : 'Recorded and recounted.' });
  } catch (e) {
    if (e instanceof NotFound) return d.back(c, to, { error: 'That proposal is no longer open.' });
    throw e;
  }
}

/** `POST …/checks`: the GM's mark on a difference between their own count and Votal's, as through the API. */
async function markGmCheck(d: PageDeps, c: Ctx, game: Game) {
  const form = await c.req.parseBody();
  const given = { key: field(form, 'key'), answer: field(form, 'answer') };
  const to = `/gm/games/${game.id}#checks`;
  try {
    const r = await markCheck(d.commands, c.get('actor'), game.id, given, d.now());
    if (r.correct)
      return d.back(c, to, { message: `Marked Votal's error: correct post #${r.correct.post} below, or leave it.` });
    return d.back(c, to, { message: given.answer === 'slip' ? 'Marked as your slip.' : 'Dismissed.' });
  } catch (error) {
    return d.back(c, to, { error: refusalOf(error) });
  }
}

/** What the GM is told of an accepted lesson: the replacement, or the post counted (and the name learned). */
function lessonMessage(r: Extract<LessonAnswered, { answer: 'accept' }>): string {
  const counted = r.recorded.note ? `recorded; ${r.recorded.note}.` : 'recounted.';
  if (r.lesson.kind === 'author') return `${r.lesson.poster} replaces ${r.lesson.slot}, ${counted}`;
  const learned = r.learned ? ` "${r.learned}" is read as ${r.lesson.wagon} from now on.` : '';
  return `Post #${r.lesson.post} counted for ${r.lesson.wagon}, ${counted}${learned}`;
}

/** `POST …/checks/lessons`: what the GM's own count taught, counted (and the name learned) or dismissed, as through the API. */
async function answerGmLesson(d: PageDeps, c: Ctx, game: Game) {
  const form = await c.req.parseBody();
  const given = { key: field(form, 'key'), answer: field(form, 'answer') === 'accept' ? 'accept' : 'dismiss' };
  const to = `/gm/games/${game.id}#lessons`;
  try {
    const r = await answerLesson(d.commands, c.get('actor'), game.id, given, d.now());
    return d.back(c, to, { message: r.answer === 'dismiss' ? 'Dismissed.' : lessonMessage(r) });
  } catch (error) {
    return d.back(c, to, { error: refusalOf(error) });
  }
}

/** `POST …/nicknames/drop`: a nickname known from an earlier game on the site, dropped for this game, as through the API. */
async function dropKnownNickname(d: PageDeps, c: Ctx, game: Game) {
  const form = await c.req.parseBody();
  const given = { player: field(form, 'player'), nickname: field(form, 'nickname') };
  const to = `/gm/games/${game.id}#nicknames`;
  try {
    const r = await dropNickname(d.commands, c.get('actor'), game.id, given);
    const counted = r.recount.note ? `; ${r.recount.note}` : ', recounted';
    return d.back(c, to, {
      message: `"${r.dropped.nickname}" is no longer read as ${r.dropped.player} here${counted}.`,
    });
  } catch (error) {
    return d.back(c, to, { error: refusalOf(error) });
  }
}

/** The review answer the form asks for, or what it lacks. */
function reviewAnswerOf(form: Record<string, unknown>): ReviewAnswer | { error: string } {
  const post = Number(field(form, 'post'));
  const action = field(form, 'action');
  if (!Number.isInteger(post) || post < 1) return { error: 'No post given.' };
  if (action === 'accept' || action === 'dismiss')
    return { answer: action, post, key: field(form, 'key').slice(0, 100) };
  if (action !== 'correct') return { error: 'Unknown answer.' };
  const target = field(form, 'target') || null;
  // "Pick" names a player; an empty pick is no answer (ignoring the vote has its own button).
  if (target === null && form.pick === '1') return { error: `Post ${post}: choose the player meant.` };
  return { answer: 'correct', post, target };
}

/** What the GM is told once a review item is answered. */
function reviewedMessage(given: ReviewAnswer, answered: ReviewAnswered): string {
  if (given.answer !== 'correct') return `Post ${given.post}: ${given.answer === 'accept' ? 'accepted' : 'dismissed'}.`;
  const r = answered.answer === 'correct' ? answered.recorded : null;
  const done = r?.recounted ? 'recounted.' : `${r?.note ?? 'the count follows'}.`;
  const answer = given.target === null ? 'vote ignored' : `counted as a vote for ${given.target}`;
  return `Post ${given.post}: ${answer}; ${done}`;
}

/** `POST …/review`: a review item accepted, dismissed or corrected (a correction is a GM event and waits a while for the recount). */
async function answerReviewItem(d: PageDeps, c: Ctx, game: Game) {
  const to = `/gm/games/${game.id}#review`;
  const given = reviewAnswerOf(await c.req.parseBody());
  if ('error' in given) return d.back(c, to, { error: given.error });
  let answered: ReviewAnswered;
  try {
    answered = await answerReview(d.commands, c.get('actor'), game.id, given);
  } catch (error) {
    return d.back(c, to, { error: refusalOf(error) });
  }
  return d.back(c, to, { message: reviewedMessage(given, answered) });
}

/** The fields of the event form of `kind` (its command checks them), or null for a kind no form has. */
function eventFieldsOf(form: Record<string, unknown>, kind: string): Record<string, unknown> | null {
  const player = field(form, 'player');
  const hidden = form.hidden === '1';
  switch (kind) {
    case 'kill':
    case 'revive':
    case 'modkill':
      return { kind, player };
    case 'replace':
      return { kind, player, by: field(form, 'by') };
    case 'weight':
      return { kind, player, weight: Number(field(form, 'weight')), hidden };
    case 'vote': {
      const target = field(form, 'target');
      const voted = target === '(unvote)' || target === '' ? null : target;
      return { kind, player, target: voted, ...(hidden ? { hidden } : {}) };
    }
    case 'decide': {
      const eliminated = field(form, 'eliminated')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      return { kind, eliminated };
    }
    case 'day-end':
      return { kind };
    case 'day-start':
      return { kind, day: Number(field(form, 'day')) };
    case 'deadline': {
      const day = Number(field(form, 'day'));
      return { kind, time: field(form, 'time'), ...(Number.isInteger(day) && day > 0 ? { day } : {}) };
    }
    default:
      return null;
  }
}

/** The GM event the form asks for, placed after the post it names (if any), or null for an unknown kind. */
function gmEventOf(form: Record<string, unknown>, kind: string): Record<string, unknown> | null {
  const fields = eventFieldsOf(form, kind);
  if (!fields) return null;
  const atRaw = field(form, 'at');
  const at = atRaw === '' ? undefined : Number(atRaw);
  const pos = at !== undefined && Number.isInteger(at) && at >= 0 ? { at } : {};
  return { ...fields, ...pos };
}

/** `POST …/events`: a GM event recorded (and the count follows). */
async function recordGmEvent(d: PageDeps, c: Ctx, game: Game) {
  const form = await c.req.parseBody();
  const kind = field(form, 'kind');
  const to = `/gm/games/${game.id}`;
  const event = gmEventOf(form, kind);
  if (!event) return d.back(c, to, { error: `Unknown event "${kind}".` });
  try {
    const r = await recordEvent(d.commands, c.get('actor'), game.id, event);
    return d.back(c, to, { message: `Recorded: ${kind}.${r.note ? ` ${r.note}` : ''}` });
  } catch (error) {
    return d.back(c, to, { error: refusalOf(error) });
  }
}

/** `POST …/poll`: the thread read now; a refusal, or the poll's own failure, is the error shown. */
async function pollGameNow(d: PageDeps, c: Ctx, game: Game) {
  let note: string | null = null;
  let refused: string | null = null;
  try {
    note = (await pollNow(d.commands, game.id)).note;
  } catch (error) {
    refused = refusalOf(error);
  }
  const lastError = (await d.store.polls.get(game.id)).lastError;
  const error = refused ?? (lastError ? `The poll failed: ${lastError}` : null);
  const message = note ? `Poll asked for: ${note}.` : 'Thread read and recounted.';
  return d.back(c, `/gm/games/${game.id}`, error ? { error } : { message });
}

/** `POST …/drafts`: a votal drafted from the current count, then its page. */
async function draftGameNow(d: PageDeps, c: Ctx, game: Game) {
  let draft: Draft;
  try {
    draft = await draftNow(d.commands, c.get('actor'), game.id);
  } catch (error) {
    return d.back(c, `/gm/games/${game.id}`, { error: refusalOf(error) });
  }
  return d.back(c, `/gm/drafts/${draft.id}`, { message: 'Drafted from the current count.' });
}

/** The game page and its forms: review answers, GM events, news, checks and lessons, nicknames, poll now, draft now. */
export function gameRoutes(deps: DashboardDeps): Hono<UiEnv> {
  const d = pageDeps(deps);
  const app = new Hono<UiEnv>();
  app.get('/gm/games/:id', ofGame(d, showGame));
  app.post('/gm/games/:id/news', ofGame(d, answerGmNews));
  app.post('/gm/games/:id/checks', ofGame(d, markGmCheck));
  app.post('/gm/games/:id/checks/lessons', ofGame(d, answerGmLesson));
  app.post('/gm/games/:id/nicknames/drop', ofGame(d, dropKnownNickname));
  app.post('/gm/games/:id/review', ofGame(d, answerReviewItem));
  app.post('/gm/games/:id/events', ofGame(d, recordGmEvent));
  app.post('/gm/games/:id/poll', ofGame(d, pollGameNow));
  app.post('/gm/games/:id/drafts', ofGame(d, draftGameNow));
  return app;
}
