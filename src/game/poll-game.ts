import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../config/package-root.js';
import type { FetchedPage, Validators } from '../fetch/fetched-page.js';
import { LoginRequiredError, ThrottledError } from '../fetch/errors.js';
import { plainText } from '../model/body.js';
import type { GmEvent } from '../model/event.js';
import type { Post } from '../model/post.js';
import { Tally } from '../model/tally.js';
import { recordAudit } from '../store/audit-repo.js';
import type { Draft } from '../model/draft.js';
import type { Game } from '../model/game.js';
import { storeOn, type Repos } from '../store/open-store.js';
import type { PollState } from '../store/polls-repo.js';
import type { StoredPost } from '../store/posts-repo.js';
import type { Sql } from '../store/sql.js';
import type { StoredTally } from '../store/tallies-repo.js';
import type { ThreadPage } from '../../scrapers/adapter.js';
import type { SiteProfile } from '../../scrapers/site-profile.js';
import type { Ruleset } from '../rules/ruleset.js';
import type { PageRenderer } from '../browser/page-renderer.js';
import { readThread, type PageSource, type ThreadRead } from '../thread/read-thread.js';
import { draftStep } from './draft-step.js';
import { foldGame } from './fold-game.js';
import { genericGate } from './generic-check.js';
import { gameRuleset, rulesetVersion, stableJson } from './game-ruleset.js';
import { pollSettings, type PollSettings } from './poll-settings.js';
import { gmNames } from './gm-news.js';
import { logOf, type Log } from '../log/log-port.js';
import { readingNews } from './reading-news.js';
import { postHistories } from './post-histories.js';
import { StoreThreadCache } from './store-thread-cache.js';

/** Who writes the audit entries of a poll. */
export const POLLER_ACTOR = 'poller';

/**
 * This process, for poll leases: `<host>:<pid>:<random>` (never contains "/"). On PGlite a
 * lease held by another instance is left over from a process that died (one process per folder).
 */
export const PROCESS_INSTANCE = `${hostname().replaceAll('/', '_')}:${process.pid}:${randomBytes(4).toString('hex')}`;

/** A poll holds its game's lease this long and renews it every third of it. */
export const DEFAULT_LEASE_MS = 5 * 60_000;

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

/** What reads one game's thread. */
export interface GameSite {
  source: PageSource;
  profile?: SiteProfile | undefined;
  renderer?: PageRenderer | undefined;
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
  /** What this poll leaves for the next one (kept in `game_poll.state`). */
  carry: Record<string, unknown>;
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
  const log = logOf(deps.log);
  const store = deps.store;
  const result = emptyResult(id);
  const game = Number.isSafeInteger(id) ? await store.games.get(id) : null;
  result.game = game;
  if (!game) return { ...result, status: 'skipped', reason: 'not-found' };
  if (game.status !== 'active') return { ...result, status: 'skipped', reason: game.status };

  const owner = `${PROCESS_INSTANCE}/${randomUUID()}`;
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const claimed = await store.polls.claim(
    id,
    owner,
    leaseMs,
    store.sql.driver === 'pglite' ? { instance: PROCESS_INSTANCE } : undefined,
  );
  if (claimed === null) return { ...result, status: 'busy', reason: 'another poll of this game is running' };
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

  const before = await store.polls.get(id);
  try {
    // A game read generically waits for the GM's check of page 1 (generic-check.ts).
    const gate = await genericGate(deps, game);
    const done =
      gate.hold !== null
        ? { ...result, status: 'skipped' as const, reason: gate.hold }
        : await pollLeased(gate.deps, game, before, options, result, log);
    done.state = await store.polls.finish(id, owner, {
      ok: true,
      fullRead: done.fullRead,
      at: new Date(deps.now()),
      state: { deadline: done.deadline, upcoming: done.upcoming, ...done.carry, loginRequired: false },
    });
    if (before.lastError !== null) {
      await store.audit.record({
        gameId: id,
        actor: POLLER_ACTOR,
        action: 'poll.recover',
        detail: { after: before.lastError },
      });
    }
    log.info(
      { gameId: id, added: done.added, edited: done.edited, deleted: done.deleted, tally: done.tallyChanged },
      'polled',
    );
    return done;
  } catch (error) {
    const err = describeError(error);
    log.warn({ gameId: id, error: err.message }, 'poll failed');
    // One audit entry per distinct failure: a forum down for hours is one story, not hundreds.
    if (before.lastError !== err.message) {
      await store.audit.record({
        gameId: id,
        actor: POLLER_ACTOR,
        action: 'poll.error',
        detail: { error: err.message, name: err.name },
      });
    }
    const state = await store.polls.finish(id, owner, {
      ok: false,
      error: err.message,
      at: new Date(deps.now()),
      state: { loginRequired: error instanceof LoginRequiredError },
    });
    return {
      ...result,
      status: 'failed',
      reason: err.message,
      error: err,
      state,
      tally: await store.tallies.latest(id),
    };
  } finally {
    clearInterval(renew);
    await store.polls.release(id, owner).catch(() => {});
  }
}

async function pollLeased(
  deps: PollDeps,
  game: Game,
  before: PollState,
  options: PollOptions,
  result: PollResult,
  log: Log,
): Promise<PollResult> {
  const { store } = deps;
  const settings = pollSettings(game.settings);
  const ruleset = gameRuleset(game);
  const nowIso = deps.now();
  let full = options.full === true || fullReadDue(before, settings, nowIso);

  // Read, recording each page as it comes. A poll that resumes from the cache and finds
  // posts gone from the pages it read reads everything: they may only have moved up a page.
  let read = await readRecording(deps, game, full, result, log, before);
  let vanished = await vanishedPosts(store, game.id, read);
  if (vanished.length > 0 && !full) {
    full = true;
    const changedEarlier = read.changed;
    read = await readRecording(deps, game, true, result, log, before);
    read.changed ||= changedEarlier;
    vanished = await vanishedPosts(store, game.id, read);
  }
  result.fullRead = full;
  result.pages = { ...read.thread.summary };
  // The count is as at the end of the read: edits first seen while reading are in it.
  const foldNow = deps.now();
  if (game.engine === null) await store.polls.setEngine(game.id, read.thread.engine);

  const seenAt = new Date(nowIso);
  if (full && vanished.length > 0) {
    const stored = (await store.posts.headsOf(game.id)).filter((p) => !p.deleted);
    // A layout change that loses posts must not look like a mass deletion.
    if (vanished.length > 5 && vanished.length * 2 > stored.length) {
      throw new Error(
        `refusing to mark ${vanished.length} of ${stored.length} posts deleted at once; the forum's layout may have changed`,
      );
    }
    const pages = [...new Set([...stored.map((p) => p.page), ...read.recordedPages])];
    const present = read.thread.posts.map((p) => p.id);
    await store.sql.transaction(async (tx) => {
      const deleted = await storeOn(tx).posts.markMissing(game.id, pages, present, seenAt);
      if (deleted.length > 0) await storeOn(tx).polls.mergeState(game.id, { recountDue: true });
      for (const post of deleted) {
        await recordAudit(tx, {
          gameId: game.id,
          actor: POLLER_ACTOR,
          action: 'post.delete',
          detail: { post: post.number, forumPostId: post.id, author: post.author, text: clip(plainText(post.body)) },
        });
      }
      result.deleted += deleted.length;
    });
  }
  for (const page of read.thread.summary.unchanged) await store.threadPages.markNotModified(game.id, page, seenAt);
  if (result.added + result.edited + result.deleted + result.restored > 0) {
    await store.audit.record({
      gameId: game.id,
      actor: POLLER_ACTOR,
      action: 'poll.read',
      detail: {
        full,
        pages: result.pages,
        added: result.added,
        edited: result.edited,
        deleted: result.deleted,
        restored: result.restored,
        // The reader reuses the pages before the last one unread: these are the pages read now.
        postsOnPagesRead: read.thread.posts.length,
        newPosts: read.added.map((p) => p.number),
      },
    });
  }

  // Readings, then the count, unless nothing it depends on changed since the last one.
  const events = await store.events.list(game.id);
  const gmEvents: GmEvent[] = events.map((e) => e.event);
  const previous = await store.tallies.latest(game.id);
  result.tally = previous;
  const basis = countBasis(game, ruleset, read.thread.engine, events);
  const last = lastCount(before);
  if (previous && last && !read.changed && result.deleted === 0 && !recountDue(before, basis, previous.id, foldNow)) {
    result.deadline = last.deadline;
    result.upcoming = last.upcoming;
    return draftAndFinish(deps, game, ruleset, read, settings, before, result, foldNow, last);
  }
  // Without bodies: every revision read before has its reading stored; postHistories loads the rest.
  result.counted = true;
  const posts = await store.posts.headsOf(game.id);
  const { histories, parsed } = await postHistories(store, game, ruleset, gmEvents, posts, { save: true });
  result.parsed += parsed;
  const folded = foldGame({
    ruleset,
    roster: game.roster,
    engine: read.thread.engine,
    posts: histories,
    gmEvents,
    day: settings.day,
    now: foldNow,
    hosts: gmNames(game.settings, posts),
  });
  result.deadline = folded.deadline;
  result.upcoming = folded.upcoming;
  const tally = Tally.parse(folded.tally);
  if (!previous || stableJson(previous.tally) !== stableJson(tally)) {
    result.tally = await store.sql.transaction(async (tx) => {
      const saved = await storeOn(tx).tallies.save(game.id, tally);
      await recordAudit(tx, {
        gameId: game.id,
        actor: POLLER_ACTOR,
        action: 'tally.save',
        detail: {
          tallyId: saved.id,
          asOfPost: tally.asOfPost,
          day: tally.day,
          outcome: tally.outcome.status,
          wagons: tally.wagons.map((w) => ({ target: w.target, total: w.total })),
          flags: tally.flags.length,
          violations: tally.violations.length,
          lateEdits: folded.lateEdits.length,
        },
      });
      const was = previous?.tally.outcome;
      if (
        tally.outcome.status !== 'open' &&
        (was?.status !== tally.outcome.status || previous?.tally.day !== tally.day)
      ) {
        await recordAudit(tx, {
          gameId: game.id,
          actor: POLLER_ACTOR,
          action: 'tally.decided',
          detail: { tallyId: saved.id, day: tally.day, outcome: tally.outcome },
        });
      }
      return saved;
    });
    result.tallyChanged = true;
  }

  const counted: LastCount = {
    basis,
    at: foldNow,
    tallyId: result.tally!.id,
    deadline: folded.deadline,
    upcoming: folded.upcoming,
  };
  return draftAndFinish(deps, game, ruleset, read, settings, before, result, foldNow, counted);
}

/** A draft for the GM, when the triggers say so; the count's facts go to the poll state. */
async function draftAndFinish(
  deps: PollDeps,
  game: Game,
  ruleset: Ruleset,
  read: RecordedRead,
  settings: PollSettings,
  before: PollState,
  result: PollResult,
  now: string,
  count: LastCount,
): Promise<PollResult> {
  const drafted = await draftStep({
    store: deps.store,
    game,
    ruleset,
    engine: read.thread.engine,
    settings,
    state: before,
    after: result.tally!,
    newPosts: read.added,
    now,
    deadline: result.deadline,
  });
  result.draft = drafted.draft;
  result.draftReasons = drafted.reasons;
  result.carry = { ...drafted.counters, lastCount: count, recountDue: false };
  return { ...result, status: 'polled', reason: null };
}

/**
 * The last count a poll made (in `game_poll.state.lastCount`): what it was counted from,
 * when, and the clock instants it saw coming. A poll that finds nothing new keeps it.
 */
interface LastCount {
  /** `countBasis` of the count. */
  basis: string;
  /** The count's clock (ISO 8601). */
  at: string;
  tallyId: number;
  deadline: string | null;
  /** Checks and deadlines still to come after `at`. */
  upcoming: string[];
}

function lastCount(state: PollState): LastCount | null {
  const c = state.state.lastCount;
  if (typeof c !== 'object' || c === null) return null;
  const { basis, at, tallyId, deadline, upcoming } = c as Record<string, unknown>;
  if (typeof basis !== 'string' || typeof at !== 'string' || typeof tallyId !== 'number') return null;
  if (deadline !== null && typeof deadline !== 'string') return null;
  if (!Array.isArray(upcoming) || !upcoming.every((t) => typeof t === 'string')) return null;
  return { basis, at, tallyId, deadline, upcoming };
}

/** Votal's version: a new release counts every game once more (its fold may count differently). */
const VOTAL_VERSION = (
  JSON.parse(readFileSync(join(packageRoot(import.meta.url), 'package.json'), 'utf8')) as { version: string }
).version;

/**
 * Everything the count depends on besides the posts and the clock, as one hash: the
 * ruleset with the game's overrides and roster, the game's settings (the Day's clock among
 * them), the engine, the GM's events (append-only: their ids say which) and Votal's version.
 */
function countBasis(game: Game, ruleset: Ruleset, engine: string, events: readonly { id: number }[]): string {
  const text = stableJson({
    ruleset: rulesetVersion(ruleset, game.roster),
    settings: game.settings,
    engine,
    events: events.map((e) => e.id),
    votal: VOTAL_VERSION,
  });
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/**
 * Whether the stored count may be out of date although this poll recorded no post change:
 * a page recorded by a poll that died before counting (`recountDue`), another basis, a
 * tally saved since, or a check or deadline come since the last count.
 */
function recountDue(before: PollState, basis: string, latestTallyId: number, now: string): boolean {
  const last = lastCount(before);
  if (before.state.recountDue === true || last === null) return true;
  if (last.basis !== basis || last.tallyId !== latestTallyId) return true;
  const nowMs = Date.parse(now);
  return last.upcoming.some((t) => Date.parse(t) <= nowMs);
}

/** Minutes between full reads while a deadline or check is near. */
const NEAR_FULL_READ_MINUTES = 10;

/**
 * Whether this poll reads every page. Edits and deletions on earlier pages only show on a
 * full read: one is due every `fullReadMinutes`, every 10 minutes while a deadline or
 * check is near (an edit made before the deadline must be seen before it, or it counts as
 * late), and right after one passed.
 */
export function fullReadDue(before: PollState, settings: PollSettings, now: string): boolean {
  if (before.lastFullReadAt === null) return true;
  const nowMs = Date.parse(now);
  const sinceFull = nowMs - Date.parse(before.lastFullReadAt);
  if (sinceFull >= settings.fullReadMinutes * 60_000) return true;
  const upcoming = Array.isArray(before.state.upcoming)
    ? before.state.upcoming.filter((t): t is string => typeof t === 'string')
    : [];
  const instants = upcoming.map((t) => Date.parse(t)).filter((t) => !Number.isNaN(t));
  const lastPoll = before.lastPolledAt === null ? Number.NEGATIVE_INFINITY : Date.parse(before.lastPolledAt);
  if (instants.some((t) => t <= nowMs && t > lastPoll)) return true;
  const near = instants.some((t) => t > nowMs && t - nowMs <= settings.nearDeadline.minutes * 60_000);
  return near && sinceFull >= NEAR_FULL_READ_MINUTES * 60_000;
}

interface RecordedRead {
  thread: ThreadRead;
  /** Page numbers recorded in this read (as the pages say). */
  recordedPages: number[];
  /** Posts new to the store in this read. */
  added: Post[];
  /** A post was added, edited, restored or moved (renumbered, another author or time). */
  changed: boolean;
}

/**
 * `readThread` over the store: pages come from the store's last read, and every page read
 * is written to the store at once, in page order (its posts and its validators in one
 * transaction), so a poll that dies half-way keeps what it read and the next one resumes.
 */
async function readRecording(
  deps: PollDeps,
  game: Game,
  full: boolean,
  result: PollResult,
  log: Log,
  before: PollState,
): Promise<RecordedRead> {
  const { store } = deps;
  const site = deps.siteFor ? await deps.siteFor(game) : null;
  const upstream = site?.source ?? deps.source;
  const fetched = new Map<string, FetchedPage>();
  const source: PageSource = {
    async get(url: string, validators?: Validators) {
      const doc = await upstream.get(url, validators);
      fetched.set(url, doc);
      return doc;
    },
  };
  const cache = new StoreThreadCache(store, game.id, game.engine, before);
  const recordedPages: number[] = [];
  const added: Post[] = [];
  let changed = false;
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  const seenAt = new Date(deps.now());

  const record = async (page: ThreadPage, url: string): Promise<void> => {
    const doc = fetched.get(url) ?? null;
    await store.sql.transaction(async (tx) => {
      const repos = storeOn(tx);
      const rec = await repos.posts.recordPage(game.id, page.posts, seenAt);
      // The count must follow, even if this poll dies before it counts.
      const recount = rec.added.length + rec.edited.length + rec.restored.length + rec.moved.length > 0;
      if (recount) await repos.polls.mergeState(game.id, { recountDue: true });
      await repos.threadPages.saveFetched(
        game.id,
        {
          page: page.page,
          url,
          etag: doc?.etag ?? null,
          lastModified: doc?.lastModified ?? null,
          bodyHash: doc?.hash ?? null,
          postCount: page.posts.length,
        },
        seenAt,
      );
      for (const { before, after } of rec.edited) {
        await recordAudit(tx, {
          gameId: game.id,
          actor: POLLER_ACTOR,
          action: 'post.edit',
          detail: {
            post: after.number,
            forumPostId: after.id,
            author: after.author,
            // No marker, or the same marker as before: the forum did not show this edit.
            silent: after.edit === null || stableJson(after.edit) === stableJson(before.edit),
            before: { bodyHash: before.bodyHash, edit: before.edit, text: clip(plainText(before.body)) },
            after: { bodyHash: after.bodyHash, edit: after.edit, text: clip(plainText(after.body)) },
          },
        });
      }
      for (const post of rec.restored) {
        await recordAudit(tx, {
          gameId: game.id,
          actor: POLLER_ACTOR,
          action: 'post.restore',
          detail: { post: post.number, forumPostId: post.id, author: post.author },
        });
      }
      // The thread's shape as this page shows it, in the same transaction: a poll killed
      // after a page was recorded must not leave its validators without the page count
      // it showed (a 304 on that page would then hide the pages after it for good).
      await repos.polls.setShape(game.id, {
        title: page.title,
        pageCount: page.pageCount,
        postsPerPage: page.postsPerPage,
      });
      result.added += rec.added.length;
      result.edited += rec.edited.length;
      result.restored += rec.restored.length;
      added.push(...rec.added);
      changed ||= recount;
    });
    recordedPages.push(page.page);
  };

  let thread: ThreadRead;
  try {
    const profile = site ? site.profile : deps.profileFor?.(game.threadUrl);
    const renderer = site ? site.renderer : deps.renderer;
    thread = await readThread(game.threadUrl, {
      source,
      cache,
      refresh: full,
      ...(game.engine ? { engine: game.engine } : {}),
      ...(profile ? { profile } : {}),
      ...(renderer ? { renderer } : {}),
      onPage: (page, url) => {
        chain = chain
          .then(() => (failure === null ? record(page, url) : undefined))
          .catch((error: unknown) => {
            failure ??= error;
          });
      },
      onNote: (message) => log.info({ gameId: game.id, note: message }, 'thread reader note'),
      // The dashboard and the live page show how far the read has come (a long first read).
      onProgress: readingNews(store.sql, game.id, log),
    });
  } finally {
    // Whatever was read before a failure is kept (and the error below is the read's).
    await chain;
  }
  if (failure !== null) throw failure;
  return { thread, recordedPages, added, changed };
}

/** Stored posts (not deleted) on the pages just read that the read did not see. */
async function vanishedPosts(store: Repos, gameId: number, read: RecordedRead): Promise<StoredPost[]> {
  if (read.recordedPages.length === 0) return [];
  const present = new Set(read.thread.posts.map((p) => p.id));
  const stored = await store.posts.postsOn(gameId, read.recordedPages);
  return stored.filter((p) => !p.deleted && !present.has(p.id));
}

function emptyResult(gameId: number): PollResult {
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
    game: null,
    carry: {},
  };
}

function describeError(error: unknown): { name: string; message: string; retryAfterMs: number | null } {
  if (error instanceof Error) {
    return {
      name: error.name,
      message: error.message,
      retryAfterMs: error instanceof ThrottledError ? error.retryAfterMs : null,
    };
  }
  return { name: 'Error', message: String(error), retryAfterMs: null };
}

function clip(text: string, max = 2_000): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
