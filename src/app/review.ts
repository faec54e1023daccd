import { gameRuleset } from '../game/game-ruleset.js';
import { withBodies } from '../game/post-bodies.js';
import { reviewQueue, reviewReadsBodyOf, type ReviewItem } from '../game/review-queue.js';
import type { Body } from '../model/body.js';
import type { Game } from '../model/game.js';
import type { PostHead, PostRevision } from '../store/posts-repo.js';
import type { CommandDeps } from './deps.js';
import { gameOr404 } from './games.js';

/**
 * The game's review queue as the latest count leaves it: what Votal could not read and the
 * names it read loosely, each with its answers. A game whose ruleset cannot be loaded has
 * none (its page says why). The store is asked a fixed number of times, however many
 * posts were edited.
 */
export async function gameReview(deps: CommandDeps, gameId: number): Promise<{ game: Game; items: ReviewItem[] }> {
  const { store } = deps;
  const game = await gameOr404(deps, gameId);
  let ruleset;
  try {
    ruleset = gameRuleset(game);
  } catch {
    return { game, items: [] };
  }
  const [latest, heads, events, accepted, dismissed] = await Promise.all([
    store.tallies.latest(game.id),
    store.posts.headsOf(game.id),
    store.events.list(game.id),
    // The GM's answers, however long ago.
    store.audit.list({ gameId: game.id, action: 'review.accept', limit: 100_000 }),
    store.audit.list({ gameId: game.id, action: 'review.dismiss', limit: 100_000 }),
  ]);
  const tally = latest?.tally ?? null;
  const edited = heads.filter((p) => p.revisions > 1);
  const previousBodies = bodiesBefore(edited, await store.posts.revisionsOfPosts(edited.map((p) => p.key)));
  // Bodies only of the posts the review queue reads, not of the whole thread.
  const posts = await withBodies(store.posts, heads, reviewReadsBodyOf(tally));
  return {
    game,
    items: reviewQueue({ game, ruleset, tally, posts, events, audit: [...accepted, ...dismissed], previousBodies }),
  };
}

/** Each edited post's body before its current one: post key -> body. */
function bodiesBefore(
  edited: readonly PostHead[],
  revisions: ReadonlyMap<number, readonly PostRevision[]>,
): Map<number, Body> {
  const out = new Map<number, Body>();
  for (const p of edited) {
    const list = revisions.get(p.key) ?? [];
    const current = list.findIndex((r) => r.current);
    const before = list[(current > 0 ? current : list.length) - 1];
    if (before && !before.current) out.set(p.key, before.body);
  }
  return out;
}
