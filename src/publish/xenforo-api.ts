import { z } from 'zod';
import { statusError, type PublishHttp } from './http.js';
import { rawHasMarker } from './marker.js';
import { PublishConfigError, PublishError, type Publisher, type RemotePost } from './publisher.js';

/**
 * XenForo 2 through its REST API: `POST {board}/api/posts/` with `thread_id` and `message`
 * (BBCode), authenticated with `XF-Api-Key` (and `XF-Api-User` for a super-user key).
 * The marker is looked for in the BBCode `message` of the thread's last two API pages
 * (`GET {board}/api/threads/{id}/posts?page=N`).
 */

export interface XenforoApiOptions {
  threadUrl: string;
  apiKey: string;
  /** The user id to post as, for a super-user key. */
  apiUser?: string | undefined;
  http: PublishHttp;
}

const ApiPost = z.looseObject({
  post_id: z.number(),
  message: z.string().optional(),
  view_url: z.string().optional(),
});

const Created = z.looseObject({ success: z.boolean().optional(), post: ApiPost });

const PostsPage = z.looseObject({
  posts: z.array(ApiPost),
  pagination: z.looseObject({ current_page: z.number().optional(), last_page: z.number() }).optional(),
});

/** `https://forum.example/community/threads/slug.123/page-2` -> board `https://forum.example/community/`, thread 123. */
function xenforoThread(threadUrl: string): { board: string; threadId: number } {
  const url = new URL(threadUrl);
  const m = /^(.*?\/)(?:index\.php\?)?threads\/(?:[^/]*\.)?(\d+)\/?/.exec(url.pathname + url.search);
  if (!m) throw new PublishConfigError(`not a XenForo thread URL: ${url.origin}${url.pathname}`);
  return { board: `${url.origin}${m[1]}`, threadId: Number(m[2]) };
}

export function xenforoApiPublisher(opts: XenforoApiOptions): Publisher {
  const { board, threadId } = xenforoThread(opts.threadUrl);
  const auth: Record<string, string> = { 'xf-api-key': opts.apiKey, accept: 'application/json' };
  if (opts.apiUser) auth['xf-api-user'] = opts.apiUser;

  const page = async (n: number) => {
    const url = `${board}api/threads/${threadId}/posts?page=${n}`;
    const answer = await opts.http.send(url, { what: 'reading the thread', headers: auth });
    const error = statusError(answer, 'reading the thread');
    if (error) throw new PublishError(error.message, 'rejected', error.retryable, error.status);
    try {
      return PostsPage.parse(JSON.parse(answer.text));
    } catch {
      throw new PublishError(`reading the thread: unexpected API answer (${url})`, 'rejected', false, answer.status);
    }
  };

  return {
    kind: 'xenforo-api',

    async find(marker) {
      const first = await page(1);
      const last = first.pagination?.last_page ?? 1;
      const pages = last <= 1 ? [first] : [...(last > 2 ? [await page(last - 1)] : [first]), await page(last)];
      const posts = pages.flatMap((p) => p.posts);
      for (let i = posts.length - 1; i >= 0; i--) {
        const p = posts[i]!;
        if (rawHasMarker(p.message ?? '', marker)) return { id: String(p.post_id), url: p.view_url ?? null };
      }
      return null;
    },

    async post(message): Promise<RemotePost> {
      const answer = await opts.http.send(`${board}api/posts/`, {
        method: 'POST',
        what: 'posting the votal',
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ thread_id: String(threadId), message }).toString(),
      });
      const error = statusError(answer, 'posting the votal');
      if (error) throw error;
      try {
        const created = Created.parse(JSON.parse(answer.text));
        return { id: String(created.post.post_id), url: created.post.view_url ?? null };
      } catch {
        return { id: null, url: null };
      }
    },
  };
}
