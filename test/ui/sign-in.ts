import { expect } from 'vitest';
import type { VotalApp } from '../../src/web/app.js';
import { ADMIN_TOKEN } from '../web/support.js';

/** The dashboard's origin in `app.request` tests. */
export const O = 'http://votal.test';
export const FORM = 'application/x-www-form-urlencoded';
export const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();

export const cookieOf = (res: Response, name: string): string | null => {
  for (const c of res.headers.getSetCookie()) {
    const m = new RegExp(`^${name}=([^;]*)`).exec(c);
    if (m) return m[1]!;
  }
  return null;
};

/** Signs in with the admin token; returns the cookie header and the session's CSRF token. */
export async function signIn(
  app: VotalApp,
  secret = ADMIN_TOKEN,
  headers: Record<string, string> = {},
): Promise<{ cookie: string; csrf: string }> {
  const login = await app.request(`${O}/gm/login`, { headers });
  const pre = cookieOf(login, 'votal_pre') ?? cookieOf(login, '__Host-votal_pre')!;
  const preName = cookieOf(login, 'votal_pre') ? 'votal_pre' : '__Host-votal_pre';
  const res = await app.request(`${O}/gm/login`, {
    method: 'POST',
    body: form({ _pre: pre, secret, next: '/gm' }),
    headers: { ...headers, cookie: `${preName}=${pre}`, origin: O, 'content-type': FORM },
  });
  expect(res.status).toBe(303);
  const name = headers['x-forwarded-proto'] === 'https' ? '__Host-votal_gm' : 'votal_gm';
  const sid = cookieOf(res, name)!;
  const cookie = `${name}=${sid}`;
  const page = await (await app.request(`${O}/gm`, { headers: { ...headers, cookie } })).text();
  return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(page)![1]! };
}
