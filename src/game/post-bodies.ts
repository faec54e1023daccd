import type { Body } from '../model/body.js';
import type { HeadOrPost, PostHead, PostsRepo } from '../store/posts-repo.js';

/**
 * Every post as a head, with its current body only where `wanted` says a reader reads it:
 * a 10,000-post game's bodies are most of what reading its posts costs (issue #16).
 */
export async function withBodies(
  posts: Pick<PostsRepo, 'bodiesOf'>,
  heads: readonly PostHead[],
  wanted: (post: PostHead) => boolean,
): Promise<HeadOrPost[]> {
  const chosen = heads.filter(wanted);
  const bodies = await posts.bodiesOf(chosen.map((p) => p.revisionId));
  const loaded = new Set(chosen);
  // A post with no revision has an empty body, as `postsOf` gives it.
  return heads.map((p) => (loaded.has(p) ? { ...p, body: bodies.get(p.revisionId) ?? [] } : p));
}

/** The current body of a post a reader asked `withBodies` for; a reader that forgot to ask fails loudly. */
export function bodyOf(post: HeadOrPost): Body {
  if (post.body === undefined) throw new Error(`post ${post.number}'s body was not loaded`);
  return post.body;
}
