import { recordAudit } from '../store/audit-repo.js';
import { NotFoundError } from '../store/errors.js';
import { gamesRepo, type Game } from '../store/games-repo.js';
import { GAME_CHANNEL, json, type GameChange } from '../store/rows.js';
import type { Queryable } from '../store/sql.js';

/**
 * Changing a game's settings and poll interval (`PATCH /api/games/:id`).
 *
 * NOTE for the store's owners: this is the one piece of SQL outside src/store. The games
 * repository has `setStatus` and `setRoster` but nothing for `settings` or
 * `poll_interval_seconds`, and this work may only touch its own folders. It follows the
 * repositories' rules (one transaction, audited, NOTIFY on the game channel) so that it
 * can move into `games-repo.ts` as `games.updateSettings` unchanged.
 */

export interface SettingsPatch {
  /** Keys to set (shallow merge); a key set to `null` is removed. */
  settings?: Record<string, unknown>;
  pollIntervalSeconds?: number;
}

export async function updateGameSettings(
  db: Queryable,
  id: number,
  patch: SettingsPatch,
  actor: string,
  /** What the audit log may show of the change (secrets left out). */
  auditDetail: Record<string, unknown>,
): Promise<Game> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ settings: Record<string, unknown> }>('SELECT settings FROM game WHERE id = $1 FOR UPDATE', [id]);
    const row = rows[0];
    if (!row) throw new NotFoundError('game', id);
    const settings: Record<string, unknown> = { ...row.settings };
    for (const [key, value] of Object.entries(patch.settings ?? {})) {
      if (value === null) delete settings[key];
      else settings[key] = value;
    }
    await tx.query(
      `UPDATE game SET settings = $2::jsonb, poll_interval_seconds = COALESCE($3, poll_interval_seconds), updated_at = now()
       WHERE id = $1`,
      [id, json(settings), patch.pollIntervalSeconds ?? null],
    );
    await recordAudit(tx, { gameId: id, actor, action: 'game.settings', detail: auditDetail });
    const change: GameChange = { gameId: id, kind: 'game' };
    await tx.notify(GAME_CHANNEL, JSON.stringify(change));
    const game = await gamesRepo(tx).get(id);
    if (!game) throw new NotFoundError('game', id);
    return game;
  });
}
