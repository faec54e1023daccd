import { LoginRequiredError, ThrottledError } from '../fetch/errors.js';
import type { EngineId } from '../model/engine.js';
import type { CountLesson, CountProposals } from '../model/gm-count.js';
import { GenericOfferError } from '../thread/generic-offer-error.js';
import type { LastCount, PollFactsPatch } from '../model/poll-state.js';
import type { PollState } from '../store/polls-repo.js';
import type { DraftCounters } from './draft-step.js';
import type { PollSettings } from './poll-settings.js';

/**
 * The poll plan: what one poll of one game does next, as a pure transition (the way xstate
 * separates a machine's transition from the actor that runs its effects). `planPoll` takes
 * what the poll knows (its game's settings and poll state as read when it began), where it
 * stands (`PollProgress`) and what just happened (`PollEvent`: the start, what the forum
 * answered, what an effect found, a failure, each with the clock), and returns where it
 * stands now and the effects to run. The runner (`poll-game.ts`) does the I/O and feeds
 * each effect's answer back as the next event. No clock, network or database here.
 *
 * Re-running is safe: every effect is idempotent (a page recorded twice keeps one revision,
 * a tally equal to the last is not saved again, the draft step remembers the tally it
 * checked), and the facts that call for a count (`recountDue`) are written with the pages
 * that call for it, so a poll killed between its plan and its effects leaves the count to
 * the next poll, which plans it again from the state the killed one left.
 */

/** Who writes the audit entries of a poll. */
export const POLLER_ACTOR = 'poller';

/** What a poll knows from its start. */
export interface PollContext {
  /** The game's poll state as it was when the poll began. */
  before: PollState;
  /** The caller asked for every page. */
  full: boolean;
}

/** One read of the thread, as recorded (each page's posts and validators stored as it came). */
export interface ReadReport {
  /** Page numbers read, answered "not modified", reused from the last read. */
  pages: { read: number[]; unchanged: number[]; fromCache: number[] };
  /** Posts new to the store, edited (a new revision), back after a deletion. */
  added: number;
  edited: number;
  restored: number;
  /** A page recorded added, edited, restored or moved (renumbered, another author or time) a post. */
  changed: boolean;
  /** Stored posts on the pages read that the read did not see (deleted, or moved to another page). */
  vanished: number;
  /** Posts on the pages read now (the reader reuses the pages before the last one unread). */
  postsOnPagesRead: number;
  /** Numbers of the posts new to the store. */
  newPosts: number[];
}

/** A failure, as the poll keeps it: what the GM is told, and what the scheduler needs. */
export interface PollError {
  name: string;
  message: string;
  /** The forum asked us to wait this long (Retry-After); the next poll is not due before. */
  retryAfterMs: number | null;
  /** The forum asked for a login (the session expired): only a person can fix it. */
  loginRequired: boolean;
  /** The engine whose layout its adapter did not find (the GM may switch to the generic reader), or null. */
  genericOffer: EngineId | null;
}

export type PollEvent =
  /** The poll holds its game's lease; the game's settings are read (the poller's defaults filled in). */
  | { kind: 'start'; now: string; settings: PollSettings }
  /** The forum answered one read, recorded page by page. */
  | { kind: 'answered'; read: ReadReport }
  /** Posts missing from a full read were marked deleted. */
  | { kind: 'swept'; deleted: number }
  /**
   * What the count depends on besides the posts (`basis`: ruleset, roster, settings, engine,
   * GM events, version), the latest tally, and the count's clock (the end of the read).
   */
  | { kind: 'weighed'; basis: string; latestTallyId: number | null; now: string }
  /** The count was folded (and saved when it changed). */
  | {
      kind: 'counted';
      tallyId: number;
      tallyChanged: boolean;
      parsed: number;
      deadline: string | null;
      upcoming: string[];
      /** What the GM's own counts teach at this count (`offersOfCount`); absent: not made. */
      lessons?: CountLesson[] | undefined;
      /** The threshold and deaths the GM's counts propose at it (`offersOfCount`); absent: not made. */
      proposals?: CountProposals | undefined;
    }
  /** The draft step ran (a draft or none); its counters go to the poll state. */
  | { kind: 'drafted'; counters: DraftCounters; now: string }
  /** Any step failed: nothing is wiped, the previous tally stands; `read`: pages recorded before a read failed. */
  | { kind: 'failed'; error: PollError; now: string; read?: ReadReport | undefined };

export type PollEffect =
  /** Read the thread: from the last page seen, or every page (`full`). Answers `answered`. */
  | { kind: 'read'; full: boolean }
  /** Mark the posts the full read did not see deleted (refusing what looks like a layout change). Answers `swept`. */
  | { kind: 'mark-deleted'; vanished: number }
  /** Note pages the forum answered "not modified". */
  | { kind: 'not-modified'; pages: number[] }
  /** Load what the count depends on and the latest tally. Answers `weighed`. */
  | { kind: 'weigh' }
  /** Fold the count as at `now` (readings first); save it when it differs from the last. Answers `counted`. */
  | { kind: 'count'; now: string }
  /** Ask the draft triggers about the current tally, as at `now`. Answers `drafted`. */
  | { kind: 'draft'; deadline: string | null; now: string }
  /** One audit entry (actor `poller`). */
  | { kind: 'audit'; action: 'poll.read' | 'poll.recover' | 'poll.error'; detail: Record<string, unknown> }
  /** Record how the poll went, merge `facts` into the poll state, give the lease up. The last effect. */
  | { kind: 'finish'; ok: boolean; fullRead: boolean; error: string | null; facts: PollFactsPatch; now: string };

/** Where a poll stands: everything it decided and counted so far (immutable; each event gives a new one). */
export interface PollProgress {
  stage: 'starting' | 'reading' | 'sweeping' | 'weighing' | 'counting' | 'drafting' | 'finishing';
  full: boolean;
  /** Reads so far (a second, full one when posts vanished from a partial one). */
  reads: number;
  changed: boolean;
  added: number;
  edited: number;
  restored: number;
  deleted: number;
  parsed: number;
  pages: ReadReport['pages'];
  lastRead: ReadReport | null;
  basis: string | null;
  /** The count's clock: the end of the read (edits first seen while reading are in it). */
  countAt: string | null;
  counted: boolean;
  tallyId: number | null;
  tallyChanged: boolean;
  deadline: string | null;
  upcoming: string[];
  count: LastCount | null;
  /** What the poll leaves for the next one (merged into `game_poll.state`). */
  facts: PollFactsPatch;
  error: PollError | null;
}

export interface PollPlan {
  progress: PollProgress;
  effects: PollEffect[];
}

export const STARTING: PollProgress = {
  stage: 'starting',
  full: false,
  reads: 0,
  changed: false,
  added: 0,
  edited: 0,
  restored: 0,
  deleted: 0,
  parsed: 0,
  pages: { read: [], unchanged: [], fromCache: [] },
  lastRead: null,
  basis: null,
  countAt: null,
  counted: false,
  tallyId: null,
  tallyChanged: false,
  deadline: null,
  upcoming: [],
  count: null,
  facts: {},
  error: null,
};

/** The transition: where the poll stands after `event`, and what to do now. */
export function planPoll(ctx: PollContext, at: PollProgress, event: PollEvent): PollPlan {
  switch (event.kind) {
    case 'start':
      return planStart(ctx, at, event);
    case 'answered':
      return planAnswered(at, event.read);
    case 'swept':
      return planSettled({ ...at, deleted: at.deleted + event.deleted });
    case 'weighed':
      return planWeighed(ctx, at, event);
    case 'counted':
      return planCounted(at, event);
    case 'drafted':
      return planFinish(ctx, at, event.counters, event.now);
    case 'failed':
      return planFailure(ctx, event.read ? withRead(at, event.read) : at, event.error, event.now);
  }
}

/** Read: every page when one is due or asked for, else from the last page seen. */
function planStart(ctx: PollContext, at: PollProgress, event: Extract<PollEvent, { kind: 'start' }>): PollPlan {
  const full = ctx.full || fullReadDue(ctx.before, event.settings, event.now);
  return { progress: { ...at, stage: 'reading', full }, effects: [{ kind: 'read', full }] };
}

/**
 * The forum answered. Posts gone from a partial read may only have moved up a page: read
 * everything once more. Posts gone from a full read are marked deleted.
 */
function planAnswered(at: PollProgress, read: ReadReport): PollPlan {
  const progress = withRead(at, read);
  if (read.vanished > 0 && !at.full) {
    return { progress: { ...progress, full: true }, effects: [{ kind: 'read', full: true }] };
  }
  if (read.vanished > 0) {
    return {
      progress: { ...progress, stage: 'sweeping' },
      effects: [{ kind: 'mark-deleted', vanished: read.vanished }],
    };
  }
  return planSettled(progress);
}

/** What one read recorded, added to what the poll recorded before. */
function withRead(at: PollProgress, read: ReadReport): PollProgress {
  return {
    ...at,
    reads: at.reads + 1,
    changed: at.changed || read.changed,
    added: at.added + read.added,
    edited: at.edited + read.edited,
    restored: at.restored + read.restored,
    pages: read.pages,
    lastRead: read,
  };
}

/** The read is settled: note it, then weigh what the count depends on. */
function planSettled(at: PollProgress): PollPlan {
  const effects: PollEffect[] = [];
  if (at.pages.unchanged.length > 0) effects.push({ kind: 'not-modified', pages: at.pages.unchanged });
  const audit = readAudit(at);
  if (audit) effects.push(audit);
  return { progress: { ...at, stage: 'weighing' }, effects: [...effects, { kind: 'weigh' }] };
}

/** Count, unless nothing the count depends on changed since the last one: then it stands. */
function planWeighed(ctx: PollContext, at: PollProgress, event: Extract<PollEvent, { kind: 'weighed' }>): PollPlan {
  const weighed = { ...at, basis: event.basis, countAt: event.now, tallyId: event.latestTallyId };
  const kept = keptCount(ctx, weighed);
  if (kept) {
    const progress = {
      ...weighed,
      stage: 'drafting' as const,
      count: kept,
      deadline: kept.deadline,
      upcoming: kept.upcoming,
    };
    return { progress, effects: [{ kind: 'draft', deadline: kept.deadline, now: event.now }] };
  }
  return { progress: { ...weighed, stage: 'counting', counted: true }, effects: [{ kind: 'count', now: event.now }] };
}

/** `poll.read`, when the read changed anything. */
function readAudit(at: PollProgress): PollEffect | null {
  if (at.added + at.edited + at.deleted + at.restored === 0) return null;
  return {
    kind: 'audit',
    action: 'poll.read',
    detail: {
      full: at.full,
      pages: at.pages,
      added: at.added,
      edited: at.edited,
      deleted: at.deleted,
      restored: at.restored,
      postsOnPagesRead: at.lastRead?.postsOnPagesRead ?? 0,
      newPosts: at.lastRead?.newPosts ?? [],
    },
  };
}

/** The last count, when it still stands: nothing recorded, nothing deleted, no recount due. */
function keptCount(ctx: PollContext, at: PollProgress): LastCount | null {
  const last = ctx.before.state.lastCount ?? null;
  if (last === null || at.tallyId === null || at.changed || at.deleted > 0) return null;
  return recountDue(ctx.before, at.basis ?? '', at.tallyId, at.countAt ?? last.at) ? null : last;
}

/** The count is made: it is the last count now. */
function planCounted(at: PollProgress, event: Extract<PollEvent, { kind: 'counted' }>): PollPlan {
  const count: LastCount = {
    basis: at.basis ?? '',
    at: at.countAt ?? '',
    tallyId: event.tallyId,
    deadline: event.deadline,
    upcoming: event.upcoming,
    ...(event.lessons ? { lessons: event.lessons } : {}),
    ...(event.proposals ? { proposals: event.proposals } : {}),
  };
  const progress: PollProgress = {
    ...at,
    stage: 'drafting',
    tallyId: event.tallyId,
    tallyChanged: event.tallyChanged,
    parsed: at.parsed + event.parsed,
    deadline: event.deadline,
    upcoming: event.upcoming,
    count,
  };
  return { progress, effects: [{ kind: 'draft', deadline: event.deadline, now: count.at }] };
}

/** A good poll: its facts for the next one, and `poll.recover` after a failure. */
function planFinish(ctx: PollContext, at: PollProgress, counters: DraftCounters, now: string): PollPlan {
  const facts: PollFactsPatch = {
    deadline: at.deadline,
    upcoming: at.upcoming,
    ...counters,
    ...(at.count ? { lastCount: at.count } : {}),
    recountDue: false,
    loginRequired: false,
    genericOffer: null,
  };
  const effects: PollEffect[] = [{ kind: 'finish', ok: true, fullRead: at.full, error: null, facts, now }];
  if (ctx.before.lastError !== null) {
    effects.push({ kind: 'audit', action: 'poll.recover', detail: { after: ctx.before.lastError } });
  }
  return { progress: { ...at, stage: 'finishing', facts }, effects };
}

/**
 * A failed poll: recorded on the game, the previous tally stands. One audit entry per
 * distinct failure: a forum down for hours is one story, not hundreds.
 */
function planFailure(ctx: PollContext, at: PollProgress, error: PollError, now: string): PollPlan {
  const facts: PollFactsPatch = { loginRequired: error.loginRequired, genericOffer: error.genericOffer };
  const effects: PollEffect[] = [];
  if (ctx.before.lastError !== error.message) {
    effects.push({ kind: 'audit', action: 'poll.error', detail: { error: error.message, name: error.name } });
  }
  effects.push({ kind: 'finish', ok: false, fullRead: false, error: error.message, facts, now });
  return { progress: { ...at, stage: 'finishing', facts, error }, effects };
}

/** A thrown failure as the poll keeps it. */
export function pollErrorOf(error: unknown): PollError {
  return {
    name: error instanceof Error ? error.name : 'Error',
    message: error instanceof Error ? error.message : String(error),
    retryAfterMs: error instanceof ThrottledError ? error.retryAfterMs : null,
    loginRequired: error instanceof LoginRequiredError,
    genericOffer: error instanceof GenericOfferError ? error.engine : null,
  };
}

/**
 * A full read that lost most of the posts stored looks like a layout change, not a mass
 * deletion: refused (the error names both numbers) rather than marking them deleted.
 */
export function massDeletion(vanished: number, stored: number): string | null {
  if (vanished > 5 && vanished * 2 > stored) {
    return `refusing to mark ${vanished} of ${stored} posts deleted at once; the forum's layout may have changed`;
  }
  return null;
}

/**
 * Whether the stored count may be out of date although this poll recorded no post change:
 * a page recorded by a poll that died before counting (`recountDue`), another basis, a
 * tally saved since, or a check or deadline come since the last count.
 */
function recountDue(before: PollState, basis: string, latestTallyId: number, now: string): boolean {
  const last = before.state.lastCount ?? null;
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
  const instants = (before.state.upcoming ?? []).map((t) => Date.parse(t));
  const lastPoll = before.lastPolledAt === null ? Number.NEGATIVE_INFINITY : Date.parse(before.lastPolledAt);
  if (instants.some((t) => t <= nowMs && t > lastPoll)) return true;
  const near = instants.some((t) => t > nowMs && t - nowMs <= settings.nearDeadline.minutes * 60_000);
  return near && sinceFull >= NEAR_FULL_READ_MINUTES * 60_000;
}
