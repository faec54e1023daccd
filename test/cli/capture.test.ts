import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCapture, type CaptureSidecar } from '../../src/cli/capture-command.js';
import { CliError, EXIT } from '../../src/cli/exit-codes.js';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { DEFAULT_USER_AGENT } from '../../src/fetch/fetcher-options.js';
import { rendererFor } from '../support/render/index.js';
import { loadGameScript } from '../support/game-script.js';
import { runCli } from './run-cli.js';

/**
 * `votal capture <url>` saves a thread page exactly as served, with the headers that
 * matter, through the polite fetcher, for the next person to read a layout Votal cannot.
 * Run against the stand-in forum; files go to a temporary folder, never the repository.
 */
const root = resolve(import.meta.dirname, '../..');
const SMF = resolve(root, '../shared/forum-samples/smf/geekhack-smf2015-topic92066.html');
const haveSample = existsSync(SMF);
if (!haveSample) console.warn(`[capture] real forum sample not found at ${SMF}: skipping the real-page capture test`);
const quick = { allowPrivateHosts: true, minIntervalMs: 0, retries: 0 } as const;

let forum: FakeForum;
let dir: string;
beforeEach(async () => {
  forum = await startFakeForum();
  dir = mkdtempSync(join(tmpdir(), 'votal-capture-'));
});
afterEach(async () => {
  await forum.close();
  rmSync(dir, { recursive: true, force: true });
});

const sidecarOf = (file: string): CaptureSidecar => JSON.parse(readFileSync(file, 'utf8')) as CaptureSidecar;

describe('votal capture', () => {
  it.runIf(haveSample)(
    'saves the bytes as served (ISO-8859-1 here) under fixtures/<engine>/captured, engine from the HTML, headers and final URL beside it',
    async () => {
      const bytes = readFileSync(SMF);
      forum.route('/t/92066', { status: 302, headers: { location: '/index.php?topic=92066.0' } });
      forum.route('/index.php?topic=92066.0', {
        body: bytes,
        contentType: 'text/html; charset=ISO-8859-1',
        headers: {
          server: 'Apache',
          'last-modified': 'Sat, 14 Oct 2017 15:09:34 GMT',
          'x-powered-by': 'PHP/5.6.40',
          'set-cookie': 'PHPSESSID=secret; path=/',
        },
      });
      const r = await runCapture(forum.url('/t/92066'), {}, quick, dir);

      expect(r.page.startsWith(join(dir, 'fixtures/smf/captured/'))).toBe(true);
      expect(readFileSync(r.page).equals(bytes)).toBe(true);
      const side = sidecarOf(r.sidecar);
      expect(side).toMatchObject({
        url: forum.url('/t/92066'),
        finalUrl: forum.url('/index.php?topic=92066.0'),
        status: 200,
        engine: 'smf',
        engineFrom: 'page',
        bytes: bytes.byteLength,
        loggedIn: false,
        read: { posts: 50, page: 1, pageCount: 13 },
      });
      expect(side.headers).toMatchObject({
        'content-type': 'text/html; charset=ISO-8859-1',
        server: 'Apache',
        'x-powered-by': 'PHP/5.6.40',
        'last-modified': 'Sat, 14 Oct 2017 15:09:34 GMT',
        etag: expect.stringMatching(/^".+"$/),
        date: expect.any(String),
      });
      expect(Object.keys(side.headers)).not.toContain('set-cookie');
      expect(readFileSync(r.sidecar, 'utf8')).not.toContain('secret');
      expect(r.output).toMatch(/Votal reads 50 posts on it \(page 1 of 13\)/);
    },
  );

  it('the engine comes from --engine over the page, and an unrecognised page is still saved, under unknown/, with the reason', async () => {
    const xf = rendererFor('xenforo2').render(loadGameScript(join(root, 'fixtures/games/standard-game.yaml')))[0]!;
    forum.route('/game', { body: xf.body });
    forum.route('/odd', { body: '<!DOCTYPE html><html><body><div class="card">Vote: Alice</div></body></html>' });
    const named = await runCapture(forum.url('/game'), { engine: 'xenforo2' }, quick, dir);
    expect(named.sidecarJson).toMatchObject({ engine: 'xenforo2', engineFrom: 'option', read: { posts: 8 } });
    expect(readFileSync(named.page).equals(Buffer.from(xf.body, 'utf8'))).toBe(true);
    const odd = await runCapture(forum.url('/odd'), {}, quick, dir);
    expect(odd.page.startsWith(join(dir, 'fixtures/unknown/captured/'))).toBe(true);
    expect(odd.sidecarJson).toMatchObject({
      engine: null,
      engineFrom: null,
      read: { error: 'no supported engine recognised on this page' },
    });
    expect(odd.notes.join('\n')).toMatch(/no supported engine recognised/);
  });

  it('a site profile that names the engine wins over the page and the URL', async () => {
    const profile = join(dir, 'board.yaml');
    writeFileSync(profile, `hosts: ["${new URL(forum.origin).host}"]\nengine: mybb\n`);
    forum.route('/index.php?topic=4.0', { body: '<!DOCTYPE html><html><body><p>hi</p></body></html>' });
    const r = await runCapture(forum.url('/index.php?topic=4.0'), { siteProfile: [profile] }, quick, dir);
    expect(r.sidecarJson).toMatchObject({ engine: 'mybb', engineFrom: 'site-profile' });
    expect(r.page.startsWith(join(dir, 'fixtures/mybb/captured/'))).toBe(true);
  });

  it('a page Votal cannot read is saved with the error a count would show', async () => {
    forum.route('/index.php?topic=5.0', {
      body: '<!DOCTYPE html><html><body><form id="quickModForm"></form></body></html>',
    });
    const r = await runCapture(forum.url('/index.php?topic=5.0'), {}, quick, dir);
    expect(r.sidecarJson).toMatchObject({ engine: 'smf', engineFrom: 'url' });
    expect((r.sidecarJson.read as { error: string }).error).toMatch(/no post containers .* on the page/);
  });

  it('goes through the polite fetcher: robots.txt is obeyed and nothing is written', async () => {
    forum.robots('User-agent: *\nDisallow: /private/\n');
    forum.route('/private/thread', { body: '<html></html>' });
    const error = await runCapture(forum.url('/private/thread'), {}, quick, dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(EXIT.forum);
    expect((error as Error).message).toMatch(/robots\.txt/);
    expect(forum.requests.map((q) => q.path)).toEqual(['/robots.txt']);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("goes through the polite fetcher: its User-Agent, and the host's pause between robots.txt and the page", async () => {
    const sleeps: number[] = [];
    forum.route('/index.php?topic=6.0', { body: '<html><body></body></html>' });
    await runCapture(
      forum.url('/index.php?topic=6.0'),
      {},
      {
        ...quick,
        minIntervalMs: 5000,
        sleep: async (ms) => {
          sleeps.push(ms);
        },
      },
      dir,
    );
    expect(forum.requests.map((q) => [q.path, q.headers['user-agent']])).toEqual([
      ['/robots.txt', DEFAULT_USER_AGENT],
      ['/index.php?topic=6.0', DEFAULT_USER_AGENT],
    ]);
    expect(sleeps.filter((ms) => ms > 0)).toHaveLength(1);
    expect(Math.max(...sleeps)).toBeLessThanOrEqual(5000);
  });

  it('refuses a private address unless allowed, before asking anything', async () => {
    const error = await runCapture(
      forum.url('/index.php?topic=7.0'),
      {},
      { ...quick, allowPrivateHosts: false },
      dir,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toMatch(/VOTAL_ALLOW_PRIVATE_HOSTS/);
    expect(forum.requests).toEqual([]);
  });

  it('a page read with cookies is kept 0600 and the user is told what it holds', async () => {
    const cookies = join(dir, 'cookies.txt');
    const host = new URL(forum.origin).hostname;
    writeFileSync(cookies, `${host}\tFALSE\t/\tFALSE\t0\tsession\tabc\n`, { mode: 0o600 });
    forum.route('/index.php?topic=8.0', { body: '<html><body></body></html>' });
    const r = await runCapture(forum.url('/index.php?topic=8.0'), { cookies, outDir: 'out' }, quick, dir);
    expect(r.page.startsWith(join(dir, 'out/'))).toBe(true);
    expect(statSync(r.page).mode & 0o777).toBe(0o600);
    expect(r.sidecarJson.loggedIn).toBe(true);
    expect(r.notes.join('\n')).toMatch(/read with your login/);
    expect(forum.requests.at(-1)!.headers.cookie).toBe('session=abc');
  });

  it('is a `votal capture` command (exit 0, paths on stdout)', async () => {
    process.env.VOTAL_ALLOW_PRIVATE_HOSTS = '1';
    try {
      forum.route('/index.php?topic=9.0', { body: '<html><body></body></html>' });
      const r = await runCli(['capture', forum.url('/index.php?topic=9.0'), '--out-dir', dir]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^saved .*\.html\n {2}and .*\.json\n {2}engine: smf \(from url\)/);
      expect(readdirSync(dir).sort()).toHaveLength(2);
    } finally {
      delete process.env.VOTAL_ALLOW_PRIVATE_HOSTS;
    }
  });
});
