import { Hono } from 'hono';
import {
  approveDraft,
  Approval,
  discardDraft,
  draftOr404,
  markPublished,
  PastedAt,
  staleness,
} from '../../app/drafts.js';
import { parseInput } from '../../app/errors.js';
import { gameOr404 } from '../../app/games.js';
import { DraftStatus } from '../../model/draft.js';
import { idParam, jsonBody } from '../errors.js';
import type { ApiDeps, ApiEnv } from './deps.js';
import { draftJson, publishJson } from './json.js';

/** `/games/:id/drafts` and `/drafts/:id`: votal drafts, approved and published, discarded, or marked as pasted. */
export function draftsRoutes({ store, commands }: ApiDeps): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();

  api.get('/games/:id/drafts', async (c) => {
    const game = await gameOr404(commands, idParam(c));
    const status = DraftStatus.safeParse(c.req.query('status'));
    const drafts = await store.drafts.list(game.id, status.success ? { status: status.data } : {});
    const withPublications = await Promise.all(
      drafts.map(async (d) => draftJson(d, await store.drafts.publicationOf(d.id))),
    );
    return c.json({ drafts: withPublications });
  });

  /** One draft, its publication, and (pending only) `stale`: what changed in the count since it was made, or null. */
  api.get('/drafts/:id', async (c) => {
    const draft = await draftOr404(commands, idParam(c));
    const stale = draft.status === 'pending' ? await staleness(commands, draft) : null;
    return c.json({ ...draftJson(draft, await store.drafts.publicationOf(draft.id)), stale });
  });

  api.post('/drafts/:id/approve', async (c) => {
    const id = idParam(c);
    const result = await approveDraft(commands, c.get('actor'), id, parseInput(Approval, await jsonBody(c)));
    return c.json(publishJson(result), result.status === 'in-progress' ? 202 : 200);
  });

  api.post('/drafts/:id/discard', async (c) => {
    const draft = await discardDraft(commands, c.get('actor'), idParam(c));
    return c.json(draftJson(draft, await store.drafts.publicationOf(draft.id)));
  });

  /** A copied votal was pasted by the GM: record it (where, or let Votal find its marker). */
  api.post('/drafts/:id/published', async (c) => {
    const id = idParam(c);
    const pastedAt = parseInput(PastedAt, await jsonBody(c));
    const { draft, publication } = await markPublished(commands, c.get('actor'), id, pastedAt);
    return c.json(draftJson(draft, publication));
  });

  return api;
}
