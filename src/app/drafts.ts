import { z } from 'zod';
import { acceptedReviews } from '../game/draft-step.js';
import { deadlineOf } from '../game/poll-settings.js';
import { gameRuleset } from '../game/game-ruleset.js';
import type { Draft, Publication } from '../model/draft.js';
import { confirmCopied, publishDraft, type PublishResult } from '../publish/publish-draft.js';
import { StaleDraftError, StateError } from '../store/errors.js';
import { countChanges, type CountChanges } from '../votal/count-changes.js';
import { dialectFor } from '../votal/dialect.js';
import { normaliseLineEndings, sameVotalText } from '../votal/line-endings.js';
import { renderVotal } from '../votal/render-votal.js';
import type { CommandDeps } from './deps.js';
import { Conflict, Invalid, NotFound, parseInput } from './errors.js';
import { gameOr404 } from './games.js';
import { adapterOf, engineFromUrl } from '../../scrapers/identify.js';

/** Votal drafts: draw one up, edit, approve (and publish), discard, mark a copied one published. */

/** A pending draft made from an older count than the game's current one. */
export interface Staleness {
  message: string;
  draftTallyId: number;
  currentTallyId: number;
  changes: CountChanges;
}

export async function draftOr404(deps: Pick<CommandDeps, 'store'>, id: number): Promise<Draft> {
  const draft = await deps.store.drafts.get(id);
  if (!draft) throw new NotFound('draft', id);
  return draft;
}

/** Null when the draft was made from the game's current count; else what changed since, and how to approve it anyway. */
export async function staleness(deps: Pick<CommandDeps, 'store'>, draft: Draft): Promise<Staleness | null> {
  const { store } = deps;
  const latest = await store.tallies.latest(draft.gameId);
  if (!latest || latest.id === draft.tallyId) return null;
  const made = await store.tallies.get(draft.tallyId);
  if (!made) return null;
  const changes = countChanges(made.tally, latest.tally);
  const at = (post: number | null) => (post === null ? 'before any post' : `as of post ${post}`);
  return {
    message:
      `draft ${draft.id} was made from an older count (${at(made.tally.asOfPost)}); the count now stands ${at(latest.tally.asOfPost)}. ` +
      `${changes.summary.join(' ')} Approve again with "confirm": true to post it as it is, or draft from the current count.`,
    draftTallyId: made.id,
    currentTallyId: latest.id,
    changes,
  };
}

/** Draws up a votal from the game's current count, with the game's title, time zone and template. */
export async function draftNow(deps: CommandDeps, actor: string, gameId: number): Promise<Draft> {
  const { store } = deps;
  const game = await gameOr404(deps, gameId);
  const latest = await store.tallies.latest(game.id);
  if (!latest) throw new Conflict('There is no count yet to draft from.');
  const engine = game.engine ?? latest.tally.engine;
  if (!engine) throw new Conflict('The forum engine is not known yet.');
  const s = game.settings;
  const poll = await store.polls.get(game.id);
  let body: string;
  try {
    body = renderVotal(latest.tally, {
      dialect: dialectFor(engine),
      ...(s.votalTitle ? { title: s.votalTitle } : {}),
      deadline: deadlineOf(game, poll),
      timeZone: s.timeZone ?? gameRuleset(game).schedule?.timeZone ?? 'UTC',
      ...(s.votalTemplate ? { template: s.votalTemplate } : {}),
      settled: await acceptedReviews(store, game.id),
    });
  } catch (error) {
    throw new Conflict(`Could not render the votal: ${(error as Error).message}`);
  }
  return store.drafts.create({ gameId: game.id, tallyId: latest.id, dialect: dialectFor(engine), body }, actor);
}

export interface DraftEdited {
  /** The new pending draft, or the draft as it was when nothing changed. */
  draft: Draft;
  changed: boolean;
}

/**
 * The GM's edit of a pending draft: drafts are snapshots, so an edit is a new draft and the
 * old one is discarded. A browser's text box sends CRLF: a body that differs only in line
 * endings is no edit.
 */
export async function editDraft(deps: CommandDeps, actor: string, id: number, body: string): Promise<DraftEdited> {
  const draft = await draftOr404(deps, id);
  if (!body.trim()) throw Invalid.field('body', 'the draft is empty');
  if (draft.status !== 'pending')
    throw new Conflict(`draft ${draft.id} is ${draft.status}; only a pending draft can be edited`, {
      status: draft.status,
    });
  if (sameVotalText(body, draft.body)) return { draft, changed: false };
  return { draft: await deps.store.drafts.edit(draft.id, normaliseLineEndings(body), actor), changed: true };
}

export const Approval = z.strictObject({
  /** The GM's edit, approved with the draft (an edit that changes nothing is no edit). */
  body: z.string().min(1, { message: 'the edited votal is empty' }).optional(),
  /** Approve a draft older than the current count anyway (`force` is the same). */
  confirm: z.boolean().optional(),
  force: z.boolean().optional(),
});
export type Approval = z.infer<typeof Approval>;

/** A stale draft approved without `confirm`: what changed in the count since it was made. */
export class StaleDraft extends Conflict {
  constructor(readonly stale: Staleness) {
    super(stale.message, { stale });
    this.name = 'StaleDraft';
  }
}

/**
 * Approves a draft (with the GM's edit, if any) and publishes it: through the forum where
 * a way to post is set, else as text to copy. A draft older than the current count is
 * refused (StaleDraft, naming what changed) unless confirmed. Approving an approved or
 * published draft again just publishes (or reports) it: a second click is no error.
 */
export async function approveDraft(
  deps: CommandDeps,
  actor: string,
  id: number,
  given: Approval,
): Promise<PublishResult> {
  const { store } = deps;
  const input = parseInput(Approval, given);
  let draft = await draftOr404(deps, id);
  const confirmed = input.confirm === true || input.force === true;
  if (draft.status === 'discarded')
    throw new Conflict(`draft ${draft.id} was discarded; it cannot be approved`, { status: draft.status });
  if (draft.status === 'superseded') {
    throw new Conflict(
      `draft ${draft.id} was superseded by draft ${draft.supersededBy} (a newer count); approve that one`,
      {
        status: draft.status,
        supersededBy: draft.supersededBy,
      },
    );
  }
  if (draft.status === 'pending' && !confirmed) {
    const stale = await staleness(deps, draft);
    if (stale) throw new StaleDraft(stale);
  }
  const body = input.body === undefined ? undefined : normaliseLineEndings(input.body);
  if (body !== undefined && body !== normaliseLineEndings(draft.body)) {
    if (draft.status !== 'pending')
      throw new Conflict(`draft ${draft.id} is ${draft.status}; only a pending draft can be edited`, {
        status: draft.status,
      });
    draft = await store.drafts.edit(draft.id, body, actor);
  }
  if (draft.status === 'pending') {
    try {
      draft = await approveOnce(deps, actor, draft, !confirmed);
    } catch (error) {
      // The count moved on between the check above and the approval.
      const stale = error instanceof StaleDraftError ? await staleness(deps, draft) : null;
      if (stale) throw new StaleDraft(stale);
      throw error;
    }
  }
  return publishDraft(deps.publish, draft.id, actor);
}

/** pending -> approved; a GM approving at the same time elsewhere (another tab, another server) is no error. */
async function approveOnce(deps: CommandDeps, actor: string, draft: Draft, current: boolean): Promise<Draft> {
  try {
    return await deps.store.drafts.approve(draft.id, actor, { current });
  } catch (error) {
    const now =
      error instanceof StateError && !(error instanceof StaleDraftError) ? await deps.store.drafts.get(draft.id) : null;
    if (now && (now.status === 'approved' || now.status === 'published')) return now;
    throw error;
  }
}

export async function discardDraft(deps: CommandDeps, actor: string, id: number): Promise<Draft> {
  return deps.store.drafts.discard(id, actor);
}

/** Where the GM pasted a copied votal (or nothing: Votal looks for its marker in the thread). */
export const PastedAt = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).optional(),
  postId: z.string().min(1).optional(),
});
export type PastedAt = z.infer<typeof PastedAt>;

/**
 * The address the GM gives for a pasted votal must be a post of the game's own thread, and
 * not one already read as a player's: a wrong paste must not close the draft as posted.
 * A post of the thread is one whose address the thread's engine maps to the game's thread,
 * or a post Votal has read from it.
 */
async function assertVotalPostUrl(deps: CommandDeps, gameId: number, url: string): Promise<void> {
  const game = await gameOr404(deps, gameId);
  const given = new URL(url);
  const without = (u: URL) => `${u.origin}${u.pathname}${u.search}`.replace(/\/+$/, '');
  const posts = await deps.store.posts.postsOf(gameId);
  const read = posts.find((p) => p.permalink !== null && without(new URL(p.permalink)) === without(given));
  if (read) {
    const player = game.roster.find((s) => s.name === read.author || s.aliases?.includes(read.author));
    if (player)
      throw Invalid.field(
        'url',
        `post #${read.number} is ${read.author}'s, not the votal: give the address of your own post`,
      );
    return;
  }
  const engine = game.engine ?? engineFromUrl(new URL(game.threadUrl));
  let same = false;
  if (engine) {
    try {
      const adapter = adapterOf(engine);
      same = adapter.threadRef(given).url === adapter.threadRef(new URL(game.threadUrl)).url;
    } catch {
      same = false;
    }
  }
  if (!same) {
    throw Invalid.field(
      'url',
      `that is not a post in this game's thread (${game.threadUrl}): give the address of the votal you posted there`,
    );
  }
}

/** A copied votal was pasted by the GM: recorded once found (or where the GM says it is). */
export async function markPublished(
  deps: CommandDeps,
  actor: string,
  id: number,
  given: PastedAt,
): Promise<{ draft: Draft; publication: Publication }> {
  const input = parseInput(PastedAt, given);
  const draft = await draftOr404(deps, id);
  if (input.url) await assertVotalPostUrl(deps, draft.gameId, input.url);
  const remote = input.url || input.postId ? { id: input.postId ?? null, url: input.url ?? null } : undefined;
  const publication = await confirmCopied(deps.publish, draft.id, actor, remote);
  if (!publication) throw new Conflict('the votal was not found in the thread yet; paste it, or give its url');
  return { draft: (await deps.store.drafts.get(draft.id)) ?? draft, publication };
}
