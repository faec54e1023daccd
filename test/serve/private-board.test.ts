import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type RunningVotal } from '../../src/cli/serve-command.js';
import type { VotalEnv } from '../../src/config/env.js';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import type { Tally } from '../../src/model/tally.js';
import { rendererFor } from '../support/render/index.js';
import { pageRequests, standardGame } from '../thread/support.js';
import { eventually, SECRET_KEY } from '../web/support.js';

/**
 * Issue #13 item 4: `votal serve` reads private boards the way `votal count
 * --site-profile/--cookies` does: the site profile's engine and pause, its cookie file, or
 * the game's own stored session; and an expired session is "log in again", not a stale
 * count passed off as current. Two stand-in forums that answer a login form to anyone
 * without the right cookie.
 */
const PROFILE_SESSION = 'profile-session-5b1e9c';
const GAME_SESSION = 'game-session-0d7a44';
const ADMIN = 'admin-token-for-private-boards';
const LOGIN_PAGE =
  '<html id="XF"><body><form method="post" action="/login/login"><input name="login">' +
  '<input type="password" name="password"></form></body></html>';
const PAUSE_MS = 300;

/** A private XenForo thread: the posts for a request carrying `xf_user=<session>` while the session is valid, a login form otherwise. */
function privateThread(forum: FakeForum, session: string, valid: () => boolean): string {
  const renderer = rendererFor('xenforo2');
  const script = standardGame();
  for (const page of renderer.render(script)) {
    forum.route(
      page.path,
      (req) => ({
        body: valid() && (req.headers.cookie ?? '').split('; ').includes(`xf_user=${session}`) ? page.body : LOGIN_PAGE,
      }),
      { etag: false },
    );
  }
  return forum.url(renderer.threadPath(script));
}

describe('votal serve on private boards', () => {
  let dir: string;
  let profiled: FakeForum;
  let own: FakeForum;
  let votal: RunningVotal;
  let profileValid = true;
  const slept: number[] = [];
  const posts = standardGame().posts.length;

  const api = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> => {
    const res = await fetch(`${votal.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, json: (await res.json()) as T };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'votal-private-'));
    profiled = await startFakeForum();
    own = await startFakeForum();
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      chmodSync(join(dir, name), 0o600);
      return join(dir, name);
    };
    file('session.txt', `127.0.0.1\tFALSE\t/\tFALSE\t0\txf_user\t${PROFILE_SESSION}\n`);
    const profile = file(
      'private.yaml',
      [
        `hosts: ["${new URL(profiled.origin).host}"]`,
        'engine: xenforo2',
        `minIntervalMs: ${PAUSE_MS}`,
        'cookies: session.txt',
        '',
      ].join('\n'),
    );
    const env: VotalEnv = {
      databaseUrl: undefined,
      dataDir: 'memory://',
      adminToken: ADMIN,
      secretKey: SECRET_KEY,
      port: 0,
      host: '127.0.0.1',
      allowPrivateHosts: true,
      logLevel: 'silent',
    };
    votal = await startServe({
      env,
      handleSignals: false,
      stdout: () => {},
      siteProfiles: [profile],
      // No pause of its own: only the profile's applies, and each pause the lanes take is counted.
      fetcher: {
        minIntervalMs: 0,
        retries: 0,
        sleep: (ms) => {
          slept.push(ms);
          return new Promise((r) => setTimeout(r, ms));
        },
      },
      poller: { pollingIntervalSeconds: 0.5, minDelayMs: 60_000, reconcileEveryMs: 500 },
    });
  }, 180_000);
  afterAll(async () => {
    await votal?.close();
    await profiled?.close();
    await own?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads a private thread with the site profile's cookies and pause, and says 'log in again' when the session stops working", async () => {
    const url = privateThread(profiled, PROFILE_SESSION, () => profileValid);
    const created = await api<{ id: number }>('POST', '/api/games', {
      url,
      ruleset: 'plurality',
      players: ['Alice', 'Bob', 'Carol', 'Dave'],
    });
    expect(created.status).toBe(201);
    const id = created.json.id;
    await eventually(
      async () => (await api('GET', `/api/games/${id}/tally`)).status === 200,
      30_000,
      'the first count',
    );

    const tally = (await api<Tally & { stale?: unknown }>('GET', `/api/games/${id}/tally`)).json;
    expect(tally.postsRead).toBe(posts);
    expect(tally.stale).toBeUndefined();
    const asked = pageRequests(profiled);
    expect(asked.every((r) => r.headers.cookie === `xf_user=${PROFILE_SESSION}`)).toBe(true);
    // The profile's pause: every page after the first waited its turn on the site's lane.
    expect(slept.length).toBeGreaterThanOrEqual(asked.length - 1);
    expect(slept.every((ms) => ms > 0 && ms <= PAUSE_MS)).toBe(true);
    for (let i = 1; i < asked.length; i++)
      expect(asked[i]!.at - asked[i - 1]!.doneAt!).toBeGreaterThanOrEqual(PAUSE_MS - 5);

    // The session expires: the next poll is refused, and the count says so.
    profileValid = false;
    const polled = await api<{ lastError: string | null }>('POST', `/api/games/${id}/poll`);
    expect(polled.json.lastError).toMatch(/Login required/);
    const stale = (
      await api<Tally & { stale?: { reason: string; message: string; lastOkAt: string | null } }>(
        'GET',
        `/api/games/${id}/tally`,
      )
    ).json;
    expect(stale.postsRead).toBe(posts);
    expect(stale.stale).toMatchObject({ reason: 'login-required', message: expect.stringMatching(/^Log in again/) });
    expect(stale.stale!.lastOkAt).not.toBeNull();
    const game = (await api<{ poll: { stale: { reason: string } | null } }>('GET', `/api/games/${id}`)).json;
    expect(game.poll.stale).toMatchObject({ reason: 'login-required' });
    expect(await gmPage(id)).toContain('Log in again: the forum asked Votal for a login');

    // Logged in again: the count is current again.
    profileValid = true;
    await api('POST', `/api/games/${id}/poll`);
    expect((await api<{ stale?: unknown }>('GET', `/api/games/${id}/tally`)).json.stale).toBeUndefined();
    expect(await gmPage(id)).not.toContain('Log in again');
  }, 90_000);

  it("reads a private thread with the game's own stored session, sent to that thread's site only", async () => {
    const url = privateThread(own, GAME_SESSION, () => true);
    const cookies = `127.0.0.1\tFALSE\t/\tFALSE\t0\txf_user\t${GAME_SESSION}\n`;
    const created = await api<{ id: number }>('POST', '/api/games', {
      url,
      ruleset: 'plurality',
      players: ['Alice', 'Bob', 'Carol', 'Dave'],
      publish: { method: 'form', cookies },
    });
    expect(created.status).toBe(201);
    await eventually(
      async () => (await api('GET', `/api/games/${created.json.id}/tally`)).status === 200,
      30_000,
      'the count',
    );
    expect((await api<Tally>('GET', `/api/games/${created.json.id}/tally`)).json.postsRead).toBe(posts);
    expect(pageRequests(own).every((r) => r.headers.cookie === `xf_user=${GAME_SESSION}`)).toBe(true);
    // Each session stays with its own site.
    expect(pageRequests(profiled).some((r) => (r.headers.cookie ?? '').includes(GAME_SESSION))).toBe(false);
  }, 90_000);

  /** The GM's game page, signed in with the admin token. */
  async function gmPage(id: number): Promise<string> {
    const cookieOf = (res: Response, name: string) =>
      res.headers
        .getSetCookie()
        .map((c) => new RegExp(`^${name}=([^;]*)`).exec(c)?.[1])
        .find(Boolean);
    const login = await fetch(`${votal.url}/gm/login`);
    const pre = cookieOf(login, 'votal_pre')!;
    const res = await fetch(`${votal.url}/gm/login`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ _pre: pre, secret: ADMIN, next: '/gm' }).toString(),
      headers: { cookie: `votal_pre=${pre}`, origin: votal.url, 'content-type': 'application/x-www-form-urlencoded' },
    });
    const sid = cookieOf(res, 'votal_gm')!;
    return (await fetch(`${votal.url}/gm/games/${id}`, { headers: { cookie: `votal_gm=${sid}` } })).text();
  }
});
