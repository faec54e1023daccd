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

export function signInRoutes(deps: SignInDeps): Hono {
  const { auth, gms, audit, flashes, now } = deps;
  const app = new Hono();
  const post = (path: string, handler: (c: Context) => Promise<Response>) => {
    if (deps.limit) app.post(path, deps.limit, deps.origin, handler);
    else app.post(path, deps.origin, handler);
  };
  const field = (form: Record<string, unknown>, name: string): string =>
    typeof form[name] === 'string' ? (form[name] as string) : '';
  const loginPage = async (c: Context, next: string, error?: string) => (
    <LoginPage
      pre={preAuthToken(c)}
      next={next}
      hasPassword={await auth.hasPassword()}
      canSetUp={auth.hasToken}
      error={error ?? null}
    />
  );

  app.get('/gm/login', async (c) => {
    if (await auth.get(sessionIdOf(c))) return c.redirect(safeNext(c.req.query('next')), 303);
    return c.html(await loginPage(c, safeNext(c.req.query('next'))));
  });

  post('/gm/login', async (c) => {
    const form = await readForm(c);
    const next = safeNext(form.next);
    const page = async (error: string, status: 401 | 403) => c.html(await loginPage(c, next, error), status);
    if (!checkPreAuthToken(c, form._pre)) return page('The form expired; try again.', 403);
    const name = field(form, 'name').trim();
    const { gm, known } = await auth.signIn(name, field(form, 'secret'));
    if (!gm) {
      // The name only when it is a GM's: a password typed into the name box stays out of the log.
      const detail = known && name ? { gm: name } : {};
      await audit.record({ gameId: null, actor: 'system', action: 'gm.login-failed', detail });
      return page(name ? 'That name and password do not match.' : 'That is not the password or the admin token.', 401);
    }
    await auth.end(sessionIdOf(c));
    setSessionCookie(c, await auth.start(gm));
    await audit.record({ gameId: null, actor: actorOf(gm), action: 'gm.login', detail: {} });
    return c.redirect(next, 303);
  });

  app.get('/gm/setup', async (c) => {
    if (await auth.hasPassword()) return c.redirect('/gm/login', 303);
    return c.html(<SetupPage pre={preAuthToken(c)} />);
  });

  post('/gm/setup', async (c) => {
    if (await auth.hasPassword()) return c.redirect('/gm/login', 303);
    const form = await readForm(c);
    const page = (error: string, status: 400 | 401 | 403) =>
      c.html(<SetupPage pre={preAuthToken(c)} error={error} />, status);
    if (!checkPreAuthToken(c, form._pre)) return page('The form expired; try again.', 403);
    if (!auth.checkToken(field(form, 'token'))) return page('That is not the admin token.', 401);
    const password = field(form, 'password');
    if (password.length < MIN_PASSWORD) return page(`The password needs at least ${MIN_PASSWORD} characters.`, 400);
    if (password !== form.confirm) return page('The two passwords differ.', 400);
    await auth.setPassword(password);
    const admin = await gms.admin(now());
    await auth.endAll(admin);
    await audit.record({ gameId: null, actor: actorOf(admin), action: 'gm.password-set', detail: {} });
    const session = await auth.start(admin);
    setSessionCookie(c, session);
    flashes.set(session, { message: 'Password set. You are signed in.' });
    return c.redirect('/gm', 303);
  });

  // The invite link carries its token in the path: no page here links elsewhere, and no referrer leaves it.
  app.use('/gm/invite/*', async (c, next) => {
    await next();
    c.header('Referrer-Policy', 'no-referrer');
  });
  const refused = (c: Context, reason: InviteRefusedError['reason']) => {
    const status = reason === 'unknown' ? 404 : 410;
    return c.html(<ErrorPage status={status} message={REFUSED[reason]} />, status);
  };

  app.get('/gm/invite/:token', async (c) => {
    const token = c.req.param('token');
    const invite = TOKEN.test(token) ? await gms.invite(secretHash(token)) : null;
    if (!invite) return refused(c, 'unknown');
    const state = inviteState(invite, now());
    if (state !== 'open') return refused(c, state);
    return c.html(<InvitePage pre={preAuthToken(c)} token={token} />);
  });

  post('/gm/invite/:token', async (c) => {
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
    let gm;
    try {
      const passwordHash = await hashPassword(password);
      gm = await gms.acceptInvite({ tokenHash: secretHash(token), name: checked.data, passwordHash, at: now() });
    } catch (error) {
      if (error instanceof InviteRefusedError) return refused(c, error.reason);
      if (error instanceof NameTakenError) return page(`The name "${name}" is taken; pick another.`, 409);
      throw error;
    }
    await auth.end(sessionIdOf(c));
    const session = await auth.start(gm);
    setSessionCookie(c, session);
    flashes.set(session, { message: `Welcome, ${gm.name}. You sign in with your name and password from now on.` });
    return c.redirect('/gm', 303);
  });

  return app;
}
