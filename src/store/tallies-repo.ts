import { Tally } from '../model/tally.js';
import { GAME_CHANNEL, iso, json, one, type GameChange } from './rows.js';
import type { Queryable } from './sql.js';

/** A tally snapshot (immutable once saved). */
export interface StoredTally {
  id: number;
  gameId: number;
  asOfPost: number | null;
  tally: Tally;
  createdAt: string;
}

export interface TalliesRepo {
  /** Saves a snapshot and announces it on the game channel (live pages). */
  save(gameId: number, tally: Tally): Promise<StoredTally>;
  get(id: number): Promise<StoredTally | null>;
  latest(gameId: number): Promise<StoredTally | null>;
  /** Newest first. */
  list(gameId: number, limit?: number): Promise<StoredTally[]>;
}

export interface TallyRow {
  id: number;
  game_id: number;
  as_of_post: number | null;
  tally: Tally;
  created_at: Date;
}

/** The tally table's columns as `toTally` reads them. */
export const TALLY_COLUMNS = 'id, game_id, as_of_post, tally, created_at';
const COLUMNS = TALLY_COLUMNS;
export const toTally = (r: TallyRow): StoredTally => ({
  id: r.id,
  gameId: r.game_id,
  asOfPost: r.as_of_post,
  tally: r.tally,
  createdAt: iso(r.created_at),
});

export function talliesRepo(db: Queryable): TalliesRepo {
  return {
    async save(gameId, input) {
      const tally = Tally.parse(input);
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<TallyRow>(
          `INSERT INTO tally (game_id, as_of_post, tally) VALUES ($1, $2, $3::jsonb) RETURNING ${COLUMNS}`,
          [gameId, tally.asOfPost, json(tally)],
        );
        const stored = toTally(one(rows, 'tally'));
        const change: GameChange = { gameId, kind: 'tally', id: stored.id };
        await tx.notify(GAME_CHANNEL, JSON.stringify(change));
        return stored;
      });
    },

    async get(id) {
      const { rows } = await db.query<TallyRow>(`SELECT ${COLUMNS} FROM tally WHERE id = $1`, [id]);
      return rows[0] ? toTally(rows[0]) : null;
    },

    async latest(gameId) {
      const { rows } = await db.query<TallyRow>(
        `SELECT ${COLUMNS} FROM tally WHERE game_id = $1 ORDER BY id DESC LIMIT 1`,
        [gameId],
      );
      return rows[0] ? toTally(rows[0]) : null;
    },

    async list(gameId, limit = 20) {
      const { rows } = await db.query<TallyRow>(
        `SELECT ${COLUMNS} FROM tally WHERE game_id = $1 ORDER BY id DESC LIMIT $2`,
        [gameId, limit],
      );
      return rows.map(toTally);
    },
  };
}
