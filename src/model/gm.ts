import { z } from 'zod';

/**
 * The game masters who run games on one Votal instance. The instance admin (signed in with
 * the admin token or the admin password) sees every game and invites the others; a GM sees
 * the games they own (they created them) or co-host (the owner or the admin added them).
 */

/** The admin's account name: reserved, never taken by an invite. */
export const ADMIN_NAME = 'admin';

/** How a GM is named on the dashboard and in audit entries (`gm:<name>`); unique ignoring case. */
export const GmName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,39}$/, {
    message: 'use 1 to 40 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit',
  })
  .refine((name) => name.toLowerCase() !== ADMIN_NAME, { message: `"${ADMIN_NAME}" is the instance admin's name` });
export type GmName = z.infer<typeof GmName>;

export const Gm = z.object({
  id: z.number().int().positive(),
  name: z.string().min(1),
  /** Sees every game, invites and revokes GMs. */
  admin: z.boolean(),
  createdAt: z.string(),
  /** A revoked GM cannot sign in; the account stays so that past audit entries still name them. */
  revokedAt: z.string().nullable(),
});
export type Gm = z.infer<typeof Gm>;

/** Who a GM is to a game: its creator (`owner`), or a GM added by the owner or the admin (`cohost`). */
export const GameRole = z.enum(['owner', 'cohost']);
export type GameRole = z.infer<typeof GameRole>;

export const GmInvite = z.object({
  id: z.number().int().positive(),
  createdBy: z.number().int().positive(),
  createdAt: z.string(),
  expiresAt: z.string(),
  usedAt: z.string().nullable(),
  /** The GM who took the invite. */
  usedBy: z.number().int().positive().nullable(),
  revokedAt: z.string().nullable(),
});
export type GmInvite = z.infer<typeof GmInvite>;

/** An invite's state at a moment. */
export function inviteState(invite: GmInvite, at: Date): 'open' | 'used' | 'revoked' | 'expired' {
  if (invite.usedAt !== null) return 'used';
  if (invite.revokedAt !== null) return 'revoked';
  return Date.parse(invite.expiresAt) <= at.getTime() ? 'expired' : 'open';
}

/** The audit actor of a GM's actions. */
export const actorOf = (gm: Pick<Gm, 'name'>): string => `gm:${gm.name}`;
