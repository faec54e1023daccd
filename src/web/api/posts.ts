import { Hono } from 'hono';
import { gameOr404 } from '../../app/games.js';
import { NotFoundError } from '../../store/errors.js';
import { idParam } from '../errors.js';
import type { ApiDeps, ApiEnv } from './deps.js';

/** `/games/:id/posts` and a post's revisions: the evidence the count was made from. */
export function postsRoutes({ store, commands }: ApiDeps): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();

  api.get('/games/:id/posts', async (c) => {
    const game = await gameOr404(commands, idParam(c));
    // The list shows no body: heads only.
    const posts = await store.posts.headsOf(game.id);
    return c.json({
      posts: posts.map((p) => ({
        id: p.id,
        number: p.number,
        page: p.page,
        author: p.author,
        postedAt: p.postedAt,
        permalink: p.permalink,
        edit: p.edit,
        deleted: p.deleted,
        deletedAt: p.deletedAt,
        revisions: p.revisions,
        key: p.key,
      })),
    });
  });

  api.get('/games/:id/posts/:number/revisions', async (c) => {
    const game = await gameOr404(commands, idParam(c));
    const number = idParam(c, 'number');
    const post = await store.posts.postNumbered(game.id, number);
    if (!post) throw new NotFoundError('post', number);
    return c.json({
      post: { id: post.id, number: post.number, author: post.author, deleted: post.deleted },
      revisions: await store.posts.revisionsOf(post.key),
    });
  });

  return api;
}
