import { Layout, Notice } from '../layout.js';

/** The sign-in and first-run pages (their routes: ../sign-in.tsx). */

export function LoginPage(props: {
  pre: string;
  next: string;
  error?: string | null;
  hasPassword: boolean;
  canSetUp: boolean;
}) {
  return (
    <Layout title="Sign in — Votal">
      <section class="panel" aria-labelledby="login-h">
        <h1 id="login-h">GM sign-in</h1>
        <Notice error={props.error ?? null} />
        <form method="post" action="/gm/login">
          <input type="hidden" name="_pre" value={props.pre} />
          <input type="hidden" name="next" value={props.next} />
          <label for="gm-name">Your GM name (empty: the instance admin)</label>
          <input id="gm-name" name="name" type="text" autocomplete="username" maxlength={40} />
          <label for="secret">
            {props.hasPassword
              ? 'Password (the admin: the admin password or token)'
              : 'Password (the admin: the admin token)'}
          </label>
          <input id="secret" name="secret" type="password" autocomplete="current-password" required autofocus />
          <div class="actions">
            <button type="submit">Sign in</button>
          </div>
        </form>
        {!props.hasPassword && props.canSetUp ? (
          <p class="hint">
            First run? <a href="/gm/setup">Set a password</a> (you need the admin token once).
          </p>
        ) : null}
      </section>
    </Layout>
  );
}

export function SetupPage(props: { pre: string; error?: string | null; done?: boolean }) {
  return (
    <Layout title="Set a password — Votal">
      <section class="panel" aria-labelledby="setup-h">
        <h1 id="setup-h">Set the GM password</h1>
        <Notice error={props.error ?? null} />
        <p>
          The admin token is in <code>VOTAL_ADMIN_TOKEN</code>, or in the file <code>votal serve</code> printed at
          start-up.
        </p>
        <form method="post" action="/gm/setup">
          <input type="hidden" name="_pre" value={props.pre} />
          <label for="token">Admin token</label>
          <input id="token" name="token" type="password" autocomplete="off" required />
          <label for="password">New password</label>
          <input id="password" name="password" type="password" autocomplete="new-password" minlength={10} required />
          <p class="hint">At least 10 characters.</p>
          <label for="confirm">New password again</label>
          <input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength={10} required />
          <div class="actions">
            <button type="submit">Set password</button>
          </div>
        </form>
      </section>
    </Layout>
  );
}
