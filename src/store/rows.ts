/** Small helpers shared by the repositories. */
import type { Queryable } from './sql.js';

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
  /** `progress`: no row changed; a running read tells how far it has come (`reading`). */
  kind: 'game' | 'posts' | 'event' | 'tally' | 'draft' | 'progress';
  /** The id of the row that changed, where there is one. */
  id?: number;
  /** kind `progress`: the read's progress as the pages show it. */
  reading?: ReadingNews;
}

/** How far a running read has come (the thread reader's progress, with the time left at its pace). */
export interface ReadingNews {
  page: number;
  pageCount: number;
  pageCountKnown: boolean;
  phase: 'reading' | 'read' | 'unchanged';
  /** Time left at the pace so far (ms), null while the thread's length is not known. */
  leftMs: number | null;
  /** The same in words: "Reading page 12 of 60, about 50 s left". */
  text: string;
}

/** A repository's methods written once at module level, each over the db handle it is given first. */
export type OverDb<R> = {
  [K in keyof R]: R[K] extends (...args: infer A) => infer T ? (db: Queryable, ...args: A) => T : never;
};

/** The repository a factory returns: every method bound to one db handle (a store's, or a transaction's). */
export function bindDb<R>(db: Queryable, methods: OverDb<R>): R {
  const bound = Object.entries(methods).map(([name, method]) => [
    name,
    (...args: unknown[]) => (method as (db: Queryable, ...args: unknown[]) => unknown)(db, ...args),
  ]);
  return Object.fromEntries(bound) as R;
}
