import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCount } from '../../src/cli/count-command.js';
import { ChromiumRenderer } from '../../src/browser/chromium-renderer.js';
import { RenderError } from '../../src/browser/errors.js';
import { chromiumPath } from '../../src/browser/chromium-path.js';
import { closeSharedChromium, sharedChromium } from '../../src/browser/shared-chromium.js';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { RobotsDisallowedError } from '../../src/fetch/errors.js';
import { DEFAULT_USER_AGENT } from '../../src/fetch/fetcher-options.js';
import type { Tally } from '../../src/model/tally.js';
import { readThread } from '../../src/thread/read-thread.js';
import { quickFetcher, root, standardGame } from '../thread/support.js';
import { runCli } from '../cli/run-cli.js';
import { browserRequired, chromiumProblem, describeWithChromium, serveAsScriptShells } from './support.js';

const players = 'Alice, Bob, Carol, Dave, Davina, Eve, Frank';
const ruleset = join(root, 'fixtures/games/standard-ruleset.yaml');
const expected = JSON.parse(readFileSync(join(root, 'fixtures/games/standard-game.expected.json'), 'utf8')) as Tally;

describe('Chromium for the browser tests', () => {
  it.runIf(browserRequired)('is installed (VOTAL_REQUIRE_BROWSER=1)', () => {
    expect(chromiumProblem).toBeNull();
  });
});

describeWithChromium('the browser fallback (Debian Chromium through playwright-core)', { timeout: 90_000 }, () => {
  let forum: FakeForum;
  let dir: string;
  let url: string;
  beforeAll(() => {
    process.env.VOTAL_ALLOW_PRIVATE_HOSTS = '1';
  });
  afterAll(async () => {
    delete process.env.VOTAL_ALLOW_PRIVATE_HOSTS;
    await closeSharedChromium();
  });
  beforeEach(async () => {
    forum = await startFakeForum();
    dir = mkdtempSync(join(tmpdir(), 'votal-browser-'));
    url = serveAsScriptShells(forum, 'xenforo2', standardGame());
  });
  afterEach(async () => {
    await forum.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A profile for the fake forum: no pause (and needsBrowser when asked). */
  const profile = (extra = ''): string => {
    const file = join(dir, 'fake-forum.yaml');
    writeFileSync(file, `hosts: ["${new URL(forum.origin).host}"]\nminIntervalMs: 0\n${extra}`);
    return file;
  };
  const times = (path: string) => forum.requests.filter((r) => r.path === path).length;

  it('counts a thread whose posts appear only after its script runs, with --browser', async () => {
    const r = await runCount(url, { ruleset, players, format: 'json', browser: true, siteProfile: [profile()] });

    expect(r.tally.postsRead).toBe(expected.postsRead);
    expect(
      r.tally.wagons.map((w) => ({
        target: w.target,
        votes: w.votes,
        voters: w.voters.map((v) => [v.player, v.post]),
      })),
    ).toEqual(
      expected.wagons.map((w) => ({
        target: w.target,
        votes: w.votes,
        voters: w.voters.map((v) => [v.player, v.post]),
      })),
    );
    expect(r.tally.notVoting).toEqual(expected.notVoting);
    expect(r.tally.outcome.status).toBe(expected.outcome.status);
    // Plain HTTP first (a script shell), then the browser: each page twice, the posts once.
    expect(times('/threads/standard-game.4242/page-2')).toBe(2);
    expect(times('/fragments/threads/standard-game.4242/page-2')).toBe(1);
  });

  it('votal count --browser --site-profile on the command line', async () => {
    const r = await runCli([
      'count',
      url,
      '--ruleset',
      ruleset,
      '--players',
      players,
      '--browser',
      '--site-profile',
      profile(),
      '--quiet',
    ]);
    // Only the standard game's real non-player is noted (issue #24: posters who match no player);
    // --quiet leaves progress out, never notes.
    expect(r.stderr).toBe('votal: note: "Lurker" posted but is not in the player list\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Bob - 2 - L-2: Carol (#17), Bob (#22)');
  });

  it('a needsBrowser profile goes to the browser directly, without a plain HTTP request per page', async () => {
    const r = await runCount(url, {
      ruleset,
      players,
      format: 'json',
      siteProfile: [profile('engine: xenforo2\nneedsBrowser: true\n')],
    });
    expect(r.tally.postsRead).toBe(expected.postsRead);
    for (const page of [
      '/threads/standard-game.4242/',
      '/threads/standard-game.4242/page-2',
      '/threads/standard-game.4242/page-3',
    ]) {
      expect(times(page)).toBe(1);
    }
    const browserAsked = forum.requests.find((q) => q.path === '/threads/standard-game.4242/page-3');
    expect(browserAsked?.headers['user-agent']).toBe(DEFAULT_USER_AGENT);
  });

  it('closes every tab it opened', async () => {
    const fetcher = quickFetcher();
    const renderer = new ChromiumRenderer(fetcher);
    await readThread(url, { source: fetcher, renderer, engine: 'xenforo2' });
    const context = await sharedChromium({
      executablePath: chromiumPath(),
      userAgent: DEFAULT_USER_AGENT,
      launchTimeoutMs: 30_000,
    });
    expect(context.pages()).toHaveLength(0);
  });

  it('page loads in the browser obey robots.txt, through the same gate as plain HTTP', async () => {
    forum.robots('User-agent: *\nDisallow: /threads/');
    const renderer = new ChromiumRenderer(quickFetcher());
    await expect(renderer.render(url, { ready: () => true })).rejects.toBeInstanceOf(RobotsDisallowedError);
    expect(times('/threads/standard-game.4242/')).toBe(0);
  });

  it('Chromium never connects itself: a name that rebinds to 127.0.0.1 after the check is refused at connect, nothing reaches the forum', async () => {
    // Issue #17: the guard's lookup said public, the connection's said loopback.
    let asked = 0;
    const rebinding = async () => (++asked <= 2 ? ['93.184.216.34'] : ['127.0.0.1']);
    // `localhost`: a name Chromium could resolve and reach by itself, were it let to connect.
    const host = `localhost:${new URL(forum.origin).port}`;
    const renderer = new ChromiumRenderer(
      quickFetcher({ allowPrivateHosts: false, resolveHost: rebinding, respectRobots: false }),
      {
        allowPrivateHosts: false,
        resolveHost: rebinding,
        navigationTimeoutMs: 5000,
      },
    );
    await expect(
      renderer.render(`http://${host}/threads/standard-game.4242/`, { ready: () => true }),
    ).rejects.toBeInstanceOf(RenderError);
    expect(times('/threads/standard-game.4242/')).toBe(0);
  });

  it('pages load through the guarded connection: a name only the Votal resolver knows is reached (private hosts allowed)', async () => {
    const host = `forum.local.test:${new URL(forum.origin).port}`;
    const resolveHost = async () => ['127.0.0.1'];
    const renderer = new ChromiumRenderer(quickFetcher({ resolveHost }), {
      allowPrivateHosts: true,
      resolveHost,
      navigationTimeoutMs: 10_000,
    });
    const page = await renderer.render(`http://${host}/threads/standard-game.4242/`, { ready: () => true });
    expect(page.status).toBe(200);
    expect(times('/threads/standard-game.4242/')).toBeGreaterThan(0);
  });

  it('inside the page, private addresses are refused unless allowed', async () => {
    const renderer = new ChromiumRenderer(quickFetcher(), { allowPrivateHosts: false, navigationTimeoutMs: 5000 });
    await expect(renderer.render(url, { ready: () => true })).rejects.toBeInstanceOf(RenderError);
    expect(times('/threads/standard-game.4242/')).toBe(0);
  });
});
