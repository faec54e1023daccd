import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { STATIC_FILES } from '../../src/web/ui/static.js';
import { ADMIN_TOKEN, recordingPoller, sampleTally, testEnv } from '../web/support.js';
import { tempDir } from './browser-support.js';
import { cookieOf, form, FORM, O, signIn as signInTo } from './sign-in.js';

/** The dashboard's gatekeeping and the pages' headers, through `app.request` (no browser). */

describe('UI pages: auth, CSRF, CSP', () => {
  let store: Store;
  let app: VotalApp;
  let slug = '';
  let gameId = 0;
  const data = tempDir('votal-ui-pages-');

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    app = createApp({
      store,
      poller: recordingPoller(),
      env: testEnv({ dataDir: data.path }),
      rateLimit: false,
      pollWaitMs: 0,
    });
    const game = await store.games.create(
      {
        threadUrl: 'http://127.0.0.1:9/threads/game.1/',
        engine: 'xenforo2',
        ruleset: 'plurality',
        roster: [{ name: 'Alice' }, { name: '<b>Bob</b>' }, { name: 'Carol' }],
      },
      'gm',
    );
    slug = game.slug;
    gameId = game.id;
    await store.tallies.save(game.id, sampleTally());
  });

  afterAll(async () => {
    await app.shutdown();
    await store.close();
    data.remove();
  });

  const signIn = (secret = ADMIN_TOKEN, headers: Record<string, string> = {}) => signInTo(app, secret, headers);

  it('serves the live page with a strict CSP and no inline script, style or handler', async () => {
    const res = await app.request(`${O}/g/${slug}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("require-trusted-types-for 'script'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=/);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).toContain('&lt;b&gt;Bob&lt;/b&gt;');
    expect(html).not.toContain('<b>Bob</b>');
    const fragment = await app.request(`${O}/g/${slug}/fragment`);
    expect(fragment.status).toBe(200);
    expect(await fragment.text()).toMatch(/^<div id="live"/);
    expect((await app.request(`${O}/g/no-such-game`)).status).toBe(404);
    expect((await app.request(`${O}/g/BAD..slug`)).status).toBe(404);
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'a static file name that is an Object.prototype property (%s) is 404',
    async (name) => {
      const res = await app.request(`${O}/ui/static/${name}`);
      expect(res.status).toBe(404);
    },
  );

  it('a broken multipart body from a signed-in session is a 400, not a 500', async () => {
    const { cookie } = await signIn();
    const res = await app.request(`${O}/gm/games/${gameId}/events`, {
      method: 'POST',
      body: '--XYZ\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\nabc\r\n--XY',
      headers: { cookie, origin: O, 'content-type': 'multipart/form-data; boundary=XYZ' },
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Bad request');
  });

  it('serves its scripts and stylesheet as files, and the scripts are valid JavaScript', async () => {
    const dir = tempDir('votal-ui-js-');
    try {
      for (const name of STATIC_FILES) {
        const res = await app.request(`${O}/ui/static/${name}`);
        expect(res.status).toBe(200);
        const type = name.endsWith('.js') ? 'text/javascript' : name.endsWith('.svg') ? 'image/svg+xml' : 'text/css';
        expect(res.headers.get('content-type')).toContain(type);
        if (name.endsWith('.js')) {
          const file = join(dir.path, name);
          writeFileSync(file, await res.text());
          execFileSync(process.execPath, ['--check', file]);
        }
      }
      expect((await app.request(`${O}/ui/static/../../package.json`)).status).toBe(404);
    } finally {
      dir.remove();
    }
  });

  it('never lets a GM route through without a session', async () => {
    for (const path of ['/gm', '/gm/new', `/gm/games/${gameId}`, `/gm/games/${gameId}/settings`, '/gm/drafts/1']) {
      const res = await app.request(`${O}${path}`);
      expect(res.status, path).toBe(303);
      expect(res.headers.get('location'), path).toBe(`/gm/login?next=${encodeURIComponent(path)}`);
    }
    for (const path of [
      '/gm/new/inspect',
      '/gm/games',
      `/gm/games/${gameId}/review`,
      `/gm/games/${gameId}/events`,
      `/gm/games/${gameId}/poll`,
      `/gm/games/${gameId}/drafts`,
      `/gm/games/${gameId}/settings`,
      '/gm/drafts/1/approve',
      '/gm/drafts/1/edit',
      '/gm/drafts/1/discard',
      '/gm/drafts/1/published',
      '/gm/logout',
    ]) {
      const res = await app.request(`${O}${path}`, {
        method: 'POST',
        body: form({ _csrf: 'x' }),
        headers: { origin: O, 'content-type': FORM },
      });
      expect(res.status, path).toBe(401);
    }
    // A forged session cookie is no session.
    const forged = await app.request(`${O}/gm`, { headers: { cookie: 'votal_gm=forged' } });
    expect(forged.status).toBe(303);
    expect((await store.events.list(gameId)).length).toBe(0);
  });

  it('signs in with the admin token: HttpOnly, SameSite=Strict cookie; Secure and __Host- over https', async () => {
    const login = await app.request(`${O}/gm/login`);
    const pre = cookieOf(login, 'votal_pre')!;
    const wrong = await app.request(`${O}/gm/login`, {
      method: 'POST',
      body: form({ _pre: pre, secret: 'not-the-token-at-all' }),
      headers: { cookie: `votal_pre=${pre}`, origin: O, 'content-type': FORM },
    });
    expect(wrong.status).toBe(401);
    const noPre = await app.request(`${O}/gm/login`, {
      method: 'POST',
      body: form({ secret: ADMIN_TOKEN }),
      headers: { origin: O, 'content-type': FORM },
    });
    expect(noPre.status).toBe(403);
    const ok = await app.request(`${O}/gm/login`, {
      method: 'POST',
      body: form({ _pre: pre, secret: ADMIN_TOKEN, next: 'https://evil.example/' }),
      headers: { cookie: `votal_pre=${pre}`, origin: O, 'content-type': FORM },
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/gm');
    const set = ok.headers.getSetCookie().find((c) => c.startsWith('votal_gm='))!;
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Strict/);
    expect(set).not.toMatch(/Secure/);

    const https = { 'x-forwarded-proto': 'https' };
    const secure = await app.request(`${O}/gm/login`, { headers: https });
    const hostPre = cookieOf(secure, '__Host-votal_pre')!;
    const res = await app.request(`${O}/gm/login`, {
      method: 'POST',
      body: form({ _pre: hostPre, secret: ADMIN_TOKEN }),
      headers: { ...https, cookie: `__Host-votal_pre=${hostPre}`, origin: O, 'content-type': FORM },
    });
    const hostCookie = res.headers.getSetCookie().find((c) => c.startsWith('__Host-votal_gm='))!;
    expect(hostCookie).toMatch(/Secure/);
    expect(hostCookie).toMatch(/Path=\//);
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
  });

  it('refuses a form without the CSRF token, with a wrong one, or from another origin', async () => {
    const { cookie, csrf } = await signIn();
    const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      app.request(`${O}/gm/games/${gameId}/events`, {
        method: 'POST',
        body: form(fields),
        headers: { cookie, origin: O, 'content-type': FORM, ...headers },
      });
    expect((await post({ kind: 'kill', player: 'Alice' })).status).toBe(403);
    expect((await post({ kind: 'kill', player: 'Alice', _csrf: 'wrong' })).status).toBe(403);
    expect(
      (
        await post(
          { kind: 'kill', player: 'Alice', _csrf: csrf },
          { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await app.request(`${O}/gm/games/${gameId}/events`, {
          method: 'POST',
          body: JSON.stringify({ kind: 'kill', player: 'Alice', _csrf: csrf }),
          headers: { cookie, origin: O, 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(415);
    expect((await store.events.list(gameId)).length).toBe(0);
    const ok = await post({ kind: 'kill', player: 'Alice', at: '2', _csrf: csrf });
    expect(ok.status).toBe(303);
    expect((await store.events.list(gameId)).map((e) => e.event)).toEqual([{ kind: 'kill', player: 'Alice', at: 2 }]);
    const page = await (await app.request(`${O}/gm/games/${gameId}`, { headers: { cookie } })).text();
    expect(page).toContain('Recorded: kill.');
    expect(page).toContain('kill Alice after post 2');
  });

  it('sets a password on first run only with the admin token, then signs in with it; sign-out ends the session', async () => {
    const setup = await app.request(`${O}/gm/setup`);
    const pre = cookieOf(setup, 'votal_pre')!;
    const headers = { cookie: `votal_pre=${pre}`, origin: O, 'content-type': FORM };
    const noToken = await app.request(`${O}/gm/setup`, {
      method: 'POST',
      headers,
      body: form({ _pre: pre, token: 'guess', password: 'a-long-password', confirm: 'a-long-password' }),
    });
    expect(noToken.status).toBe(401);
    const short = await app.request(`${O}/gm/setup`, {
      method: 'POST',
      headers,
      body: form({ _pre: pre, token: ADMIN_TOKEN, password: 'short', confirm: 'short' }),
    });
    expect(short.status).toBe(400);
    const ok = await app.request(`${O}/gm/setup`, {
      method: 'POST',
      headers,
      body: form({ _pre: pre, token: ADMIN_TOKEN, password: 'a-long-password', confirm: 'a-long-password' }),
    });
    expect(ok.status).toBe(303);
    const again = await app.request(`${O}/gm/setup`);
    expect(again.status).toBe(303); // once set, setup is closed
    const { cookie, csrf } = await signIn('a-long-password');
    expect((await app.request(`${O}/gm`, { headers: { cookie } })).status).toBe(200);
    const out = await app.request(`${O}/gm/logout`, {
      method: 'POST',
      body: form({ _csrf: csrf }),
      headers: { cookie, origin: O, 'content-type': FORM },
    });
    expect(out.status).toBe(303);
    expect((await app.request(`${O}/gm`, { headers: { cookie } })).status).toBe(303);
  });

  describe('sign-in behind an https proxy, from a browser that sends no Sec-Fetch-Site (issue #17)', () => {
    const PUBLIC = 'https://votal.example.org';
    let proxied: VotalApp;
    beforeAll(() => {
      proxied = createApp({
        store,
        poller: recordingPoller(),
        env: testEnv({ dataDir: data.path, publicUrl: PUBLIC }),
        rateLimit: false,
      });
    });
    afterAll(async () => {
      await proxied.shutdown();
    });

    /** The proxy talks http to Votal on its own address; the browser saw `seen`. */
    async function signInVia(headers: Record<string, string>, url = 'http://127.0.0.1:8080'): Promise<number> {
      const login = await proxied.request(`${url}/gm/login`, { headers: { 'x-forwarded-proto': 'https' } });
      const pre = cookieOf(login, '__Host-votal_pre')!;
      const res = await proxied.request(`${url}/gm/login`, {
        method: 'POST',
        body: form({ _pre: pre, secret: ADMIN_TOKEN, next: '/gm' }),
        headers: { 'x-forwarded-proto': 'https', cookie: `__Host-votal_pre=${pre}`, 'content-type': FORM, ...headers },
      });
      return res.status;
    }

    it.each([
      ['Origin is the configured public origin (VOTAL_PUBLIC_URL)', { origin: PUBLIC }],
      ['no Origin, Referer on the public origin', { referer: `${PUBLIC}/gm/login` }],
      ['Origin is the forwarded https origin of the Host', { origin: 'https://127.0.0.1:8080' }],
    ])('accepted: %s', async (_, headers) => {
      expect(await signInVia(headers)).toBe(303);
    });

    it.each([
      ['Origin of another site', { origin: 'https://evil.example' }],
      ['Referer of another site', { referer: 'https://evil.example/form' }],
      ['an opaque Origin (null)', { origin: 'null' }],
      ['neither Origin nor Referer', {}],
      [
        'cross-site even with our Referer',
        { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example', referer: `${PUBLIC}/` },
      ],
    ])('refused: %s', async (_, headers) => {
      expect(await signInVia(headers)).toBe(403);
    });
  });

  it('rate-limits sign-in attempts', async () => {
    const limited = createApp({ store, poller: recordingPoller(), env: testEnv({ dataDir: data.path }) });
    const login = await limited.request(`${O}/gm/login`);
    const pre = cookieOf(login, 'votal_pre')!;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await limited.request(`${O}/gm/login`, {
        method: 'POST',
        body: form({ _pre: pre, secret: `guess-${i}-xxxxxxxxxxxx` }),
        headers: { cookie: `votal_pre=${pre}`, origin: O, 'content-type': FORM },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    await limited.shutdown();
  });
});
