import { ADMIN_NAME, GmName, actorOf, type GameRole, type Gm, type GmInvite } from '../model/gm.js';
import { recordAudit } from './audit-repo.js';
import { NotFoundError, StateError } from './errors.js';
import { bindDb, iso, isoOrNull, one, type OverDb } from './rows.js';
import type { Queryable } from './sql.js';

/**
 * GM accounts, their one-time invites, their sign-in sessions and who runs which game
 * (migration 010). Tokens never reach the database: callers pass the SHA-256 of an invite
 * token or a session id, and an scrypt hash of a password.
 */

/** An invite that cannot be taken: used, revoked, expired or unknown (the web says which). */
export class InviteRefusedError extends StateError {
  constructor(readonly reason: 'unknown' | 'used' | 'revoked' | 'expired') {
    super(
      reason === 'unknown'
        ? 'this invite link is not known'
        : `this invite link was already ${reason === 'used' ? 'used' : reason}`,
    );
    this.name = 'InviteRefusedError';
  }
}

/** Another GM has this name (names are unique ignoring case). */
export class NameTakenError extends StateError {
  constructor(readonly gmName: string) {
    super(`the name "${gmName}" is taken; pick another`);
    this.name = 'NameTakenError';
  }
}

/** A GM with their password hash, for sign-in only. */
export interface GmCredentials extends Gm {
  /** `scrypt$N$r$p$salt$hash`; null for the admin (the admin token or the admin password). */
  passwordHash: string | null;
}

/** A live session and the GM it belongs to. */
export interface GmSession {
  gm: Gm;
  csrf: string;
  createdAt: string;
  seenAt: string;
}

export interface GameGm {
  gm: Gm;
  role: GameRole;
  addedAt: string;
}

export interface SessionRules {
  at: Date;
  /** A session unused this long ends. */
  idleMs: number;
  /** Any session ends this long after sign-in. */
  maxAgeMs: number;
}

export interface GmsRepo {
  /** The instance admin's account (made on first use). */
  admin(at: Date): Promise<Gm>;
  get(id: number): Promise<Gm | null>;
  /** By name, ignoring case, with the password hash (sign-in). */
  credentials(name: string): Promise<GmCredentials | null>;
  /** Everybody, admin first, then by name. */
  list(): Promise<Gm[]>;
  /** Ends the GM's sessions; they can no longer sign in. Their games keep them (nothing is lost). */
  revoke(id: number, actor: string, at: Date): Promise<Gm>;

  createInvite(
    input: { tokenHash: string; createdBy: number; at: Date; expiresAt: Date },
    actor: string,
  ): Promise<GmInvite>;
  /** Newest first. */
  invites(): Promise<GmInvite[]>;
  /** The invite with this token hash, or null. */
  invite(tokenHash: string): Promise<GmInvite | null>;
  revokeInvite(id: number, actor: string, at: Date): Promise<GmInvite>;
  /**
   * Takes an open invite: makes the GM and marks the invite used, in one transaction, so a
   * link works once even when two people press at the same moment.
   */
  acceptInvite(input: { tokenHash: string; name: string; passwordHash: string; at: Date }): Promise<Gm>;

  startSession(input: { idHash: string; gmId: number; csrf: string; at: Date }): Promise<void>;
  /** The live session with this id hash (its `seen` time moved to `at`), or null; an expired one is removed. */
  session(idHash: string, rules: SessionRules): Promise<GmSession | null>;
  endSession(idHash: string): Promise<void>;
  /** Ends every session of one GM (revoked, or the admin password changed). */
  endSessions(gmId: number): Promise<void>;

  /** Makes `gmId` the game's owner or a co-host (an owner stays owner). */
  addToGame(gameId: number, gmId: number, role: GameRole, actor: string, at: Date): Promise<GameGm>;
  removeFromGame(gameId: number, gmId: number, actor: string): Promise<void>;
  /** The game's GMs, owner first. */
  ofGame(gameId: number): Promise<GameGm[]>;
  /** The role of `gmId` in the game, or null (not one of its GMs). */
  roleIn(gameId: number, gmId: number): Promise<GameRole | null>;
  /** The ids of the games a GM owns or co-hosts. */
  gameIds(gmId: number): Promise<number[]>;
}

interface GmRow {
  id: number;
  name: string;
  admin: boolean;
  created_at: Date;
  revoked_at: Date | null;
  password_hash?: string | null;
}

interface InviteRow {
  id: number;
  created_by: number;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  used_by: number | null;
  revoked_at: Date | null;
}

const GM_COLUMNS = 'id, name, admin, created_at, revoked_at';
const INVITE_COLUMNS = 'id, created_by, created_at, expires_at, used_at, used_by, revoked_at';

const toGm = (r: GmRow): Gm => ({
  id: r.id,
  name: r.name,
  admin: r.admin,
  createdAt: iso(r.created_at),
  revokedAt: isoOrNull(r.revoked_at),
});
const toInvite = (r: InviteRow): GmInvite => ({
  id: r.id,
  createdBy: r.created_by,
  createdAt: iso(r.created_at),
  expiresAt: iso(r.expires_at),
  usedAt: isoOrNull(r.used_at),
  usedBy: r.used_by,
  revokedAt: isoOrNull(r.revoked_at),
});

/** PostgreSQL's unique_violation. */
const isUniqueViolation = (error: unknown): boolean => (error as { code?: string }).code === '23505';

/** The GM of `id`, or null. */
async function getGm(db: Queryable, id: number): Promise<Gm | null> {
  const { rows } = await db.query<GmRow>(`SELECT ${GM_COLUMNS} FROM gm WHERE id = $1`, [id]);
  return rows[0] ? toGm(rows[0]) : null;
}

async function inviteById(tx: Queryable, id: number): Promise<GmInvite> {
  const { rows } = await tx.query<InviteRow>(`SELECT ${INVITE_COLUMNS} FROM gm_invite WHERE id = $1`, [id]);
  if (!rows[0]) throw new NotFoundError('invite', id);
  return toInvite(rows[0]);
}

/** The GMs' queries, each over the db handle it is given (the factory binds them). */
const queries: OverDb<GmsRepo> = {
  async admin(db, at) {
    // Two first sign-ins at once make one admin: the unique name decides.
    await db.query(`INSERT INTO gm (name, admin, created_at) VALUES ($1, true, $2) ON CONFLICT DO NOTHING`, [
      ADMIN_NAME,
      at,
    ]);
    const { rows } = await db.query<GmRow>(`SELECT ${GM_COLUMNS} FROM gm WHERE lower(name) = $1`, [ADMIN_NAME]);
    const row = one(rows, 'gm');
    if (!row.admin) throw new StateError(`the account "${row.name}" is not the admin's`);
    return toGm(row);
  },

  get: getGm,

  async credentials(db, name) {
    const { rows } = await db.query<GmRow>(
      `SELECT ${GM_COLUMNS}, password_hash FROM gm WHERE lower(name) = lower($1)`,
      [name.trim()],
    );
    const r = rows[0];
    return r ? { ...toGm(r), passwordHash: r.password_hash ?? null } : null;
  },

  async list(db) {
    const { rows } = await db.query<GmRow>(`SELECT ${GM_COLUMNS} FROM gm ORDER BY admin DESC, lower(name)`);
    return rows.map(toGm);
  },

  async revoke(db, id, actor, at) {
    return db.transaction(async (tx) => {
      const { rows } = await tx.query<GmRow>(
        `UPDATE gm SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1 AND NOT admin RETURNING ${GM_COLUMNS}`,
        [id, at],
      );
      if (!rows[0]) {
        const exists = await gmsRepo(tx).get(id);
        if (!exists) throw new NotFoundError('gm', id);
        throw new StateError('the instance admin cannot be revoked');
      }
      await tx.query('DELETE FROM gm_session WHERE gm_id = $1', [id]);
      await recordAudit(tx, { gameId: null, actor, action: 'gm.revoke', detail: { gm: rows[0].name } });
      return toGm(rows[0]);
    });
  },

  async createInvite(db, input, actor) {
    return db.transaction(async (tx) => {
      const { rows } = await tx.query<InviteRow>(
        `INSERT INTO gm_invite (token_hash, created_by, created_at, expires_at) VALUES ($1, $2, $3, $4)
           RETURNING ${INVITE_COLUMNS}`,
        [input.tokenHash, input.createdBy, input.at, input.expiresAt],
      );
      const invite = toInvite(one(rows, 'gm_invite'));
      await recordAudit(tx, {
        gameId: null,
        actor,
        action: 'gm.invite',
        detail: { invite: invite.id, expiresAt: invite.expiresAt },
      });
      return invite;
    });
  },

  async invites(db) {
    const { rows } = await db.query<InviteRow>(`SELECT ${INVITE_COLUMNS} FROM gm_invite ORDER BY id DESC`);
    return rows.map(toInvite);
  },

  async invite(db, tokenHash) {
    const { rows } = await db.query<InviteRow>(`SELECT ${INVITE_COLUMNS} FROM gm_invite WHERE token_hash = $1`, [
      tokenHash,
    ]);
    return rows[0] ? toInvite(rows[0]) : null;
  },

  async revokeInvite(db, id, actor, at) {
    return db.transaction(async (tx) => {
      const { rowCount } = await tx.query(
        'UPDATE gm_invite SET revoked_at = $2 WHERE id = $1 AND used_at IS NULL AND revoked_at IS NULL',
        [id, at],
      );
      const invite = await inviteById(tx, id);
      if (rowCount === 0 && invite.usedAt !== null) throw new InviteRefusedError('used');
      if (rowCount > 0) {
        await recordAudit(tx, { gameId: null, actor, action: 'gm.invite-revoke', detail: { invite: id } });
      }
      return invite;
    });
  },

  async acceptInvite(db, input) {
    const name = GmName.parse(input.name);
    return db.transaction(async (tx) => {
      const { rows } = await tx.query<InviteRow>(
        `SELECT ${INVITE_COLUMNS} FROM gm_invite WHERE token_hash = $1 FOR UPDATE`,
        [input.tokenHash],
      );
      if (!rows[0]) throw new InviteRefusedError('unknown');
      const invite = toInvite(rows[0]);
      if (invite.usedAt !== null) throw new InviteRefusedError('used');
      if (invite.revokedAt !== null) throw new InviteRefusedError('revoked');
      if (Date.parse(invite.expiresAt) <= input.at.getTime()) throw new InviteRefusedError('expired');
      const taken = await tx.query('SELECT 1 FROM gm WHERE lower(name) = lower($1)', [name]);
      if (taken.rowCount > 0) throw new NameTakenError(name);
      let row: GmRow;
      try {
        const made = await tx.transaction((sp) =>
          sp.query<GmRow>(
            `INSERT INTO gm (name, password_hash, admin, created_at) VALUES ($1, $2, false, $3)
             RETURNING ${GM_COLUMNS}`,
            [name, input.passwordHash, input.at],
          ),
        );
        row = one(made.rows, 'gm');
      } catch (error) {
        if (isUniqueViolation(error)) throw new NameTakenError(name);
        throw error;
      }
      await tx.query('UPDATE gm_invite SET used_at = $2, used_by = $3 WHERE id = $1', [invite.id, input.at, row.id]);
      await recordAudit(tx, { gameId: null, actor: actorOf(row), action: 'gm.join', detail: { invite: invite.id } });
      return toGm(row);
    });
  },

  async startSession(db, input) {
    await db.query('INSERT INTO gm_session (id_hash, gm_id, csrf, created_at, seen_at) VALUES ($1, $2, $3, $4, $4)', [
      input.idHash,
      input.gmId,
      input.csrf,
      input.at,
    ]);
  },

  async session(db, idHash, rules) {
    const idleSince = new Date(rules.at.getTime() - rules.idleMs);
    const bornSince = new Date(rules.at.getTime() - rules.maxAgeMs);
    // Touch and read in one statement; a session past its idle or total time is not touched.
    const { rows } = await db.query<GmRow & { csrf: string; s_created: Date; s_seen: Date }>(
      `UPDATE gm_session s SET seen_at = greatest(s.seen_at, $2)
         FROM gm g
         WHERE s.id_hash = $1 AND g.id = s.gm_id AND g.revoked_at IS NULL AND s.seen_at > $3 AND s.created_at > $4
         RETURNING g.id, g.name, g.admin, g.created_at, g.revoked_at,
                   s.csrf, s.created_at AS s_created, s.seen_at AS s_seen`,
      [idHash, rules.at, idleSince, bornSince],
    );
    const r = rows[0];
    if (!r) {
      await db.query('DELETE FROM gm_session WHERE id_hash = $1', [idHash]);
      return null;
    }
    return { gm: toGm(r), csrf: r.csrf, createdAt: iso(r.s_created), seenAt: iso(r.s_seen) };
  },

  async endSession(db, idHash) {
    await db.query('DELETE FROM gm_session WHERE id_hash = $1', [idHash]);
  },

  async endSessions(db, gmId) {
    await db.query('DELETE FROM gm_session WHERE gm_id = $1', [gmId]);
  },

  async addToGame(db, gameId, gmId, role, actor, at) {
    return db.transaction(async (tx) => {
      const gm = await gmsRepo(tx).get(gmId);
      if (!gm) throw new NotFoundError('gm', gmId);
      const game = await tx.query('SELECT 1 FROM game WHERE id = $1', [gameId]);
      if (game.rowCount === 0) throw new NotFoundError('game', gameId);
      // Already one of the game's GMs: nothing changes (an owner stays owner).
      const before = await tx.query<{ role: GameRole; added_at: Date }>(
        'SELECT role, added_at FROM game_gm WHERE game_id = $1 AND gm_id = $2',
        [gameId, gmId],
      );
      if (before.rows[0]) return { gm, role: before.rows[0].role, addedAt: iso(before.rows[0].added_at) };
      const { rows } = await tx.query<{ role: GameRole; added_at: Date }>(
        'INSERT INTO game_gm (game_id, gm_id, role, added_at) VALUES ($1, $2, $3, $4) RETURNING role, added_at',
        [gameId, gmId, role, at],
      );
      const row = one(rows, 'game_gm');
      const action = role === 'owner' ? 'game.owner' : 'game.cohost-add';
      await recordAudit(tx, { gameId, actor, action, detail: { gm: gm.name } });
      return { gm, role: row.role, addedAt: iso(row.added_at) };
    });
  },

  async removeFromGame(db, gameId, gmId, actor) {
    await db.transaction(async (tx) => {
      const gm = await gmsRepo(tx).get(gmId);
      const { rows } = await tx.query<{ role: GameRole }>(
        'SELECT role FROM game_gm WHERE game_id = $1 AND gm_id = $2',
        [gameId, gmId],
      );
      if (!gm || !rows[0]) throw new NotFoundError('co-host', gmId);
      if (rows[0].role === 'owner') throw new StateError(`${gm.name} owns this game; an owner is not removed`);
      await tx.query('DELETE FROM game_gm WHERE game_id = $1 AND gm_id = $2', [gameId, gmId]);
      await recordAudit(tx, { gameId, actor, action: 'game.cohost-remove', detail: { gm: gm.name } });
    });
  },

  async ofGame(db, gameId) {
    const { rows } = await db.query<GmRow & { role: GameRole; added_at: Date }>(
      `SELECT g.id, g.name, g.admin, g.created_at, g.revoked_at, m.role, m.added_at
         FROM game_gm m JOIN gm g ON g.id = m.gm_id WHERE m.game_id = $1 ORDER BY m.role DESC, lower(g.name)`,
      [gameId],
    );
    return rows.map((r) => ({ gm: toGm(r), role: r.role, addedAt: iso(r.added_at) }));
  },

  async roleIn(db, gameId, gmId) {
    const { rows } = await db.query<{ role: GameRole }>('SELECT role FROM game_gm WHERE game_id = $1 AND gm_id = $2', [
      gameId,
      gmId,
    ]);
    return rows[0]?.role ?? null;
  },

  async gameIds(db, gmId) {
    const { rows } = await db.query<{ game_id: number }>(
      'SELECT game_id FROM game_gm WHERE gm_id = $1 ORDER BY game_id',
      [gmId],
    );
    return rows.map((r) => r.game_id);
  },
};

export function gmsRepo(db: Queryable): GmsRepo {
  return bindDb(db, queries);
}
