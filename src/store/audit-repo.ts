import { AuditAction, type AuditEntry, type NewAuditEntry } from '../model/audit.js';
import { iso, json, one } from './rows.js';
import type { Queryable } from './sql.js';

export interface AuditRepo {
  record(entry: NewAuditEntry): Promise<AuditEntry>;
  /** Newest first. */
  list(filter?: { gameId?: number; action?: AuditAction; limit?: number }): Promise<AuditEntry[]>;
}

interface AuditRow {
  id: number;
  game_id: number | null;
  actor: string;
  action: string;
  detail: Record<string, unknown>;
  at: Date;
}

const toEntry = (r: AuditRow): AuditEntry => ({
  id: r.id,
  gameId: r.game_id,
  actor: r.actor,
  action: AuditAction.parse(r.action),
  detail: r.detail,
  at: iso(r.at),
});

/** Writes one audit row on `db`: pass the transaction handle so the row commits with the change. */
export async function recordAudit(db: Queryable, entry: NewAuditEntry): Promise<AuditEntry> {
  const { rows } = await db.query<AuditRow>(
    `INSERT INTO audit_log (game_id, actor, action, detail) VALUES ($1, $2, $3, $4::jsonb)
     RETURNING id, game_id, actor, action, detail, at`,
    [entry.gameId, entry.actor, entry.action, json(entry.detail ?? {})],
  );
  return toEntry(one(rows, 'audit_log'));
}

export function auditRepo(db: Queryable): AuditRepo {
  return {
    record: (entry) => recordAudit(db, entry),
    async list(filter = {}) {
      const { rows } = await db.query<AuditRow>(
        `SELECT id, game_id, actor, action, detail, at FROM audit_log
         WHERE ($1::bigint IS NULL OR game_id = $1) AND ($3::text IS NULL OR action = $3) ORDER BY id DESC LIMIT $2`,
        [filter.gameId ?? null, filter.limit ?? 100, filter.action ?? null],
      );
      return rows.map(toEntry);
    },
  };
}
