import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { GmName, actorOf, inviteState } from '../../model/gm.js';
import type { AuditRepo } from '../../store/audit-repo.js';
import { InviteRefusedError, NameTakenError, type GmsRepo } from '../../store/gms-repo.js';
import {
  MIN_PASSWORD,
  checkPreAuthToken,
  hashPassword,
  preAuthToken,
  readForm,
  safeNext,
  secretHash,
  sessionIdOf,
  setSessionCookie,
  type GmAuth,
} from '../gm-sessions.js';
import type { Flashes } from './flash.js';
import { ErrorPage } from './pages/error-page.js';
import { LoginPage, SetupPage } from './pages/login.js';
import { Layout, Notice } from './layout.js';

/**
 * The doors of the dashboard, open without a session: sign-in (a GM's name and password,
 * or the admin token / admin password for the instance admin), the admin password's
 * first-run set-up, and the invite page where a new GM picks a name and a password.
 * Every form here is rate-limited per client and carries a double-submit token.
 */

export interface SignInDeps {
  auth: GmAuth;
  gms: GmsRepo;
  audit: Pick<AuditRepo, 'record'>;
  flashes: Flashes;
  now: () => Date;
  /** Token bucket for sign-in attempts (null: off). */
  limit: MiddlewareHandler | null;
  /** Same-site check for forms. */
  origin: MiddlewareHandler;
}

function InvitePage(props: { pre: string; token: string; error?: string | null; name?: string }) {
  return (
    <Layout title="Join as a GM — Votal">
      <section class="panel" aria-labelledby="invite-h">
        <h1 id="invite-h">Join as a game master</h1>
        <Notice error={props.error ?? null} />
        <p>Pick the name other GMs will know you by and a password. You sign in with both from now on.</p>
        <form method="post" action={`/gm/invite/${props.token}`}>
          <input type="hidden" name="_pre" value={props.pre} />
          <label for="gm-name">GM name</label>
          <input
            id="gm-name"
            name="name"
            type="text"
            autocomplete="username"
            maxlength={40}
            required
            value={props.name ?? ''}
          />
          <p class="hint">Letters, digits, spaces, dots, dashes or underscores; 40 at most.</p>
          <label for="password">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            autocomplete="new-password"
            minlength={MIN_PASSWORD}
            required
          />
          <p class="hint">{`At least ${MIN_PASSWORD} characters.`}</p>
          <label for="confirm">Password again</label>
          <input
            id="confirm"
            name="confirm"
            type="password"
            autocomplete="new-password"
            minlength={MIN_PASSWORD}
            required
          />
          <div class="actions">
            <button type="submit">Join</button>
          </div>
        </form>
      </section>
    </Layout>
  );
}

const REFUSED: Record<InviteRefusedError['reason'], string> = {
  unknown: 'This invite link is not known. Ask the instance admin for a new one.',
  used: 'This invite link was used already: each link works once. Sign in, or ask the instance admin for a new one.',
  revoked: 'This invite link was revoked. Ask the instance admin for a new one.',
  expired: 'This invite link has expired. Ask the instance admin for a new one.',
};

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/** A form's text field as sent (not trimmed: a password's spaces are the password's). */
const field = (form: Record<string, unknown>, name: string): string =>
  typeof form[name] === 'string' ? (form[name] as string) : '';

/** The sign-in page, going on to `next` once signed in. */
const loginPage = async (d: SignInDeps, c: Context, next: string, error?: string) => (
  <LoginPage
    pre={preAuthToken(c)}
    next={next}
    hasPassword={await d.auth.hasPassword()}
    canSetUp={d.auth.hasToken}
    error={error ?? null}
  />
);

/** `GET /gm/login`: signed in already, straight on to `next`. */
async function showLogin(d: SignInDeps, c: Context) {
  if (await d.auth.get(sessionIdOf(c))) return c.redirect(safeNext(c.req.query('next')), 303);
  return c.html(await loginPage(d, c, safeNext(c.req.query('next'))));
}

/** `POST /gm/login`: a GM's name and password, or the admin token or password; a new session either way. */
async function signIn(d: SignInDeps, c: Context) {
  const form = await readForm(c);
  const next = safeNext(form.next);
  const page = async (error: string, status: 401 | 403) => c.html(await loginPage(d, c, next, error), status);
  if (!checkPreAuthToken(c, form._pre)) return page('The form expired; try again.', 403);
  const name = field(form, 'name').trim();
  const { gm, known } = await d.auth.signIn(name, field(form, 'secret'));
  if (!gm) {
    // The name only when it is a GM's: a password typed into the name box stays out of the log.
    const detail = known && name ? { gm: name } : {};
    await d.audit.record({ gameId: null, actor: 'system', action: 'gm.login-failed', detail });
    return page(name ? 'That name and password do not match.' : 'That is not the password or the admin token.', 401);
  }
  await d.auth.end(sessionIdOf(c));
  setSessionCookie(c, await d.auth.start(gm));
  await d.audit.record({ gameId: null, actor: actorOf(gm), action: 'gm.login', detail: {} });
  return c.redirect(next, 303);
}

/** `GET /gm/setup`: only until the admin password is set. */
async function showSetup(d: SignInDeps, c: Context) {
  if (await d.auth.hasPassword()) return c.redirect('/gm/login', 303);
  return c.html(<SetupPage pre={preAuthToken(c)} />);
}

/** `POST /gm/setup`: the admin token sets the admin password once; every admin session before it ends. */
async function setUp(d: SignInDeps, c: Context) {
  if (await d.auth.hasPassword()) return c.redirect('/gm/login', 303);
  const form = await readForm(c);
  const page = (error: string, status: 400 | 401 | 403) =>
    c.html(<SetupPage pre={preAuthToken(c)} error={error} />, status);
  if (!checkPreAuthToken(c, form._pre)) return page('The form expired; try again.', 403);
  if (!d.auth.checkToken(field(form, 'token'))) return page('That is not the admin token.', 401);
  const password = field(form, 'password');
  if (password.length < MIN_PASSWORD) return page(`The password needs at least ${MIN_PASSWORD} characters.`, 400);
  if (password !== form.confirm) return page('The two passwords differ.', 400);
  await d.auth.setPassword(password);
  const admin = await d.gms.admin(d.now());
  await d.auth.endAll(admin);
  await d.audit.record({ gameId: null, actor: actorOf(admin), action: 'gm.password-set', detail: {} });
  const session = await d.auth.start(admin);
  setSessionCookie(c, session);
  d.flashes.set(session, { message: 'Password set. You are signed in.' });
  return c.redirect('/gm', 303);
}

/** An invite link that does not work, and why: unknown (404), or used, revoked, expired (410). */
function refused(c: Context, reason: InviteRefusedError['reason']) {
  const status = reason === 'unknown' ? 404 : 410;
  return c.html(<ErrorPage status={status} message={REFUSED[reason]} />, status);
}

/** `GET /gm/invite/:token`: the join form, while the link is open. */
async function showInvite(d: SignInDeps, c: Context) {
  const token = c.req.param('token') ?? '';
  const invite = TOKEN.test(token) ? await d.gms.invite(secretHash(token)) : null;
  if (!invite) return refused(c, 'unknown');
  const state = inviteState(invite, d.now());
  if (state !== 'open') return refused(c, state);
  return c.html(<InvitePage pre={preAuthToken(c)} token={token} />);
}

/** `POST /gm/invite/:token`: a new GM with the name and password chosen, signed in; the link is used. */
async function joinByInvite(d: SignInDeps, c: Context) {
  const token = c.req.param('token') ?? '';
  if (!TOKEN.test(token)) return refused(c, 'unknown');
  const form = await readForm(c);
  const name = field(form, 'name').trim();
  const page = (error: string, status: 400 | 403 | 409) =>
    c.html(<InvitePage pre={preAuthToken(c)} token={token} name={name} error={error} />, status);
  if (!checkPreAuthToken(c, form._pre)) return page('The form expired; try again.', 403);
  const checked = GmName.safeParse(name);
  if (!checked.success) return page(`The name: ${checked.error.issues[0]?.message ?? 'not allowed'}.`, 400);
  const password = field(form, 'password');
  if (password.length < MIN_PASSWORD) return page(`The password needs at least ${MIN_PASSWORD} characters.`, 400);
  if (password !== form.confirm) return page('The two passwords differ.', 400);
  let gm: Awaited<ReturnType<GmsRepo['acceptInvite']>>;
  try {
    const passwordHash = await hashPassword(password);
    gm = await d.gms.acceptInvite({ tokenHash: secretHash(token), name: checked.data, passwordHash, at: d.now() });
  } catch (error) {
    if (error instanceof InviteRefusedError) return refused(c, error.reason);
    if (error instanceof NameTakenError) return page(`The name "${name}" is taken; pick another.`, 409);
    throw error;
  }
  await d.auth.end(sessionIdOf(c));
  const session = await d.auth.start(gm);
  setSessionCookie(c, session);
  d.flashes.set(session, { message: `Welcome, ${gm.name}. You sign in with your name and password from now on.` });
  return c.redirect('/gm', 303);
}

export function signInRoutes(deps: SignInDeps): Hono {
  const app = new Hono();
  // Every form here: rate-limited (when a limit is set), then the same-site check.
  const post = (path: string, handler: (d: SignInDeps, c: Context) => Promise<Response>) => {
    const run = (c: Context) => handler(deps, c);
    if (deps.limit) app.post(path, deps.limit, deps.origin, run);
    else app.post(path, deps.origin, run);
  };
  app.get('/gm/login', (c) => showLogin(deps, c));
  post('/gm/login', signIn);
  app.get('/gm/setup', (c) => showSetup(deps, c));
  post('/gm/setup', setUp);
  // The invite link carries its token in the path: no page here links elsewhere, and no referrer leaves it.
  app.use('/gm/invite/*', async (c, next) => {
    await next();
    c.header('Referrer-Policy', 'no-referrer');
  });
  app.get('/gm/invite/:token', (c) => showInvite(deps, c));
  post('/gm/invite/:token', joinByInvite);
  return app;
}
