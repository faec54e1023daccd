import type { EngineId } from '../model/engine.js';
import type { Post } from '../model/post.js';
import type { FetchedPage } from '../fetch/fetched-page.js';
import { PageNotFoundError } from '../fetch/errors.js';
import type { EngineAdapter, ThreadPage, ThreadRef } from '../../scrapers/adapter.js';
import { adapterOf, recogniseUrl } from '../../scrapers/identify.js';
import { adapters } from '../../scrapers/registry.js';
import { DEFAULT_PROFILE, type SiteProfile } from '../../scrapers/site-profile.js';
import { identifyEngine } from './identify-engine.js';
import type { PageRenderer } from '../browser/page-renderer.js';
import { readPage, type PageReading, type PageSource } from './read-page.js';
import type { ReadProgress } from './read-progress.js';
import type { CachedPage, CachedThread, ThreadCache } from './thread-cache.js';

export type { PageSource, ReadProgress };

export interface ReadThreadOptions {
  source: PageSource;
  /** Engine chosen by the user; otherwise the profile, the URL, then the page's fingerprints decide. */
  engine?: EngineId;
  /** The site's profile (time zone, date order, posts per page, needsBrowser...). */
  profile?: SiteProfile;
  /** Stop after this page (incremental readers and cut-off counts). */
  lastPage?: number;
  /** What earlier reads saw: with it, only the last known page and the pages after it are asked for. */
  cache?: ThreadCache;
  /** Ignore what the cache holds and read every page (the result is still cached). */
  refresh?: boolean;
  /** The browser fallback (needsBrowser sites, script-shell pages). */
  renderer?: PageRenderer;
  onPage?: (page: ThreadPage, url: string) => void;
  /** Told before each page is asked for and after it was read (progress lines, the live page). */
  onProgress?: (progress: ReadProgress) => void;
  /** Things the user should know that are not errors (a browser that would not start, a bad cache file). */
  onNote?: (message: string) => void;
}

/** How a read went: which pages came from the cache, were unchanged, or were read. */
export interface ReadSummary {
  /** Pages whose posts were reused without asking the forum. */
  fromCache: number[];
  /** Pages asked about and found unchanged (304, or the same body hash). */
  unchanged: number[];
  /** Pages read and parsed. */
  read: number[];
}

export interface ThreadRead {
  engine: EngineId;
  thread: ThreadRef;
  title: string | null;
  pageCount: number;
  /** Every post of the thread once, in thread order. */
  posts: Post[];
  summary: ReadSummary;
}

/**
 * Read a whole thread: page 1 tells how many pages there are, then each page in turn
 * (the fetcher paces requests per host). Adapters stay pure: HTML in, posts out.
 *
 * With a cache the read is incremental: earlier pages' posts are reused, the last page
 * seen before is asked "changed since?" (a 304 or the same hash means nothing new), and
 * only the pages after it are read. The cache is written only after the whole read
 * succeeded, so a failed re-read leaves what it held untouched.
 */
export async function readThread(threadUrl: string, opts: ReadThreadOptions): Promise<ThreadRead> {
  const profile = opts.profile ?? DEFAULT_PROFILE;
  const start = new URL(threadUrl);
  const fromUrl = opts.engine ? null : recogniseUrl(start, profile);
  let engine = opts.engine ?? fromUrl?.engine ?? null;
  let identified: FetchedPage | null = null;
  // A board on its own domain whose engine an earlier read found out: no need to ask again.
  if (!engine && opts.cache && !opts.refresh) engine = await engineFromCache(start, opts.cache);
  if (!engine) ({ engine, page: identified } = await identifyEngine(start, opts.source, opts.renderer));
  const adapter = adapterOf(engine);
  const thread = adapter.threadRef(start);
  const reading: PageReading = {
    source: opts.source,
    adapter,
    profile,
    renderer: opts.renderer,
    onNote: opts.onNote,
    byUrlShape: fromUrl?.by === 'url' && fromUrl.engine === engine,
  };

  const entry = opts.cache && !opts.refresh ? await opts.cache.get(thread.url) : null;
  const cached = entry && entry.engine === engine ? entry : null;
  let result: ReadResult;
  try {
    result = await readPages(reading, thread, opts, cached, identified);
  } catch (error) {
    // The thread shrank (posts deleted) and the page we resume at is gone: start over.
    if (!(error instanceof ResumePageGone)) throw error;
    opts.onNote?.(`the last page read before is gone (${error.gone.url}); reading the thread from page 1`);
    result = await readPages(reading, thread, opts, null, null);
  }

  const byId = new Map<string, Post>();
  for (const page of result.pages) for (const post of page.posts) byId.set(post.id, post);
  const posts = [...byId.values()].sort((a, b) => a.number - b.number);

  // Never replace a longer entry with a shorter one (a read cut off by lastPage).
  if (opts.cache && result.pages.length >= (cached?.pages.length ?? 0)) {
    await opts.cache.put({
      threadUrl: thread.url,
      engine,
      title: result.title,
      pageCount: result.pageCount,
      postsPerPage: result.postsPerPage,
      pages: result.pages,
      savedAt: new Date().toISOString(),
    });
  }
  return { engine, thread, title: result.title, pageCount: result.pageCount, posts, summary: result.summary };
}

/** The engine of a cached read of this thread, trying each engine whose thread URLs look like this one. */
async function engineFromCache(start: URL, cache: ThreadCache): Promise<EngineId | null> {
  const path = start.pathname + start.search;
  const likely = adapters.filter((a) => a.descriptor.threadPaths.some((p) => new RegExp(p, 'i').test(path)));
  for (const adapter of likely.length > 0 ? likely : adapters) {
    let threadUrl: string;
    try {
      threadUrl = adapter.threadRef(start).url;
    } catch {
      continue;
    }
    const entry = await cache.get(threadUrl);
    if (entry?.engine === adapter.descriptor.engine) return entry.engine;
  }
  return null;
}

/** The cached page a read resumes at answers 404/410: the cache no longer fits the thread. */
class ResumePageGone extends Error {
  constructor(readonly gone: PageNotFoundError) {
    super(gone.message);
  }
}

interface ReadResult {
  title: string | null;
  pageCount: number;
  postsPerPage: number | null;
  pages: CachedPage[];
  summary: ReadSummary;
}

async function readPages(
  r: PageReading,
  thread: ThreadRef,
  opts: ReadThreadOptions,
  cached: CachedThread | null,
  identified: FetchedPage | null,
): Promise<ReadResult> {
  const adapter: EngineAdapter = r.adapter;
  const limit = opts.lastPage ?? Number.POSITIVE_INFINITY;
  const summary: ReadSummary = { fromCache: [], unchanged: [], read: [] };
  // Resume at the last page seen before: new posts land there first, then on new pages.
  const resumeAt = Math.max(1, Math.min(cached?.pages.length ?? 1, limit));
  const pages: CachedPage[] = cached ? cached.pages.slice(0, resumeAt - 1) : [];
  summary.fromCache.push(...pages.map((p) => p.page));
  let title = cached?.title ?? null;
  let pageCount = cached?.pageCount ?? 1;
  let perPage = cached?.postsPerPage ?? null;
  const linked = new Map<number, string>();
  let countKnown = cached !== null;
  const tell = (page: number, url: string, phase: ReadProgress['phase']): void => {
    if (!opts.onProgress) return;
    const shown = Math.min(pageCount, limit);
    const pauseMs = r.source.pauseFor?.(url) ?? 0;
    try {
      opts.onProgress({ page, pageCount: shown, pageCountKnown: countKnown, phase, pauseMs, url });
    } catch {
      // Progress is for the eye; it must never break a read.
    }
  };

  for (let n = resumeAt; n <= Math.min(pageCount, limit); n++) {
    const known = cached?.pages[n - 1];
    // Where only the pages tell their URLs (the generic reader), the links they showed come first.
    const url = known?.url ?? linked.get(n) ?? adapter.pageUrl(thread, n, perPage);
    tell(n, url, 'reading');
    const prefetched =
      identified && (identified.url === url || identified.finalUrl === url) ? sameAs(identified, known) : null;
    // The page size learned so far (from the cache too) numbers a last page whose posts show no number.
    const outcome = await readPage({ ...r, postsPerPage: perPage }, url, known?.validators ?? {}, prefetched).catch(
      (error: unknown) => {
        throw known && n === resumeAt && error instanceof PageNotFoundError ? new ResumePageGone(error) : error;
      },
    );
    if (outcome.kind === 'unchanged') {
      // Only a page asked about with the cache's validators can come back unchanged.
      const kept = known!;
      summary.unchanged.push(n);
      pages.push({
        ...kept,
        validators: { ...kept.validators, etag: outcome.doc.etag, lastModified: outcome.doc.lastModified },
      });
      tell(n, url, 'unchanged');
      continue;
    }
    const { doc, page } = outcome;
    summary.read.push(n);
    opts.onPage?.(page, url);
    pages.push({
      page: n,
      url,
      validators: { etag: doc.etag, lastModified: doc.lastModified, hash: doc.hash },
      posts: page.posts,
    });
    if (n === 1 || title === null) title = page.title ?? title;
    perPage = page.postsPerPage ?? perPage;
    for (const [k, v] of Object.entries(page.pageUrls ?? {})) if (!linked.has(Number(k))) linked.set(Number(k), v);
    // The page read fresh knows the thread's length now; an unchanged page keeps the old count.
    pageCount = n === resumeAt ? Math.max(n, page.pageCount) : Math.max(pageCount, page.pageCount);
    countKnown = true;
    tell(n, url, 'read');
  }
  return { title, pageCount, postsPerPage: perPage, pages, summary };
}

/** The page fetched to identify the engine, judged against what the cache knew of it. */
function sameAs(doc: FetchedPage, known: CachedPage | undefined): FetchedPage {
  const hash = known?.validators.hash;
  return { ...doc, notModified: hash != null && hash === doc.hash };
}
