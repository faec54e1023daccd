import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { EngineId } from '../model/engine.js';
import { type Game, GameStatus, NewGame } from '../model/game.js';
import { GameSettings, GameSettingsError, type SettingsChange } from '../model/game-settings.js';
import { Roster } from '../model/roster.js';
import type { AuditAction } from '../model/audit.js';
import { recordAudit } from './audit-repo.js';
import { NotFoundError, ThreadTakenError } from './errors.js';
import { bindDb, GAME_CHANNEL, iso, isoOrNull, json, one, type GameChange, type OverDb } from './rows.js';
import type { Queryable } from './sql.js';

export interface GamesRepo {
  /** Creates a game (audited as `game.create`); with `sameThread`, refuses a thread an unfinished game follows (ThreadTakenError). */
  create(input: NewGame, actor: string, opts?: { sameThread?: SameThread }): Promise<Game>;
  get(id: number): Promise<Game | null>;
  bySlug(slug: string): Promise<Game | null>;
  /** Oldest first. */
  /**
   * Games by id; `polled: true` leaves out the games that wait for the GM's check of a
   * generic reading (migration 013): the poller's list of games to keep polled.
   */
  list(filter?: { status?: GameStatus; polled?: boolean }): Promise<Game[]>;
  /** active | paused | finished (audited as `game.status`). Throws NotFoundError. */
  setStatus(id: number, status: GameStatus, actor: string, opts?: { sameThread?: SameThread }): Promise<Game>;
  /** Replaces the roster (audited as `game.roster`). Throws NotFoundError. */
  setRoster(id: number, roster: Roster, actor: string): Promise<Game>;
  /**
   * Replaces the roster only while it is still `expected` (compared as JSON), audited as
   * `audit`: the poller's and the book's refresh of known nicknames never overwrites a roster
   * a GM changed meanwhile. Null when it had changed (or the game is gone).
   */
  setRosterIf(
    id: number,
    expected: Roster,
    roster: Roster,
    audit: { actor: string; action: AuditAction; detail: Record<string, unknown> },
  ): Promise<Game | null>;
  /** Changes the ruleset (audited as `game.ruleset` with the old and the new name). Throws NotFoundError. */
  setRuleset(id: number, ruleset: string, actor: string): Promise<Game>;
  /**
   * Replaces the game's ruleset overrides (audited as `game.overrides` with the old and the
   * new overrides and `detail`): a rule the GM accepted for this game. Throws NotFoundError.
   */
  setRulesetOverrides(
    id: number,
    overrides: Record<string, unknown>,
    actor: string,
    detail?: Record<string, unknown>,
  ): Promise<Game>;
  /**
   * Changes how the thread is read (audited as `game.engine` with the old and the new engine
   * and `detail`): the GM's switch to the generic reader and back. Throws NotFoundError.
   */
  setEngine(id: number, engine: EngineId | null, actor: string, detail?: Record<string, unknown>): Promise<Game>;
  /**
   * Deletes the game and everything of it (posts, revisions, readings, pages, GM events,
   * tallies, drafts, publications, poll state, audit) in one transaction; a game-less audit
   * entry `game.delete` keeps who deleted what. Throws NotFoundError.
   */
  remove(id: number, actor: string): Promise<void>;
  /**
   * Merges settings keys (a key set to null is removed) and sets the poll interval, in one
   * transaction, audited as `game.settings` with `auditDetail` (secrets left out).
   */
  updateSettings(id: number, patch: SettingsPatch, actor: string, auditDetail: Record<string, unknown>): Promise<Game>;
  /** When the poller should read the thread next (null: not scheduled). */
  setNextPoll(id: number, at: Date | null): Promise<void>;
  /** Active games whose next poll is due at `now`, most overdue first. */
  due(now: Date, limit?: number): Promise<Game[]>;
}

export interface GameRow {
  id: number;
  slug: string;
  thread_url: string;
  engine: EngineId | null;
  ruleset: string;
  ruleset_overrides: Record<string, unknown>;
  roster: Roster;
  status: GameStatus;
  poll_interval_seconds: number;
  next_poll_at: Date | null;
  settings: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** The game table's columns as `toGame` reads them (other repositories join on game). */
export const GAME_COLUMNS = `id, slug, thread_url, engine, ruleset, ruleset_overrides, roster, status,
  poll_interval_seconds, next_poll_at, settings, created_at, updated_at`;

const COLUMNS = GAME_COLUMNS;

/** Not waiting for the GM's check of page 1 as the generic reader read it: such a game is not polled. */
const NOT_WAITING = `NOT EXISTS (SELECT 1 FROM generic_check c WHERE c.game_id = game.id AND c.confirmed_at IS NULL)`;

/** A stored game's settings, typed; a value no Votal wrote is an error naming the game and the key. */
function settingsOf(id: number, raw: Record<string, unknown>): GameSettings {
  const parsed = GameSettings.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(settings)'}: ${i.message}`).join('; ');
  throw new GameSettingsError(id, problems);
}

export const toGame = (r: GameRow): Game => ({
  id: r.id,
  slug: r.slug,
  threadUrl: r.thread_url,
  engine: r.engine,
  ruleset: r.ruleset,
  rulesetOverrides: r.ruleset_overrides,
  roster: r.roster,
  status: r.status,
  pollIntervalSeconds: r.poll_interval_seconds,
  nextPollAt: isoOrNull(r.next_poll_at),
  settings: settingsOf(r.id, r.settings),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** `forum.example/threads/mafia-42.123/` -> `mafia-42-123-k3f9`: readable, and unguessable enough. */
function slugFor(threadUrl: string): string {
  let base = '';
  try {
    const segments = new URL(threadUrl).pathname.split('/').filter(Boolean);
    base = (segments.at(-1) ?? '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40);
  } catch {
    base = '';
  }
  const suffix = randomBytes(4).toString('hex');
  return base ? `${base}-${suffix}` : `game-${suffix}`;
}

async function announce(db: Queryable, change: GameChange): Promise<void> {
  await db.notify(GAME_CHANNEL, JSON.stringify(change));
}

export interface SettingsPatch {
  /** Keys to set (shallow merge); a key set to `null` is removed. */
  settings?: SettingsChange;
  pollIntervalSeconds?: number;
}

/** Tells whether a game follows the same thread (the caller knows the engines' URL forms). */
export type SameThread = (game: Game) => boolean;

/**
 * Throws ThreadTakenError when an unfinished game (other than `except`) follows the same
 * thread. Creating and resuming games take one transaction-scoped advisory lock, so two
 * processes cannot both pass the check for one thread.
 */
async function refuseTaken(tx: Queryable, sameThread: SameThread, except: number | null = null): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('votal.game.thread'))");
  const { rows } = await tx.query<GameRow>(`SELECT ${COLUMNS} FROM game WHERE status <> 'finished' ORDER BY id`);
  const taken = rows.map(toGame).find((game) => game.id !== except && sameThread(game));
  if (taken) throw new ThreadTakenError({ id: taken.id, slug: taken.slug });
}

/** The game of `id`, or null. */
async function getGame(db: Queryable, id: number): Promise<Game | null> {
  const { rows } = await db.query<GameRow>(`SELECT ${COLUMNS} FROM game WHERE id = $1`, [id]);
  return rows[0] ? toGame(rows[0]) : null;
}

/** One change of the game's row, audited and announced, in one transaction. */
function updateGame(
  db: Queryable,
  id: number,
  set: string,
  params: unknown[],
  audit: { actor: string; action: AuditAction; detail: Record<string, unknown> },
) {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<GameRow>(
      `UPDATE game SET ${set}, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, ...params],
    );
    if (!rows[0]) throw new NotFoundError('game', id);
    await recordAudit(tx, { gameId: id, ...audit });
    await announce(tx, { gameId: id, kind: 'game' });
    return toGame(rows[0]);
  });
}

/** The games' queries, each over the db handle it is given (the factory binds them). */
const queries: OverDb<GamesRepo> = {
  async create(db, input, actor, opts = {}) {
    const g = NewGame.parse(input);
    return db.transaction(async (tx) => {
      if (opts.sameThread) await refuseTaken(tx, opts.sameThread);
      const { rows } = await tx.query<GameRow>(
        `INSERT INTO game (slug, thread_url, engine, ruleset, ruleset_overrides, roster,
             poll_interval_seconds, next_poll_at, settings)
           VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9::jsonb)
           RETURNING ${COLUMNS}`,
        [
          g.slug ?? slugFor(g.threadUrl),
          g.threadUrl,
          g.engine,
          g.ruleset,
          json(g.rulesetOverrides),
          json(g.roster),
          g.pollIntervalSeconds,
          g.nextPollAt,
          json(g.settings),
        ],
      );
      const game = toGame(one(rows, 'game'));
      await recordAudit(tx, {
        gameId: game.id,
        actor,
        action: 'game.create',
        detail: { slug: game.slug, threadUrl: game.threadUrl, ruleset: game.ruleset, players: game.roster.length },
      });
      return game;
    });
  },

  get: getGame,

  async bySlug(db, slug) {
    const { rows } = await db.query<GameRow>(`SELECT ${COLUMNS} FROM game WHERE slug = $1`, [slug]);
    return rows[0] ? toGame(rows[0]) : null;
  },

  async list(db, filter = {}) {
    const { rows } = await db.query<GameRow>(
      `SELECT ${COLUMNS} FROM game WHERE ($1::text IS NULL OR status = $1)${filter.polled ? ` AND ${NOT_WAITING}` : ''} ORDER BY id`,
      [filter.status ?? null],
    );
    return rows.map(toGame);
  },

  async setStatus(db, id, status, actor, opts = {}) {
    const next = GameStatus.parse(status);
    if (!opts.sameThread || next === 'finished') {
      return updateGame(db, id, 'status = $2', [next], { actor, action: 'game.status', detail: { status: next } });
    }
    const sameThread = opts.sameThread;
    return db.transaction(async (tx) => {
      await refuseTaken(tx, sameThread, id);
      return gamesRepo(tx).setStatus(id, next, actor);
    });
  },

  async setRoster(db, id, roster, actor) {
    const next = Roster.parse(roster);
    return updateGame(db, id, 'roster = $2::jsonb', [json(next)], {
      actor,
      action: 'game.roster',
      detail: { players: next.map((s) => s.name) },
    });
  },

  async setRosterIf(db, id, expected, roster, audit) {
    const next = Roster.parse(roster);
    return db.transaction(async (tx) => {
      const { rows } = await tx.query<GameRow>(
        `UPDATE game SET roster = $3::jsonb, updated_at = now() WHERE id = $1 AND roster = $2::jsonb
         RETURNING ${COLUMNS}`,
        [id, json(expected), json(next)],
      );
      if (!rows[0]) return null;
      await recordAudit(tx, { gameId: id, ...audit });
      await announce(tx, { gameId: id, kind: 'game' });
      return toGame(rows[0]);
    });
  },

  async setRuleset(db, id, ruleset, actor) {
    const current = await getGame(db, id);
    if (!current) throw new NotFoundError('game', id);
    const next = z.string().min(1).parse(ruleset);
    return updateGame(db, id, 'ruleset = $2', [next], {
      actor,
      action: 'game.ruleset',
      detail: { from: current.ruleset, to: next },
    });
  },

  async setRulesetOverrides(db, id, overrides, actor, detail = {}) {
    const current = await getGame(db, id);
    if (!current) throw new NotFoundError('game', id);
    const next = z.record(z.string(), z.unknown()).parse(overrides);
    return updateGame(db, id, 'ruleset_overrides = $2::jsonb', [json(next)], {
      actor,
      action: 'game.overrides',
      detail: { ...detail, from: current.rulesetOverrides, to: next },
    });
  },

  async setEngine(db, id, engine, actor, detail = {}) {
    const current = await getGame(db, id);
    if (!current) throw new NotFoundError('game', id);
    return updateGame(db, id, 'engine = $2', [engine], {
      actor,
      action: 'game.engine',
      detail: { ...detail, from: current.engine, to: engine },
    });
  },

  async remove(db, id, actor) {
    await db.transaction(async (tx) => {
      const { rows } = await tx.query<GameRow>(`SELECT ${COLUMNS} FROM game WHERE id = $1 FOR UPDATE`, [id]);
      const game = rows[0] ? toGame(rows[0]) : null;
      if (!game) throw new NotFoundError('game', id);
      // Evidence tables refuse DELETE (migration 001) except in this transaction (migration 008).
      await tx.query(`SELECT set_config('votal.deleting_game', $1, true)`, [String(id)]);
      const counts: Record<string, number> = {};
      const run = async (table: string, statement: string): Promise<void> => {
        counts[table] = (counts[table] ?? 0) + (await tx.query(statement, [id])).rowCount;
      };
      await run(
        'post_reading',
        `DELETE FROM post_reading WHERE revision_id IN
          (SELECT r.id FROM post_revision r JOIN post p ON p.id = r.post_id WHERE p.game_id = $1)`,
      );
      await tx.query('UPDATE post SET current_revision_id = NULL WHERE game_id = $1', [id]);
      await run('post_revision', 'DELETE FROM post_revision WHERE post_id IN (SELECT id FROM post WHERE game_id = $1)');
      await run('post', 'DELETE FROM post WHERE game_id = $1');
      await run('thread_page', 'DELETE FROM thread_page WHERE game_id = $1');
      await run('gm_event', 'DELETE FROM gm_event WHERE game_id = $1');
      await run('publication', 'DELETE FROM publication WHERE draft_id IN (SELECT id FROM draft WHERE game_id = $1)');
      await run('draft', 'DELETE FROM draft WHERE game_id = $1');
      await run('tally', 'DELETE FROM tally WHERE game_id = $1');
      await run('game_poll', 'DELETE FROM game_poll WHERE game_id = $1');
      await run('audit_log', 'DELETE FROM audit_log WHERE game_id = $1');
      await run('game', 'DELETE FROM game WHERE id = $1');
      await tx.query(`SELECT set_config('votal.deleting_game', '', true)`);
      await recordAudit(tx, {
        gameId: null,
        actor,
        action: 'game.delete',
        detail: {
          id,
          slug: game.slug,
          threadUrl: game.threadUrl,
          title: game.settings.votalTitle ?? null,
          deleted: counts,
        },
      });
      await announce(tx, { gameId: id, kind: 'game' });
    });
  },

  async updateSettings(db, id, patch, actor, auditDetail) {
    return db.transaction(async (tx) => {
      const { rows } = await tx.query<{ settings: Record<string, unknown> }>(
        'SELECT settings FROM game WHERE id = $1 FOR UPDATE',
        [id],
      );
      const row = rows[0];
      if (!row) throw new NotFoundError('game', id);
      const merged: Record<string, unknown> = { ...row.settings };
      for (const [key, value] of Object.entries(patch.settings ?? {})) {
        if (value === null) delete merged[key];
        else merged[key] = value;
      }
      // What is stored is what every reader can read: a bad value is refused here, not at the next read.
      const settings = settingsOf(id, merged);
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
  },

  async setNextPoll(db, id, at) {
    const { rowCount } = await db.query('UPDATE game SET next_poll_at = $2 WHERE id = $1', [id, at]);
    if (rowCount === 0) throw new NotFoundError('game', id);
  },

  async due(db, now, limit = 50) {
    const { rows } = await db.query<GameRow>(
      `SELECT ${COLUMNS} FROM game
         WHERE status = 'active' AND next_poll_at IS NOT NULL AND next_poll_at <= $1 AND ${NOT_WAITING}
         ORDER BY next_poll_at LIMIT $2`,
      [now, limit],
    );
    return rows.map(toGame);
  },
};

export function gamesRepo(db: Queryable): GamesRepo {
  return bindDb(db, queries);
}
