import { genericReading } from '../../../app/generic.js';
import { Hono, type Context } from 'hono';
import { approveDraft, discardDraft, editDraft, markPublished, staleness } from '../../../app/drafts.js';
import type { Draft, Publication } from '../../../model/draft.js';
import type { Game } from '../../../model/game.js';
import type { Tally } from '../../../model/tally.js';
import { copiedText } from '../../../publish/copy.js';
import { normaliseLineEndings, sameVotalText } from '../../../votal/line-endings.js';
import { refusalOf } from '../../errors.js';
import { titleOf } from '../game-data.js';
import { Csrf, GmNav, Layout, Notice, PostButton } from '../layout.js';
import { MarkupPreview } from '../markup-preview.js';
import { safeHref } from '../safe-url.js';
import { UntimedNotice } from './game-panels.js';
import { field, idOf, notFound, sessionFlash, type DashboardDeps, type UiEnv } from '../dashboard.js';

/** A votal draft (`/gm/drafts/:id`): forum-look preview, raw markup, edit, approve and publish, copy. */

function DraftPage(props: {
  csrf: string;
  game: Game;
  title: string;
  draft: Draft;
  publication: Publication | null;
  canPost: boolean;
  message?: string | null;
  error?: string | null;
  /** Approved for copying: the text to paste (the votal as drafted, no marker). */
  copyText: string | null;
  /** A pending draft made from an older count: what changed since (then approving asks to confirm). */
  staleChanges?: string[] | null;
  /** The drafted count's posts whose time could not be read (clock rules cannot apply to them): for the GM, not the post. */
  untimed?: Tally['untimed'];
  /** The count was read by the generic reader: said to the GM here, never in the votal itself. */
  genericNote?: string | null;
}) {
  const d = props.draft;
  const editable = d.status === 'pending';
  const remote = safeHref(props.publication?.remoteUrl ?? null);
  return (
    <Layout title={`Draft #${d.id} — ${props.title}`} nav={<GmNav csrf={props.csrf} />} scripts={['gm.js']}>
      <p>
        <a href={`/gm/games/${props.game.id}`}>{`← ${props.title}`}</a>
      </p>
      <h1>
        {`Votal draft #${d.id}`} <span class="chip">{d.status}</span>
      </h1>
      <Notice message={props.message ?? null} error={props.error ?? null} />
      <UntimedNotice untimed={props.untimed} />
      {props.genericNote ? (
        <p class="notice" role="note" data-generic>
          {`This count was ${props.genericNote}. This note is for you: it is not in the votal.`}
        </p>
      ) : null}
      {d.supersededBy !== null ? (
        <p class="notice" role="status">
          Replaced by <a href={`/gm/drafts/${d.supersededBy}`}>{`draft #${d.supersededBy}`}</a>.
        </p>
      ) : null}
      {props.publication?.lastError ? (
        <p class="notice error" role="alert">{`Publishing failed: ${props.publication.lastError}`}</p>
      ) : null}
      {remote ? (
        <p class="notice" role="status">
          Published:{' '}
          <a href={remote} rel="nofollow noopener noreferrer">
            the post on the forum
          </a>
        </p>
      ) : null}
      <div class="grid">
        <section class="panel" aria-labelledby="preview-h">
          <h2 id="preview-h">Preview</h2>
          <div class="forum-post">
            <div class="author">
              <div class="avatar" aria-hidden="true">
                GM
              </div>
              {typeof props.game.settings.gm === 'string'
                ? props.game.settings.gm
                : (props.game.settings.gm?.join(', ') ?? 'GM')}
            </div>
            <MarkupPreview source={d.body} dialect={d.dialect} />
          </div>
        </section>
        <section class="panel" aria-labelledby="raw-h">
          <h2 id="raw-h">{`Markup (${d.dialect})`}</h2>
          {props.copyText !== null ? (
            <>
              <p>
                Paste this into the thread as it is; Votal finds your post by its words (a line of your own or your
                signature around it is fine):
              </p>
              <label for="copy-text" class="sr-only">
                Votal to paste
              </label>
              <textarea id="copy-text" readonly rows={16}>
                {props.copyText}
              </textarea>
              <div class="actions">
                <button type="button" data-copy="copy-text">
                  Copy
                </button>
              </div>
            </>
          ) : editable ? (
            <form method="post" action={`/gm/drafts/${d.id}/approve`} id="draft-form">
              <Csrf token={props.csrf} />
              <label for="body" class="sr-only">
                Draft markup
              </label>
              <textarea id="body" name="body" rows={16}>
                {d.body}
              </textarea>
              {props.staleChanges ? (
                <div class="notice error" role="alert" id="stale-warning">
                  <p>This draft was made from an older count. Since then:</p>
                  <ul>
                    {props.staleChanges.map((line) => (
                      <li>{line}</li>
                    ))}
                  </ul>
                  <p>
                    Approve it anyway only if it should be posted as it is; otherwise draft again from the current
                    count.
                  </p>
                </div>
              ) : null}
              <div class="actions">
                {props.staleChanges ? (
                  <button type="submit" name="confirm" value="1">
                    {props.canPost ? 'Approve anyway and publish' : 'Approve anyway'}
                  </button>
                ) : (
                  <button type="submit">
                    {props.canPost ? 'Approve and publish' : 'Approve (then copy it into the thread)'}
                  </button>
                )}
                <button type="submit" class="secondary" formaction={`/gm/drafts/${d.id}/preview`}>
                  Preview the edit
                </button>
                <button type="submit" class="secondary" formaction={`/gm/drafts/${d.id}/edit`}>
                  Save edit as a new draft
                </button>
                <button type="button" class="secondary" data-copy="body">
                  Copy
                </button>
              </div>
              {!props.canPost ? (
                <p class="hint">
                  No forum login is set for this game (Settings): approve, paste it into the thread, then confirm below.
                </p>
              ) : null}
            </form>
          ) : (
            <>
              <pre class="raw" id="raw-body">
                {d.body}
              </pre>
              <div class="actions">
                <button type="button" class="secondary" data-copy="raw-body">
                  Copy
                </button>
              </div>
            </>
          )}
        </section>
      </div>
      {d.status === 'discarded' || d.status === 'superseded' ? (
        <p class="muted" id="draft-closed">
          {d.status === 'discarded'
            ? 'This draft was discarded: nothing was posted.'
            : 'This draft was replaced by a newer one: nothing was posted.'}
        </p>
      ) : null}
      {editable ||
      (props.publication && props.publication.status !== 'published' && props.publication.method === 'copy') ? (
        <section class="panel" id="draft-actions">
          <div class="actions">
            {editable && props.staleChanges ? (
              <PostButton
                action={`/gm/games/${props.game.id}/drafts`}
                csrf={props.csrf}
                label="Draft again from the current count"
                class="secondary"
              />
            ) : null}
            {editable ? (
              <PostButton
                action={`/gm/drafts/${d.id}/discard`}
                csrf={props.csrf}
                label="Discard this draft"
                class="danger"
              />
            ) : null}
            {props.publication && props.publication.status !== 'published' && props.publication.method === 'copy' ? (
              <form method="post" action={`/gm/drafts/${d.id}/published`} class="inline">
                <Csrf token={props.csrf} />
                <label for="posted-url" class="sr-only">
                  Address of the post (optional)
                </label>
                <input id="posted-url" name="url" type="url" placeholder="Link to the post (optional)" />{' '}
                <button type="submit" class="secondary">
                  I have posted it
                </button>
              </form>
            ) : null}
          </div>
        </section>
      ) : null}
    </Layout>
  );
}

/** The draft page and its forms: preview an edit, save it, approve, discard, mark as pasted. */
export function draftRoutes(deps: DashboardDeps): Hono<UiEnv> {
  const { store, commands } = deps;
  const { flashOf, back } = sessionFlash(deps.flashes);
  const app = new Hono<UiEnv>();

  const draftAndGame = async (c: Context) => {
    const id = idOf(c, 'id');
    const draft = id === null ? null : await store.drafts.get(id);
    const game = draft ? await store.games.get(draft.gameId) : null;
    return draft && game ? { draft, game } : null;
  };

  /** The draft page; `edited`: the GM's unsaved edit, previewed in place of the draft's text. */
  type Found = NonNullable<Awaited<ReturnType<typeof draftAndGame>>>;
  const draftPage = async (c: Context<UiEnv>, found: Found, edited: string | null) => {
    const { draft, game } = found;
    const [publication, poll, stale, made, generic] = await Promise.all([
      store.drafts.publicationOf(draft.id),
      store.polls.get(game.id),
      draft.status === 'pending' ? staleness(commands, draft) : null,
      store.tallies.get(draft.tallyId),
      genericReading(commands, game.id),
    ]);
    const method = game.settings.publish?.method ?? 'copy';
    const flash = flashOf(c);
    const toCopy = publication && publication.method === 'copy' && publication.status !== 'published';
    const copyText = toCopy && draft.status === 'approved' ? copiedText(draft.body) : null;
    const shown = edited === null ? draft : { ...draft, body: edited };
    const message =
      edited === null ? (flash.message ?? null) : 'Preview of your edit: it is not saved until you save or approve it.';
    return c.html(
      <DraftPage
        csrf={c.get('session').csrf}
        game={game}
        title={titleOf(game, poll)}
        draft={shown}
        publication={publication}
        staleChanges={stale?.changes.summary ?? null}
        untimed={made?.tally.untimed}
        genericNote={generic.standing?.note ?? null}
        copyText={copyText}
        canPost={method !== 'copy'}
        message={message}
        error={flash.error ?? null}
      />,
    );
  };

  app.get('/gm/drafts/:id', async (c) => {
    const found = await draftAndGame(c);
    if (!found) return notFound(c);
    return draftPage(c, found, null);
  });

  // The preview follows the GM's edit: the page again, with the edited text shown (nothing stored).
  app.post('/gm/drafts/:id/preview', async (c) => {
    const found = await draftAndGame(c);
    if (!found) return notFound(c);
    const body = normaliseLineEndings(String((await c.req.parseBody()).body ?? ''));
    if (found.draft.status !== 'pending') {
      const error = `Draft ${found.draft.id} is ${found.draft.status}; only a pending draft can be edited.`;
      return back(c, `/gm/drafts/${found.draft.id}`, { error });
    }
    return draftPage(c, found, body.trim() ? body : found.draft.body);
  });

  app.post('/gm/drafts/:id/edit', async (c) => {
    const found = await draftAndGame(c);
    if (!found) return notFound(c);
    const body = String((await c.req.parseBody()).body ?? '');
    const { draft } = found;
    try {
      // Drafts are snapshots: an edit is a new draft, and the old one is discarded.
      const edited = await editDraft(commands, c.get('actor'), draft.id, body);
      if (!edited.changed) return back(c, `/gm/drafts/${draft.id}`, { message: 'No change.' });
      return back(c, `/gm/drafts/${edited.draft.id}`, { message: `Saved as draft #${edited.draft.id}.` });
    } catch (error) {
      return back(c, `/gm/drafts/${draft.id}`, { error: refusalOf(error) });
    }
  });

  app.post('/gm/drafts/:id/approve', async (c) => {
    const found = await draftAndGame(c);
    if (!found) return notFound(c);
    const { draft } = found;
    const form = await c.req.parseBody();
    const edited = typeof form.body === 'string' && form.body.trim() && !sameVotalText(form.body, draft.body);
    const body = edited ? (form.body as string) : undefined;
    const confirm = form.confirm === '1';
    let r;
    try {
      const approval = { ...(body ? { body } : {}), ...(confirm ? { confirm } : {}) };
      r = await approveDraft(commands, c.get('actor'), draft.id, approval);
    } catch (error) {
      return back(c, `/gm/drafts/${draft.id}`, { error: refusalOf(error) });
    }
    const published = r.draft.id;
    switch (r.status) {
      case 'published':
        return back(c, `/gm/drafts/${published}`, { message: 'Approved and posted in the thread.' });
      case 'copy':
        return back(c, `/gm/drafts/${published}`, {
          message: 'Approved. Copy it into the thread, then press "I have posted it".',
        });
      case 'in-progress': {
        const message = 'Approved. Another Votal process is posting it right now; reload to see the result.';
        return back(c, `/gm/drafts/${published}`, { message });
      }
      case 'failed':
        return back(c, `/gm/drafts/${published}`, { error: `Approved, but posting failed: ${r.error}` });
    }
  });

  app.post('/gm/drafts/:id/discard', async (c) => {
    const found = await draftAndGame(c);
    if (!found) return notFound(c);
    try {
      await discardDraft(commands, c.get('actor'), found.draft.id);
      return back(c, `/gm/games/${found.game.id}`, { message: `Draft #${found.draft.id} discarded.` });
    } catch (error) {
      return back(c, `/gm/games/${found.game.id}`, { error: refusalOf(error) });
    }
  });

  app.post('/gm/drafts/:id/published', async (c) => {
    const found = await draftAndGame(c);
    if (!found) return notFound(c);
    const url = field(await c.req.parseBody(), 'url');
    try {
      await markPublished(commands, c.get('actor'), found.draft.id, url ? { url } : {});
      return back(c, `/gm/drafts/${found.draft.id}`, { message: 'Marked as published.' });
    } catch (error) {
      return back(c, `/gm/drafts/${found.draft.id}`, { error: refusalOf(error) });
    }
  });

  return app;
}
