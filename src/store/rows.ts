/** Small helpers shared by the repositories. */

/** A `timestamptz` column (a Date from both drivers) as ISO 8601 UTC. */
export function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function isoOrNull(value: Date | string | null | undefined): string | null {
  return value == null ? null : iso(value);
}

/** A value for a `$n::jsonb` parameter (see the note in sql.ts). */
export function json(value: unknown): string {
  return JSON.stringify(value);
}

export function jsonOrNull(value: unknown): string | null {
  return value == null ? null : JSON.stringify(value);
}

/** The first row, or an error naming what was expected (for INSERT ... RETURNING). */
export function one<T>(rows: T[], what: string): T {
  const row = rows[0];
  if (row === undefined) throw new Error(`expected a ${what} row, got none`);
  return row;
}

/** The channel on which the store announces changes to a game (payload: `GameChange` JSON). */
export const GAME_CHANNEL = 'votal_game';

export interface GameChange {
  gameId: number;
  kind: 'game' | 'posts' | 'event' | 'tally' | 'draft';
  /** The id of the row that changed, where there is one. */
  id?: number;
}
