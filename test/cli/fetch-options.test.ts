import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pageRequests, root, serveGame, standardGame, withMorePosts } from '../thread/support.js';
import { runCli } from './run-cli.js';

const ruleset = join(root, 'fixtures/games/standard-ruleset.yaml');
const players = 'Alice,Bob,Carol,Dave,Davina,Eve,Frank';
const SECRET = 'S3CR3T-session-value';

let forum: FakeForum;
let dir: string;
let profile: string;
beforeAll(() => {
  process.env.VOTAL_ALLOW_PRIVATE_HOSTS = '1';
});
afterAll(() => {
  delete process.env.VOTAL_ALLOW_PRIVATE_HOSTS;
});
beforeEach(async () => {
  forum = await startFakeForum();
  dir = mkdtempSync(join(tmpdir(), 'votal-cli-fetch-'));
  // The fake forum's own profile: no pause between requests.
  profile = join(dir, 'fake-forum.yaml');
  writeFileSync(profile, `hosts: ["${new URL(forum.origin).host}"]\nengine: xenforo2\nminIntervalMs: 0\n`);
});
afterEach(async () => {
  await forum.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('votal count: site profiles, cookies, cache', () => {
  it('--cache-dir: a second count of an unchanged thread is one conditional request', async () => {
    const url = serveGame(forum, 'xenforo2', standardGame());
    const cache = join(dir, 'cache');
    const args = [
      'count',
      url,
      '--ruleset',
      ruleset,
      '--players',
      players,
      '--site-profile',
      profile,
      '--cache-dir',
      cache,
      '--format',
      'json',
    ];

    const first = await runCli(args);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('3 pages: pages 1-3 read');
    const [file] = readdirSync(cache);
    expect(statSync(join(cache, file!)).mode & 0o777).toBe(0o600);

    const mark = forum.requests.length;
    const second = await runCli(args);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toContain('3 pages: pages 1-2 from the cache, page 3 unchanged');
    expect(pageRequests(forum, mark).map((r) => [r.path, r.status])).toEqual([
      ['/threads/standard-game.4242/page-3', 304],
    ]);
  });

  it('--cache-dir: after new posts, only the last known page and the new ones are fetched', async () => {
    const url = serveGame(forum, 'xenforo2', standardGame());
    const cache = join(dir, 'cache');
    const args = [
      'count',
      url,
      '--ruleset',
      ruleset,
      '--players',
      players,
      '--site-profile',
      profile,
      '--cache-dir',
      cache,
      '--format',
      'json',
    ];
    await runCli(args);

    serveGame(forum, 'xenforo2', withMorePosts(standardGame(), 4));
    const mark = forum.requests.length;
    const r = await runCli(args);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).postsRead).toBe(26);
    expect(pageRequests(forum, mark).map((q) => q.path)).toEqual([
      '/threads/standard-game.4242/page-3',
      '/threads/standard-game.4242/page-4',
    ]);
  });

  it('--cookies sends the session to the thread site; a cookie file others can read gets a warning', async () => {
    const url = serveGame(forum, 'xenforo2', standardGame());
    const cookies = join(dir, 'cookies.txt');
    writeFileSync(cookies, `127.0.0.1\tFALSE\t/\tFALSE\t0\txf_session\t${SECRET}\n`, { mode: 0o644 });
    const r = await runCli([
      'count',
      url,
      '--ruleset',
      ruleset,
      '--players',
      players,
      '--site-profile',
      profile,
      '--cookies',
      cookies,
    ]);
    expect(r.code).toBe(0);
    expect(pageRequests(forum).every((q) => q.headers.cookie === `xf_session=${SECRET}`)).toBe(true);
    expect(r.stderr).toContain('can be read by other users; run: chmod 600');
    expect(r.stderr).not.toContain(SECRET);
  });

  it('a bad cookie file or site profile is exit 2, naming the place, never a cookie value', async () => {
    const url = serveGame(forum, 'xenforo2', standardGame());
    const cookies = join(dir, 'cookies.txt');
    writeFileSync(cookies, `127.0.0.1\tFALSE\t${SECRET}\n`, { mode: 0o600 });
    const badCookies = await runCli(['count', url, '--ruleset', ruleset, '--cookies', cookies]);
    expect(badCookies.code).toBe(2);
    expect(badCookies.stderr).toContain('cookies.txt: line 1 is not a cookies.txt entry');
    expect(badCookies.stderr).not.toContain(SECRET);

    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'hosts: [forum.example.com]\nneedsBrowser: sometimes\n');
    const badProfile = await runCli(['count', url, '--ruleset', ruleset, '--site-profile', bad]);
    expect(badProfile.code).toBe(2);
    expect(badProfile.stderr).toContain(
      `${bad}:2:15: \`needsBrowser:\` should be true or false, not the text 'sometimes'`,
    );
  });

  it('a YAML bomb (alias expansion) in a site profile is bad input: exit 2 naming the file, before any request', async () => {
    // Issue #17: "billion laughs" made yaml throw inside toJS, which the CLI called an internal error.
    const bomb = join(dir, 'bomb.yaml');
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(',')}]`);
    }
    writeFileSync(bomb, `${levels.join('\n')}\nhosts: [forum.example.com]\n`);
    const url = forum.url('/threads/game.1/');
    const r = await runCli(['count', url, '--ruleset', ruleset, '--site-profile', bomb]);
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bomb}:1:1:`);
    expect(r.stderr).toMatch(/alias/i);
    expect(forum.requests).toHaveLength(0);
  });

  it('a login wall is exit 3 with the URL and what to do', async () => {
    forum.route('/threads/private.5/', {
      body: '<html id="XF"><body><form><input type="password" name="password"></form></body></html>',
    });
    const url = forum.url('/threads/private.5/');
    const r = await runCli(['count', url, '--ruleset', ruleset, '--site-profile', profile]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`Login required: the forum answered with a login form`);
    expect(r.stderr).toContain(url);
  });

  it('lists the new options in --help', async () => {
    const r = await runCli(['count', '--help']);
    for (const option of ['--site-profile <file>', '--cookies <file>', '--cache-dir <dir>', '--browser'])
      expect(r.stdout).toContain(option);
  });
});
