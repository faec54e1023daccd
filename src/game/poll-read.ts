import type { SiteProfile } from '../../scrapers/site-profile.js';
import type { ThreadPage } from '../../scrapers/adapter.js';
import type { PageRenderer } from '../browser/page-renderer.js';
import type { FetchedPage, Validators } from '../fetch/fetched-page.js';
import type { Log } from '../log/log-port.js';
import { plainText } from '../model/body.js';
import type { Game } from '../model/game.js';
import type { Post } from '../model/post.js';
import { recordAudit } from '../store/audit-repo.js';
import { storeOn, type Repos } from '../store/open-store.js';
import type { PollState } from '../store/polls-repo.js';
import type { PageRecord } from '../store/posts-repo.js';
import type { Queryable, Sql } from '../store/sql.js';
import { readThread, type PageSource, type ThreadRead } from '../thread/read-thread.js';
import { stableJson } from './game-ruleset.js';
import { POLLER_ACTOR, type ReadReport } from './poll-plan.js';
import { readingNews } from './reading-news.js';
import { asStored } from './reader-switch.js';
import { StoreThreadCache } from './store-thread-cache.js';

/** What reads one game's thread. */
export interface GameSite {
  source: PageSource;
  profile?: SiteProfile | undefined;
  renderer?: PageRenderer | undefined;
}

/** One read of the thread over the store, as the runner keeps it. */
export interface RecordedRead {
  thread: ThreadRead;
  /** Page numbers recorded in this read (as the pages say). */
  recordedPages: number[];
  /** Posts new to the store in this read. */
  added: Post[];
  /** What the plan needs of it. */
  report: ReadReport;
}

export interface ReadInput {
  store: Repos & { sql: Sql };
  game: Game;
  site: GameSite;
  full: boolean;
  before: PollState;
  /** When the posts were seen (the poll's start). */
  seenAt: Date;
  log: Log;
}

/** One page as recorded: what changed on it. */
interface PageRecorded {
  page: number;
  record: PageRecord;
  /** The page added, edited, restored or moved a post: the count must follow. */
  recount: boolean;
}

/**
 * `readThread` over the store: pages come from the store's last read, and every page read
 * is written to the store at once, in page order (its posts and its validators in one
 * transaction), so a poll that dies half-way keeps what it read and the next one resumes.
 */
export async function readRecording(input: ReadInput): Promise<RecordedRead> {
  const { game, site } = input;
  const fetched = new Map<string, FetchedPage>();
  const source: PageSource = {
    async get(url: string, validators?: Validators) {
      const doc = await site.source.get(url, validators);
      fetched.set(url, doc);
      return doc;
    },
  };
  const recorded: PageRecorded[] = [];
  // The posts as recorded, where the store knew them by another reader's ids (reader-switch.ts).
  const asRecorded = new Map<Post, Post>();
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  let thread: ThreadRead;
  try {
    thread = await readThread(game.threadUrl, {
      source,
      cache: new StoreThreadCache(input.store, game.id, game.engine, input.before),
      refresh: input.full,
      ...(game.engine ? { engine: game.engine } : {}),
      ...(site.profile ? { profile: site.profile } : {}),
      ...(site.renderer ? { renderer: site.renderer } : {}),
      // The dashboard and the live page show how far the read has come (a long first read).
      onProgress: readingNews(input.store.sql, game.id, input.log),
      onPage: (page, url) => {
        chain = chain
          .then(async () => {
            if (failure === null)
              recorded.push(await recordPage(input, page, fetched.get(url) ?? null, url, asRecorded));
          })
          .catch((error: unknown) => {
            failure ??= error;
          });
      },
      onNote: (message) => input.log.info({ gameId: game.id, note: message }, 'thread reader note'),
    });
  } catch (error) {
    // Whatever was read before a failure is kept (and the error is the read's).
    await chain;
    throw new ReadFailed(error, reportOf(null, recorded));
  }
  await chain;
  if (failure !== null) throw new ReadFailed(failure, reportOf(null, recorded));
  if (asRecorded.size > 0) thread = { ...thread, posts: thread.posts.map((p) => asRecorded.get(p) ?? p) };
  const added = recorded.flatMap((r) => r.record.added);
  return { thread, recordedPages: recorded.map((r) => r.page), added, report: reportOf(thread, recorded) };
}

/** A read that failed part-way: why, and what it recorded before (kept in the store). */
export class ReadFailed extends Error {
  constructor(
    readonly reason: unknown,
    readonly report: ReadReport,
  ) {
    super(reason instanceof Error ? reason.message : String(reason), { cause: reason });
    this.name = 'ReadFailed';
  }
}

/** What a read recorded; `thread` is null when it failed part-way. */
function reportOf(thread: ThreadRead | null, recorded: readonly PageRecorded[]): ReadReport {
  const added = recorded.flatMap((r) => r.record.added);
  return {
    pages: thread ? { ...thread.summary } : { read: recorded.map((r) => r.page), unchanged: [], fromCache: [] },
    added: added.length,
    edited: recorded.reduce((n, r) => n + r.record.edited.length, 0),
    restored: recorded.reduce((n, r) => n + r.record.restored.length, 0),
    changed: recorded.some((r) => r.recount),
    vanished: 0,
    postsOnPagesRead: thread?.posts.length ?? 0,
    newPosts: added.map((p) => p.number),
  };
}

/** One page: its posts, validators, audits and the thread's shape, in one transaction. */
async function recordPage(
  input: ReadInput,
  page: ThreadPage,
  doc: FetchedPage | null,
  url: string,
  asRecorded: Map<Post, Post>,
): Promise<PageRecorded> {
  const { game, seenAt } = input;
  const switched = input.before.state.switchedFrom ?? null;
  return input.store.sql.transaction(async (tx) => {
    const repos = storeOn(tx);
    let posts = page.posts;
    if (switched) {
      posts = asStored(posts, await repos.posts.postsOn(game.id, [page.page]), switched.at);
      posts.forEach((p, i) => {
        if (p !== page.posts[i]) asRecorded.set(page.posts[i]!, p);
      });
    }
    const record = await repos.posts.recordPage(game.id, posts, seenAt);
    // The count must follow, even if this poll dies before it counts.
    const recount = record.added.length + record.edited.length + record.restored.length + record.moved.length > 0;
    if (recount) await repos.polls.mergeState(game.id, { recountDue: true });
    await repos.threadPages.saveFetched(
      game.id,
      {
        page: page.page,
        url,
        etag: doc?.etag ?? null,
        lastModified: doc?.lastModified ?? null,
        bodyHash: doc?.hash ?? null,
        postCount: posts.length,
      },
      seenAt,
    );
    await auditPage(tx, game.id, record);
    // The thread's shape as this page shows it, in the same transaction: a poll killed
    // after a page was recorded must not leave its validators without the page count
    // it showed (a 304 on that page would then hide the pages after it for good).
    await repos.polls.setShape(game.id, {
      title: page.title,
      pageCount: page.pageCount,
      postsPerPage: page.postsPerPage,
    });
    return { page: page.page, record, recount };
  });
}

/** `post.edit` with both versions, `post.restore`. */
async function auditPage(tx: Queryable, gameId: number, record: PageRecord): Promise<void> {
  for (const { before, after } of record.edited) {
    await recordAudit(tx, {
      gameId,
      actor: POLLER_ACTOR,
      action: 'post.edit',
      detail: {
        post: after.number,
        forumPostId: after.id,
        author: after.author,
        // No marker, or the same marker as before: the forum did not show this edit.
        silent: after.edit === null || stableJson(after.edit) === stableJson(before.edit),
        before: { bodyHash: before.bodyHash, edit: before.edit, text: clip(plainText(before.body)) },
        after: { bodyHash: after.bodyHash, edit: after.edit, text: clip(plainText(after.body)) },
      },
    });
  }
  for (const post of record.restored) {
    await recordAudit(tx, {
      gameId,
      actor: POLLER_ACTOR,
      action: 'post.restore',
      detail: { post: post.number, forumPostId: post.id, author: post.author },
    });
  }
}

/** Stored posts (not deleted) on the pages just read that the read did not see. */
export async function vanishedPosts(store: Repos, gameId: number, read: RecordedRead): Promise<Post[]> {
  if (read.recordedPages.length === 0) return [];
  const present = new Set(read.thread.posts.map((p) => p.id));
  const stored = await store.posts.postsOn(gameId, read.recordedPages);
  return stored.filter((p) => !p.deleted && !present.has(p.id));
}

/** A post's text for the audit log, cut to a size the log keeps. */
export function clip(text: string, max = 2_000): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
