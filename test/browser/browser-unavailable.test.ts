import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCount } from '../../src/cli/count-command.js';
import { ChromiumRenderer } from '../../src/browser/chromium-renderer.js';
import { chromiumPath, DEBIAN_CHROMIUM } from '../../src/browser/chromium-path.js';
import { BrowserUnavailableError } from '../../src/browser/errors.js';
import { CHROMIUM_FLAGS } from '../../src/browser/launch-flags.js';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { readThread } from '../../src/thread/read-thread.js';
import { ScriptShellError } from '../../src/thread/script-shell-error.js';
import { CliError } from '../../src/cli/exit-codes.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { quickFetcher, root, serveGame, standardGame } from '../thread/support.js';
import { serveAsScriptShells } from './support.js';

/** These run everywhere: no Chromium is needed to show what happens without one. */
const NO_CHROMIUM = '/nonexistent/votal-test/chromium';

let forum: FakeForum;
let dir: string;
beforeEach(async () => {
  forum = await startFakeForum();
  dir = mkdtempSync(join(tmpdir(), 'votal-no-browser-'));
});
afterEach(async () => {
  await forum.close();
  rmSync(dir, { recursive: true, force: true });
  delete process.env.CHROMIUM_PATH;
  delete process.env.VOTAL_ALLOW_PRIVATE_HOSTS;
});

describe('without a browser', () => {
  it("uses CHROMIUM_PATH, else Debian's /usr/bin/chromium, with the known-good flags", () => {
    expect(chromiumPath({})).toBe(DEBIAN_CHROMIUM);
    expect(chromiumPath({ CHROMIUM_PATH: '/opt/chromium/chrome' })).toBe('/opt/chromium/chrome');
    expect(CHROMIUM_FLAGS).toEqual(
      expect.arrayContaining([
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ]),
    );
  });

  it('the renderer says the browser is unavailable, naming the URL', async () => {
    const url = serveGame(forum, 'xenforo2', standardGame());
    const renderer = new ChromiumRenderer(quickFetcher(), { executablePath: NO_CHROMIUM });
    const error = await renderer.render(url, { ready: () => true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrowserUnavailableError);
    expect(String(error)).toContain(`no Chromium at ${NO_CHROMIUM}`);
    expect(String(error)).toContain(url);
  });

  it('a script-shell page surfaces the original error, and says why the browser did not help', async () => {
    const url = serveAsScriptShells(forum, 'xenforo2', standardGame());
    const notes: string[] = [];
    const renderer = new ChromiumRenderer(quickFetcher(), { executablePath: NO_CHROMIUM });
    const error = await readThread(url, { source: quickFetcher(), renderer, onNote: (n) => notes.push(n) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ScriptShellError);
    expect(String(error)).toContain(url);
    expect(notes.join('\n')).toContain('Browser fallback unavailable');
  });

  it('a needsBrowser site is read over plain HTTP when that works', async () => {
    const url = serveGame(forum, 'xenforo2', standardGame());
    const notes: string[] = [];
    const renderer = new ChromiumRenderer(quickFetcher(), { executablePath: NO_CHROMIUM });
    const read = await readThread(url, {
      source: quickFetcher(),
      renderer,
      profile: { ...DEFAULT_PROFILE, needsBrowser: true },
      onNote: (n) => notes.push(n),
    });
    expect(read.posts).toHaveLength(22);
    expect(notes[0]).toContain('reading over plain HTTP instead');
  });

  it('votal count --browser with CHROMIUM_PATH pointing nowhere: exit 3 with the original error and a note', async () => {
    process.env.VOTAL_ALLOW_PRIVATE_HOSTS = '1';
    process.env.CHROMIUM_PATH = NO_CHROMIUM;
    const url = serveAsScriptShells(forum, 'xenforo2', standardGame());
    const profile = join(dir, 'p.yaml');
    writeFileSync(profile, `hosts: ["${new URL(forum.origin).host}"]\nminIntervalMs: 0\n`);
    const error = await runCount(url, {
      ruleset: join(root, 'fixtures/games/standard-ruleset.yaml'),
      format: 'json',
      browser: true,
      siteProfile: [profile],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(3);
    expect((error as Error).message).toMatch(/draws its posts with JavaScript/);
    expect((error as Error).message).toContain(`note: Browser fallback unavailable: no Chromium at ${NO_CHROMIUM}`);
  });
});
