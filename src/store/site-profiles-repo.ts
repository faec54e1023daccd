import { GenericCheck, type GenericFinding, LearnedProfile } from '../model/generic-check.js';
import { NotFoundError, StateError } from './errors.js';
import { iso, isoOrNull, json, one } from './rows.js';
import type { Queryable } from './sql.js';

/**
 * The generic reader's findings (migration 013): each game's check of page 1, and the site
 * profiles confirmed checks taught, one per host. Kept in the database, never in the
 * repository's `sites/` files.
 */
export interface SiteProfilesRepo {
  /** The profile a confirmed generic reading taught for `host` (lower case), or null. */
  learned(host: string): Promise<LearnedProfile | null>;
  /** The game's check of page 1, or null when none was read. */
  check(gameId: number): Promise<GenericCheck | null>;
  /** Keeps a new reading of page 1 for the GM to check (an earlier one, confirmed or not, is replaced). */
  saveCheck(gameId: number, host: string, finding: GenericFinding, at: Date): Promise<GenericCheck>;
  /**
   * The GM confirms the game's waiting check: it is marked confirmed and its profile becomes
   * the host's. Throws NotFoundError (no check) or StateError (confirmed already).
   */
  confirm(gameId: number, actor: string, at: Date): Promise<{ check: GenericCheck; learned: LearnedProfile }>;
  /** Forgets the game's check (the next poll reads page 1 again for the GM). */
  forgetCheck(gameId: number): Promise<void>;
  /** Forgets the host's learned profile (its layout changed); the profile forgotten, or null. */
  forget(host: string): Promise<LearnedProfile | null>;
}

interface CheckRow {
  game_id: string | number;
  host: string;
  reading: GenericFinding;
  read_at: Date;
  confirmed_by: string | null;
  confirmed_at: Date | null;
}

interface ProfileRow {
  host: string;
  profile: Record<string, unknown>;
  found_on: string;
  confirmed_by: string;
  confirmed_at: Date;
}

const CHECK = 'game_id, host, reading, read_at, confirmed_by, confirmed_at';
const PROFILE = 'host, profile, found_on, confirmed_by, confirmed_at';

function toCheck(r: CheckRow): GenericCheck {
  return GenericCheck.parse({
    gameId: Number(r.game_id),
    host: r.host,
    finding: r.reading,
    readAt: iso(r.read_at),
    confirmedBy: r.confirmed_by,
    confirmedAt: isoOrNull(r.confirmed_at),
  });
}

function toLearned(r: ProfileRow): LearnedProfile {
  return LearnedProfile.parse({
    host: r.host,
    profile: r.profile,
    foundOn: r.found_on,
    confirmedBy: r.confirmed_by,
    confirmedAt: iso(r.confirmed_at),
  });
}

export function siteProfilesRepo(db: Queryable): SiteProfilesRepo {
  const check = async (gameId: number): Promise<GenericCheck | null> => {
    const { rows } = await db.query<CheckRow>(`SELECT ${CHECK} FROM generic_check WHERE game_id = $1`, [gameId]);
    return rows[0] ? toCheck(rows[0]) : null;
  };
  return {
    check,

    async learned(host) {
      const { rows } = await db.query<ProfileRow>(`SELECT ${PROFILE} FROM site_profile WHERE host = $1`, [
        host.toLowerCase(),
      ]);
      return rows[0] ? toLearned(rows[0]) : null;
    },

    async saveCheck(gameId, host, finding, at) {
      const { rows } = await db.query<CheckRow>(
        `INSERT INTO generic_check (game_id, host, reading, read_at) VALUES ($1, $2, $3::jsonb, $4)
         ON CONFLICT (game_id) DO UPDATE
           SET host = excluded.host, reading = excluded.reading, read_at = excluded.read_at,
               confirmed_by = NULL, confirmed_at = NULL
         RETURNING ${CHECK}`,
        [gameId, host.toLowerCase(), json(finding), at],
      );
      return toCheck(one(rows, 'generic_check'));
    },

    async confirm(gameId, actor, at) {
      const { rows } = await db.query<CheckRow>(
        `UPDATE generic_check SET confirmed_by = $2, confirmed_at = $3
         WHERE game_id = $1 AND confirmed_at IS NULL RETURNING ${CHECK}`,
        [gameId, actor, at],
      );
      if (!rows[0]) {
        const existing = await check(gameId);
        if (!existing) throw new NotFoundError('generic check', gameId);
        throw new StateError(
          `page 1 of game ${gameId} was confirmed already (by ${existing.confirmedBy}, ${existing.confirmedAt})`,
        );
      }
      const confirmed = toCheck(rows[0]);
      const saved = await db.query<ProfileRow>(
        `INSERT INTO site_profile (host, profile, found_on, confirmed_by, confirmed_at) VALUES ($1, $2::jsonb, $3, $4, $5)
         ON CONFLICT (host) DO UPDATE
           SET profile = excluded.profile, found_on = excluded.found_on,
               confirmed_by = excluded.confirmed_by, confirmed_at = excluded.confirmed_at
         RETURNING ${PROFILE}`,
        [confirmed.host, json(confirmed.finding.profile), confirmed.finding.pageUrl, actor, at],
      );
      return { check: confirmed, learned: toLearned(one(saved.rows, 'site_profile')) };
    },

    async forgetCheck(gameId) {
      await db.query('DELETE FROM generic_check WHERE game_id = $1', [gameId]);
    },

    async forget(host) {
      const { rows } = await db.query<ProfileRow>(`DELETE FROM site_profile WHERE host = $1 RETURNING ${PROFILE}`, [
        host.toLowerCase(),
      ]);
      return rows[0] ? toLearned(rows[0]) : null;
    },
  };
}
