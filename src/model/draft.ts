import { z } from 'zod';

/** `superseded`: a newer count replaced it while it was pending (kept in history). */
export const DraftStatus = z.enum(['pending', 'approved', 'discarded', 'published', 'superseded']);
export type DraftStatus = z.infer<typeof DraftStatus>;

/** A votal post drafted from one tally snapshot; its body never changes, only its status. */
export const Draft = z.object({
  id: z.number().int(),
  gameId: z.number().int(),
  tallyId: z.number().int(),
  /** The markup flavour of `body` (a BBCode dialect, markdown, text). */
  dialect: z.string(),
  body: z.string(),
  status: DraftStatus,
  createdAt: z.string(),
  createdBy: z.string(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
  /** The draft that replaced this one (status `superseded`, or `discarded` by an edit). */
  supersededBy: z.number().int().nullable(),
});
export type Draft = z.infer<typeof Draft>;

export const NewDraft = z.object({
  gameId: z.number().int(),
  tallyId: z.number().int(),
  dialect: z.string().min(1),
  body: z.string().min(1),
});
export type NewDraft = z.infer<typeof NewDraft>;

export const PublicationMethod = z.enum(['adapter', 'copy']);
export type PublicationMethod = z.infer<typeof PublicationMethod>;
/** `posting`: one process holds the claim and may be talking to the forum right now. */
export const PublicationStatus = z.enum(['pending', 'posting', 'published', 'failed']);
export type PublicationStatus = z.infer<typeof PublicationStatus>;

/** Publishing one approved draft. */
export const Publication = z.object({
  id: z.number().int(),
  draftId: z.number().int(),
  /** A unique token embedded in the posted text, to find the post after a lost reply. */
  marker: z.string(),
  method: PublicationMethod,
  status: PublicationStatus,
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  remotePostId: z.string().nullable(),
  remoteUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  publishedAt: z.string().nullable(),
  /** Who holds the claim while `posting` (a process and run), and until when. */
  claimedBy: z.string().nullable(),
  claimedUntil: z.string().nullable(),
});
export type Publication = z.infer<typeof Publication>;
