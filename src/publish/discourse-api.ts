import { z } from 'zod';
import { statusError, type PublishHttp } from './http.js';
import { rawHasMarker } from './marker.js';
import { PublishConfigError, PublishError, type Publisher, type RemotePost } from './publisher.js';

/**
 * Discourse through its API: `POST /posts.json` with `raw` + `topic_id`, authenticated
 * with the `Api-Key` / `Api-Username` headers. The marker is looked for in the `raw`
 * source of the topic's last posts (`/t/{id}/posts.json?post_ids[]=…&include_raw=true`),
 * since the cooked HTML drops HTML comments.
 */

export interface DiscourseApiOptions {
  threadUrl: string;
  apiKey: string;
  apiUsername: string;
  http: PublishHttp;
  /** How many of the topic's last posts to search. Default 50. */
  lastPosts?: number;
}

const Created = z.looseObject({
  id: z.number(),
  post_number: z.number().optional(),
  topic_id: z.number().optional(),
  topic_slug: z.string().optional(),
});

const Topic = z.looseObject({
  slug: z.string().optional(),
  post_stream: z.looseObject({ stream: z.array(z.number()).default([]) }),
});

const Posts = z.looseObject({
  post_stream: z.looseObject({
    posts: z.array(
      z.looseObject({
        id: z.number(),
        post_number: z.number().optional(),
        raw: z.string().optional(),
        cooked: z.string().optional(),
      }),
    ),
  }),
});

/** `https://forum.example/sub/t/slug/123/4` -> base `https://forum.example/sub`, topic 123. */
function discourseTopic(threadUrl: string): { base: string; topicId: number } {
  const url = new URL(threadUrl);
  const m = /^(.*?)\/t\/(?:[^/]*[^/\d.][^/]*\/)?(\d+)(?:\.json)?(?:\/|$)/.exec(url.pathname);
  if (!m) throw new PublishConfigError(`not a Discourse topic URL: ${url.origin}${url.pathname}`);
  return { base: `${url.origin}${m[1]}`, topicId: Number(m[2]) };
}

export function discourseApiPublisher(opts: DiscourseApiOptions): Publisher {
  const { base, topicId } = discourseTopic(opts.threadUrl);
  const auth = { 'api-key': opts.apiKey, 'api-username': opts.apiUsername, accept: 'application/json' };

  const getJson = async (url: string): Promise<unknown> => {
    const answer = await opts.http.send(url, { what: 'reading the topic', headers: auth });
    const error = statusError(answer, 'reading the topic');
    if (error) throw new PublishError(error.message, 'rejected', error.retryable, error.status);
    try {
      return JSON.parse(answer.text);
    } catch {
      throw new PublishError(`reading the topic: not JSON (${url})`, 'rejected', false, answer.status);
    }
  };

  return {
    kind: 'discourse-api',

    async find(marker) {
      const topic = Topic.safeParse(await getJson(`${base}/t/${topicId}.json`));
      if (!topic.success) throw new PublishError('reading the topic: unexpected topic JSON', 'rejected', false);
      const ids = topic.data.post_stream.stream.slice(-(opts.lastPosts ?? 50));
      if (ids.length === 0) return null;
      const query = ids.map((id) => `post_ids[]=${id}`).join('&');
      const posts = Posts.safeParse(await getJson(`${base}/t/${topicId}/posts.json?${query}&include_raw=true`));
      if (!posts.success) throw new PublishError('reading the topic: unexpected posts JSON', 'rejected', false);
      const list = posts.data.post_stream.posts;
      for (let i = list.length - 1; i >= 0; i--) {
        const p = list[i]!;
        if (rawHasMarker(p.raw ?? p.cooked ?? '', marker)) {
          const slug = topic.data.slug ?? 'topic';
          return { id: String(p.id), url: p.post_number ? `${base}/t/${slug}/${topicId}/${p.post_number}` : null };
        }
      }
      return null;
    },

    async post(message): Promise<RemotePost> {
      const answer = await opts.http.send(`${base}/posts.json`, {
        method: 'POST',
        what: 'posting the votal',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ raw: message, topic_id: topicId }),
      });
      const error = statusError(answer, 'posting the votal');
      if (error) throw error;
      let created: z.infer<typeof Created>;
      try {
        created = Created.parse(JSON.parse(answer.text));
      } catch {
        // Accepted (2xx) but we cannot read where: the marker search will find it.
        return { id: null, url: null };
      }
      const slug = created.topic_slug ?? 'topic';
      return {
        id: String(created.id),
        url: created.post_number ? `${base}/t/${slug}/${created.topic_id ?? topicId}/${created.post_number}` : null,
      };
    },
  };
}
