import type { EngineId } from '../model/engine.js';
import { PollFacts, PollFactsPatch, pollFactsProblems } from '../model/poll-state.js';
import { NotFoundError, PollStateError } from './errors.js';
import type { Game } from '../model/game.js';
import { GAME_COLUMNS, toGame, type GameRow } from './games-repo.js';
import { bindDb, GAME_CHANNEL, isoOrNull, json, type GameChange, type OverDb } from './rows.js';
import type { Queryable } from './sql.js';
import { TALLY_COLUMNS, toTally, type StoredTally, type TallyRow } from './tallies-repo.js';

/**
 * What the poller keeps per game (table `game_poll`, migration 002): a lease so that one
 * thread is never read by two polls at once, how the last poll went (`lastError` is what
 * the dashboard shows), and the thread's shape for incremental reading.
 */
export interface PollState {
  gameId: number;
  /** `<process instance>/<poll id>` of the poll running now, if any. */
  leaseOwner: string | null;
  leaseUntil: string | null;
  /** Polls finished, well or not. */
  polls: number;
  lastPolledAt: string | null;
  lastOkAt: string | null;
  /** Last read of every page of the thread (earlier pages' edits and deletions show only then). */
  lastFullReadAt: string | null;
  /** Why the last poll failed (a page that did not parse, a forum that refused us); null after a good one. */
  lastError: string | null;
  lastErrorAt: string | null;
  /** Failed polls since the last good one (the poller backs off). */
  errorsInRow: number;
  /** A "poll now" that came while a poll was running. */
  pollRequestedAt: string | null;
  threadTitle: string | null;
  pageCount: number | null;
  postsPerPage: number | null;
  /** What the poller keeps between polls (the Day's current deadline, the last count...), typed. */
  state: PollFacts;
  updatedAt: string | null;
}

/** The thread as the reader saw it on its last page read. */
export interface ThreadShape {
  title?: string | null;
  pageCount?: number | null;
  postsPerPage?: number | null;
}

/** How a poll went; `at` is the poll's clock (when posts were seen), `state` is merged into `state`. */
export type PollOutcome =
  | { ok: true; fullRead: boolean; at: Date; state?: PollFactsPatch }
  | { ok: false; error: string; at: Date; state?: PollFactsPatch };

/** An active game as the clock's minute pass sees it. */
export interface ClockGame {
  game: Game;
  poll: PollState;
  /** The game's latest tally, if it has one. */
  tally: StoredTally | null;
}

export interface PollsRepo {
  /** The game's poll state (all empty when it was never polled). */
  get(gameId: number): Promise<PollState>;
  /**
   * Takes the game's poll lease for `leaseMs` (database time) if nobody holds it, it ran
   * out, or `owner` holds it already. `takeOverFrom`: a lease held by another process
   * instance than this one counts as free (PGlite: one process per folder, so it is left
   * over from a process that died). Returns the database time of the claim, or null.
   */
  claim(gameId: number, owner: string, leaseMs: number, takeOverFrom?: { instance: string }): Promise<string | null>;
  /** Extends a lease `owner` holds; false if it is not theirs any more. */
  renew(gameId: number, owner: string, leaseMs: number): Promise<boolean>;
  /**
   * Notes that a poll of the game starts now, due at `dueAt` (its schedule): `state.pollDueAt`
   * and `state.pollStartedAt`, how late polls run (jobs/schedule.ts `pollLateness`). Returns the
   * database time of the start. A game that is gone is not noted.
   */
  started(gameId: number, dueAt: string | null): Promise<string>;
  /** Ends the poll: records how it went and gives the lease up (only `owner`'s). */
  finish(gameId: number, owner: string, outcome: PollOutcome): Promise<PollState>;
  /** Gives a lease up without recording a poll (a poll that was skipped). */
  release(gameId: number, owner: string): Promise<void>;
  /** Every active game with its poll state and latest tally, oldest game first: one query for the clock's pass. */
  activeGames(): Promise<ClockGame[]>;
  /** Merges facts into `state` (e.g. `recountDue` in the same transaction as the posts that call for it). */
  mergeState(gameId: number, state: PollFactsPatch): Promise<void>;
  /** Records the thread's shape as read (title, pages, posts per page). */
  setShape(gameId: number, shape: ThreadShape): Promise<void>;
  /** Sets the game's engine once the reader identified it (only while it is unknown). */
  setEngine(gameId: number, engine: EngineId): Promise<void>;
  /** "Poll now" while a poll may be running; returns the database time recorded. */
  requestPoll(gameId: number): Promise<string>;
  /** Whether a poll was asked for after `since` (database time from `claim`). */
  requestedSince(gameId: number, since: string): Promise<boolean>;
  /** Those of `gameIds` whose poll lease has not run out (database time): their worker is alive. */
  leased(gameIds: readonly number[]): Promise<Set<number>>;
}

interface PollRow {
  game_id: number;
  lease_owner: string | null;
  lease_until: Date | null;
  polls: number;
  last_polled_at: Date | null;
  last_ok_at: Date | null;
  last_full_read_at: Date | null;
  last_error: string | null;
  last_error_at: Date | null;
  errors_in_row: number;
  poll_requested_at: Date | null;
  thread_title: string | null;
  page_count: number | null;
  posts_per_page: number | null;
  state: unknown;
  updated_at: Date | null;
}

const COLUMNS = `game_id, lease_owner, lease_until, polls, last_polled_at, last_ok_at, last_full_read_at, last_error,
  last_error_at, errors_in_row, poll_requested_at, thread_title, page_count, posts_per_page, state, updated_at`;

const toState = (r: PollRow): PollState => ({
  gameId: r.game_id,
  leaseOwner: r.lease_owner,
  leaseUntil: isoOrNull(r.lease_until),
  polls: r.polls,
  lastPolledAt: isoOrNull(r.last_polled_at),
  lastOkAt: isoOrNull(r.last_ok_at),
  lastFullReadAt: isoOrNull(r.last_full_read_at),
  lastError: r.last_error,
  lastErrorAt: isoOrNull(r.last_error_at),
  errorsInRow: r.errors_in_row,
  pollRequestedAt: isoOrNull(r.poll_requested_at),
  threadTitle: r.thread_title,
  pageCount: r.page_count,
  postsPerPage: r.posts_per_page,
  state: factsOf(r.game_id, r.state),
  updatedAt: isoOrNull(r.updated_at),
});

const empty = (gameId: number): PollState => ({
  gameId,
  leaseOwner: null,
  leaseUntil: null,
  polls: 0,
  lastPolledAt: null,
  lastOkAt: null,
  lastFullReadAt: null,
  lastError: null,
  lastErrorAt: null,
  errorsInRow: 0,
  pollRequestedAt: null,
  threadTitle: null,
  pageCount: null,
  postsPerPage: null,
  state: {},
  updatedAt: null,
});

/** A stored poll state, typed; a value no Votal wrote is an error naming the game and the key. */
function factsOf(gameId: number, raw: unknown): PollFacts {
  const parsed = PollFacts.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new PollStateError(gameId, pollFactsProblems(parsed.error));
}

/** Facts about to be merged in, checked first: a writer's slip is refused before it is stored. */
function patchOf(gameId: number, patch: PollFactsPatch): string {
  const parsed = PollFactsPatch.safeParse(patch);
  if (!parsed.success) throw new PollStateError(gameId, pollFactsProblems(parsed.error));
  return json(parsed.data);
}

/** Makes sure the game has a row (and exists). */
async function ensure(db: Queryable, gameId: number): Promise<void> {
  const { rowCount } = await db.query(
    `INSERT INTO game_poll (game_id) SELECT id FROM game WHERE id = $1 ON CONFLICT (game_id) DO NOTHING`,
    [gameId],
  );
  if (rowCount === 0) {
    const { rows } = await db.query('SELECT 1 FROM game WHERE id = $1', [gameId]);
    if (rows.length === 0) throw new NotFoundError('game', gameId);
  }
}

/** The polls' queries, each over the db handle it is given (the factory binds them). */
const queries: OverDb<PollsRepo> = {
  async get(db, gameId) {
    const { rows } = await db.query<PollRow>(`SELECT ${COLUMNS} FROM game_poll WHERE game_id = $1`, [gameId]);
    return rows[0] ? toState(rows[0]) : empty(gameId);
  },

  async claim(db, gameId, owner, leaseMs, takeOverFrom) {
    await ensure(db, gameId);
    const { rows } = await db.query<{ at: Date }>(
      `UPDATE game_poll SET lease_owner = $2, lease_until = now() + make_interval(secs => $3::double precision / 1000)
         WHERE game_id = $1
           AND (lease_owner IS NULL OR lease_until IS NULL OR lease_until < now() OR lease_owner = $2
                OR ($4::text IS NOT NULL AND split_part(lease_owner, '/', 1) <> $4::text))
         RETURNING now() AS at`,
      [gameId, owner, leaseMs, takeOverFrom?.instance ?? null],
    );
    return rows[0] ? rows[0].at.toISOString() : null;
  },

  async started(db, gameId, dueAt) {
    // One text for the start, stored and returned (ms, UTC), so the two never differ by rounding.
    const { rows } = await db.query<{ at: string }>(
      `WITH t AS (SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at),
         noted AS (
           INSERT INTO game_poll (game_id, state)
           SELECT id, jsonb_build_object('pollDueAt', $2::text, 'pollStartedAt', t.at) FROM game, t WHERE id = $1
           ON CONFLICT (game_id) DO UPDATE SET state = game_poll.state || EXCLUDED.state
         )
         SELECT at FROM t`,
      [gameId, dueAt],
    );
    return rows[0]!.at;
  },

  async renew(db, gameId, owner, leaseMs) {
    const { rowCount } = await db.query(
      `UPDATE game_poll SET lease_until = now() + make_interval(secs => $3::double precision / 1000)
         WHERE game_id = $1 AND lease_owner = $2`,
      [gameId, owner, leaseMs],
    );
    return rowCount > 0;
  },

  finish(db, gameId, owner, outcome) {
    return db.transaction(async (tx) => {
      await ensure(tx, gameId);
      const ok = outcome.ok;
      const { rows } = await tx.query<PollRow>(
        `UPDATE game_poll SET
             polls = polls + 1,
             last_polled_at = $7,
             last_ok_at = CASE WHEN $3 THEN $7 ELSE last_ok_at END,
             last_full_read_at = CASE WHEN $3 AND $4 THEN $7 ELSE last_full_read_at END,
             last_error = CASE WHEN $3 THEN NULL ELSE $5 END,
             last_error_at = CASE WHEN $3 THEN last_error_at ELSE $7 END,
             errors_in_row = CASE WHEN $3 THEN 0 ELSE errors_in_row + 1 END,
             state = state || $6::jsonb,
             lease_owner = CASE WHEN lease_owner = $2 THEN NULL ELSE lease_owner END,
             lease_until = CASE WHEN lease_owner = $2 THEN NULL ELSE lease_until END,
             updated_at = now()
           WHERE game_id = $1
           RETURNING ${COLUMNS}`,
        [
          gameId,
          owner,
          ok,
          ok ? outcome.fullRead : false,
          ok ? null : outcome.error,
          patchOf(gameId, outcome.state ?? {}),
          outcome.at,
        ],
      );
      const state = toState(rows[0]!);
      const change: GameChange = { gameId, kind: 'game' };
      // The dashboard shows the last error: tell it when that changes.
      if (!ok || state.errorsInRow === 0) await tx.notify(GAME_CHANNEL, JSON.stringify(change));
      return state;
    });
  },

  async release(db, gameId, owner) {
    await db.query(
      'UPDATE game_poll SET lease_owner = NULL, lease_until = NULL WHERE game_id = $1 AND lease_owner = $2',
      [gameId, owner],
    );
  },

  async activeGames(db) {
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT ${prefixed(GAME_COLUMNS, 'g', 'g_')}, p.game_id IS NOT NULL AS found_poll,
                ${prefixed(COLUMNS, 'p', 'p_')}, ${prefixed(TALLY_COLUMNS, 't', 't_')}
         FROM game g
         LEFT JOIN game_poll p ON p.game_id = g.id
         LEFT JOIN LATERAL (
           SELECT ${TALLY_COLUMNS} FROM tally WHERE tally.game_id = g.id ORDER BY id DESC LIMIT 1
         ) t ON true
         WHERE g.status = 'active'
         ORDER BY g.id`,
    );
    return rows.map((row) => {
      const game = toGame(unprefixed<GameRow>(row, 'g_'));
      return {
        game,
        poll: row.found_poll === true ? toState(unprefixed<PollRow>(row, 'p_')) : empty(game.id),
        tally: row.t_id === null || row.t_id === undefined ? null : toTally(unprefixed<TallyRow>(row, 't_')),
      };
    });
  },

  async mergeState(db, gameId, state) {
    const patch = patchOf(gameId, state);
    await ensure(db, gameId);
    await db.query('UPDATE game_poll SET state = state || $2::jsonb, updated_at = now() WHERE game_id = $1', [
      gameId,
      patch,
    ]);
  },

  async setShape(db, gameId, shape) {
    await ensure(db, gameId);
    await db.query(
      `UPDATE game_poll SET
           thread_title = CASE WHEN $2 THEN $3 ELSE thread_title END,
           page_count = COALESCE($4, page_count),
           posts_per_page = COALESCE($5, posts_per_page),
           updated_at = now()
         WHERE game_id = $1`,
      [
        gameId,
        shape.title !== undefined && shape.title !== null,
        shape.title ?? null,
        shape.pageCount ?? null,
        shape.postsPerPage ?? null,
      ],
    );
  },

  async setEngine(db, gameId, engine) {
    const { rowCount } = await db.query(
      'UPDATE game SET engine = $2, updated_at = now() WHERE id = $1 AND engine IS NULL',
      [gameId, engine],
    );
    if (rowCount > 0) {
      const change: GameChange = { gameId, kind: 'game' };
      await db.notify(GAME_CHANNEL, JSON.stringify(change));
    }
  },

  async requestPoll(db, gameId) {
    await ensure(db, gameId);
    const { rows } = await db.query<{ at: Date }>(
      'UPDATE game_poll SET poll_requested_at = now() WHERE game_id = $1 RETURNING poll_requested_at AS at',
      [gameId],
    );
    return rows[0]!.at.toISOString();
  },

  async requestedSince(db, gameId, since) {
    const { rows } = await db.query<{ yes: boolean }>(
      'SELECT poll_requested_at >= $2::timestamptz AS yes FROM game_poll WHERE game_id = $1',
      [gameId, since],
    );
    return rows[0]?.yes === true;
  },

  async leased(db, gameIds) {
    const { rows } = await db.query<{ game_id: number }>(
      'SELECT game_id FROM game_poll WHERE game_id = ANY($1::bigint[]) AND lease_until > now()',
      [gameIds],
    );
    return new Set(rows.map((r) => Number(r.game_id)));
  },
};

export function pollsRepo(db: Queryable): PollsRepo {
  return bindDb(db, queries);
}

/** `a, b` as `x.a AS p_a, x.b AS p_b`: one table's columns in a join, told apart by a prefix. */
function prefixed(columns: string, table: string, prefix: string): string {
  return columns
    .split(',')
    .map((c) => c.trim())
    .map((c) => `${table}.${c} AS ${prefix}${c}`)
    .join(', ');
}

/** The columns of one table out of a joined row, without their prefix. */
function unprefixed<T>(row: Record<string, unknown>, prefix: string): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) if (key.startsWith(prefix)) out[key.slice(prefix.length)] = value;
  return out as T;
}
