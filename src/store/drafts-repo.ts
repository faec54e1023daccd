import type {
  Draft,
  DraftStatus,
  NewDraft,
  Publication,
  PublicationMethod,
  PublicationStatus,
} from '../model/draft.js';
import { recordAudit } from './audit-repo.js';
import { NotFoundError, StaleDraftError, StateError } from './errors.js';
import { bindDb, GAME_CHANNEL, iso, isoOrNull, one, type GameChange, type OverDb } from './rows.js';
import type { Queryable } from './sql.js';

/** What `claimPublication` got: the claim, or the publication as another process left it. */
export type PublicationClaim =
  | { claimed: true; publication: Publication }
  | { claimed: false; publication: Publication };

export interface DraftsRepo {
  /**
   * Audited as `draft.create`. The tally must belong to the game. At most one draft of a
   * game is pending: an older pending one becomes `superseded` (audited `draft.supersede`).
   */
  create(draft: NewDraft, actor: string): Promise<Draft>;
  /**
   * The GM's edit of a pending draft, in one transaction: a new pending draft with the same
   * tally and the new body; the original is discarded (audited `draft.edit`, `draft.discard`).
   */
  edit(id: number, body: string, actor: string): Promise<Draft>;
  get(id: number): Promise<Draft | null>;
  /** Newest first. */
  list(gameId: number, filter?: { status?: DraftStatus }): Promise<Draft[]>;
  /**
   * pending -> approved (audited). StateError from any other status. With `current`, a draft
   * whose tally is not the game's latest is refused (StaleDraftError), checked in the same
   * transaction as the approval.
   */
  approve(id: number, actor: string, opts?: { current?: boolean }): Promise<Draft>;
  /**
   * pending or approved -> discarded (audited). StateError once published, discarded or
   * superseded, and while a process is posting it (the forum may be taking it right now).
   */
  discard(id: number, actor: string): Promise<Draft>;
  /**
   * Starts (or returns the already started) publication of an approved draft. A failed one
   * goes back to pending for another attempt. Audited as `publication.start`.
   */
  startPublication(
    draftId: number,
    how: { marker: string; method: PublicationMethod },
    actor: string,
  ): Promise<Publication>;
  /**
   * Claims the publication for one attempt at posting: pending or failed -> posting, or a
   * `posting` whose claim ended before `now` (its process died: the caller must look for the
   * marker in the thread before posting; audited `publication.takeover`). A conditional
   * update under the draft's row lock, so any number of processes get one claim, and a
   * discard cannot slip in between. StateError when the draft is no longer approved.
   */
  claimPublication(
    publicationId: number,
    claim: { owner: string; now: Date; leaseMs: number },
    actor: string,
  ): Promise<PublicationClaim>;
  /** An attempt failed: counts it and keeps the error (audited); releases the claim. */
  publicationFailed(publicationId: number, error: string, actor: string): Promise<Publication>;
  /** The post is up: records where, and marks the draft published (audited, one transaction). */
  published(
    publicationId: number,
    remote: { remotePostId: string | null; remoteUrl: string | null },
    actor: string,
  ): Promise<Publication>;
  publicationOf(draftId: number): Promise<Publication | null>;
  /** `publicationOf` for many drafts in one query: draft id -> its publication (drafts with none left out). */
  publicationsOf(draftIds: readonly number[]): Promise<Map<number, Publication>>;
}

interface DraftRow {
  id: number;
  game_id: number;
  tally_id: number;
  dialect: string;
  body: string;
  status: DraftStatus;
  created_at: Date;
  created_by: string;
  decided_at: Date | null;
  decided_by: string | null;
  superseded_by: number | null;
}

interface PublicationRow {
  id: number;
  draft_id: number;
  marker: string;
  method: PublicationMethod;
  status: PublicationStatus;
  attempts: number;
  last_error: string | null;
  remote_post_id: string | null;
  remote_url: string | null;
  created_at: Date;
  updated_at: Date;
  published_at: Date | null;
  claimed_by: string | null;
  claimed_until: Date | null;
}

const DRAFT =
  'id, game_id, tally_id, dialect, body, status, created_at, created_by, decided_at, decided_by, superseded_by';
const PUBLICATION = `id, draft_id, marker, method, status, attempts, last_error, remote_post_id, remote_url,
  created_at, updated_at, published_at, claimed_by, claimed_until`;

const toDraft = (r: DraftRow): Draft => ({
  id: r.id,
  gameId: r.game_id,
  tallyId: r.tally_id,
  dialect: r.dialect,
  body: r.body,
  status: r.status,
  createdAt: iso(r.created_at),
  createdBy: r.created_by,
  decidedAt: isoOrNull(r.decided_at),
  decidedBy: r.decided_by,
  supersededBy: r.superseded_by,
});

const toPublication = (r: PublicationRow): Publication => ({
  id: r.id,
  draftId: r.draft_id,
  marker: r.marker,
  method: r.method,
  status: r.status,
  attempts: r.attempts,
  lastError: r.last_error,
  remotePostId: r.remote_post_id,
  remoteUrl: r.remote_url,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
  publishedAt: isoOrNull(r.published_at),
  claimedBy: r.claimed_by,
  claimedUntil: isoOrNull(r.claimed_until),
});

async function announce(tx: Queryable, gameId: number, id: number): Promise<void> {
  const change: GameChange = { gameId, kind: 'draft', id };
  await tx.notify(GAME_CHANNEL, JSON.stringify(change));
}

/** Locks the draft row and checks its status, in `tx`. */
async function lockDraft(tx: Queryable, id: number): Promise<Draft> {
  const { rows } = await tx.query<DraftRow>(`SELECT ${DRAFT} FROM draft WHERE id = $1 FOR UPDATE`, [id]);
  if (!rows[0]) throw new NotFoundError('draft', id);
  return toDraft(rows[0]);
}

/** Moves a locked draft to `to` (audited), in `tx`. */
async function decideIn(
  tx: Queryable,
  draft: Draft,
  to: 'approved' | 'discarded',
  from: DraftStatus[],
  actor: string,
  current = false,
) {
  const id = draft.id;
  if (!from.includes(draft.status)) {
    const by = draft.supersededBy !== null ? ` by draft ${draft.supersededBy}` : '';
    throw new StateError(`draft ${id} is ${draft.status}${by}; it cannot become ${to}`);
  }
  if (current) {
    const latest = await tx.query<{ id: number }>('SELECT id FROM tally WHERE game_id = $1 ORDER BY id DESC LIMIT 1', [
      draft.gameId,
    ]);
    const latestId = latest.rows[0]?.id ?? draft.tallyId;
    if (latestId !== draft.tallyId) throw new StaleDraftError(id, draft.tallyId, latestId);
  }
  if (to === 'discarded' && draft.status === 'approved') {
    const { rows } = await tx.query<PublicationRow>(
      `SELECT ${PUBLICATION} FROM publication WHERE draft_id = $1 FOR UPDATE`,
      [id],
    );
    const publication = rows[0] ? toPublication(rows[0]) : null;
    if (publication?.status === 'posting') {
      throw new StateError(
        `draft ${id} is being posted to the forum right now (claimed until ${publication.claimedUntil}); ` +
          'it cannot be discarded while the forum may be taking it: wait for the result',
      );
    }
  }
  const { rows } = await tx.query<DraftRow>(
    `UPDATE draft SET status = $2, decided_at = now(), decided_by = $3 WHERE id = $1 RETURNING ${DRAFT}`,
    [id, to, actor],
  );
  const action = to === 'approved' ? 'draft.approve' : 'draft.discard';
  await recordAudit(tx, { gameId: draft.gameId, actor, action, detail: { draftId: id, tallyId: draft.tallyId } });
  await announce(tx, draft.gameId, id);
  return toDraft(one(rows, 'draft'));
}

/** Locks the draft and moves it to `to`, in one transaction. */
function decide(
  db: Queryable,
  id: number,
  to: 'approved' | 'discarded',
  from: DraftStatus[],
  actor: string,
  current = false,
) {
  return db.transaction(async (tx) => decideIn(tx, await lockDraft(tx, id), to, from, actor, current));
}

/** Inserts a pending draft, in `tx`; the game's pending draft, if any, is superseded by it. */
async function createIn(tx: Queryable, draft: NewDraft, actor: string): Promise<Draft> {
  // One creator per game at a time (NO KEY UPDATE: posts referencing the game still insert).
  const game = await tx.query<{ id: number }>('SELECT id FROM game WHERE id = $1 FOR NO KEY UPDATE', [draft.gameId]);
  if (!game.rows[0]) throw new NotFoundError('game', draft.gameId);
  const older = await tx.query<{ id: number }>(
    `UPDATE draft SET status = 'superseded', decided_at = now(), decided_by = $2
       WHERE game_id = $1 AND status = 'pending' RETURNING id`,
    [draft.gameId, actor],
  );
  const { rows } = await tx.query<DraftRow>(
    `INSERT INTO draft (game_id, tally_id, dialect, body, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING ${DRAFT}`,
    [draft.gameId, draft.tallyId, draft.dialect, draft.body, actor],
  );
  const created = toDraft(one(rows, 'draft'));
  await recordAudit(tx, {
    gameId: draft.gameId,
    actor,
    action: 'draft.create',
    detail: { draftId: created.id, tallyId: draft.tallyId },
  });
  for (const { id } of older.rows) {
    await tx.query('UPDATE draft SET superseded_by = $2 WHERE id = $1', [id, created.id]);
    await recordAudit(tx, {
      gameId: draft.gameId,
      actor,
      action: 'draft.supersede',
      detail: { draftId: id, by: created.id },
    });
  }
  await announce(tx, draft.gameId, created.id);
  return created;
}

async function lockPublication(tx: Queryable, id: number): Promise<{ publication: Publication; draft: Draft }> {
  const { rows } = await tx.query<PublicationRow>(`SELECT ${PUBLICATION} FROM publication WHERE id = $1 FOR UPDATE`, [
    id,
  ]);
  if (!rows[0]) throw new NotFoundError('publication', id);
  const publication = toPublication(rows[0]);
  return { publication, draft: await lockDraft(tx, publication.draftId) };
}

/** The drafts' queries, each over the db handle it is given (the factory binds them). */
const queries: OverDb<DraftsRepo> = {
  create(db, draft, actor) {
    return db.transaction((tx) => createIn(tx, draft, actor));
  },

  edit(db, id, body, actor) {
    return db.transaction(async (tx) => {
      const original = await lockDraft(tx, id);
      if (original.status !== 'pending')
        throw new StateError(`draft ${id} is ${original.status}; only a pending draft can be edited`);
      await decideIn(tx, original, 'discarded', ['pending'], actor);
      const edited = await createIn(
        tx,
        { gameId: original.gameId, tallyId: original.tallyId, dialect: original.dialect, body },
        actor,
      );
      await tx.query('UPDATE draft SET superseded_by = $2 WHERE id = $1', [id, edited.id]);
      await recordAudit(tx, {
        gameId: original.gameId,
        actor,
        action: 'draft.edit',
        detail: { draftId: edited.id, from: id },
      });
      return edited;
    });
  },

  async get(db, id) {
    const { rows } = await db.query<DraftRow>(`SELECT ${DRAFT} FROM draft WHERE id = $1`, [id]);
    return rows[0] ? toDraft(rows[0]) : null;
  },

  async list(db, gameId, filter = {}) {
    const { rows } = await db.query<DraftRow>(
      `SELECT ${DRAFT} FROM draft WHERE game_id = $1 AND ($2::text IS NULL OR status = $2) ORDER BY id DESC`,
      [gameId, filter.status ?? null],
    );
    return rows.map(toDraft);
  },

  approve: (db, id, actor, opts = {}) => decide(db, id, 'approved', ['pending'], actor, opts.current ?? false),
  discard: (db, id, actor) => decide(db, id, 'discarded', ['pending', 'approved'], actor),

  startPublication(db, draftId, how, actor) {
    return db.transaction(async (tx) => {
      const draft = await lockDraft(tx, draftId);
      const existing = await tx.query<PublicationRow>(`SELECT ${PUBLICATION} FROM publication WHERE draft_id = $1`, [
        draftId,
      ]);
      if (existing.rows[0]) {
        const publication = toPublication(existing.rows[0]);
        if (publication.status !== 'failed') return publication;
        const { rows } = await tx.query<PublicationRow>(
          `UPDATE publication SET status = 'pending', method = $2, updated_at = now() WHERE id = $1 RETURNING ${PUBLICATION}`,
          [publication.id, how.method],
        );
        await recordAudit(tx, {
          gameId: draft.gameId,
          actor,
          action: 'publication.retry',
          detail: { draftId, publicationId: publication.id },
        });
        return toPublication(one(rows, 'publication'));
      }
      if (draft.status !== 'approved')
        throw new StateError(`draft ${draftId} is ${draft.status}; only an approved draft is published`);
      const { rows } = await tx.query<PublicationRow>(
        `INSERT INTO publication (draft_id, marker, method) VALUES ($1, $2, $3) RETURNING ${PUBLICATION}`,
        [draftId, how.marker, how.method],
      );
      const publication = toPublication(one(rows, 'publication'));
      await recordAudit(tx, {
        gameId: draft.gameId,
        actor,
        action: 'publication.start',
        detail: { draftId, publicationId: publication.id, method: how.method, marker: how.marker },
      });
      return publication;
    });
  },

  claimPublication(db, publicationId, claim, actor) {
    return db.transaction(async (tx) => {
      const { publication, draft } = await lockPublication(tx, publicationId);
      if (publication.status === 'published') return { claimed: false, publication };
      if (draft.status !== 'approved') {
        const by = draft.decidedBy ? ` by ${draft.decidedBy}` : '';
        throw new StateError(`draft ${draft.id} was ${draft.status}${by} before it was posted; nothing was posted`);
      }
      const until = new Date(claim.now.getTime() + claim.leaseMs);
      const { rows } = await tx.query<PublicationRow>(
        `UPDATE publication SET status = 'posting', claimed_by = $2, claimed_until = $3, updated_at = now()
           WHERE id = $1 AND (status IN ('pending', 'failed') OR (status = 'posting' AND claimed_until <= $4))
           RETURNING ${PUBLICATION}`,
        [publicationId, claim.owner, until, claim.now],
      );
      if (!rows[0]) return { claimed: false, publication };
      if (publication.status === 'posting') {
        await recordAudit(tx, {
          gameId: draft.gameId,
          actor,
          action: 'publication.takeover',
          detail: {
            draftId: draft.id,
            publicationId,
            from: publication.claimedBy,
            claimedUntil: publication.claimedUntil,
          },
        });
      }
      return { claimed: true, publication: toPublication(rows[0]) };
    });
  },

  publicationFailed(db, publicationId, error, actor) {
    return db.transaction(async (tx) => {
      const { publication, draft } = await lockPublication(tx, publicationId);
      if (publication.status === 'published') throw new StateError(`publication ${publicationId} is already published`);
      const { rows } = await tx.query<PublicationRow>(
        `UPDATE publication SET status = 'failed', attempts = attempts + 1, last_error = $2, updated_at = now(),
             claimed_by = NULL, claimed_until = NULL
           WHERE id = $1 RETURNING ${PUBLICATION}`,
        [publicationId, error],
      );
      await recordAudit(tx, {
        gameId: draft.gameId,
        actor,
        action: 'publication.fail',
        detail: { draftId: draft.id, publicationId, error },
      });
      return toPublication(one(rows, 'publication'));
    });
  },

  published(db, publicationId, remote, actor) {
    return db.transaction(async (tx) => {
      const { publication, draft } = await lockPublication(tx, publicationId);
      if (publication.status === 'published') return publication;
      if (draft.status !== 'approved')
        throw new StateError(`draft ${draft.id} is ${draft.status}; it cannot be published`);
      const { rows } = await tx.query<PublicationRow>(
        `UPDATE publication SET status = 'published', attempts = attempts + 1, last_error = NULL,
             remote_post_id = $2, remote_url = $3, published_at = now(), updated_at = now(),
             claimed_by = NULL, claimed_until = NULL
           WHERE id = $1 RETURNING ${PUBLICATION}`,
        [publicationId, remote.remotePostId, remote.remoteUrl],
      );
      await tx.query(`UPDATE draft SET status = 'published' WHERE id = $1`, [draft.id]);
      await recordAudit(tx, {
        gameId: draft.gameId,
        actor,
        action: 'publication.publish',
        detail: { draftId: draft.id, publicationId, method: publication.method, ...remote },
      });
      await announce(tx, draft.gameId, draft.id);
      return toPublication(one(rows, 'publication'));
    });
  },

  async publicationOf(db, draftId) {
    const { rows } = await db.query<PublicationRow>(`SELECT ${PUBLICATION} FROM publication WHERE draft_id = $1`, [
      draftId,
    ]);
    return rows[0] ? toPublication(rows[0]) : null;
  },

  async publicationsOf(db, draftIds) {
    if (draftIds.length === 0) return new Map();
    const { rows } = await db.query<PublicationRow>(
      `SELECT ${PUBLICATION} FROM publication WHERE draft_id = ANY($1::bigint[])`,
      [[...draftIds]],
    );
    return new Map(rows.map((r) => [Number(r.draft_id), toPublication(r)]));
  },
};

export function draftsRepo(db: Queryable): DraftsRepo {
  return bindDb(db, queries);
}
