import { z } from 'zod';

/** Everything the audit log records, as `noun.verb`. The dashboard's activity list reads these. */
export const AuditAction = z.enum([
  'game.create',
  'game.settings',
  'game.status',
  'game.roster',
  /** The GM dropped a nickname known from an earlier game on the site (the nickname book) for this game. */
  'game.nickname-drop',
  'game.ruleset',
  /** The game's ruleset overrides changed (the GM accepted the threshold their own counts state). */
  'game.overrides',
  /** How the thread is read changed: the GM switched to the generic reader, or back to the engine's adapter. */
  'game.engine',
  'game.delete',
  'event.append',
  'poll.read',
  'poll.error',
  'poll.recover',
  'post.edit',
  'post.delete',
  'post.restore',
  'tally.save',
  'tally.decided',
  'draft.create',
  'draft.edit',
  'draft.approve',
  'draft.discard',
  'draft.supersede',
  'draft.reasons',
  'draft.error',
  'publication.start',
  'publication.retry',
  'publication.takeover',
  'publication.attempt',
  'publication.check',
  'publication.copy',
  'publication.unavailable',
  'publication.fail',
  'publication.publish',
  'review.accept',
  /** A review item whose vote cannot count, seen by the GM: it leaves the queue, the count is untouched. */
  'review.dismiss',
  'news.dismiss',
  'news.record',
  'check.mark',
  /** The GM accepted what their own count taught: a post's vote corrected and, maybe, a name learned. */
  'check.lesson-accept',
  /** The GM declined it: the lesson is not offered again. */
  'check.lesson-dismiss',
  /** The GM declined the threshold their counts state: it is not offered again. */
  'check.threshold-dismiss',
  /** The GM recorded the death their count's alive count implies (a `kill` event with it). */
  'check.death-record',
  /** The GM declined it (or saw the note of several candidates): not offered again. */
  'check.death-dismiss',
  'webhook.send',
  'webhook.fail',
  'gm.login',
  'gm.login-failed',
  'gm.password-set',
  'gm.invite',
  'gm.invite-revoke',
  'gm.join',
  'gm.revoke',
  'game.owner',
  'game.cohost-add',
  'game.cohost-remove',
  /** The GM confirmed page 1 of a generic reading; its selectors became the host's site profile. */
  'generic.confirm',
  /** The GM had page 1 read generically again (the layout changed); the host's learned profile was forgotten. */
  'generic.recheck',
  /**
   * Another game's GM had page 1 read again on this game's host: the host's learned profile
   * this game was read with is forgotten, and it waits for its own GM's check.
   */
  'generic.held',
]);
export type AuditAction = z.infer<typeof AuditAction>;

/** One audit row: who did what, when. */
export const AuditEntry = z.object({
  id: z.number().int(),
  /** null for actions outside any game. */
  gameId: z.number().int().nullable(),
  /** Who: the GM's name, `system`, `poller` ... */
  actor: z.string(),
  action: AuditAction,
  detail: z.record(z.string(), z.unknown()),
  at: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export interface NewAuditEntry {
  gameId: number | null;
  actor: string;
  action: AuditAction;
  detail?: Record<string, unknown>;
}
