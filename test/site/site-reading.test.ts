import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { LoginRequiredError } from '../../src/fetch/errors.js';
import { openSiteReading, type SiteReading } from '../../src/site/site-reading.js';
import { readThread } from '../../src/thread/read-thread.js';
import { rendererFor } from '../support/render/index.js';
import { pageRequests, serveGame, standardGame } from '../thread/support.js';

const SECRET = 'S3CR3T-session-value';
const PASSWORD = 'correct horse battery staple';
const quick = { allowPrivateHosts: true, minIntervalMs: 0, backoffBaseMs: 5, random: () => 0 };

let forums: FakeForum[] = [];
let dir: string;
const open: SiteReading[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'votal-site-reading-'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  await Promise.all(forums.map((f) => f.close()));
  forums = [];
  rmSync(dir, { recursive: true, force: true });
  delete process.env.VOTAL_TEST_USER;
  delete process.env.VOTAL_TEST_PASSWORD;
});

async function forum(): Promise<FakeForum> {
  const f = await startFakeForum();
  forums.push(f);
  return f;
}

function file(name: string, text: string, mode = 0o600): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

async function site(options: Parameters<typeof openSiteReading>[0]): Promise<SiteReading> {
  const s = await openSiteReading({ fetcher: quick, ...options });
  open.push(s);
  return s;
}

/**
 * A fake monotonic clock for a fetcher: it moves only when the fetcher sleeps, so the
 * pauses it asks for are exact however busy the machine is. Each sleep notes how many
 * requests `forum` had seen, to check that the pause came between two requests.
 */
function fakePacing(forum: FakeForum) {
  let clock = 0;
  const pauses: { ms: number; afterRequests: number }[] = [];
  return {
    pauses,
    now: () => clock,
    sleep: async (ms: number) => {
      pauses.push({ ms, afterRequests: forum.requests.length });
      clock += ms;
    },
  };
}

describe('reading a site the way its profile says', () => {
  it("paces each host by its own profile's minIntervalMs", async () => {
    const [slow, fast] = [await forum(), await forum()];
    const slowUrl = serveGame(slow, 'xenforo2', standardGame());
    const fastUrl = serveGame(fast, 'xenforo2', standardGame());
    const profile = file('slow.yaml', `hosts: ["${new URL(slow.origin).host}"]\nminIntervalMs: 250\n`);

    const pacing = new Map<FakeForum, ReturnType<typeof fakePacing>>();
    for (const [f, url] of [
      [slow, slowUrl],
      [fast, fastUrl],
    ] as const) {
      const clock = fakePacing(f);
      pacing.set(f, clock);
      const s = await site({
        threadUrl: url,
        profileFiles: [profile],
        fetcher: { ...quick, now: clock.now, sleep: clock.sleep },
      });
      await readThread(url, { source: s.source, profile: s.profile });
    }

    // The slow host: robots.txt, then three pages, each after the profile's full pause
    // from the end of the request before it (robots.txt for the first).
    expect(slow.requests.map((r) => r.path)[0]).toBe('/robots.txt');
    expect(pageRequests(slow)).toHaveLength(3);
    expect(pacing.get(slow)!.pauses).toEqual([
      { ms: 250, afterRequests: 1 },
      { ms: 250, afterRequests: 2 },
      { ms: 250, afterRequests: 3 },
    ]);
    // The other host keeps the base pause (none here): the same pages, and its lane never waited.
    expect(pageRequests(fast)).toHaveLength(3);
    expect(pacing.get(fast)!.pauses).toEqual([]);
  });

  it('takes the engine and the time zone from the profile', async () => {
    const f = await forum();
    const url = serveGame(f, 'vbulletin3', standardGame());
    const profile = file(
      'board.yaml',
      `hosts: ["${new URL(f.origin).host}"]\nengine: vbulletin3\ntimeZone: America/New_York\n`,
    );

    const s = await site({ threadUrl: url, profileFiles: [profile] });
    const read = await readThread(url, { source: s.source, profile: s.profile });
    const utc = await readThread(url, { source: s.source });

    expect(read.engine).toBe('vbulletin3');
    // The page prints "18:00" for the opening post; in New York (EST) that is 23:00 UTC.
    expect(utc.posts[0]?.postedAt).toBe('2026-03-02T18:00:00.000Z');
    expect(read.posts[0]?.postedAt).toBe('2026-03-02T23:00:00.000Z');
  });

  it('sends the cookie jar from --cookies to the thread site, and keeps a refreshed session', async () => {
    const f = await forum();
    const pages = rendererFor('xenforo2').render(standardGame());
    for (const page of pages) {
      f.route(
        page.path,
        () => ({
          body: page.body,
          // Page 1 rotates the session, as XenForo does now and then.
          headers: (page.page === 1 ? { 'set-cookie': 'xf_session=rotated-value; Path=/; HttpOnly' } : {}) as Record<
            string,
            string
          >,
        }),
        { etag: false },
      );
    }
    const url = f.url('/threads/standard-game.4242/');
    const cookies = file(
      'cookies.txt',
      `127.0.0.1\tFALSE\t/\tFALSE\t0\txf_session\t${SECRET}\n127.0.0.1\tFALSE\t/\tFALSE\t0\txf_user\t42\n`,
    );

    const s = await site({ threadUrl: url, cookiesFile: cookies });
    await readThread(url, { source: s.source, profile: s.profile });

    expect(pageRequests(f).map((r) => r.headers.cookie)).toEqual([
      `xf_session=${SECRET}; xf_user=42`,
      'xf_session=rotated-value; xf_user=42',
      'xf_session=rotated-value; xf_user=42',
    ]);
    expect(s.notes).toEqual([]);
  });

  it('a login wall with a stale session names the URL and never the cookie', async () => {
    const f = await forum();
    f.route('/threads/secret-game.9/', {
      body: '<html id="XF"><body><form method="post"><input name="login"><input type="password" name="password"></form></body></html>',
    });
    const url = f.url('/threads/secret-game.9/');
    const s = await site({
      threadUrl: url,
      cookiesFile: file('cookies.txt', `127.0.0.1\tFALSE\t/\tFALSE\t0\txf_session\t${SECRET}\n`),
    });

    const error = await readThread(url, { source: s.source, profile: s.profile, engine: 'xenforo2' }).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(LoginRequiredError);
    expect(String(error)).toContain(url);
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error)) + String((error as Error).stack)).not.toContain(
      SECRET,
    );
  });

  it("logs in with the profile's form, reads the private thread, and saves the session 0600", async () => {
    const f = await forum();
    const posts: string[] = [];
    f.route(
      '/login/',
      {
        body: `<html><body><form action="/login/login" method="post" id="login">
      <input name="login"><input type="password" name="password"><input type="hidden" name="_xfToken" value="tok-123">
      <input type="checkbox" name="remember" value="1"><button>Log in</button></form></body></html>`,
        headers: { 'set-cookie': 'xf_csrf=csrf-1; Path=/' },
      },
      { etag: false },
    );
    f.route(
      '/login/login',
      (req) => {
        posts.push(req.body);
        const form = new URLSearchParams(req.body);
        const ok =
          form.get('login') === 'GM Gary' &&
          form.get('password') === PASSWORD &&
          form.get('_xfToken') === 'tok-123' &&
          req.headers.cookie?.includes('xf_csrf=csrf-1');
        return ok
          ? { status: 303, headers: { location: '/', 'set-cookie': `xf_user=${SECRET}; Path=/; HttpOnly` } }
          : {
              body: '<html><body><div class="error">Incorrect password.</div><form><input type="password" name="password"></form></body></html>',
            };
      },
      { method: 'POST', etag: false },
    );
    for (const page of rendererFor('xenforo2').render(standardGame())) {
      f.route(
        page.path,
        (req) =>
          req.headers.cookie?.includes(`xf_user=${SECRET}`)
            ? { body: page.body }
            : { body: '<html><body><input type="password"></body></html>' },
        { etag: false },
      );
    }
    const url = f.url('/threads/standard-game.4242/');
    const saved = join(dir, 'session.txt');
    const profile = file(
      'private.yaml',
      [
        `hosts: ["${new URL(f.origin).host}"]`,
        'engine: xenforo2',
        'cookies: session.txt',
        'login:',
        `  url: ${f.url('/login/')}`,
        '  usernameField: login',
        '  passwordField: password',
        '  usernameEnv: VOTAL_TEST_USER',
        '  passwordEnv: VOTAL_TEST_PASSWORD',
        '  fields: { remember: "1" }',
        '  sessionCookie: xf_user',
        '',
      ].join('\n'),
    );

    // Without credentials in the environment: a clear error naming the variables.
    await expect(site({ threadUrl: url, profileFiles: [profile] })).rejects.toThrow(
      /set VOTAL_TEST_USER and VOTAL_TEST_PASSWORD/,
    );

    process.env.VOTAL_TEST_USER = 'GM Gary';
    process.env.VOTAL_TEST_PASSWORD = 'wrong';
    const wrong = await site({ threadUrl: url, profileFiles: [profile] }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(LoginRequiredError);
    expect(String(wrong)).not.toContain('wrong');

    process.env.VOTAL_TEST_PASSWORD = PASSWORD;
    const s = await site({ threadUrl: url, profileFiles: [profile] });
    const read = await readThread(url, { source: s.source, profile: s.profile });
    expect(read.posts).toHaveLength(22);
    expect(new URLSearchParams(posts.at(-1)).get('remember')).toBe('1');
    expect(statSync(saved).mode & 0o777).toBe(0o600);
    expect(readFileSync(saved, 'utf8')).toContain(`xf_user\t${SECRET}`);
    expect(readFileSync(saved, 'utf8')).not.toContain(PASSWORD);
    expect(s.notes.join('\n')).toContain('session is saved');

    // Next time the saved session is used: no login requests at all.
    const before = f.requests.length;
    const again = await site({ threadUrl: url, profileFiles: [profile] });
    await readThread(url, { source: again.source, profile: again.profile });
    expect(f.requests.slice(before).map((r) => r.path)).not.toContain('/login/');
  });

  it('sets up the browser only when allowed (--browser) or needed (needsBrowser)', async () => {
    const url = 'http://127.0.0.1:1/threads/x.1/';
    expect((await site({ threadUrl: url })).renderer).toBeUndefined();
    expect((await site({ threadUrl: url, browser: true })).renderer).toBeDefined();
    const needs = file('js.yaml', 'hosts: ["127.0.0.1:1"]\nneedsBrowser: true\n');
    expect((await site({ threadUrl: url, profileFiles: [needs] })).renderer).toBeDefined();
  });
});
