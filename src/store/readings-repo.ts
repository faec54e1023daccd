import { PostReading } from '../model/action.js';
import { json } from './rows.js';
import type { Queryable } from './sql.js';

/**
 * What the parser read in a post revision, cached per ruleset version (the caller's key for
 * ruleset + overrides + roster). Recomputable: a GM correction is an event, never an edit here.
 */
export interface ReadingsRepo {
  /** Stores (or replaces) the reading of one revision under one ruleset version. */
  save(revisionId: number, rulesetVersion: string, reading: PostReading): Promise<void>;
  get(revisionId: number, rulesetVersion: string): Promise<PostReading | null>;
  /** Readings of the game's current revisions under `rulesetVersion`, by revision id. */
  forGame(gameId: number, rulesetVersion: string): Promise<Map<number, PostReading>>;
}

export function readingsRepo(db: Queryable): ReadingsRepo {
  return {
    async save(revisionId, rulesetVersion, reading) {
      await db.query(
        `INSERT INTO post_reading (revision_id, ruleset_version, reading) VALUES ($1, $2, $3::jsonb)
         ON CONFLICT (revision_id, ruleset_version) DO UPDATE SET reading = EXCLUDED.reading, created_at = now()`,
        [revisionId, rulesetVersion, json(PostReading.parse(reading))],
      );
    },

    async get(revisionId, rulesetVersion) {
      const { rows } = await db.query<{ reading: PostReading }>(
        'SELECT reading FROM post_reading WHERE revision_id = $1 AND ruleset_version = $2',
        [revisionId, rulesetVersion],
      );
      return rows[0]?.reading ?? null;
    },

    async forGame(gameId, rulesetVersion) {
      const { rows } = await db.query<{ revision_id: number; reading: PostReading }>(
        `SELECT pr.revision_id, pr.reading FROM post_reading pr
         JOIN post p ON p.current_revision_id = pr.revision_id
         WHERE p.game_id = $1 AND pr.ruleset_version = $2`,
        [gameId, rulesetVersion],
      );
      return new Map(rows.map((r) => [r.revision_id, r.reading]));
    },
  };
}
