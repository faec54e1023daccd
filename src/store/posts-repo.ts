import type { Body } from '../model/body.js';
import type { EditMarker, Post } from '../model/post.js';
import { NotFoundError } from './errors.js';
import { GAME_CHANNEL, iso, isoOrNull, json, jsonOrNull, one, type GameChange } from './rows.js';
import type { Queryable } from './sql.js';

/** A post as stored: its current revision, plus what the store knows about its history. */
export interface StoredPost extends Post {
  /** The store's id for the post (for `revisionsOf`). */
  key: number;
  /** The store's id for the current revision (for `post_reading`). */
  revisionId: number;
  /** Missing from a re-read of its page; kept, never removed. */
  deleted: boolean;
  deletedAt: string | null;
  firstSeen: string;
  lastSeen: string;
  /** How many different bodies the post has had (1 = never edited). */
  revisions: number;
}

/**
 * A stored post without its body: what the count needs once every revision has a saved
 * reading (a 10,000-post game's bodies are most of what reading its posts costs).
 */
export type PostHead = Omit<StoredPost, 'body'>;

/** A stored post whose current body is there only where a reader loaded it (`headsOf`, then `bodiesOf`). */
export type HeadOrPost = PostHead & { body?: Post['body'] };

/** One body a post has had. */
export interface PostRevision {
  id: number;
  postKey: number;
  body: Body;
  bodyHash: string;
  /** The forum's "edited" marker as last seen with this body. */
  edit: EditMarker | null;
  firstSeen: string;
  lastSeen: string;
  /** The body the post shows now. */
  current: boolean;
}

/** What reading one page changed: the input to post seen / edited / deleted events. */
export interface PageRecord {
  /** Posts seen for the first time. */
  added: Post[];
  /** Posts whose body changed since the last read: the stored version and the new one. */
  edited: { before: Post; after: Post }[];
  /** Posts marked deleted earlier that are back. */
  restored: Post[];
  /** Known posts with the same body whose number, page, author, time or permalink changed. */
  moved: Post[];
}

export interface PostsRepo {
  /**
   * Stores one page's posts in one transaction: new posts get a post row and a first revision;
   * a known post whose body hash changed gets a new revision (or, if it went back to an earlier
   * body, that revision again) and is reported with both bodies; an unchanged post only has
   * its last_seen moved. Re-recording the same page adds nothing.
   */
  recordPage(gameId: number, posts: readonly Post[], seenAt: Date): Promise<PageRecord>;
  /**
   * Posts stored on `pageNumbers` that are not among `presentIds` were deleted on the forum:
   * sets their deleted_at (they are never removed) and returns them. Only pass pages that
   * were read in full; a post seen again later is restored by `recordPage`.
   */
  markMissing(
    gameId: number,
    pageNumbers: readonly number[],
    presentIds: readonly string[],
    seenAt: Date,
  ): Promise<Post[]>;
  /** Every post of the game with its current revision, in thread order; deleted ones flagged. */
  postsOf(gameId: number): Promise<StoredPost[]>;
  /** The posts stored on these pages (deleted ones flagged), in thread order: where a read resumes. */
  postsOn(gameId: number, pages: readonly number[]): Promise<StoredPost[]>;
  /** Every post of the game as `postsOf`, without bodies. */
  headsOf(gameId: number): Promise<PostHead[]>;
  /** Bodies of these revisions, by revision id (ids not found are left out). */
  bodiesOf(revisionIds: readonly number[]): Promise<Map<number, Post['body']>>;
  /** One post by the forum's id. */
  post(gameId: number, forumPostId: string): Promise<StoredPost | null>;
  /** The post the thread shows as number `number` (deleted or not; the first stored if two claim it). */
  postNumbered(gameId: number, number: number): Promise<StoredPost | null>;
  /** Every body the post has had, oldest first. */
  revisionsOf(postKey: number): Promise<PostRevision[]>;
  /** `revisionsOf` for many posts in one query: post key -> its bodies, oldest first (keys with none left out). */
  revisionsOfPosts(postKeys: readonly number[]): Promise<Map<number, PostRevision[]>>;
}

interface StoredRow {
  id: number;
  forum_post_id: string;
  number: number;
  page: number;
  author: string;
  author_id: string | null;
  posted_at: Date | null;
  permalink: string;
  deleted_at: Date | null;
  first_seen: Date;
  last_seen: Date;
  revision_id: number | null;
  body: Body | null;
  body_hash: string | null;
  edit_marker: EditMarker | null;
}

const POST_COLUMNS = `p.id, p.forum_post_id, p.number, p.page, p.author, p.author_id, p.posted_at, p.permalink,
  p.deleted_at, p.first_seen, p.last_seen, r.id AS revision_id, r.body, r.body_hash, r.edit_marker`;

const toPost = (r: StoredRow): Post => ({
  id: r.forum_post_id,
  number: r.number,
  page: r.page,
  author: r.author,
  authorId: r.author_id,
  postedAt: isoOrNull(r.posted_at),
  permalink: r.permalink,
  edit: r.edit_marker,
  bodyHash: r.body_hash ?? '',
  body: r.body ?? [],
});

const toStored = (r: StoredRow & { revisions: number }): StoredPost => ({
  ...toPost(r),
  key: r.id,
  revisionId: r.revision_id ?? 0,
  deleted: r.deleted_at !== null,
  deletedAt: isoOrNull(r.deleted_at),
  firstSeen: iso(r.first_seen),
  lastSeen: iso(r.last_seen),
  revisions: r.revisions,
});

type HeadRow = Omit<StoredRow, 'body'> & { revisions: number };

const HEAD_COLUMNS = `p.id, p.forum_post_id, p.number, p.page, p.author, p.author_id, p.posted_at, p.permalink,
  p.deleted_at, p.first_seen, p.last_seen, r.id AS revision_id, r.body_hash, r.edit_marker`;

const toHead = (r: HeadRow): PostHead => {
  const { body: _body, ...head } = toStored({ ...r, body: null });
  return head;
};

const sameTime = (a: Date | null, b: string | null): boolean =>
  a === null || b === null ? a === null && b === null : a.getTime() === Date.parse(b);

const sameMeta = (row: StoredRow, post: Post): boolean =>
  row.number === post.number &&
  row.page === post.page &&
  row.author === post.author &&
  row.author_id === post.authorId &&
  row.permalink === post.permalink &&
  sameTime(row.posted_at, post.postedAt);

const sameMarker = (a: EditMarker | null, b: EditMarker | null): boolean => JSON.stringify(a) === JSON.stringify(b);

async function announce(db: Queryable, change: GameChange): Promise<void> {
  await db.notify(GAME_CHANNEL, JSON.stringify(change));
}

/** A post new to the store, with its first revision. */
async function insertPost(tx: Queryable, gameId: number, post: Post, seenAt: Date): Promise<void> {
  const inserted = await tx.query<{ id: number }>(
    `INSERT INTO post (game_id, forum_post_id, number, page, author, author_id, posted_at, permalink,
       first_seen, last_seen)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING id`,
    [gameId, post.id, post.number, post.page, post.author, post.authorId, post.postedAt, post.permalink, seenAt],
  );
  await setRevision(tx, one(inserted.rows, 'post').id, post, seenAt);
}

/**
 * A post the store knows, seen again: moved or restored (its head changed, or it was marked
 * deleted), edited (a new revision for a new body), or a new "edited" marker on the same body.
 */
async function recordKnown(tx: Queryable, row: StoredRow, post: Post, seenAt: Date, record: PageRecord): Promise<void> {
  if (!sameMeta(row, post) || row.deleted_at !== null) {
    await tx.query(
      `UPDATE post SET number = $2, page = $3, author = $4, author_id = $5, posted_at = $6, permalink = $7,
         deleted_at = NULL
       WHERE id = $1`,
      [row.id, post.number, post.page, post.author, post.authorId, post.postedAt, post.permalink],
    );
    if (row.deleted_at !== null) record.restored.push(post);
    else record.moved.push(post);
  }
  if (row.revision_id === null) {
    await setRevision(tx, row.id, post, seenAt); // not reachable through recordPage; repairs it
    record.added.push(post);
  } else if (row.body_hash !== post.bodyHash) {
    await setRevision(tx, row.id, post, seenAt);
    record.edited.push({ before: toPost(row), after: post });
  } else if (post.edit && !sameMarker(row.edit_marker, post.edit)) {
    // Same body, a new "edited" marker (e.g. an edit outside the text the adapter keeps).
    await tx.query('UPDATE post_revision SET edit_marker = $2::jsonb WHERE id = $1', [
      row.revision_id,
      json(post.edit),
    ]);
  }
}

export function postsRepo(db: Queryable): PostsRepo {
  const select = async (where: string, params: unknown[]): Promise<StoredPost[]> => {
    const { rows } = await db.query<StoredRow & { revisions: number }>(
      `SELECT ${POST_COLUMNS}, (SELECT count(*) FROM post_revision x WHERE x.post_id = p.id) AS revisions
       FROM post p LEFT JOIN post_revision r ON r.id = p.current_revision_id
       WHERE ${where} ORDER BY p.number, p.id`,
      params,
    );
    return rows.map(toStored);
  };

  return {
    recordPage(gameId, posts, seenAt) {
      return db.transaction(async (tx) => {
        // One writer per game at a time (also proves the game exists).
        const game = await tx.query('SELECT id FROM game WHERE id = $1 FOR NO KEY UPDATE', [gameId]);
        if (game.rowCount === 0) throw new NotFoundError('game', gameId);

        // A forum may repeat a post (the first post on every page): the first copy wins.
        const unique = new Map<string, Post>();
        for (const post of posts) if (!unique.has(post.id)) unique.set(post.id, post);
        const ids = [...unique.keys()];
        const record: PageRecord = { added: [], edited: [], restored: [], moved: [] };
        if (ids.length === 0) return record;

        const { rows } = await tx.query<StoredRow>(
          `SELECT ${POST_COLUMNS} FROM post p LEFT JOIN post_revision r ON r.id = p.current_revision_id
           WHERE p.game_id = $1 AND p.forum_post_id = ANY($2::text[])`,
          [gameId, ids],
        );
        const known = new Map(rows.map((r) => [r.forum_post_id, r]));

        for (const post of unique.values()) {
          const row = known.get(post.id);
          if (row) await recordKnown(tx, row, post, seenAt, record);
          else {
            await insertPost(tx, gameId, post, seenAt);
            record.added.push(post);
          }
        }

        // Everything on the page was seen now.
        await tx.query(
          'UPDATE post SET last_seen = GREATEST(last_seen, $3) WHERE game_id = $1 AND forum_post_id = ANY($2::text[])',
          [gameId, ids, seenAt],
        );
        await tx.query(
          `UPDATE post_revision r SET last_seen = GREATEST(r.last_seen, $3)
           FROM post p WHERE r.id = p.current_revision_id AND p.game_id = $1 AND p.forum_post_id = ANY($2::text[])`,
          [gameId, ids, seenAt],
        );
        if (record.added.length + record.edited.length + record.restored.length + record.moved.length > 0) {
          await announce(tx, { gameId, kind: 'posts' });
        }
        return record;
      });
    },

    markMissing(gameId, pageNumbers, presentIds, seenAt) {
      return db.transaction(async (tx) => {
        if (pageNumbers.length === 0) return [];
        const game = await tx.query('SELECT id FROM game WHERE id = $1 FOR NO KEY UPDATE', [gameId]);
        if (game.rowCount === 0) throw new NotFoundError('game', gameId);
        const { rows } = await tx.query<StoredRow>(
          `UPDATE post p SET deleted_at = $4
           FROM post_revision r
           WHERE p.game_id = $1 AND p.page = ANY($2::int[]) AND NOT (p.forum_post_id = ANY($3::text[]))
             AND p.deleted_at IS NULL AND r.id = p.current_revision_id
           RETURNING ${POST_COLUMNS}`,
          [gameId, [...pageNumbers], [...presentIds], seenAt],
        );
        if (rows.length > 0) await announce(tx, { gameId, kind: 'posts' });
        return rows.sort((a, b) => a.number - b.number || a.id - b.id).map(toPost);
      });
    },

    postsOf: (gameId) => select('p.game_id = $1', [gameId]),

    postsOn: (gameId, pages) => select('p.game_id = $1 AND p.page = ANY($2::int[])', [gameId, [...pages]]),

    async headsOf(gameId) {
      // Revision counts in one pass over the game's revisions, not a subquery per post.
      const { rows } = await db.query<HeadRow>(
        `SELECT ${HEAD_COLUMNS}, COALESCE(n.revisions, 0) AS revisions
         FROM post p LEFT JOIN post_revision r ON r.id = p.current_revision_id
         LEFT JOIN (SELECT x.post_id, count(*) AS revisions FROM post_revision x JOIN post q ON q.id = x.post_id
                    WHERE q.game_id = $1 GROUP BY x.post_id) n ON n.post_id = p.id
         WHERE p.game_id = $1 ORDER BY p.number, p.id`,
        [gameId],
      );
      return rows.map(toHead);
    },

    async bodiesOf(revisionIds) {
      if (revisionIds.length === 0) return new Map();
      const { rows } = await db.query<{ id: number; body: Body }>(
        'SELECT id, body FROM post_revision WHERE id = ANY($1::bigint[])',
        [[...revisionIds]],
      );
      return new Map(rows.map((r) => [r.id, r.body]));
    },

    async post(gameId, forumPostId) {
      const [found] = await select('p.game_id = $1 AND p.forum_post_id = $2', [gameId, forumPostId]);
      return found ?? null;
    },

    async postNumbered(gameId, number) {
      const [found] = await select('p.game_id = $1 AND p.number = $2', [gameId, number]);
      return found ?? null;
    },

    async revisionsOf(postKey) {
      return (await revisionsOfPosts(db, [postKey])).get(postKey) ?? [];
    },

    revisionsOfPosts: (postKeys) => revisionsOfPosts(db, postKeys),
  };
}

/** Every body each of these posts has had, oldest first, in one query. */
async function revisionsOfPosts(db: Queryable, postKeys: readonly number[]): Promise<Map<number, PostRevision[]>> {
  const out = new Map<number, PostRevision[]>();
  if (postKeys.length === 0) return out;
  const { rows } = await db.query<{
    id: number;
    post_id: number;
    body: Body;
    body_hash: string;
    edit_marker: EditMarker | null;
    first_seen: Date;
    last_seen: Date;
    current: boolean;
  }>(
    `SELECT r.id, r.post_id, r.body, r.body_hash, r.edit_marker, r.first_seen, r.last_seen,
            (r.id = p.current_revision_id) AS current
     FROM post_revision r JOIN post p ON p.id = r.post_id
     WHERE r.post_id = ANY($1::bigint[]) ORDER BY r.post_id, r.first_seen, r.id`,
    [[...postKeys]],
  );
  for (const r of rows) {
    const key = Number(r.post_id);
    const list = out.get(key) ?? [];
    list.push({
      id: r.id,
      postKey: key,
      body: r.body,
      bodyHash: r.body_hash,
      edit: r.edit_marker,
      firstSeen: iso(r.first_seen),
      lastSeen: iso(r.last_seen),
      current: r.current,
    });
    out.set(key, list);
  }
  return out;
}

/** Makes `post`'s body the current revision: a new row, or the existing one with that hash. */
async function setRevision(tx: Queryable, postKey: number, post: Post, seenAt: Date): Promise<void> {
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO post_revision (post_id, body, body_hash, edit_marker, first_seen, last_seen)
     VALUES ($1, $2::jsonb, $3, $4::jsonb, $5, $5)
     ON CONFLICT (post_id, body_hash) DO UPDATE
       SET last_seen = GREATEST(post_revision.last_seen, EXCLUDED.last_seen),
           edit_marker = COALESCE(EXCLUDED.edit_marker, post_revision.edit_marker)
     RETURNING id`,
    [postKey, json(post.body), post.bodyHash, jsonOrNull(post.edit), seenAt],
  );
  await tx.query('UPDATE post SET current_revision_id = $2 WHERE id = $1', [postKey, one(rows, 'post_revision').id]);
}
