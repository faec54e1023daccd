import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { SiteProfile } from '../../scrapers/site-profile.js';
import type { PageRenderer } from '../browser/page-renderer.js';
import { logOf, type Log } from '../log/log-port.js';
import type { Draft } from '../model/draft.js';
import type { Game } from '../model/game.js';
import type { PollFactsPatch } from '../model/poll-state.js';
import type { Ruleset } from '../rules/ruleset.js';
import type { StoredGmEvent } from '../store/events-repo.js';
import type { Repos } from '../store/open-store.js';
import type { PollState } from '../store/polls-repo.js';
import type { Sql } from '../store/sql.js';
import type { StoredTally } from '../store/tallies-repo.js';
import type { PageSource } from '../thread/read-thread.js';
import { withBookNow } from './book-roster.js';
import { draftStep } from './draft-step.js';
import { gameRuleset } from './game-ruleset.js';
import { genericGate } from './generic-check.js';
import { pollSettings, type PollSettings } from './poll-settings.js';
import { countBasis, countGame, markDeleted } from './poll-count.js';
import {
  planPoll,
  POLLER_ACTOR,
  pollErrorOf,
  STARTING,
  type PollContext,
  type PollEffect,
  type PollEvent,
  type PollPlan,
  type PollProgress,
} from './poll-plan.js';
import { ReadFailed, readRecording, vanishedPosts, type GameSite, type RecordedRead } from './poll-read.js';

export { fullReadDue, POLLER_ACTOR } from './poll-plan.js';
export type { GameSite } from './poll-read.js';

/**
 * This process, for poll leases: `<host>:<pid>:<random>` (never contains "/"). On PGlite a
 * lease held by another instance is left over from a process that died (one process per folder).
 */
const PROCESS_INSTANCE = `${hostname().replaceAll('/', '_')}:${process.pid}:${randomBytes(4).toString('hex')}`;

/** A poll holds its game's lease this long and renews it every third of it. */
const DEFAULT_LEASE_MS = 5 * 60_000;

export interface PollDeps {
  store: Repos & { sql: Sql };
  source: PageSource;
  /** The clock (ISO 8601): when posts were seen, which clock events happened. */
  now: () => string;
  log?: Partial<Log> | undefined;
  /** The thread's site profile (time zone, date order, engine...). Default: none. */
  profileFor?: ((threadUrl: string) => SiteProfile | undefined) | undefined;
  /** The browser fallback for pages drawn by JavaScript. */
  renderer?: PageRenderer | undefined;
  /** Lease length (ms, database time). */
  leaseMs?: number | undefined;
  /**
   * How a game's thread is read (the service: its site profile's pause, engine and time
   * zone, the game's stored session, the browser fallback). Over `source`, `profileFor`
   * and `renderer` when given.
   */
  siteFor?: ((game: Game) => Promise<GameSite>) | undefined;
}

export interface PollOptions {
  /** Read every page, not only from the last page seen (edits and deletions on earlier pages). */
  full?: boolean;
}

export type PollStatus =
  /** The thread was read (whether or not anything changed). */
  | 'polled'
  /** Not polled: the game is paused, finished or gone (`reason`). */
  | 'skipped'
  /** Another poll of this game holds its lease. */
  | 'busy'
  /** The read or the count failed; nothing was wiped, the previous tally stands (`error`). */
  | 'failed';

export interface PollResult {
  gameId: number;
  status: PollStatus;
  /** Why a poll was skipped or failed. */
  reason: string | null;
  /** Every page was read (not only from the last one seen). */
  fullRead: boolean;
  pages: { read: number[]; unchanged: number[]; fromCache: number[] };
  /** Posts new to the store, edited (a new revision), marked deleted, back after a deletion. */
  added: number;
  edited: number;
  deleted: number;
  restored: number;
  /** Revisions parsed this poll. */
  parsed: number;
  /** The game's current tally (new or, when nothing changed, the last one). */
  tally: StoredTally | null;
  /** A new tally snapshot was saved. */
  tallyChanged: boolean;
  /**
   * The count was folded again. False when nothing it depends on changed since the last
   * count (no post added, edited, deleted or moved, no GM event, no setting, no check or
   * deadline passed): the last tally stands unread.
   */
  counted: boolean;
  draft: Draft | null;
  draftReasons: string[];
  /** The Day's deadline now (after extensions), and the clock instants still to come. */
  deadline: string | null;
  upcoming: string[];
  error: { name: string; message: string; retryAfterMs: number | null } | null;
  /** The game's poll state after the poll (last error, errors in a row...). */
  state: PollState | null;
  /** The game as it was read at the start of the poll. */
  game: Game | null;
  /** What this poll leaves for the next one (merged into `game_poll.state`). */
  carry: PollFactsPatch;
}

/**
 * One poll of one thread:
 *
 * 1. takes the game's poll lease (a thread is never read by two polls at once);
 * 2. reads the thread incrementally through the store (`StoreThreadCache`): the last page
 *    seen and the pages after it, or every page when a full read is due; each page read
 *    is recorded as it arrives, its posts (`posts.recordPage`: new posts, new revisions for
 *    changed bodies, marker or not) and its validators in one transaction;
 * 3. posts missing from pages read in full are marked deleted (`markMissing`), never removed;
 * 4. parses every revision not read yet under this ruleset + roster (`readings`);
 * 5. folds the count (`foldGame`: every post's accepted revision, GM events, the Day's
 *    clock) and saves it when it differs from the last one (`tallies`);
 * 6. asks the draft triggers and creates a draft when there is a reason (`drafts`).
 *
 * Every change is audited (actor `poller`). A failure at any step is recorded on the game
 * (`polls.lastError`, audit `poll.error`) and leaves everything as it was: a page that
 * does not parse never wipes posts, and the previous tally stands.
 */
export async function pollGame(
  deps: PollDeps,
  gameId: number | string,
  options: PollOptions = {},
): Promise<PollResult> {
  const id = Number(gameId);
  const game = Number.isSafeInteger(id) ? await deps.store.games.get(id) : null;
  if (!game) return { ...emptyResult(id, null), status: 'skipped', reason: 'not-found' };
  if (game.status !== 'active') return { ...emptyResult(id, game), status: 'skipped', reason: game.status };
  const log = logOf(deps.log);
  const lease = await takeLease(deps, id, log);
  if (lease === null)
    return { ...emptyResult(id, game), status: 'busy', reason: 'another poll of this game is running' };
  try {
    const before = await deps.store.polls.get(id);
    const current = await bookNow(deps, game, log);
    const run: PollRun = { deps, game: current, owner: lease.owner, log, before, startedAt: deps.now() };
    const ctx: PollContext = { before, full: options.full === true };
    const gate = await passGate(run, ctx);
    if ('failed' in gate) return resultOf(run, gate.failed.progress, gate.failed.found);
    if ('hold' in gate) return { ...emptyResult(id, game), status: 'skipped', reason: gate.hold, state: gate.state };
    const { progress, found } = await drive({ ...run, deps: gate.deps }, ctx);
    return resultOf(run, progress, found);
  } finally {
    await lease.end();
  }
}

/**
 * The game with the site's nickname book as it is now (book-roster.ts): a nickname learned in
 * another game since the last poll is read in this one. A book that cannot be read leaves the
 * nicknames the game has (the count goes on; the next poll tries again).
 */
async function bookNow(deps: PollDeps, game: Game, log: Log): Promise<Game> {
  try {
    return await withBookNow(deps.store, game, POLLER_ACTOR);
  } catch (error) {
    log.warn({ gameId: game.id, err: String(error) }, "could not read the site's nickname book");
    return game;
  }
}

/** The game's poll lease, renewed every third of it while the poll runs; null when another poll holds it. */
async function takeLease(
  deps: PollDeps,
  id: number,
  log: Log,
): Promise<{ owner: string; end: () => Promise<void> } | null> {
  const { store } = deps;
  const owner = `${PROCESS_INSTANCE}/${randomUUID()}`;
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const takeOver = store.sql.driver === 'pglite' ? { instance: PROCESS_INSTANCE } : undefined;
  if ((await store.polls.claim(id, owner, leaseMs, takeOver)) === null) return null;
  const renew = setInterval(
    () => {
      store.polls.renew(id, owner, leaseMs).then(
        (held) => {
          if (!held) log.warn({ gameId: id }, 'lost the poll lease');
        },
        (error: unknown) => log.warn({ gameId: id, err: String(error) }, 'could not renew the poll lease'),
      );
    },
    Math.max(1_000, Math.floor(leaseMs / 3)),
  );
  renew.unref();
  return {
    owner,
    end: async () => {
      clearInterval(renew);
      await store.polls.release(id, owner).catch(() => {});
    },
  };
}

/** One poll as the runner holds it: its I/O and the game as read at its start. */
interface PollRun {
  deps: PollDeps;
  game: Game;
  owner: string;
  log: Log;
  /** The game's poll state when the poll began. */
  before: PollState;
  /** The poll's clock at its start: which read is due, when posts were seen. */
  startedAt: string;
}

/** What the effects found that the plan does not decide on (the I/O values a result shows). */
interface Found {
  setup: { settings: PollSettings; ruleset: Ruleset; site: GameSite } | null;
  read: RecordedRead | null;
  events: readonly StoredGmEvent[];
  tally: StoredTally | null;
  draft: Draft | null;
  draftReasons: string[];
  state: PollState | null;
}

const NOTHING_FOUND: Found = {
  setup: null,
  read: null,
  events: [],
  tally: null,
  draft: null,
  draftReasons: [],
  state: null,
};

/** An effect's answer: the event it leads to (none after `finish`), and what it found. */
interface Answer {
  event: PollEvent | null;
  found: Partial<Found>;
}

/**
 * The loop: plan, run the plan's effects, feed their answer back to the plan, until the
 * poll is finished. A failure anywhere is one more event: the plan records it.
 */
async function drive(run: PollRun, ctx: PollContext): Promise<{ progress: PollProgress; found: Found }> {
  let found = NOTHING_FOUND;
  let plan: PollPlan = { progress: STARTING, effects: [] };
  try {
    const setup = await setUp(run);
    found = { ...found, setup };
    plan = planPoll(ctx, STARTING, { kind: 'start', now: run.startedAt, settings: setup.settings });
    for (;;) {
      const answer = await runEffects(run, found, plan.effects);
      found = { ...found, ...answer.found };
      if (answer.event === null) return { progress: plan.progress, found };
      plan = planPoll(ctx, plan.progress, answer.event);
    }
  } catch (error) {
    const failed = planPoll(ctx, plan.progress, failure(run, error));
    // A failure to record the failure is the caller's to see.
    const answer = await runEffects(run, found, failed.effects);
    return { progress: failed.progress, found: { ...found, ...answer.found } };
  }
}

type Gate =
  | { deps: PollDeps }
  | { hold: string; state: PollState }
  | { failed: { progress: PollProgress; found: Found } };

/**
 * A game read generically waits for the GM's check of page 1 (generic-check.ts): held, the
 * poll ends there (the stored deadline and facts untouched). Reading page 1 for the check
 * can fail like any read, and is recorded as a failed poll.
 */
async function passGate(run: PollRun, ctx: PollContext): Promise<Gate> {
  try {
    const gate = await genericGate(run.deps, run.game);
    if (gate.hold === null) return { deps: gate.deps };
    const at = new Date(run.deps.now());
    const state = await run.deps.store.polls.finish(run.game.id, run.owner, {
      ok: true,
      fullRead: false,
      at,
      state: {},
    });
    return { hold: gate.hold, state };
  } catch (error) {
    const failed = planPoll(ctx, STARTING, failure(run, error));
    const answer = await runEffects(run, NOTHING_FOUND, failed.effects);
    return { failed: { progress: failed.progress, found: { ...NOTHING_FOUND, ...answer.found } } };
  }
}

function failure(run: PollRun, error: unknown): PollEvent {
  const now = run.deps.now();
  if (error instanceof ReadFailed) return { kind: 'failed', error: pollErrorOf(error.reason), now, read: error.report };
  return { kind: 'failed', error: pollErrorOf(error), now };
}

/** The game's settings, ruleset and how its thread is read: a bad one fails the poll before any read. */
async function setUp(run: PollRun): Promise<NonNullable<Found['setup']>> {
  const { deps, game } = run;
  const settings = pollSettings(game.settings);
  const ruleset = gameRuleset(game);
  const site: GameSite = deps.siteFor
    ? await deps.siteFor(game)
    : { source: deps.source, profile: deps.profileFor?.(game.threadUrl), renderer: deps.renderer };
  return { settings, ruleset, site };
}

/** A plan's effects in order; the last one that answers gives the next event. */
async function runEffects(run: PollRun, found: Found, effects: readonly PollEffect[]): Promise<Answer> {
  let answer: Answer = { event: null, found: {} };
  let sofar = found;
  for (const effect of effects) {
    const next = await runEffect(run, sofar, effect);
    sofar = { ...sofar, ...next.found };
    answer = { event: next.event ?? answer.event, found: { ...answer.found, ...next.found } };
  }
  return answer;
}

/** One effect: the only I/O of a poll. */
async function runEffect(run: PollRun, found: Found, effect: PollEffect): Promise<Answer> {
  const { store } = run.deps;
  const id = run.game.id;
  switch (effect.kind) {
    case 'read':
      return readEffect(run, found, effect.full);
    case 'mark-deleted': {
      const read = readOf(found);
      const present = read.thread.posts.map((p) => p.id);
      const pages = { pages: read.recordedPages, present };
      return { event: await markDeleted(store, run.game, pages, effect.vanished, new Date(run.startedAt)), found: {} };
    }
    case 'not-modified':
      for (const page of effect.pages) await store.threadPages.markNotModified(id, page, new Date(run.startedAt));
      return { event: null, found: {} };
    case 'weigh':
      return weighEffect(run, found);
    case 'count':
      return countEffect(run, found, effect.now);
    case 'draft':
      return draftEffect(run, found, effect);
    case 'audit':
      await store.audit.record({ gameId: id, actor: POLLER_ACTOR, action: effect.action, detail: effect.detail });
      return { event: null, found: {} };
    case 'finish':
      return finishEffect(run, effect);
  }
}

/** Reads the thread, recording each page as it comes; notes the engine once the reader identified it. */
async function readEffect(run: PollRun, found: Found, full: boolean): Promise<Answer> {
  const { store } = run.deps;
  const read = await readRecording({
    store,
    game: run.game,
    site: setupOf(found).site,
    full,
    before: run.before,
    seenAt: new Date(run.deps.now()),
    log: run.log,
  });
  const vanished = await vanishedPosts(store, run.game.id, read);
  if (run.game.engine === null) await store.polls.setEngine(run.game.id, read.thread.engine);
  return { event: { kind: 'answered', read: { ...read.report, vanished: vanished.length } }, found: { read } };
}

/** The GM's events and the latest tally: what the count depends on, and the count it may keep. */
async function weighEffect(run: PollRun, found: Found): Promise<Answer> {
  const { store } = run.deps;
  const events = await store.events.list(run.game.id);
  const tally = await store.tallies.latest(run.game.id);
  const basis = countBasis(run.game, setupOf(found).ruleset, readOf(found).thread.engine, events);
  const event: PollEvent = { kind: 'weighed', basis, latestTallyId: tally?.id ?? null, now: run.deps.now() };
  return { event, found: { events, tally } };
}

/** The one count, saved when it changed. */
async function countEffect(run: PollRun, found: Found, now: string): Promise<Answer> {
  const { settings, ruleset } = setupOf(found);
  const counted = await countGame({
    store: run.deps.store,
    game: run.game,
    ruleset,
    settings,
    engine: readOf(found).thread.engine,
    events: found.events,
    previous: found.tally,
    now,
  });
  return { event: counted.event, found: { tally: counted.tally } };
}

/** The draft triggers over the current tally (a draft when they say so). */
async function draftEffect(
  run: PollRun,
  found: Found,
  effect: Extract<PollEffect, { kind: 'draft' }>,
): Promise<Answer> {
  const { settings, ruleset } = setupOf(found);
  const read = readOf(found);
  const drafted = await draftStep({
    store: run.deps.store,
    game: run.game,
    ruleset,
    engine: read.thread.engine,
    settings,
    state: run.before,
    after: found.tally!,
    newPosts: read.added,
    now: effect.now,
    deadline: effect.deadline,
  });
  const event: PollEvent = { kind: 'drafted', counters: drafted.counters, now: run.deps.now() };
  return { event, found: { draft: drafted.draft, draftReasons: drafted.reasons } };
}

/** How the poll went, its facts for the next one; the lease is given up. */
async function finishEffect(run: PollRun, effect: Extract<PollEffect, { kind: 'finish' }>): Promise<Answer> {
  const at = new Date(effect.now);
  const outcome = effect.ok
    ? { ok: true as const, fullRead: effect.fullRead, at, state: effect.facts }
    : { ok: false as const, error: effect.error ?? 'the poll failed', at, state: effect.facts };
  const state = await run.deps.store.polls.finish(run.game.id, run.owner, outcome);
  return { event: null, found: { state } };
}

function setupOf(found: Found): NonNullable<Found['setup']> {
  if (found.setup === null) throw new Error('the poll plan ran an effect before the poll was set up');
  return found.setup;
}

function readOf(found: Found): RecordedRead {
  if (found.read === null) throw new Error('the poll plan ran an effect that needs a read before reading');
  return found.read;
}

/** The poll's result, from where the plan ended and what the effects found. */
function resultOf(run: PollRun, progress: PollProgress, found: Found): PollResult {
  const { game, log } = run;
  const base: PollResult = {
    ...emptyResult(game.id, game),
    fullRead: progress.reads > 0 && progress.full,
    pages: progress.pages,
    added: progress.added,
    edited: progress.edited,
    deleted: progress.deleted,
    restored: progress.restored,
    parsed: progress.parsed,
    tally: found.tally,
    tallyChanged: progress.tallyChanged,
    counted: progress.counted,
    state: found.state,
  };
  if (progress.error) {
    const { name, message, retryAfterMs } = progress.error;
    log.warn({ gameId: game.id, error: message }, 'poll failed');
    return { ...base, status: 'failed', reason: message, error: { name, message, retryAfterMs } };
  }
  log.info(
    { gameId: game.id, added: base.added, edited: base.edited, deleted: base.deleted, tally: base.tallyChanged },
    'polled',
  );
  return {
    ...base,
    draft: found.draft,
    draftReasons: found.draftReasons,
    deadline: progress.deadline,
    upcoming: progress.upcoming,
    carry: progress.facts,
  };
}

function emptyResult(gameId: number, game: Game | null): PollResult {
  return {
    gameId,
    status: 'polled',
    reason: null,
    fullRead: false,
    pages: { read: [], unchanged: [], fromCache: [] },
    added: 0,
    edited: 0,
    deleted: 0,
    restored: 0,
    parsed: 0,
    tally: null,
    tallyChanged: false,
    counted: false,
    draft: null,
    draftReasons: [],
    deadline: null,
    upcoming: [],
    error: null,
    state: null,
    game,
    carry: {},
  };
}
