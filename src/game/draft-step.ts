import type { EngineId } from '../model/engine.js';
import type { Post } from '../model/post.js';
import { ownText } from '../parse/own-text.js';
import type { Ruleset } from '../rules/ruleset.js';
import { recordAudit } from '../store/audit-repo.js';
import type { Draft, NewDraft } from '../model/draft.js';
import type { Game } from '../model/game.js';
import { storeOn, type Repos } from '../store/open-store.js';
import type { PollState } from '../store/polls-repo.js';
import type { Sql } from '../store/sql.js';
import type { StoredTally } from '../store/tallies-repo.js';
import { dialectFor } from '../votal/dialect.js';
import { DraftSettings, draftReasons, voteChanges, type DraftReason, type NewPost } from '../votal/draft-triggers.js';
import { renderVotal } from '../votal/render-votal.js';
import type { GameSettings } from '../model/game-settings.js';
import type { PollSettings } from './poll-settings.js';

/** What the draft step keeps between polls (in `game_poll.state`). */
export interface DraftCounters {
  /** Votes and unvotes since the last draft. */
  votesSinceDraft: number;
  /** When the last draft was made (the poll clock). */
  lastDraftAt: string | null;
  /** The tally the last check compared against, so a poll that died after saving a tally does not lose its changes. */
  draftCheckedTallyId: number | null;
}

export interface DraftStepInput {
  store: Repos & { sql: Sql };
  game: Game;
  ruleset: Ruleset;
  engine: EngineId;
  settings: PollSettings;
  state: PollState;
  /** The current tally. */
  after: StoredTally;
  newPosts: readonly Post[];
  now: string;
  deadline: string | null;
}

export interface DraftStepResult {
  draft: Draft | null;
  reasons: string[];
  counters: DraftCounters;
  /** The draft could not be made (a bad template): the count still stands. */
  error: string | null;
}

/** Review items the GM settled without a correction (`review.accept`, `review.dismiss`): keys of the review queue. */
export async function acceptedReviews(store: Pick<Repos, 'audit'>, gameId: number): Promise<string[]> {
  const answered = await Promise.all(
    (['review.accept', 'review.dismiss'] as const).map((action) => store.audit.list({ gameId, action, limit: 10_000 })),
  );
  return answered.flat().map((a) => String((a.detail as { key?: unknown }).key ?? ''));
}

/** The draft triggers of `game.settings.drafts`, keeping only the keys they know (other parts of Votal keep their own there). */
export function draftSettingsOf(settings: Pick<GameSettings, 'drafts'>): DraftSettings {
  const known = Object.keys(DraftSettings.shape);
  return DraftSettings.parse(
    Object.fromEntries(Object.entries(settings.drafts ?? {}).filter(([k]) => known.includes(k))),
  );
}

export function countersOf(state: PollState): DraftCounters {
  const s = state.state;
  // A game not drafted for yet (or a row from before the counters) starts from none.
  return {
    votesSinceDraft: s.votesSinceDraft ?? 0,
    lastDraftAt: s.lastDraftAt ?? null,
    draftCheckedTallyId: s.draftCheckedTallyId ?? null,
  };
}

/**
 * Asks the draft triggers whether the count since the last check calls for a votal draft
 * and, if so, renders one in the thread's dialect from the current tally (a snapshot: the
 * draft never changes) and stores it with its reasons (audited `draft.create`, `draft.reasons`).
 */
export async function draftStep(input: DraftStepInput): Promise<DraftStepResult> {
  const { store, game, after } = input;
  const counters = countersOf(input.state);
  const before =
    counters.draftCheckedTallyId === null
      ? null
      : counters.draftCheckedTallyId === after.id
        ? after
        : await store.tallies.get(counters.draftCheckedTallyId);
  const newPosts: NewPost[] = input.newPosts.map((p) => ({ post: p.number, author: p.author, text: ownText(p.body) }));
  const settings = draftSettingsOf(input.settings);
  const lastDraft =
    counters.lastDraftAt !== null || counters.votesSinceDraft > 0
      ? { at: counters.lastDraftAt ?? input.now, votesSinceCount: counters.votesSinceDraft }
      : null;
  const beforeTally = before?.tally ?? null;
  const changes = voteChanges(beforeTally, after.tally, newPosts).length;
  const reasons = draftReasons({
    before: beforeTally,
    after: after.tally,
    newPosts,
    lastDraft,
    now: input.now,
    settings,
  });
  const next: DraftCounters = {
    ...counters,
    draftCheckedTallyId: after.id,
    votesSinceDraft: counters.votesSinceDraft + changes,
  };
  if (reasons.length === 0) return { draft: null, reasons: [], counters: next, error: null };

  const dialect = dialectFor(input.engine);
  let body: string;
  try {
    body = renderVotal(after.tally, {
      dialect,
      ...(input.settings.votalTitle ? { title: input.settings.votalTitle } : {}),
      deadline: input.deadline,
      timeZone: input.settings.timeZone ?? input.ruleset.schedule?.timeZone ?? 'UTC',
      ...(input.settings.votalTemplate ? { template: input.settings.votalTemplate } : {}),
      settled: await acceptedReviews(store, game.id),
    });
  } catch (error) {
    const message = `could not render the votal draft: ${(error as Error).message}`;
    await store.audit.record({
      gameId: game.id,
      actor: 'poller',
      action: 'draft.error',
      detail: { error: message, tallyId: after.id },
    });
    // The reasons stand: the next poll tries again (the GM may fix the template meanwhile).
    return {
      draft: null,
      reasons: reasons.map((r) => r.text),
      counters: { ...next, draftCheckedTallyId: counters.draftCheckedTallyId },
      error: message,
    };
  }
  const draft = await storeDraft(store, { gameId: game.id, tallyId: after.id, dialect, body }, reasons);
  return {
    draft,
    reasons: reasons.map((r) => r.text),
    counters: { votesSinceDraft: 0, lastDraftAt: input.now, draftCheckedTallyId: after.id },
    error: null,
  };
}

/**
 * The draft stored with its reasons (audited `draft.reasons`), in one transaction; or the
 * pending one of the same tally and body, which a poll that died before keeping its
 * counters stored already (a re-run makes no second draft).
 */
async function storeDraft(
  store: Repos & { sql: Sql },
  draft: NewDraft,
  reasons: readonly DraftReason[],
): Promise<Draft> {
  const pending = (await store.drafts.list(draft.gameId, { status: 'pending' }))[0];
  if (pending && pending.tallyId === draft.tallyId && pending.body === draft.body && pending.createdBy === 'poller') {
    return pending;
  }
  return store.sql.transaction(async (tx) => {
    const created = await storeOn(tx).drafts.create(draft, 'poller');
    await recordAudit(tx, {
      gameId: draft.gameId,
      actor: 'poller',
      action: 'draft.reasons',
      detail: { draftId: created.id, tallyId: draft.tallyId, reasons },
    });
    return created;
  });
}
