import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { addCohost, removeCohost, setCohostForumName, type CohostChanged } from '../../app/cohosts.js';
import type { CommandDeps } from '../../app/deps.js';
import { inviteState, type Gm, type GmInvite } from '../../model/gm.js';
import type { Game } from '../../model/game.js';
import { InviteRefusedError, type GameGm, type GmsRepo } from '../../store/gms-repo.js';
import { NotFoundError, StateError } from '../../store/errors.js';
import { refusalOf } from '../errors.js';
import { secretHash, type GmVariables } from '../gm-sessions.js';
import { recountWords, type Flash, type Flashes } from './flash.js';
import { ErrorPage } from './pages/error-page.js';
import { Csrf, GmNav, Layout, LocalTime, Notice, PostButton } from './layout.js';
import { isHttps } from '../https.js';
import { rowIdParam as idOf } from '../ids.js';

/**
 * The game masters of an instance: the admin's page (`/gm/gms`: GMs, invite links,
 * revoking), and a game's GMs on its settings page (owner and co-hosts; the owner or the
 * admin adds and removes co-hosts by name, and sets their names on the forum). Invite links
 * are made here and taken on the public invite page (sign-in.tsx). A game's co-hosts change
 * only through the commands (src/app/cohosts.ts): these routes parse the form and call them.
 */

/** How long an invite link works. */
const INVITE_DAYS = 7;

export interface GmsPageDeps {
  gms: GmsRepo;
  /** The commands a game's co-hosts change through (src/app/cohosts.ts). */
  commands: CommandDeps;
  flashes: Flashes;
  now: () => Date;
  /** VOTAL_PUBLIC_URL: the address invite links name (else the one the admin's browser used). */
  publicUrl?: string | undefined;
}

type Env = { Variables: GmVariables };

const STATE_WORDS = { open: 'open', used: 'used', revoked: 'revoked', expired: 'expired' } as const;

/** A new invite link, shown once right after it is made. */
function NewInviteLink(props: { link: string }) {
  return (
    <section class="panel" aria-labelledby="link-h">
      <h2 id="link-h">New invite link</h2>
      <p>{`Send this link to the new GM. It works once, for ${INVITE_DAYS} days, and is not shown again.`}</p>
      <input id="invite-link" type="text" readonly value={props.link} aria-label="Invite link" />{' '}
      <button type="button" data-copy="invite-link">
        Copy
      </button>
    </section>
  );
}

/** The instance's GMs, each with a Revoke button (never the admin's own). */
function GmsTable(props: { csrf: string; gms: Gm[] }) {
  return (
    <section class="panel" aria-labelledby="gms-h">
      <h2 id="gms-h">GMs</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Since</th>
            <th scope="col">Status</th>
            <th scope="col"></th>
          </tr>
        </thead>
        <tbody>
          {props.gms.map((g) => (
            <tr>
              <th scope="row">
                {g.name}
                {g.admin ? ' (instance admin)' : ''}
              </th>
              <td>
                <LocalTime iso={g.createdAt} />
              </td>
              <td>
                {g.revokedAt ? (
                  <>
                    revoked <LocalTime iso={g.revokedAt} />
                  </>
                ) : (
                  'can sign in'
                )}
              </td>
              <td>
                {!g.admin && !g.revokedAt ? (
                  <PostButton
                    action={`/gm/gms/${g.id}/revoke`}
                    csrf={props.csrf}
                    label={`Revoke ${g.name}`}
                    class="secondary"
                    title="Signs them out for good; their games stay, the admin sees them"
                  />
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The invite links made, each in its state; an open one can be revoked. */
function InvitesTable(props: { csrf: string; invites: GmInvite[]; names: Map<number, string>; now: Date }) {
  const { names } = props;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Made</th>
          <th scope="col">Ends</th>
          <th scope="col">State</th>
          <th scope="col"></th>
        </tr>
      </thead>
      <tbody>
        {props.invites.map((i) => {
          const state = inviteState(i, props.now);
          return (
            <tr>
              <th scope="row">{String(i.id)}</th>
              <td>
                <LocalTime iso={i.createdAt} />
                {` by ${names.get(i.createdBy) ?? '?'}`}
              </td>
              <td>
                <LocalTime iso={i.expiresAt} />
              </td>
              <td>{state === 'used' ? `used by ${names.get(i.usedBy ?? 0) ?? '?'}` : STATE_WORDS[state]}</td>
              <td>
                {state === 'open' ? (
                  <PostButton
                    action={`/gm/gms/invites/${i.id}/revoke`}
                    csrf={props.csrf}
                    label="Revoke"
                    class="secondary"
                  />
                ) : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function GmsPage(props: { csrf: string; me: Gm; gms: Gm[]; invites: GmInvite[]; now: Date; flash: Flash }) {
  const names = new Map(props.gms.map((g) => [g.id, g.name]));
  return (
    <Layout title="Game masters — Votal" nav={<GmNav csrf={props.csrf} />} scripts={['gm.js']}>
      <h1>Game masters</h1>
      <Notice message={props.flash.message ?? null} error={props.flash.error ?? null} />
      {props.flash.link ? <NewInviteLink link={props.flash.link} /> : null}
      <GmsTable csrf={props.csrf} gms={props.gms} />
      <section class="panel" aria-labelledby="inv-h">
        <h2 id="inv-h">Invites</h2>
        <form method="post" action="/gm/gms/invites">
          <Csrf token={props.csrf} />
          <p class="hint">
            {'An invite link lets one person choose a GM name and a password. ' +
              `It works once and ends after ${INVITE_DAYS} days.`}
          </p>
          <div class="actions">
            <button type="submit">Create an invite link</button>
          </div>
        </form>
        {props.invites.length === 0 ? (
          <p>No invites yet.</p>
        ) : (
          <InvitesTable csrf={props.csrf} invites={props.invites} names={names} now={props.now} />
        )}
      </section>
    </Layout>
  );
}

/** A game's GMs on its settings page. */
function GameGmsPanel(props: { csrf: string; game: Game; members: GameGm[]; canManage: boolean }) {
  const g = props.game;
  return (
    <section class="panel" aria-labelledby="cohosts-h" id="cohosts">
      <h2 id="cohosts-h">Game masters</h2>
      {props.members.length === 0 ? (
        <p>No GM owns this game (made with the admin token); the admin sees it.</p>
      ) : (
        <ul>
          {props.members.map((m) => (
            <li>
              {`${m.gm.name} — ${m.role === 'owner' ? 'owner' : 'co-host'}${m.gm.revokedAt ? ' (revoked)' : ''}`}
              {g.settings.cohostForumNames?.[m.gm.name] ? (
                <span class="muted" data-forum-name={m.gm.name}>
                  {` · on the forum: ${g.settings.cohostForumNames[m.gm.name]}`}
                </span>
              ) : null}
              {props.canManage && m.role === 'cohost' ? (
                <>
                  {' '}
                  <PostButton
                    action={`/gm/games/${g.id}/cohosts/${m.gm.id}/remove`}
                    csrf={props.csrf}
                    label={`Remove ${m.gm.name}`}
                    class="secondary"
                  />
                  <form method="post" action={`/gm/games/${g.id}/cohosts/${m.gm.id}/forum`}>
                    <Csrf token={props.csrf} />
                    <label for={`forum-${m.gm.id}`}>{`${m.gm.name}'s name on the forum (empty: none)`}</label>
                    <input
                      id={`forum-${m.gm.id}`}
                      name="forum"
                      type="text"
                      maxlength={100}
                      autocomplete="off"
                      value={g.settings.cohostForumNames?.[m.gm.name] ?? ''}
                    />{' '}
                    <button type="submit" class="secondary">
                      Save forum name
                    </button>
                  </form>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {props.canManage ? (
        <form method="post" action={`/gm/games/${g.id}/cohosts`}>
          <Csrf token={props.csrf} />
          <label for="cohost">Add a co-host by their GM name (they see and run this game as you do)</label>
          <input id="cohost" name="name" type="text" maxlength={40} required autocomplete="off" />
          <label for="cohost-forum">
            Their name on the forum (optional): their posts are the hosts', never a player's votes
          </label>
          <input id="cohost-forum" name="forum" type="text" maxlength={100} autocomplete="off" />
          <div class="actions">
            <button type="submit">Add co-host</button>
          </div>
        </form>
      ) : (
        <p class="hint">The game's owner or the instance admin adds and removes co-hosts.</p>
      )}
    </section>
  );
}

/** Whether the GM may add and remove the game's co-hosts: its owner, or the admin. */
async function managesGame(gms: GmsRepo, gm: Gm, gameId: number): Promise<boolean> {
  return gm.admin || (await gms.roleIn(gameId, gm.id)) === 'owner';
}

/** The settings page's panel of the game's GMs. */
export async function gameGmsPanel(gms: GmsRepo, c: Context<Env>, game: Game) {
  const gm = c.get('gm');
  const [members, canManage] = await Promise.all([gms.ofGame(game.id), managesGame(gms, gm, game.id)]);
  return <GameGmsPanel csrf={c.get('session').csrf} game={game} members={members} canManage={canManage} />;
}

type Ctx = Context<Env>;

/** What the handlers are given: the deps and the redirect that leaves a flash for the next page. */
interface GmsRouted extends GmsPageDeps {
  back: (c: Ctx, to: string, flash: Flash) => Response;
}

const notFound = (c: Context) => c.html(<ErrorPage status={404} message="There is nothing here." />, 404);

/** `GET /gm/gms`: the GMs and the invites, with the flash (and a new invite link) read once. */
async function showGms(d: GmsRouted, c: Ctx) {
  const flash = d.flashes.get(c.get('session')) ?? {};
  d.flashes.delete(c.get('session'));
  const [list, invites] = await Promise.all([d.gms.list(), d.gms.invites()]);
  return c.html(
    <GmsPage csrf={c.get('session').csrf} me={c.get('gm')} gms={list} invites={invites} now={d.now()} flash={flash} />,
  );
}

/** The address invite links name: VOTAL_PUBLIC_URL, else the one the admin's browser used. */
function inviteBase(d: GmsRouted, c: Ctx): string {
  if (d.publicUrl !== undefined) return d.publicUrl;
  const reached = new URL(c.req.url);
  return isHttps(c) ? `https://${reached.host}` : reached.origin;
}

/** `POST /gm/gms/invites`: a new link; only its hash is stored, the link itself is shown once. */
async function createInvite(d: GmsRouted, c: Ctx) {
  const token = randomBytes(32).toString('base64url');
  const at = d.now();
  await d.gms.createInvite(
    {
      tokenHash: secretHash(token),
      createdBy: c.get('gm').id,
      at,
      expiresAt: new Date(at.getTime() + INVITE_DAYS * 86_400_000),
    },
    c.get('actor'),
  );
  const link = `${inviteBase(d, c).replace(/\/+$/, '')}/gm/invite/${token}`;
  return d.back(c, '/gm/gms', { message: 'Invite link made.', link });
}

/** `POST /gm/gms/invites/:id/revoke`: an open link stops working; a used one stays used. */
async function revokeInvite(d: GmsRouted, c: Ctx) {
  const id = idOf(c, 'id');
  if (id === null) return notFound(c);
  try {
    await d.gms.revokeInvite(id, c.get('actor'), d.now());
  } catch (error) {
    if (error instanceof NotFoundError) return notFound(c);
    if (error instanceof InviteRefusedError) return d.back(c, '/gm/gms', { error: `Invite #${id} was already used.` });
    throw error;
  }
  return d.back(c, '/gm/gms', { message: `Invite #${id} revoked: its link no longer works.` });
}

/** `POST /gm/gms/:id/revoke`: the GM is signed out for good. */
async function revokeGm(d: GmsRouted, c: Ctx) {
  const id = idOf(c, 'id');
  if (id === null) return notFound(c);
  try {
    const gm = await d.gms.revoke(id, c.get('actor'), d.now());
    return d.back(c, '/gm/gms', { message: `${gm.name} is revoked and signed out.` });
  } catch (error) {
    if (error instanceof NotFoundError) return notFound(c);
    if (error instanceof StateError) return d.back(c, '/gm/gms', { error: error.message });
    throw error;
  }
}

/** A change of a game's co-hosts: what it tells the GM once made. */
type CohostChange = (d: GmsRouted, c: Ctx, gameId: number, gmId: number) => Promise<{ message: string }>;

/**
 * A co-host form's handler. The game guard has let only the game's GMs (and the admin) this
 * far; of them, only the owner and the admin choose who else runs the game (else `refused`).
 */
const cohostHandler =
  (d: GmsRouted, refused: string, change: CohostChange) =>
  async (c: Ctx): Promise<Response> => {
    const gameId = idOf(c, 'id');
    // `:gm` is read by the same id rule as `:id` (ids.ts); a route without it passes 0.
    const gmId = c.req.param('gm') === undefined ? 0 : idOf(c, 'gm');
    if (gameId === null || gmId === null) return notFound(c);
    const to = `/gm/games/${gameId}/settings#cohosts`;
    if (!(await managesGame(d.gms, c.get('gm'), gameId))) return d.back(c, to, { error: refused });
    try {
      return d.back(c, to, await change(d, c, gameId, gmId));
    } catch (error) {
      if (error instanceof NotFoundError && error.what === 'game') return notFound(c);
      return d.back(c, to, { error: refusalOf(error) });
    }
  };

/** What a co-host change does to the count: their forum name's posts are the hosts', and the recount. */
const hostsWords = (changed: CohostChanged): string =>
  changed.recount === null
    ? ''
    : `${changed.forum ? ` Their posts as ${changed.forum} are the hosts'.` : ''}${recountWords(changed.recount)}`;

/** `POST /gm/games/:id/cohosts`: adds a co-host by GM name (an empty forum field: the name they have stays). */
const addCohostByName: CohostChange = async (d, c, id) => {
  const form = await c.req.parseBody();
  const name = typeof form.name === 'string' ? form.name : '';
  const forum = typeof form.forum === 'string' && form.forum.trim() !== '' ? { forum: form.forum } : {};
  const changed = await addCohost(d.commands, c.get('actor'), id, { name, ...forum });
  const who = changed.member.gm.name;
  const role = changed.member.role === 'owner' ? `${who} owns this game already.` : `${who} co-hosts this game.`;
  return { message: `${role}${hostsWords(changed)}` };
};

/** `POST /gm/games/:id/cohosts/:gm/forum`: sets (or clears) a co-host's name on the forum. */
const setForumName: CohostChange = async (d, c, id, gmId) => {
  const form = await c.req.parseBody();
  const forum = typeof form.forum === 'string' ? form.forum : null;
  const changed = await setCohostForumName(d.commands, c.get('actor'), id, gmId, { forum });
  const who = changed.member.gm.name;
  if (changed.recount === null) return { message: `${who}'s forum name is unchanged.` };
  return {
    message: changed.forum
      ? `${who} is ${changed.forum} on the forum.${hostsWords(changed)}`
      : `${who} has no forum name in this game: their posts are a poster's.${recountWords(changed.recount)}`,
  };
};

/** `POST /gm/games/:id/cohosts/:gm/remove`. */
const removeCohostOf: CohostChange = async (d, c, id, gmId) => {
  const changed = await removeCohost(d.commands, c.get('actor'), id, gmId);
  return { message: `${changed.member.gm.name} no longer co-hosts this game.${recountWords(changed.recount)}` };
};

/** The routes behind these pages (mounted after sign-in and the game guard). */
export function gmsRoutes(deps: GmsPageDeps): Hono<Env> {
  const d: GmsRouted = {
    ...deps,
    back: (c, to, flash) => {
      deps.flashes.set(c.get('session'), flash);
      return c.redirect(to, 303);
    },
  };
  const app = new Hono<Env>();
  // Only the instance admin sees the admin's page; to anyone else it does not exist.
  app.use('/gm/gms', async (c, next) => (c.get('gm').admin ? next() : notFound(c)));
  app.use('/gm/gms/*', async (c, next) => (c.get('gm').admin ? next() : notFound(c)));
  app.get('/gm/gms', (c) => showGms(d, c));
  app.post('/gm/gms/invites', (c) => createInvite(d, c));
  app.post('/gm/gms/invites/:id/revoke', (c) => revokeInvite(d, c));
  app.post('/gm/gms/:id/revoke', (c) => revokeGm(d, c));
  app.post(
    '/gm/games/:id/cohosts',
    cohostHandler(d, "Only the game's owner or the instance admin adds co-hosts.", addCohostByName),
  );
  app.post(
    '/gm/games/:id/cohosts/:gm/forum',
    cohostHandler(d, "Only the game's owner or the instance admin sets a co-host's forum name.", setForumName),
  );
  app.post(
    '/gm/games/:id/cohosts/:gm/remove',
    cohostHandler(d, "Only the game's owner or the instance admin removes co-hosts.", removeCohostOf),
  );
  return app;
}
