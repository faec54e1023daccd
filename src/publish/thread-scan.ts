import type { EngineId } from '../model/engine.js';
import type { Post } from '../model/post.js';
import { adapterOf } from '../../scrapers/identify.js';
import { DEFAULT_PROFILE, type SiteProfile } from '../../scrapers/site-profile.js';
import type { PublishHttp } from './http.js';
import { bodyHasMarker } from './marker.js';
import { findPaste, type PastedVotal } from '../votal/pasted-votal.js';
import { PublishError, type RemotePost } from './publisher.js';

export interface ScanOptions {
  threadUrl: string;
  engine: EngineId;
  http: PublishHttp;
  /** Cookie header for a URL (a private board). */
  cookieHeader?: (url: string) => string | undefined;
  /** How many pages from the end to read. Default 2 (a reply lands on the last page, or starts a new one). */
  lastPages?: number;
  profile?: SiteProfile;
}

/**
 * Reads the thread's last pages with the engine's adapter (page 1 says how many there
 * are) and returns the posts on them. Any failure is a PublishError: a thread that
 * cannot be read must stop a post, since we could not tell whether it is there already.
 */
export async function lastPosts(opts: ScanOptions): Promise<Post[]> {
  const adapter = adapterOf(opts.engine);
  const ref = adapter.threadRef(new URL(opts.threadUrl));
  const profile = opts.profile ?? DEFAULT_PROFILE;
  const read = async (url: string) => {
    const cookie = opts.cookieHeader?.(url);
    const answer = await opts.http.send(url, { what: 'reading the thread', headers: cookie ? { cookie } : {} });
    if (answer.status !== 200) {
      throw new PublishError(
        `reading the thread: HTTP ${answer.status} for ${url}`,
        'rejected',
        answer.status >= 500 || answer.status === 429,
        answer.status,
      );
    }
    try {
      return adapter.parsePage(answer.text, { url: answer.url, profile, now: new Date().toISOString() });
    } catch (error) {
      throw new PublishError(`reading the thread: ${(error as Error).message}`, 'rejected', false, null, {
        cause: error,
      });
    }
  };

  /** A page and, for JSON engines (Discourse), the last of the further documents it lists. */
  const readWhole = async (url: string) => {
    const page = await read(url);
    const posts = [...page.posts];
    for (const more of (page.next ?? []).slice(-2)) posts.push(...(await read(more)).posts);
    return { page, posts };
  };

  const first = await readWhole(adapter.pageUrl(ref, 1, null));
  const pageCount = Math.max(1, first.page.pageCount);
  const from = Math.max(1, pageCount - (opts.lastPages ?? 2) + 1);
  const posts: Post[] = from === 1 ? [...first.posts] : [];
  for (let n = Math.max(2, from); n <= pageCount; n++) {
    posts.push(...(await readWhole(adapter.pageUrl(ref, n, first.page.postsPerPage))).posts);
  }
  return posts;
}

/** The last post on the thread's last pages that carries `marker`, or null. */
export async function findMarkerInThread(opts: ScanOptions, marker: string): Promise<RemotePost | null> {
  const posts = await lastPosts(opts);
  for (let i = posts.length - 1; i >= 0; i--) {
    const post = posts[i]!;
    if (bodyHasMarker(post.body, marker)) return { id: post.id, url: post.permalink };
  }
  return null;
}

/** The GM's paste of a copied votal on the thread's last pages (see src/votal/pasted-votal.ts), or null. */
export async function findPasteInThread(opts: ScanOptions, votal: PastedVotal): Promise<RemotePost | null> {
  const post = findPaste(await lastPosts(opts), votal);
  return post ? { id: post.id, url: post.permalink } : null;
}
