import { z } from 'zod';
import { PostReading } from './action.js';

/**
 * GM events, as written in an `--events` YAML file or posted to the API. Each applies
 * after post `at` (the number the forum shows) or at `time` (ISO 8601).
 */
const position = { at: z.number().int().min(0).optional(), time: z.string().datetime({ offset: true }).optional() };
/**
 * Clock events always have a time; `at` may pin them to a post as well. `day` ties them to
 * one Day: a deadline or check of another Day (a stale one, after an early end) does nothing.
 */
const clock = {
  at: z.number().int().min(0).optional(),
  time: z.string().datetime({ offset: true }),
  day: z.number().int().positive().optional(),
};
/** A random draw's seed (32-bit), when the GM fixes it; otherwise the tally derives one from the Day. */
const seed = z.number().int().min(0).max(0xffffffff).optional();

export const GmEvent = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('day-start'), day: z.number().int().positive(), seed, ...position }),
  z.strictObject({ kind: z.literal('day-end'), seed, ...position }),
  /** Clock: the Day's deadline. It ends the Day unless a ruleset rule extends it (Filibuster). */
  z.strictObject({ kind: z.literal('deadline'), ...clock }),
  /** Clock: a scheduled check (Hammer time, weekdays 12:00 America/Los_Angeles). */
  z.strictObject({ kind: z.literal('check'), ...clock }),
  z.strictObject({ kind: z.enum(['kill', 'revive', 'modkill']), player: z.string().min(1), ...position }),
  z.strictObject({ kind: z.literal('replace'), player: z.string().min(1), by: z.string().min(1), ...position }),
  z.strictObject({
    kind: z.literal('weight'),
    player: z.string().min(1),
    weight: z.number(),
    hidden: z.boolean().default(false),
    ...position,
  }),
  z.strictObject({
    kind: z.literal('vote'),
    player: z.string().min(1),
    target: z.string().nullable(),
    /** The vote counts but its voter is not published (Voice of Reason and the like). */
    hidden: z.boolean().optional(),
    ...position,
  }),
  /** A GM's reading of one post's vote; target null = ignore that post's vote. */
  z.strictObject({ kind: z.literal('correct'), post: z.number().int().nonnegative(), target: z.string().nullable() }),
  z.strictObject({
    kind: z.literal('status'),
    player: z.string().min(1),
    status: z.enum(['arrested', 'poisoned', 'abroad', 'hindered', 'clear']),
    ...position,
  }),
  z.strictObject({ kind: z.literal('role'), player: z.string().min(1), role: z.string().min(1), ...position }),
  z.strictObject({ kind: z.literal('decide'), eliminated: z.array(z.string()), ...position }),
  /** A penalty vote the GM gives by hand (a violation the parser cannot see). */
  z.strictObject({ kind: z.literal('penalty'), player: z.string().min(1), reason: z.string().min(1), ...position }),
  /** The Night's forgiveness result, as the GM rules it (null: nobody); it replaces the count of forgive votes. */
  z.strictObject({ kind: z.literal('forgiven'), player: z.string().min(1).nullable(), ...position }),
  /** A phase in which the player sent the GM nothing (a Night, for inactivity rules); Days are counted from votes. */
  z.strictObject({ kind: z.literal('missed'), player: z.string().min(1), ...position }),
]);
export type GmEvent = z.infer<typeof GmEvent>;

export const GmEvents = z.array(GmEvent);

/** A post as the tally sees it: who, where, when, and what the parser read in it. */
export const PostEvent = z.object({
  kind: z.literal('post'),
  // MafiaScum's opening post is "#0".
  post: z.number().int().nonnegative(),
  author: z.string(),
  time: z.string().nullable(),
  permalink: z.string().nullable(),
  reading: PostReading,
});
export type PostEvent = z.infer<typeof PostEvent>;

/**
 * An event the GM records without saying where (no `at`, no `time`) happened now, after
 * every post read so far: never from the start of the Day, where it would rewrite votes
 * cast since (a kill undoing a later unvote).
 */
export function positionedNow(event: GmEvent, now: Date): GmEvent {
  if (event.kind === 'correct' || event.kind === 'deadline' || event.kind === 'check') return event;
  if (event.at !== undefined || event.time !== undefined) return event;
  return { ...event, time: now.toISOString() };
}
