import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { GmNewsItem, GmNewsUnread } from '../game/gm-news.js';
import type { ReviewItem } from '../game/review-queue.js';
import type { CountLesson, DeathProposal, ThresholdProposal } from '../model/gm-count.js';
import { answerDeath, answerLesson, answerThreshold, offeredByCounts } from './checks.js';
import type { CommandDeps, Recount } from './deps.js';
import { answerReview, type EventRecorded } from './events.js';
import { Invalid, NotFound, parseInput } from './errors.js';
import { answerNews, gameNews } from './news.js';
import { gameReview } from './review.js';

/**
 * The GM's one queue: everything the GM is asked to settle, in thread order: the review
 * items (votes Votal could not read, names read loosely, edits, deletions, rule
 * violations), the news read in the GM's own posts (proposals, sentences not read) and
 * what the GM's own counts taught and propose (votes Votal could not read that a count
 * placed, the threshold they state, the deaths their alive counts imply).
 * Each has a key of 16 hex digits and the answers it takes; an answer runs the command the
 * item's own route runs (`answerReview`, `answerNews`, `answerLesson`, `answerThreshold`,
 * `answerDeath`), so it is validated, audited and recounted the same way. Nothing is stored
 * for the queue itself; the lessons and proposals are the ones the poll made with the last
 * count (`offeredByCounts`): a queue view folds nothing.
 */

/** A review item; `reviewKey` is the key the review queue and its audit entries use. */
export type QueueReview = { source: 'review'; key: string; reviewKey: string } & Omit<ReviewItem, 'key'>;
/** A proposal from the GM's posts: recorded, it becomes the event it names. */
export type QueueNews = { source: 'news'; resolved: null } & GmNewsItem;
/** A sentence of the GM's shaped like news that Votal could not read: dismissed once seen. */
export type QueueUnread = { source: 'unread'; resolved: null } & GmNewsUnread;
/** A vote Votal could not read that the GM's count placed: accepted, the post is counted so (and the name learned). */
export type QueueLesson = { source: 'lesson'; resolved: null } & CountLesson;
/** The threshold the GM's counts state (`post`: the first count stating it): accepted, the game's ruleset overrides. */
export type QueueThreshold = { source: 'threshold'; resolved: null; post: number } & ThresholdProposal;
/** A death a count's alive count implies (`post`: that count): recorded, a `kill`; a note of several candidates is only dismissed. */
export type QueueDeath = { source: 'death'; resolved: null; post: number } & DeathProposal;
export type QueueItem = QueueReview | QueueNews | QueueUnread | QueueLesson | QueueThreshold | QueueDeath;

export interface GmQueue {
  /** Open items first, then by post. */
  items: QueueItem[];
  /** How many are still open. */
  open: number;
}

const KEY = z.string().regex(/^[0-9a-f]{16}$/, 'not a queue key (16 hex digits)');

export const QueueAnswer = z.discriminatedUnion('answer', [
  z.strictObject({ key: KEY, answer: z.literal('record') }),
  z.strictObject({ key: KEY, answer: z.literal('dismiss') }),
  z.strictObject({ key: KEY, answer: z.literal('accept') }),
  /** `target`: the player the post's vote was for; null ignores the vote. */
  z.strictObject({ key: KEY, answer: z.literal('correct'), target: z.string().trim().min(1).nullable() }),
]);
export type QueueAnswer = z.infer<typeof QueueAnswer>;

export type QueueAnswered =
  | { source: QueueItem['source']; answer: 'accept' | 'dismiss' }
  /** The threshold set for the game: no event is recorded, the game is recounted under it. */
  | { source: 'threshold'; answer: 'accept'; recount: Recount }
  | { source: QueueItem['source']; answer: 'record' | 'correct' | 'accept'; recorded: EventRecorded };

/** A review item's queue key: its review key is text (names, colons), the queue's is 16 hex digits like news. */
const queueKeyOf = (reviewKey: string): string =>
  createHash('sha256').update(`review:${reviewKey}`).digest('hex').slice(0, 16);

export async function gmQueue(deps: CommandDeps, gameId: number): Promise<GmQueue> {
  const [{ items: review }, { news }, { lessons, proposals }] = await Promise.all([
    gameReview(deps, gameId),
    gameNews(deps, gameId),
    offeredByCounts(deps, gameId, deps.clock.now()),
  ]);
  // Once per game: the one rule the counts state (a new rule is a new key).
  const threshold = proposals.threshold;
  const items: QueueItem[] = [
    ...review.map(
      ({ key, ...rest }): QueueReview => ({ source: 'review', key: queueKeyOf(key), reviewKey: key, ...rest }),
    ),
    ...news.proposals.map((p): QueueNews => ({ source: 'news', resolved: null, ...p })),
    ...news.unread.map((u): QueueUnread => ({ source: 'unread', resolved: null, ...u })),
    ...lessons.map((l): QueueLesson => ({ source: 'lesson', resolved: null, ...l })),
    ...(threshold ? [threshold] : []).map(
      (t): QueueThreshold => ({ source: 'threshold', resolved: null, post: t.posts[0] ?? 0, ...t }),
    ),
    ...proposals.deaths.map((d): QueueDeath => ({ source: 'death', resolved: null, post: d.countPost, ...d })),
  ];
  items.sort((a, b) => Number(a.resolved !== null) - Number(b.resolved !== null) || a.post - b.post);
  return { items, open: items.filter((i) => i.resolved === null).length };
}

/** The answers an item takes, for the error that names them. */
function answersOf(item: QueueItem): QueueAnswer['answer'][] {
  if (item.source === 'news') return ['record', 'dismiss'];
  if (item.source === 'unread') return ['dismiss'];
  if (item.source === 'lesson' || item.source === 'threshold') return ['accept', 'dismiss'];
  if (item.source === 'death') return item.player === null ? ['dismiss'] : ['record', 'dismiss'];
  const out: QueueAnswer['answer'][] = [];
  if (item.choices.some((c) => c.action === 'accept')) out.push('accept');
  if (item.choices.some((c) => c.action === 'dismiss')) out.push('dismiss');
  if (item.choices.some((c) => c.action === 'correct') || item.pick.length > 0) out.push('correct');
  return out;
}

/** Answers one item by its queue key: 404 for a key the queue does not hold, 400 for an answer it does not take. */
export async function answerQueue(
  deps: CommandDeps,
  actor: string,
  gameId: number,
  given: unknown,
): Promise<QueueAnswered> {
  const input = parseInput(QueueAnswer, given);
  const item = (await gmQueue(deps, gameId)).items.find((i) => i.key === input.key);
  if (!item) throw new NotFound('queue item', input.key);
  if (!answersOf(item).includes(input.answer))
    throw Invalid.field('answer', `this ${item.source} item takes ${answersOf(item).join(' or ')}`);
  if (item.source === 'lesson') {
    const r = await answerLesson(deps, actor, gameId, { key: item.key, answer: input.answer }, deps.clock.now());
    return r.answer === 'accept'
      ? { source: 'lesson', answer: 'accept', recorded: r.recorded }
      : { source: 'lesson', answer: 'dismiss' };
  }
  if (item.source === 'threshold' || item.source === 'death') return answerProposal(deps, actor, gameId, item, input);
  if (item.source !== 'review') {
    const r = await answerNews(deps, actor, gameId, { key: item.key, answer: input.answer });
    return r.answer === 'record'
      ? { source: item.source, answer: 'record', recorded: r.recorded }
      : { source: item.source, answer: 'dismiss' };
  }
  if (input.answer === 'accept' || input.answer === 'dismiss') {
    await answerReview(deps, actor, gameId, { answer: input.answer, post: item.post, key: item.reviewKey });
    return { source: 'review', answer: input.answer };
  }
  const target = input.answer === 'correct' ? input.target : null;
  if (!correctable(item, target))
    throw Invalid.field('target', `not a choice of this item: ${target === null ? 'ignoring the vote' : target}`);
  const r = await answerReview(deps, actor, gameId, { answer: 'correct', post: item.post, target });
  if (r.answer !== 'correct') throw new Error('a correction was answered as an acceptance');
  return { source: 'review', answer: 'correct', recorded: r.recorded };
}

/** A proposal of the GM's counts answered as the checks panel answers it. */
async function answerProposal(
  deps: CommandDeps,
  actor: string,
  gameId: number,
  item: QueueThreshold | QueueDeath,
  input: QueueAnswer,
): Promise<QueueAnswered> {
  const key = item.key;
  if (item.source === 'threshold') {
    const answer = input.answer === 'accept' ? 'accept' : 'dismiss';
    const r = await answerThreshold(deps, actor, gameId, { key, answer }, deps.clock.now());
    return r.answer === 'accept'
      ? { source: 'threshold', answer: 'accept', recount: r.recount }
      : { source: 'threshold', answer: 'dismiss' };
  }
  const answer = input.answer === 'record' ? 'record' : 'dismiss';
  const r = await answerDeath(deps, actor, gameId, { key, answer }, deps.clock.now());
  return r.answer === 'record'
    ? { source: 'death', answer: 'record', recorded: r.recorded }
    : { source: 'death', answer: 'dismiss' };
}

/** Whether a correction to `target` is one the item offers: a button's target, a candidate, a player of its pick list. */
function correctable(item: QueueReview, target: string | null): boolean {
  if (item.choices.some((c) => c.action === 'correct' && c.target === target)) return true;
  return target !== null && (item.candidates.includes(target) || item.pick.includes(target));
}
