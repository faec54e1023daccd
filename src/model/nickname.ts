import { z } from 'zod';

/**
 * One page of a forum's nickname book: a nickname a GM accepted (a count's lesson) or typed
 * for a player's forum name in one game, known for that forum name in later games on the
 * same site (the forum's host). Kept in the database (migration 014).
 */
export const NicknameEntry = z.object({
  /** The forum's host, lower case. */
  site: z.string().min(1),
  forumName: z.string().min(1),
  nickname: z.string().min(1),
  /** The game it was learned in, and its title then (the game may be deleted since). */
  fromGame: z.number().int().nullable(),
  fromTitle: z.string().min(1),
  learnedBy: z.string(),
  learnedAt: z.string(),
});
export type NicknameEntry = z.infer<typeof NicknameEntry>;

/** A known nickname the GM dropped for one game: not read in it again. */
export const DroppedNickname = z.object({
  forumName: z.string().min(1),
  nickname: z.string().min(1),
});
export type DroppedNickname = z.infer<typeof DroppedNickname>;
