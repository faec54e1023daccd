import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { root } from '../thread/support.js';

/**
 * Issue #16: every command started everything (681 files: the server, both database
 * drivers, playwright-core, eld's n-gram tables). A command loads what it uses: this
 * runs the CLI in a child process and lists every file it loaded (counted, not timed).
 */

const HEAVY = [
  ['playwright-core', '/node_modules/playwright-core/'],
  ['eld (language detector)', '/node_modules/eld/'],
  ['PGlite', '/node_modules/@electric-sql/pglite/'],
  ['pg', '/node_modules/pg/'],
  ['pg-boss', '/node_modules/pg-boss/'],
  ['hono', '/node_modules/hono/'],
] as const;

/**
 * Logs every file the process loads, one a line on stderr: what the ES module loader
 * resolves, and at exit what require() loaded (eld is required on first use).
 */
const TRACE = `data:text/javascript,${encodeURIComponent(`
import { Module, register } from 'node:module';
process.on('exit', () => {
  for (const file of Object.keys(Module._cache)) process.stderr.write('LOADED file://' + file + '\\n');
});
register('data:text/javascript,' + encodeURIComponent(\`
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (r.url.startsWith('file:')) process.stderr.write('LOADED ' + r.url + '\\\\n');
  return r;
}\`));
`)}`;

function loadedBy(args: string[], input = ''): string[] {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--import', TRACE, 'src/cli/bin.ts', ...args], {
    cwd: root,
    input,
    encoding: 'utf8',
    env: { ...process.env, NODE_NO_WARNINGS: '1' },
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stderr
    .split('\n')
    .filter((l) => l.startsWith('LOADED '))
    .map((l) => l.slice('LOADED '.length));
}

describe('each command loads only what it uses', () => {
  it.each([
    ['votal --help', ['--help'], ''],
    ['votal parse', ['parse', '--engine', 'xenforo2', '--players', 'Alice,Bob'], '<b>Vote: Alice</b>'],
  ])('%s loads no server, database, browser or language detector', (_, args, input) => {
    const files = loadedBy(args, input);
    expect(files.length).toBeGreaterThan(0);
    for (const [name, marker] of HEAVY)
      expect(
        files.filter((f) => f.includes(marker)),
        name,
      ).toEqual([]);
  });

  it('the language detector is loaded by require, and the trace sees it', () => {
    const files = loadedBy(
      ['parse', '--engine', 'xenforo2', '--players', 'Alice,Bob', '--ruleset', 'open-conspiracy'],
      '<b>Vote: Alice</b><br>Das ist ein ziemlich langer deutscher Satz über die Abstimmung heute.',
    );
    expect(files.some((f) => f.includes('/node_modules/eld/'))).toBe(true);
  });

  it('the language detector still works, loaded when a post needs a language check (open-conspiracy)', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/bin.ts',
        'parse',
        '--engine',
        'xenforo2',
        '--players',
        'Alice,Bob',
        '--ruleset',
        'open-conspiracy',
      ],
      {
        cwd: root,
        encoding: 'utf8',
        input: '<b>Vote: Alice</b><br>Das ist ein ziemlich langer deutscher Satz über die Abstimmung heute.',
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).violations).toEqual([{ kind: 'non-english', detail: 'de' }]);
    expect(run.stderr).toBe('');
  });
});
