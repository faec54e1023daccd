import { readFileSync } from 'node:fs';
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { mountThreadFolder } from '../../src/fake-forum/thread-folder.js';

/** The installed `votal` bin, as a user runs it (built into dist/ by `npm ci`). */
const root = join(import.meta.dirname, '../..');
const run = promisify(execFile);
let forum: FakeForum;
let url: string;

beforeAll(async () => {
  // Build what the bin runs, so this test never checks a stale dist/.
  try {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'pipe' });
  } catch (e) {
    const out = e as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`npm run build failed:\n${out.stdout?.toString() ?? ''}${out.stderr?.toString() ?? ''}`);
  }
  forum = await startFakeForum();
  url = mountThreadFolder(forum, join(root, 'fixtures/xenforo2/standard-game')).url;
}, 120_000);
afterAll(async () => {
  await forum?.close();
});

describe('the votal bin', () => {
  it('prints its commands with --help', async () => {
    const r = await run('node', [join(root, 'bin/votal.js'), '--help']);
    expect(r.stdout).toMatch(/count \[options\] <thread-url>/);
    expect(r.stdout).toMatch(/parse \[options\]/);
  });

  it('prints its version with --version, as package.json gives it', async () => {
    const r = await run('node', [join(root, 'bin/votal.js'), '--version']);
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect(r.stdout.trim()).toBe(version);
  });

  it('counts a thread on a local forum when private hosts are allowed', async () => {
    const r = await run(
      'node',
      [
        join(root, 'bin/votal.js'),
        'count',
        url,
        '--ruleset',
        'witchhunt',
        '--players',
        'Alice,Bob,Carol,Dave,Davina,Eve,Frank',
        '--format',
        'json',
      ],
      { env: { ...process.env, VOTAL_ALLOW_PRIVATE_HOSTS: '1' } },
    );
    const tally = JSON.parse(r.stdout);
    expect(tally.ruleset).toBe('witchhunt');
    expect(tally.threshold).toEqual({ kind: 'majority', votes: 4 });
  });

  it('exits 2 (a local setting) with the fix when the forum is private and not allowed', async () => {
    const env = { ...process.env };
    delete env.VOTAL_ALLOW_PRIVATE_HOSTS;
    const err = await run('node', [join(root, 'bin/votal.js'), 'count', url, '--ruleset', 'witchhunt'], { env }).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err?.code).toBe(2);
    expect(err?.stderr).toContain('run with VOTAL_ALLOW_PRIVATE_HOSTS=1');
    expect(err?.stderr).not.toContain('    at ');
  });

  it('reads a post body on stdin with votal parse', async () => {
    const child = execFile('node', [
      join(root, 'bin/votal.js'),
      'parse',
      '--engine',
      'xenforo2',
      '--players',
      'Alice,Bob',
    ]);
    child.stdin!.end('<b>Vote: alice</b>');
    const out = await new Promise<string>((resolve) => {
      let s = '';
      child.stdout!.on('data', (d) => {
        s += d;
      });
      child.on('close', () => resolve(s));
    });
    expect(JSON.parse(out).effect).toEqual({ kind: 'vote', target: 'Alice', reason: null });
  });
});
