import { z } from 'zod';
import {
  gmNames,
  gmNews,
  NEWS_DISMISS,
  NEWS_RECORD,
  newsReadsBodyOf,
  type GmNews,
  type NewsPost,
} from '../game/gm-news.js';
import { spellingNews } from '../game/roster-spellings.js';
import { gameRuleset } from '../game/game-ruleset.js';
import { withBodies } from '../game/post-bodies.js';
import type { Game } from '../model/game.js';
import type { PostRevision } from '../store/posts-repo.js';
import type { CommandDeps } from './deps.js';
import { recordEvent, type EventRecorded } from './events.js';
import { gameOr404 } from './games.js';
import { NotFound, parseInput } from './errors.js';

/**
 * The GM's news as a queue the GM answers like the review queue: each proposal is recorded
 * (it becomes the event it names, and the count follows) or dismissed, from the dashboard
 * or the JSON API alike, and each answer is audited.
 */
export async function gameNews(deps: CommandDeps, gameId: number): Promise<{ game: Game; news: GmNews }> {
  const { store } = deps;
  const game = await gameOr404(deps, gameId);
  const [heads, events, dismissed] = await Promise.all([
    store.posts.headsOf(game.id),
    store.events.list(game.id),
    store.audit.list({ gameId: game.id, action: NEWS_DISMISS, limit: 100_000 }),
  ]);
  const reads = newsReadsBodyOf(game.settings, heads);
  // Only the GM's own posts are read for news: their bodies, no one else's.
  const posts: NewsPost[] = await withBodies(store.posts, heads, reads);
  // An edited post is read as Votal first saw it: a later edit is not news again.
  const edited = posts.filter((p) => reads(p) && p.revisions > 1);
  const revisions = await store.posts.revisionsOfPosts(edited.map((p) => p.key));
  for (const [i, p] of posts.entries()) {
    const first = reads(p) && p.revisions > 1 ? firstSeen(revisions.get(p.key) ?? []) : null;
    if (first) posts[i] = { ...p, first: { body: first.body, edit: first.edit } };
  }
  const news = gmNews({ game, ruleset: gameRuleset(game), posts, events, audit: dismissed });
  // A poster the player list spells otherwise (src/game/roster-spellings.ts), in the same queue.
  const spelt = spellingNews({
    roster: game.roster,
    events: events.map((e) => e.event),
    hosts: gmNames(game.settings, heads),
    posts: heads,
    dismissed: new Set(dismissed.map((a) => String(a.detail['key']))),
  });
  const proposals = [...news.proposals, ...spelt].sort((a, b) => a.post - b.post);
  return { game, news: { ...news, proposals } };
}

/** The body Votal saw first (ties: the older row). */
function firstSeen(revisions: readonly PostRevision[]): PostRevision | null {
  return revisions.reduce<PostRevision | null>(
    (a, r) => (a === null || r.firstSeen < a.firstSeen || (r.firstSeen === a.firstSeen && r.id < a.id) ? r : a),
    null,
  );
}

export const NewsAnswer = z.strictObject({
  key: z.string().regex(/^[0-9a-f]{16}$/, 'not a proposal key (16 hex digits)'),
  answer: z.enum(['record', 'dismiss']),
});
export type NewsAnswer = z.infer<typeof NewsAnswer>;

export type NewsAnswered = { answer: 'dismiss' } | { answer: 'record'; recorded: EventRecorded };

/** Records or dismisses one proposal (or, dismissing, one unread sentence) by its key. */
export async function answerNews(
  deps: CommandDeps,
  actor: string,
  gameId: number,
  given: unknown,
): Promise<NewsAnswered> {
  const input = parseInput(NewsAnswer, given);
  const { game, news } = await gameNews(deps, gameId);
  if (input.answer === 'dismiss') {
    if (!news.proposals.some((p) => p.key === input.key) && !news.unread.some((u) => u.key === input.key))
      throw new NotFound('news proposal', input.key);
    await deps.store.audit.record({ gameId: game.id, actor, action: NEWS_DISMISS, detail: { key: input.key } });
    return { answer: 'dismiss' };
  }
  const item = news.proposals.find((p) => p.key === input.key);
  if (!item) throw new NotFound('news proposal', input.key);
  const recorded = await recordEvent(deps, actor, game.id, item.event);
  await deps.store.audit.record({
    gameId: game.id,
    actor,
    action: NEWS_RECORD,
    // What the proposal said beside its event (the kind of death, its Night or Day) stays on record.
    detail: {
      key: input.key,
      post: item.post,
      event: item.event,
      ...(item.cause ? { cause: item.cause } : {}),
      ...(item.phase ? { phase: item.phase } : {}),
      ...(item.flip ? { flip: item.flip } : {}),
    },
  });
  return { answer: 'record', recorded };
}
