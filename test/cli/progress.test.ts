import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { mountThreadFolder } from '../../src/fake-forum/thread-folder.js';
import { main } from '../../src/cli/main.js';
import { ProgressLine } from '../../src/cli/progress.js';
import type { ReadProgress } from '../../src/thread/read-progress.js';

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
