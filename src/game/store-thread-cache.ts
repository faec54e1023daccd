import type { EngineId } from '../model/engine.js';
import type { Post } from '../model/post.js';
import type { Repos } from '../store/open-store.js';
import type { PollState } from '../store/polls-repo.js';
import type { CachedPage, CachedThread, ThreadCache } from '../thread/thread-cache.js';

/**
 * The ThreadCache port over the store: what the poller has recorded of a game's thread
 * (`thread_page` validators + the posts on each page) is the "last read" the reader resumes
 * from. The poller records pages itself as they are read (`pollGame`), each page's posts
 * and validators in one transaction and in page order, so the pages here are always
 * 1..n with nothing missing, even after a poll that died half-way; `put` only keeps the
 * thread's shape (title, page count, posts per page).
 *
 * Deleted posts are left out of the pages (the forum no longer shows them); they stay in
 * the store and in the count.
 *
 * Only the last page carries its posts: the reader resumes there and reuses the pages
 * before it unread, and the poller counts from the store, so loading every post (and its
 * body) here would make a poll that finds nothing new cost a read of the whole game.
 */
export class StoreThreadCache implements ThreadCache {
  /** The last complete read handed to `put` (what the reader saw). */
  lastPut: CachedThread | null = null;

  constructor(
    private readonly repos: Pick<Repos, 'threadPages' | 'posts' | 'polls'>,
    private readonly gameId: number,
    /** The game's engine; null until the first read identified it (then there is no entry). */
    private readonly engine: EngineId | null,
    /** The game's poll state when the caller has just read it (saves reading it again). */
    private readonly pollState?: PollState,
  ) {}

  async get(threadUrl: string): Promise<CachedThread | null> {
    if (this.engine === null) return null;
    const [pages, state] = await Promise.all([
      this.repos.threadPages.list(this.gameId),
      this.pollState ?? this.repos.polls.get(this.gameId),
    ]);
    // Pages 1..n with no gap; pages past the thread's known length (it shrank) are stale.
    let known = 0;
    for (const p of pages) {
      if (p.page !== known + 1) break;
      known += 1;
    }
    if (state.pageCount !== null) known = Math.min(known, state.pageCount);
    if (known === 0) return null;

    const resumeAt = known;
    const onLastPage = await this.repos.posts.postsOn(this.gameId, [resumeAt]);
    const lastPosts = onLastPage.filter((p) => !p.deleted).map(plainPost);
    const cached: CachedPage[] = pages.slice(0, known).map((p) => ({
      page: p.page,
      url: p.url,
      validators: { etag: p.etag, lastModified: p.lastModified, hash: p.bodyHash },
      posts: p.page === resumeAt ? lastPosts : [],
    }));
    return {
      threadUrl,
      engine: this.engine,
      title: state.threadTitle,
      // A read that died half-way knows more pages than it recorded: the reader goes on to them.
      pageCount: Math.max(known, state.pageCount ?? known),
      postsPerPage: state.postsPerPage,
      pages: cached,
      savedAt: state.lastOkAt ?? pages[known - 1]!.fetchedAt,
    };
  }

  async put(thread: CachedThread): Promise<void> {
    this.lastPut = thread;
    await this.repos.polls.setShape(this.gameId, {
      title: thread.title,
      pageCount: thread.pageCount,
      postsPerPage: thread.postsPerPage,
    });
  }
}

/** A stored post as the reader's Post (no store fields). */
function plainPost(p: Post): Post {
  return {
    id: p.id,
    number: p.number,
    page: p.page,
    author: p.author,
    authorId: p.authorId,
    postedAt: p.postedAt,
    permalink: p.permalink,
    edit: p.edit,
    bodyHash: p.bodyHash,
    body: p.body,
  };
}
