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
import { field, idOf, notFound, pageDeps, type DashboardDeps, type PageDeps, type UiEnv } from '../dashboard.js';
import type { Flash } from '../flash.js';

/** A votal draft (`/gm/drafts/:id`): forum-look preview, raw markup, edit, approve and publish, copy. */

interface DraftPageProps {
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
}

/** A publication still waiting for the GM to paste it. */
const awaitsPaste = (p: Publication | null): boolean => p !== null && p.status !== 'published' && p.method === 'copy';

/** What the GM should know of this draft before anything else: the reader, a newer draft, publishing. */
function DraftNotices(props: DraftPageProps) {
  const d = props.draft;
  const remote = safeHref(props.publication?.remoteUrl ?? null);
  return (
    <>
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
    </>
  );
}

/** The draft as the thread will show it, under the GM's name. */
function ForumPreview(props: { game: Game; draft: Draft }) {
  const gm = props.game.settings.gm;
  return (
    <section class="panel" aria-labelledby="preview-h">
      <h2 id="preview-h">Preview</h2>
      <div class="forum-post">
        <div class="author">
          <div class="avatar" aria-hidden="true">
            GM
          </div>
          {typeof gm === 'string' ? gm : (gm?.join(', ') ?? 'GM')}
        </div>
        <MarkupPreview source={props.draft.body} dialect={props.draft.dialect} />
      </div>
    </section>
  );
}

/** Approved for copying: the text to paste, and its Copy button. */
function CopyText(props: { text: string }) {
  return (
    <>
      <p>
        Paste this into the thread as it is; Votal finds your post by its words (a line of your own or your signature
        around it is fine):
      </p>
      <label for="copy-text" class="sr-only">
        Votal to paste
      </label>
      <textarea id="copy-text" readonly rows={16}>
        {props.text}
      </textarea>
      <div class="actions">
        <button type="button" data-copy="copy-text">
          Copy
        </button>
      </div>
    </>
  );
}

/** A draft made from an older count: what changed since, before the GM approves it anyway. */
function StaleWarning(props: { changes: string[] }) {
  return (
    <div class="notice error" role="alert" id="stale-warning">
      <p>This draft was made from an older count. Since then:</p>
      <ul>
        {props.changes.map((line) => (
          <li>{line}</li>
        ))}
      </ul>
      <p>Approve it anyway only if it should be posted as it is; otherwise draft again from the current count.</p>
    </div>
  );
}

/** A pending draft's markup, editable: approve, preview or save the edit, copy. */
function ApproveForm(props: { csrf: string; draft: Draft; staleChanges?: string[] | null; canPost: boolean }) {
  const d = props.draft;
  return (
    <form method="post" action={`/gm/drafts/${d.id}/approve`} id="draft-form">
      <Csrf token={props.csrf} />
      <label for="body" class="sr-only">
        Draft markup
      </label>
      <textarea id="body" name="body" rows={16}>
        {d.body}
      </textarea>
      {props.staleChanges ? <StaleWarning changes={props.staleChanges} /> : null}
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
  );
}

/** The draft's markup: to paste once approved, to edit while pending, else read-only. */
function MarkupPanel(props: DraftPageProps) {
  const d = props.draft;
  return (
    <section class="panel" aria-labelledby="raw-h">
      <h2 id="raw-h">{`Markup (${d.dialect})`}</h2>
      {props.copyText !== null ? (
        <CopyText text={props.copyText} />
      ) : d.status === 'pending' ? (
        <ApproveForm csrf={props.csrf} draft={d} staleChanges={props.staleChanges} canPost={props.canPost} />
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
  );
}

/** Draft again, discard (a pending draft), or say it was pasted (a copy not yet confirmed). */
function DraftActions(props: DraftPageProps) {
  const d = props.draft;
  const editable = d.status === 'pending';
  if (!editable && !awaitsPaste(props.publication)) return null;
  return (
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
        {awaitsPaste(props.publication) ? (
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
  );
}

function DraftPage(props: DraftPageProps) {
  const d = props.draft;
  return (
    <Layout title={`Draft #${d.id} — ${props.title}`} nav={<GmNav csrf={props.csrf} />} scripts={['gm.js']}>
      <p>
        <a href={`/gm/games/${props.game.id}`}>{`← ${props.title}`}</a>
      </p>
      <h1>
        {`Votal draft #${d.id}`} <span class="chip">{d.status}</span>
      </h1>
      <DraftNotices {...props} />
      <div class="grid">
        <ForumPreview game={props.game} draft={d} />
        <MarkupPanel {...props} />
      </div>
      {d.status === 'discarded' || d.status === 'superseded' ? (
        <p class="muted" id="draft-closed">
          {d.status === 'discarded'
            ? 'This draft was discarded: nothing was posted.'
            : 'This draft was replaced by a newer one: nothing was posted.'}
        </p>
      ) : null}
      <DraftActions {...props} />
    </Layout>
  );
}

type Ctx = Context<UiEnv>;

/** The draft of `/gm/drafts/:id` and its game, or null (then the page is not found). */
interface Found {
  draft: Draft;
  game: Game;
}

async function draftAndGame(store: PageDeps['store'], c: Ctx): Promise<Found | null> {
  const id = idOf(c, 'id');
  const draft = id === null ? null : await store.drafts.get(id);
  const game = draft ? await store.games.get(draft.gameId) : null;
  return draft && game ? { draft, game } : null;
}

/** The draft page; `edited`: the GM's unsaved edit, previewed in place of the draft's text. */
async function renderDraft(d: PageDeps, c: Ctx, found: Found, edited: string | null) {
  const { store, commands } = d;
  const { draft, game } = found;
  const [publication, poll, stale, made, generic] = await Promise.all([
    store.drafts.publicationOf(draft.id),
    store.polls.get(game.id),
    draft.status === 'pending' ? staleness(commands, draft) : null,
    store.tallies.get(draft.tallyId),
    genericReading(commands, game.id),
  ]);
  const method = game.settings.publish?.method ?? 'copy';
  const flash = d.flashOf(c);
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
}

/** A handler of one draft: not found unless the path names a draft (and its game). */
const ofDraft =
  (d: PageDeps, handle: (d: PageDeps, c: Ctx, found: Found) => Promise<Response>) =>
  async (c: Ctx): Promise<Response> => {
    const found = await draftAndGame(d.store, c);
    return found ? handle(d, c, found) : notFound(c);
  };

/** `GET /gm/drafts/:id`. */
function showDraft(d: PageDeps, c: Ctx, found: Found) {
  return renderDraft(d, c, found, null);
}

/** `POST …/preview`: the page again, with the edited text shown (nothing stored). */
async function previewEdit(d: PageDeps, c: Ctx, found: Found) {
  const body = normaliseLineEndings(String((await c.req.parseBody()).body ?? ''));
  if (found.draft.status !== 'pending') {
    const error = `Draft ${found.draft.id} is ${found.draft.status}; only a pending draft can be edited.`;
    return d.back(c, `/gm/drafts/${found.draft.id}`, { error });
  }
  return renderDraft(d, c, found, body.trim() ? body : found.draft.body);
}

/** `POST …/edit`: drafts are snapshots, so an edit is a new draft, and the old one is discarded. */
async function saveEdit(d: PageDeps, c: Ctx, { draft }: Found) {
  const body = String((await c.req.parseBody()).body ?? '');
  try {
    const edited = await editDraft(d.commands, c.get('actor'), draft.id, body);
    if (!edited.changed) return d.back(c, `/gm/drafts/${draft.id}`, { message: 'No change.' });
    return d.back(c, `/gm/drafts/${edited.draft.id}`, { message: `Saved as draft #${edited.draft.id}.` });
  } catch (error) {
    return d.back(c, `/gm/drafts/${draft.id}`, { error: refusalOf(error) });
  }
}

/** The approval the form asks for: the GM's edit (only when the text differs), and a confirmed stale draft. */
function approvalOf(form: Record<string, unknown>, draft: Draft): Parameters<typeof approveDraft>[3] {
  const edited = typeof form.body === 'string' && form.body.trim() && !sameVotalText(form.body, draft.body);
  const body = edited ? (form.body as string) : undefined;
  const confirm = form.confirm === '1';
  return { ...(body ? { body } : {}), ...(confirm ? { confirm } : {}) };
}

/** What the GM is told after approving: posted, to paste, being posted elsewhere, or failed. */
function approvedFlash(r: Awaited<ReturnType<typeof approveDraft>>): Flash {
  switch (r.status) {
    case 'published':
      return { message: 'Approved and posted in the thread.' };
    case 'copy':
      return { message: 'Approved. Copy it into the thread, then press "I have posted it".' };
    case 'in-progress':
      return { message: 'Approved. Another Votal process is posting it right now; reload to see the result.' };
    case 'failed':
      return { error: `Approved, but posting failed: ${r.error}` };
  }
}

/** `POST …/approve`: approves (with the GM's edit, if any) and publishes where a forum login is set. */
async function approve(d: PageDeps, c: Ctx, { draft }: Found) {
  const approval = approvalOf(await c.req.parseBody(), draft);
  let r: Awaited<ReturnType<typeof approveDraft>>;
  try {
    r = await approveDraft(d.commands, c.get('actor'), draft.id, approval);
  } catch (error) {
    return d.back(c, `/gm/drafts/${draft.id}`, { error: refusalOf(error) });
  }
  return d.back(c, `/gm/drafts/${r.draft.id}`, approvedFlash(r));
}

/** `POST …/discard`: back to the game. */
async function discard(d: PageDeps, c: Ctx, { draft, game }: Found) {
  try {
    await discardDraft(d.commands, c.get('actor'), draft.id);
    return d.back(c, `/gm/games/${game.id}`, { message: `Draft #${draft.id} discarded.` });
  } catch (error) {
    return d.back(c, `/gm/games/${game.id}`, { error: refusalOf(error) });
  }
}

/** `POST …/published`: the GM pasted it (at the address given, if any). */
async function markPasted(d: PageDeps, c: Ctx, { draft }: Found) {
  const url = field(await c.req.parseBody(), 'url');
  try {
    await markPublished(d.commands, c.get('actor'), draft.id, url ? { url } : {});
    return d.back(c, `/gm/drafts/${draft.id}`, { message: 'Marked as published.' });
  } catch (error) {
    return d.back(c, `/gm/drafts/${draft.id}`, { error: refusalOf(error) });
  }
}

/** The draft page and its forms: preview an edit, save it, approve, discard, mark as pasted. */
export function draftRoutes(deps: DashboardDeps): Hono<UiEnv> {
  const d = pageDeps(deps);
  const app = new Hono<UiEnv>();
  app.get('/gm/drafts/:id', ofDraft(d, showDraft));
  app.post('/gm/drafts/:id/preview', ofDraft(d, previewEdit));
  app.post('/gm/drafts/:id/edit', ofDraft(d, saveEdit));
  app.post('/gm/drafts/:id/approve', ofDraft(d, approve));
  app.post('/gm/drafts/:id/discard', ofDraft(d, discard));
  app.post('/gm/drafts/:id/published', ofDraft(d, markPasted));
  return app;
}
