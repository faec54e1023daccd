import makeFetchCookie from 'fetch-cookie';
import type { CookieJar } from 'tough-cookie';
import { all, attr, one, parseHtml, type Element } from '../../scrapers/dom.js';
import { FetchError, LoginRequiredError } from '../fetch/errors.js';
import type { FetchedPage } from '../fetch/fetched-page.js';
import type { LoginForm } from './login-form.js';

/** What logging in needs from the fetcher: a polite GET (its cookies go to the jar) and the gate. */
export interface LoginFetcher {
  get(url: string): Promise<FetchedPage>;
  politely<T>(url: string, visit: (target: URL) => Promise<T>): Promise<T>;
}

/** True when the jar already holds the session cookie the profile names (no login needed). */
export function hasSession(login: LoginForm, jar: CookieJar): boolean {
  if (!login.sessionCookie) return false;
  return jar.getCookiesSync(login.url).some((c) => c.key === login.sessionCookie);
}

/**
 * Logs in with the board's own HTML form: GET the login page (its hidden fields, CSRF
 * token and cookie come with it), then POST the form with the user name and password
 * from the environment. The session lands in `jar` (fetch-cookie stores Set-Cookie,
 * also from the redirect that usually answers a login). Both requests pass the
 * fetcher's gate: public host, robots.txt, the host's pause.
 *
 * The password is only ever in the request body: never in a message, never logged.
 */
export async function logInWithForm(
  login: LoginForm,
  jar: CookieJar,
  fetcher: LoginFetcher,
  opts: { userAgent: string; timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<void> {
  const env = opts.env ?? process.env;
  const username = env[login.usernameEnv];
  const password = env[login.passwordEnv];
  if (!username || !password) {
    throw new LoginRequiredError(
      login.url,
      `the site profile logs in with a form; set ${login.usernameEnv} and ${login.passwordEnv}`,
      null,
    );
  }

  const page = await fetcher.get(login.url);
  const form = findForm(page.body, login.form);
  if (!form) throw new LoginRequiredError(page.finalUrl, 'no login form found on the login page', null);
  const action = new URL(attr(form, 'action') || page.finalUrl, page.finalUrl);
  const fields = new URLSearchParams();
  for (const input of all(form, 'input[name]')) {
    const type = (attr(input, 'type') ?? 'text').toLowerCase();
    if (type === 'checkbox' || type === 'radio' || type === 'submit' || type === 'image' || type === 'button') continue;
    fields.set(attr(input, 'name')!, attr(input, 'value') ?? '');
  }
  for (const [name, value] of Object.entries(login.fields)) fields.set(name, value);
  fields.set(login.usernameField, username);
  fields.set(login.passwordField, password);

  const fetchWithJar = makeFetchCookie(fetch, jar);
  const answer = await fetcher.politely(action.href, async (target) => {
    try {
      const response = await fetchWithJar(target.href, {
        method: 'POST',
        body: fields,
        // No redirect following: the session cookie comes with the redirect itself.
        redirect: 'manual',
        headers: {
          'user-agent': opts.userAgent,
          'content-type': 'application/x-www-form-urlencoded',
          referer: page.finalUrl,
        },
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      const body = response.status === 200 ? await response.text() : '';
      await response.body?.cancel().catch(() => {});
      return { status: response.status, body };
    } catch (error) {
      // The request quoted nothing we want in a message (its body holds the password).
      throw new FetchError(target, `login request failed (${(error as Error).name})`, { retryable: true });
    }
  });

  const formAgain = answer.status === 200 && findForm(answer.body, login.form) !== null;
  const failed = answer.status >= 400 || formAgain || (login.sessionCookie !== undefined && !hasSession(login, jar));
  if (failed) {
    throw new LoginRequiredError(
      action,
      `logging in as the user in ${login.usernameEnv} failed (HTTP ${answer.status}); check the credentials and the profile's login fields`,
      answer.status,
    );
  }
}

/** The login form: the profile's selector, else the first form holding a password input. */
function findForm(html: string, selector: string | undefined): Element | null {
  const doc = parseHtml(html);
  if (selector) return one(doc, selector);
  return (
    all(doc, 'form').find((f) => all(f, 'input').some((i) => (attr(i, 'type') ?? '').toLowerCase() === 'password')) ??
    null
  );
}
