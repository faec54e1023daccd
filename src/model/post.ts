import { hash } from 'node:crypto';
import { z } from 'zod';
import { Body } from './body.js';

/** The forum's own "edited" marker, when the engine shows one. */
export const EditMarker = z.object({
  /** When the forum says the post was last edited (ISO 8601 UTC), if it says. */
  at: z.string().nullable(),
  /** Who edited it, if the forum says. */
  by: z.string().nullable(),
  /** The marker as the forum printed it, for evidence. */
  text: z.string(),
});
export type EditMarker = z.infer<typeof EditMarker>;

export const Post = z.object({
  /** The forum's stable post id (never changes when posts above it are deleted). */
  id: z.string().min(1),
  /**
   * The number the forum shows ("#12"; MafiaScum shows "#0" on the opening post), or the
   * 1-based position where it shows none.
   */
  number: z.number().int().nonnegative(),
  /** The page of the thread the post was read from (1-based). */
  page: z.number().int().positive(),
  author: z.string(),
  /** The forum's user id of the author, when the markup has one. */
  authorId: z.string().nullable(),
  /** ISO 8601 in UTC, or null where the forum prints no usable time. */
  postedAt: z.string().nullable(),
  permalink: z.string(),
  edit: EditMarker.nullable(),
  /** sha256 of the canonical JSON of the body: a change between polls is an edit. */
  bodyHash: z.string(),
  body: Body,
});
export type Post = z.infer<typeof Post>;

export function hashBody(body: Body): string {
  return hash('sha256', JSON.stringify(body), 'hex');
}
