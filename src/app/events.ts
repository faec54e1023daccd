import { z } from 'zod';
import { NEWS_DISMISS } from '../game/gm-news.js';
import { GmEvent, positionedNow } from '../model/event.js';
import type { Game } from '../model/game.js';
import type { Tally } from '../model/tally.js';
import type { StoredGmEvent } from '../store/events-repo.js';
import { recountAfter, type CommandDeps } from './deps.js';
import { gameOr404 } from './games.js';
import { Invalid, NotFound, parseInput } from './errors.js';
import { gameReview } from './review.js';

/** The GM's word on the game: events, answers to the review queue, dismissed news. */

export interface EventRecorded {
  event: StoredGmEvent;
  /** The recount finished before the answer; else `note` says why not. */
  recounted: boolean;
  note: string | null;
  tallyId: number | null;
  tallyChanged: boolean;
  tally: Tally | null;
}

/**
 * Records one GM event (DESIGN.md "GM events file"); an unplaced one gets the current
 * time. A recount is a poll: the fold takes every GM event, this one included; the answer
 * waits (a while) for that poll to finish.
 */
export async function recordEvent(
  deps: CommandDeps,
  actor: string,
  gameId: number,
  given: unknown,
): Promise<EventRecorded> {
  const game = await gameOr404(deps, gameId);
  const event = positionedNow(parseInput(GmEvent, given), deps.clock.now());
  return recountRecorded(deps, game, await deps.store.events.append(game.id, event, actor));
}

/**
 * The recount a stored GM event asks for, and what it left: the second half of
 * `recordEvent`, for a command that stores the event in a transaction of its own with
 * other changes (an accepted lesson: the alias and the correction, `answerLesson`).
 */
export async function recountRecorded(deps: CommandDeps, game: Game, stored: StoredGmEvent): Promise<EventRecorded> {
  const before = await deps.store.tallies.latest(game.id);
  const recount = await recountAfter(deps, game, 'event');
  const after = await deps.store.tallies.latest(game.id);
  return {
    event: stored,
    recounted: recount.done,
    note: recount.note,
    tallyId: after?.id ?? null,
    tallyChanged: (after?.id ?? null) !== (before?.id ?? null),
    tally: after?.tally ?? null,
  };
}

/**
 * The GM's answer to one review item: the post is fine as counted (accept), its vote cannot
 * count and the GM has seen it (dismiss), or its vote is corrected.
 */
export const ReviewAnswer = z.discriminatedUnion('answer', [
  z.object({ answer: z.literal('accept'), post: z.number().int().positive(), key: z.string().max(100) }),
  z.object({ answer: z.literal('dismiss'), post: z.number().int().positive(), key: z.string().max(100) }),
  /** `target`: the player the vote was for; null ignores the post's vote. */
  z.object({
    answer: z.literal('correct'),
    post: z.number().int().positive(),
    target: z.string().trim().min(1).nullable(),
  }),
]);
export type ReviewAnswer = z.infer<typeof ReviewAnswer>;

export type ReviewAnswered = { answer: 'accept' | 'dismiss' } | { answer: 'correct'; recorded: EventRecorded };

/**
 * Accepting is remembered (the item leaves the queue), for an item the queue holds that offers
 * it; a correction is a GM event and recounts.
 */
export async function answerReview(
  deps: CommandDeps,
  actor: string,
  gameId: number,
  given: ReviewAnswer,
): Promise<ReviewAnswered> {
  const input = parseInput(ReviewAnswer, given);
  const game = await gameOr404(deps, gameId);
  if (input.answer !== 'correct') {
    // "Accept" keeps a vote as counted, "Dismiss" one that cannot count: only an item that
    // offers the answer takes it (accepting a non-player's vote would say "accepted" and
    // change nothing).
    const answer = input.answer;
    const item = (await gameReview(deps, game.id)).items.find((i) => i.key === input.key && i.post === input.post);
    if (!item) throw new NotFound('review item', input.key);
    if (!item.choices.some((c) => c.action === answer)) {
      const offered = item.choices.map((c) => `"${c.label}"`).join(' or ') || 'a player picked';
      const verb = answer === 'accept' ? 'accepted' : 'dismissed';
      throw Invalid.field('answer', `${item.title} (post ${item.post}) cannot be ${verb}: it takes ${offered}`);
    }
    await deps.store.audit.record({
      gameId: game.id,
      actor,
      action: answer === 'accept' ? 'review.accept' : 'review.dismiss',
      detail: { key: input.key, post: input.post },
    });
    return { answer };
  }
  return {
    answer: 'correct',
    recorded: await recordEvent(deps, actor, game.id, { kind: 'correct', post: input.post, target: input.target }),
  };
}

/** A proposal from the GM's posts the GM does not want: recorded, so it is not shown again. */
export async function dismissNews(deps: CommandDeps, actor: string, gameId: number, key: string): Promise<void> {
  if (!/^[0-9a-f]{16}$/.test(key)) throw Invalid.field('key', 'not a proposal key (16 hex digits)');
  const game = await gameOr404(deps, gameId);
  await deps.store.audit.record({ gameId: game.id, actor, action: NEWS_DISMISS, detail: { key } });
}
