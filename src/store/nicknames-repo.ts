import { DroppedNickname, NicknameEntry } from '../model/nickname.js';
import { iso } from './rows.js';
import type { Queryable } from './sql.js';

/**
 * A forum's nickname book (migration 014): nicknames by site and forum name, each with the
 * game it came from, and the ones a GM dropped for a game. Names are looked up by their keys
 * as the name matcher folds them (`forumKey`, `nicknameKey`), which the caller gives: the
 * store comes before the parser in the data flow.
 */
export interface NewNickname {
  site: string;
  forumName: string;
  forumKey: string;
  nickname: string;
  nicknameKey: string;
  fromGame: number;
  fromTitle: string;
}

export interface NicknamesRepo {
  /**
   * Records a nickname for the site's forum name; true when new. One already in the book
   * keeps the game it first came from.
   */
  learn(entry: NewNickname, actor: string, at: Date): Promise<boolean>;
  /** The site's nicknames for these forum names (by key), oldest first. */
  forForumNames(site: string, forumKeys: readonly string[]): Promise<NicknameEntry[]>;
  /** The whole book of a site, oldest first. */
  ofSite(site: string): Promise<NicknameEntry[]>;
  /** The sites that have a book, by name. */
  sites(): Promise<string[]>;
  /** One page of a site's book (by keys), or null. */
  entry(site: string, forumKey: string, nicknameKey: string): Promise<NicknameEntry | null>;
  /** Forgets a nickname in the site's book (every later game); true when there was one. */
  forget(site: string, forumKey: string, nicknameKey: string): Promise<boolean>;
  /** The game's dropped nicknames. */
  dropped(gameId: number): Promise<DroppedNickname[]>;
  /** The GM drops a known nickname for one game; true when newly dropped. */
  drop(
    gameId: number,
    d: DroppedNickname & { forumKey: string; nicknameKey: string },
    actor: string,
    at: Date,
  ): Promise<boolean>;
}

interface EntryRow {
  site: string;
  forum_name: string;
  nickname: string;
  from_game: string | number | null;
  from_title: string;
  learned_by: string;
  learned_at: Date;
}

const ENTRY = 'site, forum_name, nickname, from_game, from_title, learned_by, learned_at';

function toEntry(r: EntryRow): NicknameEntry {
  return NicknameEntry.parse({
    site: r.site,
    forumName: r.forum_name,
    nickname: r.nickname,
    fromGame: r.from_game === null ? null : Number(r.from_game),
    fromTitle: r.from_title,
    learnedBy: r.learned_by,
    learnedAt: iso(r.learned_at),
  });
}

export function nicknamesRepo(db: Queryable): NicknamesRepo {
  return {
    async learn(e, actor, at) {
      const { rows } = await db.query(
        `INSERT INTO forum_nickname
           (site, forum_key, nickname_key, forum_name, nickname, from_game, from_title, learned_by, learned_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (site, forum_key, nickname_key) DO NOTHING RETURNING site`,
        [e.site.toLowerCase(), e.forumKey, e.nicknameKey, e.forumName, e.nickname, e.fromGame, e.fromTitle, actor, at],
      );
      return rows.length > 0;
    },

    async forForumNames(site, forumKeys) {
      if (forumKeys.length === 0) return [];
      const { rows } = await db.query<EntryRow>(
        `SELECT ${ENTRY} FROM forum_nickname WHERE site = $1 AND forum_key = ANY($2::text[])
         ORDER BY learned_at, nickname_key`,
        [site.toLowerCase(), [...forumKeys]],
      );
      return rows.map(toEntry);
    },

    async ofSite(site) {
      const { rows } = await db.query<EntryRow>(
        `SELECT ${ENTRY} FROM forum_nickname WHERE site = $1 ORDER BY learned_at, forum_key, nickname_key`,
        [site.toLowerCase()],
      );
      return rows.map(toEntry);
    },

    async sites() {
      const { rows } = await db.query<{ site: string }>('SELECT DISTINCT site FROM forum_nickname ORDER BY site');
      return rows.map((r) => r.site);
    },

    async entry(site, forumKey, nicknameKey) {
      const { rows } = await db.query<EntryRow>(
        `SELECT ${ENTRY} FROM forum_nickname WHERE site = $1 AND forum_key = $2 AND nickname_key = $3`,
        [site.toLowerCase(), forumKey, nicknameKey],
      );
      return rows[0] ? toEntry(rows[0]) : null;
    },

    async forget(site, forumKey, nicknameKey) {
      const { rows } = await db.query(
        'DELETE FROM forum_nickname WHERE site = $1 AND forum_key = $2 AND nickname_key = $3 RETURNING site',
        [site.toLowerCase(), forumKey, nicknameKey],
      );
      return rows.length > 0;
    },

    async dropped(gameId) {
      const { rows } = await db.query<{ forum_name: string; nickname: string }>(
        'SELECT forum_name, nickname FROM game_nickname_drop WHERE game_id = $1 ORDER BY dropped_at, nickname_key',
        [gameId],
      );
      return rows.map((r) => DroppedNickname.parse({ forumName: r.forum_name, nickname: r.nickname }));
    },

    async drop(gameId, d, actor, at) {
      const { rows } = await db.query(
        `INSERT INTO game_nickname_drop (game_id, forum_key, nickname_key, forum_name, nickname, dropped_by, dropped_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING game_id`,
        [gameId, d.forumKey, d.nicknameKey, d.forumName, d.nickname, actor, at],
      );
      return rows.length > 0;
    },
  };
}
