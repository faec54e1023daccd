import { iso } from './rows.js';
import type { Queryable } from './sql.js';

/** What the poller keeps per thread page: HTTP validators and a content hash. */
export interface ThreadPage {
  gameId: number;
  page: number;
  url: string;
  etag: string | null;
  lastModified: string | null;
  /** Hash of the page's posts at the last full read: an unchanged page needs no re-parse. */
  bodyHash: string | null;
  postCount: number | null;
  /** Last full read (200). */
  fetchedAt: string;
  /** Last request, 304 included. */
  checkedAt: string;
}

export interface PageFetch {
  page: number;
  url: string;
  etag: string | null;
  lastModified: string | null;
  bodyHash: string | null;
  postCount: number | null;
}

export interface ThreadPagesRepo {
  /** After a 200: stores the page's validators and hash (fetched_at = checked_at = `at`). */
  saveFetched(gameId: number, page: PageFetch, at: Date): Promise<ThreadPage>;
  /** After a 304: only checked_at moves. Returns false if the page was never fetched. */
  markNotModified(gameId: number, page: number, at: Date): Promise<boolean>;
  get(gameId: number, page: number): Promise<ThreadPage | null>;
  /** All pages, in page order. */
  list(gameId: number): Promise<ThreadPage[]>;
  /** The highest page read so far (0 if none): where incremental reading resumes. */
  lastPage(gameId: number): Promise<number>;
}

interface PageRow {
  game_id: number;
  page: number;
  url: string;
  etag: string | null;
  last_modified: string | null;
  body_hash: string | null;
  post_count: number | null;
  fetched_at: Date;
  checked_at: Date;
}

const COLUMNS = 'game_id, page, url, etag, last_modified, body_hash, post_count, fetched_at, checked_at';
const toPage = (r: PageRow): ThreadPage => ({
  gameId: r.game_id,
  page: r.page,
  url: r.url,
  etag: r.etag,
  lastModified: r.last_modified,
  bodyHash: r.body_hash,
  postCount: r.post_count,
  fetchedAt: iso(r.fetched_at),
  checkedAt: iso(r.checked_at),
});

export function threadPagesRepo(db: Queryable): ThreadPagesRepo {
  return {
    async saveFetched(gameId, p, at) {
      const { rows } = await db.query<PageRow>(
        `INSERT INTO thread_page (game_id, page, url, etag, last_modified, body_hash, post_count, fetched_at, checked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
         ON CONFLICT (game_id, page) DO UPDATE SET url = EXCLUDED.url, etag = EXCLUDED.etag,
           last_modified = EXCLUDED.last_modified, body_hash = EXCLUDED.body_hash, post_count = EXCLUDED.post_count,
           fetched_at = EXCLUDED.fetched_at, checked_at = EXCLUDED.checked_at
         RETURNING ${COLUMNS}`,
        [gameId, p.page, p.url, p.etag, p.lastModified, p.bodyHash, p.postCount, at],
      );
      return toPage(rows[0]!);
    },

    async markNotModified(gameId, page, at) {
      const { rowCount } = await db.query(
        'UPDATE thread_page SET checked_at = GREATEST(checked_at, $3) WHERE game_id = $1 AND page = $2',
        [gameId, page, at],
      );
      return rowCount > 0;
    },

    async get(gameId, page) {
      const { rows } = await db.query<PageRow>(`SELECT ${COLUMNS} FROM thread_page WHERE game_id = $1 AND page = $2`, [
        gameId,
        page,
      ]);
      return rows[0] ? toPage(rows[0]) : null;
    },

    async list(gameId) {
      const { rows } = await db.query<PageRow>(`SELECT ${COLUMNS} FROM thread_page WHERE game_id = $1 ORDER BY page`, [
        gameId,
      ]);
      return rows.map(toPage);
    },

    async lastPage(gameId) {
      const { rows } = await db.query<{ last: number | null }>(
        'SELECT max(page) AS last FROM thread_page WHERE game_id = $1',
        [gameId],
      );
      return rows[0]?.last ?? 0;
    },
  };
}
