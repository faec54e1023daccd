import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { mountThreadFolder } from '../../src/fake-forum/thread-folder.js';
import { main } from '../../src/cli/main.js';
import { ProgressLine } from '../../src/cli/progress.js';
import type { ReadProgress } from '../../src/thread/read-progress.js';
import { FakeThread } from '../publish/fake-thread.js';
import { rendererFor } from '../support/render/index.js';

const root = join(import.meta.dirname, '../..');
const ruleset = join(root, 'fixtures/games/standard-ruleset.yaml');
const players = 'Alice,Bob,Carol,Dave,Davina,Eve,Frank';

let forum: FakeForum;
let xfUrl: string;
beforeAll(async () => {
  process.env.VOTAL_ALLOW_PRIVATE_HOSTS = '1';
  forum = await startFakeForum();
  xfUrl = mountThreadFolder(forum, join(root, 'fixtures/xenforo2/standard-game')).url;
});
afterAll(async () => {
  delete process.env.VOTAL_ALLOW_PRIVATE_HOSTS;
  await forum?.close();
});

/** The command line with stderr as a terminal or as a log file. */
async function run(argv: string[], tty: boolean): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
    stdin: async () => '',
    stderrIsTTY: tty,
  });
  return { code, stdout, stderr };
}

const count = ['count', '--ruleset', ruleset, '--players', players];

describe('progress of a read on stderr', () => {
  it('a log (stderr not a terminal) gets one plain line per page read, pages of known', async () => {
    const r = await run([...count, xfUrl], false);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('votal: page'));
    expect(lines).toHaveLength(3);
    for (const [i, l] of lines.entries())
      expect(l).toMatch(new RegExp(`^votal: page ${i + 1} of 3 read(, about \\d+ s left)?$`));
    expect(r.stderr).not.toContain('\r');
  });

  it('a terminal gets one line redrawn in place, cleared before the result', async () => {
    const r = await run([...count, xfUrl], true);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('\r\x1b[2Kvotal: reading page 2 of 3');
    expect(r.stderr).toContain('\r\x1b[2Kvotal: page 3 of 3 read');
    // Nothing of the live line is left on screen: it is cleared, then only notes follow.
    const afterLive = r.stderr.slice(r.stderr.lastIndexOf('\r\x1b[2K') + '\r\x1b[2K'.length);
    expect(afterLive).toMatch(/^(votal: note: [^\r]*\n)*$/);
    expect(r.stdout).toContain('Vote count');
  });

  it('--quiet turns progress off', async () => {
    const r = await run([...count, xfUrl, '--quiet'], true);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('page 1');
    expect(r.stderr).not.toContain('\r');
  });

  it('votal read names the page it asks for', async () => {
    const r = await run(['read', xfUrl], false);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`votal: reading ${xfUrl}`);
  });
});

describe('a 60-page first read', () => {
  it('prints its first progress line after the first page, while the rest is still to read', async () => {
    const thread = new FakeThread(forum, { engine: 'xenforo2', postsPerPage: 1, prefix: '/long', threadId: 6060 });
    thread.add({ author: 'Moderator', body: '[b]Day 1 begins.[/b]' });
    for (let n = 2; n <= 60; n++) thread.add({ author: n % 2 ? 'Alice' : 'Bob', body: `Post ${n}.` });
    // Page 2 is held until the progress of page 1 is on stderr: "before the read ends" is an event.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const page2 = rendererFor('xenforo2').render(thread.script)[1]!;
    forum.route(`/long${page2.path}`, async () => {
      await held;
      return { body: page2.body };
    });
    let stderr = '';
    let firstLineMs: number | null = null;
    let page2Served = false;
    const started = performance.now();
    // No pause between pages on the stand-in forum (a site profile for its host), so the read is quick.
    const dir = mkdtempSync(join(tmpdir(), 'votal-progress-'));
    const site = join(dir, 'stand-in.yaml');
    writeFileSync(site, `name: stand-in forum\nhosts: ['127.0.0.1']\nengine: xenforo2\nminIntervalMs: 0\n`);
    const done = main([...count, '--site-profile', site, thread.url], {
      stdout: () => {},
      stderr: (s) => {
        stderr += s;
        if (firstLineMs === null && /votal: page 1 of 60 read/.test(stderr)) {
          firstLineMs = performance.now() - started;
          page2Served = forum.requests.some((r) => r.path === `/long${page2.path}` && r.doneAt !== null);
          release();
        }
      },
      stdin: async () => '',
      stderrIsTTY: false,
    });
    const code = await done;
    release();
    rmSync(dir, { recursive: true, force: true });
    expect(code, stderr).toBe(0);
    expect(firstLineMs, stderr).not.toBeNull();
    expect(page2Served).toBe(false);
    expect(stderr).toContain('votal: page 60 of 60 read');
    console.log(`time to first progress line, 60-page read (CLI): ${Math.round(firstLineMs ?? 0)} ms`);
  });
});

describe('the progress line', () => {
  const at = (page: number, phase: ReadProgress['phase'], pageCount = 60): ReadProgress => ({
    page,
    pageCount,
    pageCountKnown: page > 1 || phase !== 'reading',
    phase,
    pauseMs: 1000,
    url: `https://forum.example/t/1/page-${page}`,
  });

  it('tells the pages of known, the pause and the time left at the pace so far', () => {
    let t = 0;
    const out: string[] = [];
    const line = new ProgressLine({ write: (s) => out.push(s), live: true, now: () => t });
    line.page(at(1, 'reading'));
    expect(out.at(-1)).toBe('\r\x1b[2Kvotal: reading page 1, 1 s pause between pages');
    t = 2000;
    line.page(at(1, 'read'));
    // 2 s a page so far, 59 pages to go.
    expect(out.at(-1)).toBe('\r\x1b[2Kvotal: page 1 of 60 read, about 1 min 58 s left');
    line.page(at(2, 'reading'));
    expect(out.at(-1)).toBe('\r\x1b[2Kvotal: reading page 2 of 60, 1 s pause between pages, about 1 min 58 s left');
  });

  it('never promises faster than the host pause allows', () => {
    const out: string[] = [];
    const line = new ProgressLine({ write: (s) => out.push(s), live: false, now: () => 0 });
    line.page(at(1, 'reading', 11));
    line.page(at(1, 'read', 11));
    expect(out).toEqual(['votal: page 1 of 11 read, about 10 s left\n']);
  });

  it('a retry names the URL at once and stays on screen above the live line', () => {
    const out: string[] = [];
    const line = new ProgressLine({ write: (s) => out.push(s), live: true, now: () => 0 });
    line.page(at(1, 'reading'));
    line.retry({
      message: 'Network error: connection refused (https://forum.example/t/1)',
      waitMs: 2000,
      attempt: 1,
      attempts: 4,
    });
    expect(out.slice(-2)).toEqual([
      '\r\x1b[2K',
      'votal: Network error: connection refused (https://forum.example/t/1); trying again in 2 s (attempt 2 of 4)\n',
    ]);
  });
});
