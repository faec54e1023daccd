import type { GmEvent } from '../model/event.js';
import type { Game } from '../model/game.js';
import type { CountLesson, CountProposals } from '../model/gm-count.js';
import type { Post } from '../model/post.js';
import type { Ruleset } from '../rules/ruleset.js';
import type { DraftsRepo } from '../store/drafts-repo.js';
import type { PostHead, PostsRepo } from '../store/posts-repo.js';
import type { TallyEvent } from '../tally/log.js';
import { isPasteOf } from '../votal/pasted-votal.js';
import { gmChecks, type CheckPostInput } from './gm-checks.js';
import { gmNames, newsReadsBodyOf } from './gm-news.js';
import { withBodies } from './post-bodies.js';

/** The drafts a GM's post is compared with, newest first: a paste of an older one is rare. */
const DRAFTS_COMPARED = 200;

export interface CheckPosts {
  /** Every post's head, with the body of each of the GM's posts (the only ones the check reads). */
  posts: CheckPostInput[];
  /** The GM's posts that are pastes of Votal's own drafts (found by their words, as the publisher finds them). */
  pastedVotals: Set<number>;
}

/** What the GM-count check reads of the stored posts: the GM's bodies only, everyone else's votes come from the count. */
export async function checkPosts(
  store: { posts: Pick<PostsRepo, 'bodiesOf'>; drafts: Pick<DraftsRepo, 'list'> },
  game: Game,
  heads: readonly PostHead[],
): Promise<CheckPosts> {
  const reads = newsReadsBodyOf(game.settings, heads);
  const [loaded, drafts] = await Promise.all([withBodies(store.posts, heads, reads), store.drafts.list(game.id)]);
  const posts = loaded.map((p) => ({
    number: p.number,
    author: p.author,
    postedAt: p.postedAt,
    permalink: p.permalink,
    deleted: p.deleted,
    ...(p.body ? { body: p.body } : {}),
  }));
  const authors = gmNames(game.settings, heads);
  const votals = drafts.filter((d) => d.status !== 'discarded').slice(0, DRAFTS_COMPARED);
  const pastedVotals = new Set<number>();
  for (const p of loaded) {
    if (!reads(p) || p.body === undefined) continue;
    const post = { ...p, body: p.body } as unknown as Post;
    if (votals.some((d) => isPasteOf(post, { body: d.body, afterPost: null, authors }))) pastedVotals.add(p.number);
  }
  return { posts, pastedVotals };
}

export interface CountLessonsInput {
  store: Parameters<typeof checkPosts>[0];
  game: Game;
  ruleset: Ruleset;
  heads: readonly PostHead[];
  /** The count's fold: its log, the GM's events, and the events its posts were read under. */
  log: readonly TallyEvent[];
  gmEvents: readonly GmEvent[];
  readingEvents: readonly GmEvent[];
}

/**
 * What the GM's own counts teach and propose at this count: every count's lessons in thread
 * order, the threshold and the deaths they propose, none answered yet (`settleLessons` and
 * the queue settle them with the GM's answers). The poll makes them once per count and keeps
 * them with it (`LastCount.lessons`, `LastCount.proposals`), so the GM's queue reads them
 * instead of folding the game again.
 */
export async function offersOfCount(
  input: CountLessonsInput,
): Promise<{ lessons: CountLesson[]; proposals: CountProposals }> {
  const { posts, pastedVotals } = await checkPosts(input.store, input.game, input.heads);
  const { game, ruleset, log, gmEvents, readingEvents } = input;
  const checks = gmChecks({ game, ruleset, posts, log, gmEvents, readingEvents, pastedVotals, audit: [] });
  return {
    lessons: checks.counts.flatMap((c) => c.lessons),
    proposals: { threshold: checks.thresholdProposal ?? null, deaths: checks.deathProposals ?? [] },
  };
}
