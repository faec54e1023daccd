import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '../log/logger.js';
import type { AuditAction } from '../model/audit.js';
import type { Draft, Publication } from '../model/draft.js';
import { NotFoundError } from '../store/errors.js';
import type { Game } from '../model/game.js';
import type { Repos } from '../store/open-store.js';
import { gmNames } from '../game/gm-news.js';
import { copiedText } from './copy.js';
import { newMarker, withMarker } from './marker.js';
import type { PastedVotal } from '../votal/pasted-votal.js';
import { PublishError, type Publisher, type RemotePost } from './publisher.js';

/**
 * Publishing an approved draft, exactly once.
 *
 * 1. `drafts.startPublication` gives the publication and its marker (the same one on
 *    every retry); `drafts.claimPublication` claims it in the database for one attempt, so
 *    that of any number of processes one posts; the others answer `in-progress`. A claim
 *    left by a dead process ends after `claimMs`; the next claimer reads the thread first.
 * 2. Before every attempt the thread's last posts are searched for the marker: a reply
 *    the forum accepted without telling us (timeout, dropped connection, crash) is found
 *    there and recorded instead of being posted again. A thread that cannot be read
 *    stops the attempt: posting blind could post twice.
 * 3. After an attempt whose outcome is unknown, the thread is searched again (after a
 *    short wait) before the attempt counts as failed.
 * Every step is in the audit log (`publication.*`). Two approvals of the same draft in one
 * process share one run.
 */

export interface PublishDeps {
  store: Pick<Repos, 'drafts' | 'games' | 'audit' | 'tallies'>;
  /** The publisher for a game (its settings, decrypted credentials). */
  publisherFor: (game: Game) => Publisher | Promise<Publisher>;
  log?: Logger;
  /** Attempts at posting, for retryable failures. Default 3. */
  maxAttempts?: number;
  /** Wait before the second attempt; doubles after. Default 2 s. */
  backoffMs?: number;
  /** After an attempt with an unknown outcome, look for the marker again after these waits. Default [1 s, 3 s]. */
  recheckMs?: number[];
  sleep?: (ms: number) => Promise<void>;
  /** The clock claims are taken with. Default: the system clock. */
  now?: () => Date;
  /**
   * How long a claim holds: longer than one attempt (reading the thread, posting, the
   * rechecks). A process that dies mid-attempt holds the votal that long. Default 5 min.
   */
  claimMs?: number;
}

export type PublishResult =
  | { status: 'published'; draft: Draft; publication: Publication; remote: RemotePost; foundExisting: boolean }
  /** No credentials: the GM copies `text` (the votal, no marker) into the thread. */
  | { status: 'copy'; draft: Draft; publication: Publication; text: string }
  | { status: 'failed'; draft: Draft; publication: Publication | null; error: string }
  /** Another process holds the claim and may be posting it right now: its result lands on the draft. */
  | { status: 'in-progress'; draft: Draft; publication: Publication };

/** Runs in progress, per store (one database) and draft. */
const inflight = new WeakMap<object, Map<number, Promise<PublishResult>>>();

export function publishDraft(deps: PublishDeps, draftId: number, actor: string): Promise<PublishResult> {
  let runs = inflight.get(deps.store.drafts);
  if (!runs) inflight.set(deps.store.drafts, (runs = new Map()));
  const running = runs.get(draftId);
  if (running) return running;
  const all = runs;
  const run = publishOnce(deps, draftId, actor).finally(() => all.delete(draftId));
  runs.set(draftId, run);
  return run;
}

async function publishOnce(deps: PublishDeps, draftId: number, actor: string): Promise<PublishResult> {
  const { store } = deps;
  const sleep = deps.sleep ?? ((ms: number) => delay(ms));
  const maxAttempts = Math.max(1, deps.maxAttempts ?? 3);
  const recheck = deps.recheckMs ?? [1_000, 3_000];
  const now = deps.now ?? (() => new Date());
  const owner = `${process.pid}/${randomUUID()}`;

  const draft = await store.drafts.get(draftId);
  if (!draft) throw new NotFoundError('draft', draftId);
  const game = await store.games.get(draft.gameId);
  if (!game) throw new NotFoundError('game', draft.gameId);
  const audit = (action: AuditAction, detail: Record<string, unknown>) =>
    store.audit.record({ gameId: game.id, actor, action, detail: { draftId, ...detail } });

  if (draft.status === 'published') {
    const publication = await store.drafts.publicationOf(draftId);
    if (publication) {
      return { status: 'published', draft, publication, remote: remoteOf(publication), foundExisting: true };
    }
  }

  let publisher: Publisher;
  try {
    publisher = await deps.publisherFor(game);
  } catch (error) {
    const message = (error as Error).message;
    await audit('publication.unavailable', { error: message });
    return { status: 'failed', draft, publication: await store.drafts.publicationOf(draftId), error: message };
  }
  const method = publisher.kind === 'copy' ? 'copy' : 'adapter';

  let lastError = 'not attempted';
  let publication: Publication | null = null;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    publication = await store.drafts.startPublication(draftId, { marker: newMarker(draftId), method }, actor);
    if (publication.status === 'published') {
      return {
        status: 'published',
        draft: await current(deps, draft),
        publication,
        remote: remoteOf(publication),
        foundExisting: true,
      };
    }
    if (method === 'copy') {
      await audit('publication.copy', { publicationId: publication.id });
      return { status: 'copy', draft, publication, text: copiedText(draft.body) };
    }
    const message = withMarker(draft.body, draft.dialect, publication.marker);
    const claim = await store.drafts.claimPublication(
      publication.id,
      { owner, now: now(), leaseMs: deps.claimMs ?? 300_000 },
      actor,
    );
    if (!claim.claimed) {
      const current = (await store.drafts.get(draftId)) ?? draft;
      return claim.publication.status === 'published'
        ? {
            status: 'published',
            draft: current,
            publication: claim.publication,
            remote: remoteOf(claim.publication),
            foundExisting: true,
          }
        : { status: 'in-progress', draft: current, publication: claim.publication };
    }
    publication = claim.publication;

    // 1. Look before posting.
    let found: RemotePost | null;
    try {
      found = await publisher.find(publication.marker);
    } catch (error) {
      lastError = `could not check the thread before posting (nothing was posted): ${(error as Error).message}`;
      publication = await store.drafts.publicationFailed(publication.id, lastError, actor);
      if (!(error instanceof PublishError && error.retryable) || attempt === maxAttempts) break;
      await sleep(backoff(deps, attempt));
      continue;
    }
    await audit('publication.check', {
      publicationId: publication.id,
      attempt,
      found: found !== null,
      ...(found ? { remote: found } : {}),
    });
    if (found) return done(deps, draft, publication, found, true, actor);

    // 2. Post once.
    await audit('publication.attempt', { publicationId: publication.id, attempt, via: publisher.kind });
    try {
      const remote = await publisher.post(message);
      return done(deps, draft, publication, remote, false, actor);
    } catch (error) {
      const e = error instanceof PublishError ? error : new PublishError((error as Error).message, 'unknown', false);
      deps.log?.warn(
        { draftId, attempt, outcome: e.outcome, status: e.status, err: e.message },
        'posting the votal failed',
      );
      // 3. The forum may have taken it: look again before calling it a failure.
      if (e.outcome === 'unknown') {
        for (const wait of recheck) {
          await sleep(wait);
          const again = await publisher.find(publication.marker).catch(() => null);
          await audit('publication.check', {
            publicationId: publication.id,
            attempt,
            found: again !== null,
            after: 'unknown-outcome',
            ...(again ? { remote: again } : {}),
          });
          if (again) return done(deps, draft, publication, again, true, actor);
        }
      }
      lastError = e.outcome === 'unknown' ? `${e.message}; the post was not found in the thread afterwards` : e.message;
      publication = await store.drafts.publicationFailed(publication.id, lastError, actor);
      if (!e.retryable || attempt === maxAttempts) break;
      await sleep(backoff(deps, attempt));
    }
  }
  return { status: 'failed', draft: await current(deps, draft), publication, error: lastError };
}

async function done(
  deps: PublishDeps,
  draft: Draft,
  publication: Publication,
  remote: RemotePost,
  foundExisting: boolean,
  actor: string,
): Promise<PublishResult> {
  const published = await deps.store.drafts.published(
    publication.id,
    { remotePostId: remote.id, remoteUrl: remote.url },
    actor,
  );
  deps.log?.info({ draftId: draft.id, gameId: draft.gameId, remote, foundExisting }, 'votal published');
  return { status: 'published', draft: await current(deps, draft), publication: published, remote, foundExisting };
}

const backoff = (deps: PublishDeps, attempt: number): number => (deps.backoffMs ?? 2_000) * 2 ** (attempt - 1);

const remoteOf = (p: Publication): RemotePost => ({ id: p.remotePostId, url: p.remoteUrl });

async function current(deps: PublishDeps, draft: Draft): Promise<Draft> {
  return (await deps.store.drafts.get(draft.id)) ?? draft;
}

/**
 * The GM pasted a copied votal: record it as published. With `remote` the GM says where;
 * without, the thread is searched for the GM's paste (by its words, see src/votal/pasted-votal.ts;
 * by the marker for a votal posted by an adapter) and the answer is `null` when it is not
 * there (yet).
 */
export async function confirmCopied(
  deps: PublishDeps,
  draftId: number,
  actor: string,
  remote?: RemotePost,
): Promise<Publication | null> {
  const publication = await deps.store.drafts.publicationOf(draftId);
  if (!publication) throw new NotFoundError('publication of draft', draftId);
  if (publication.status === 'published') return publication;
  const draft = await deps.store.drafts.get(draftId);
  if (!draft) throw new NotFoundError('draft', draftId);
  const game = await deps.store.games.get(draft.gameId);
  if (!game) throw new NotFoundError('game', draft.gameId);
  let where = remote ?? null;
  if (!where) {
    const publisher = await deps.publisherFor(game);
    where =
      publication.method === 'copy'
        ? ((await publisher.findPasted?.(await pastedVotal(deps, draft, game))) ?? null)
        : await publisher.find(publication.marker);
    await deps.store.audit.record({
      gameId: game.id,
      actor,
      action: 'publication.check',
      detail: { draftId, publicationId: publication.id, found: where !== null, after: 'copy' },
    });
    if (!where) return null;
  }
  return deps.store.drafts.published(publication.id, { remotePostId: where.id, remoteUrl: where.url }, actor);
}

/** What the GM's paste of `draft` looks like: its words, after the draft's count, by the GM. */
async function pastedVotal(deps: PublishDeps, draft: Draft, game: Game): Promise<PastedVotal> {
  const tally = await deps.store.tallies.get(draft.tallyId);
  return { body: draft.body, afterPost: tally?.tally.asOfPost ?? null, authors: gmNames(game.settings, []) };
}
