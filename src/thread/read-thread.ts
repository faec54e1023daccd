import type { EngineId } from '../model/engine.js';
import type { Post } from '../model/post.js';
import type { FetchedPage, Validators } from '../fetch/fetched-page.js';
import { LayoutError } from '../fetch/errors.js';
import type { EngineAdapter, ThreadPage, ThreadRef } from '../../scrapers/adapter.js';
import { adapterOf, engineFromHtml, engineFromUrl } from '../../scrapers/identify.js';
import { DEFAULT_PROFILE, type SiteProfile } from '../../scrapers/site-profile.js';

/** What the reader needs from the fetcher (the real PageFetcher, or a stand-in). */
export interface PageSource {
  get(url: string, validators?: Validators): Promise<FetchedPage>;
}

export interface ReadThreadOptions {
  source: PageSource;
  /** Engine chosen by the user; otherwise the URL, then the page's fingerprints decide. */
  engine?: EngineId;
  profile?: SiteProfile;
  /** Stop after this page (incremental readers and cut-off counts). */
  lastPage?: number;
  onPage?: (page: ThreadPage, url: string) => void;
}

export interface ThreadRead {
  engine: EngineId;
  thread: ThreadRef;
  title: string | null;
  pageCount: number;
  /** Every post of the thread once, in thread order. */
  posts: Post[];
}

/**
 * Read a whole thread: page 1 tells how many pages there are, then each page in turn
 * (the fetcher paces requests per host). Adapters stay pure: HTML in, posts out.
 */
export async function readThread(threadUrl: string, opts: ReadThreadOptions): Promise<ThreadRead> {
  const profile = opts.profile ?? DEFAULT_PROFILE;
  const start = new URL(threadUrl);
  let engine = opts.engine ?? engineFromUrl(start, profile);
  let firstDoc: FetchedPage | null = null;
  if (!engine) {
    // A board on its own domain: the page itself says which engine rendered it.
    firstDoc = await opts.source.get(start.href);
    engine = engineFromHtml(firstDoc.body);
    if (!engine) {
      throw new LayoutError(start.href, 'no supported forum engine recognised on this page; name one with --engine');
    }
  }
  const adapter = adapterOf(engine);
  const thread = adapter.threadRef(start);
  const page1Url = adapter.pageUrl(thread, 1, null);
  if (firstDoc && firstDoc.finalUrl !== page1Url && firstDoc.url !== page1Url) firstDoc = null;

  const byId = new Map<string, Post>();
  const first = await readPage(adapter, page1Url, opts, profile, firstDoc);
  first.posts.forEach((p) => byId.set(p.id, p));
  let pageCount = first.pageCount;
  const perPage = first.postsPerPage;
  const last = Math.min(pageCount, opts.lastPage ?? Number.POSITIVE_INFINITY);
  for (let n = 2; n <= last; n++) {
    const page = await readPage(adapter, adapter.pageUrl(thread, n, perPage), opts, profile, null);
    page.posts.forEach((p) => byId.set(p.id, p));
    pageCount = Math.max(pageCount, page.pageCount);
  }
  const posts = [...byId.values()].sort((a, b) => a.number - b.number);
  return { engine, thread, title: first.title, pageCount, posts };
}

async function readPage(
  adapter: EngineAdapter, url: string, opts: ReadThreadOptions, profile: SiteProfile, prefetched: FetchedPage | null,
): Promise<ThreadPage> {
  const doc = prefetched ?? (await opts.source.get(url));
  const page = adapter.parsePage(doc.body, { url: doc.finalUrl, profile, now: doc.fetchedAt });
  // JSON engines list further documents of the same page (Discourse post batches).
  for (const more of page.next ?? []) {
    const extra = await opts.source.get(more);
    const part = adapter.parsePage(extra.body, { url: extra.finalUrl, profile, now: extra.fetchedAt });
    page.posts.push(...part.posts);
  }
  opts.onPage?.(page, url);
  return page;
}
