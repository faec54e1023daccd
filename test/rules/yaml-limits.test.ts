import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { packageRoot } from '../../src/config/package-root.js';
import { parseEvents } from '../../src/rules/load-events.js';
import { parseRuleset } from '../../src/rules/load-ruleset.js';
import { RulesetError, type YamlSourceError } from '../../src/rules/source-error.js';
import { MAX_YAML_DEPTH, SHOWN_PROBLEMS, tooDeepAt } from '../../src/rules/yaml-source.js';
import { parseSiteProfile } from '../../src/site/load-site-profiles.js';
import { runCli } from '../cli/run-cli.js';

/**
 * Hostile YAML is bounded (issue #22, 3). A ruleset with 20,000 unknown keys took 27 s: yaml's
 * duplicate-key check compares every key with every other, and each unknown key was looked up
 * by a scan of its map. Now both are one pass, and the first 20 problems are listed with a
 * count of the rest. A file nested 5,000 levels deep ended in "Maximum call stack size
 * exceeded"; now it is refused before parsing, naming the file and saying it is too deep.
 */

const refusal = (load: () => unknown): YamlSourceError => {
  try {
    load();
  } catch (error) {
    return error as YamlSourceError;
  }
  throw new Error('expected the file to be refused');
};

/** A shipped ruleset, whole: every problem below is one the test adds. */
const BASE = `${readFileSync(join(packageRoot(), 'rulesets', 'plurality.yaml'), 'utf8').trimEnd()}\n`;
const BASE_LINES = BASE.split('\n').length - 1;

describe('many problems in one file', () => {
  it('20,000 unknown keys: the first 20 are listed at their lines, the rest counted', () => {
    const text = BASE + Array.from({ length: 20_000 }, (_, i) => `extra${i}: 1`).join('\n');
    const error = refusal(() => parseRuleset(text, 'wide.yaml'));
    expect(error).toBeInstanceOf(RulesetError);
    expect(error.problems).toHaveLength(SHOWN_PROBLEMS + 1);
    expect(error.problems[0]).toMatchObject({
      file: 'wide.yaml',
      line: BASE_LINES + 1,
      column: 1,
      message: expect.stringMatching(/^extra0: unknown key "extra0"; known here: name, /),
    });
    expect(error.problems[19]).toMatchObject({
      line: BASE_LINES + 20,
      message: expect.stringMatching(/^extra19: unknown key "extra19"; /),
    });
    expect(error.problems[20]).toMatchObject({
      line: BASE_LINES + 21,
      omitted: 19_980,
      message: 'and 19,980 more problems like these',
    });
    expect(error.message.split('\n')[0]).toBe('ruleset wide.yaml is not valid (20,000 problems):');
    expect(error.message.split('\n')).toHaveLength(1 + SHOWN_PROBLEMS + 1);
  });

  it('a repeated key is still refused at the line that repeats it (our check, not the quadratic one)', () => {
    const error = refusal(() => parseRuleset(`${BASE}name: again\n`, 'twice.yaml'));
    expect(error.problems).toEqual([
      { file: 'twice.yaml', line: BASE_LINES + 1, column: 1, message: 'Map keys must be unique' },
    ]);
  });

  it('20,000 repeated keys: 20 listed, the rest counted', () => {
    const text = `${BASE}${Array.from({ length: 20_001 }, () => 'same: 1').join('\n')}`;
    const error = refusal(() => parseRuleset(text, 'same.yaml'));
    expect(error.problems).toHaveLength(SHOWN_PROBLEMS + 1);
    expect(error.problems[20]!.omitted).toBe(19_980);
  });
});

/** Text nested `depth` levels: block maps, block lists, flow lists, JSON-like flow maps. */
const nested = {
  'block maps': (depth: number) =>
    `${Array.from({ length: depth }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')} 1\n`,
  'block lists': (depth: number) => `${'- '.repeat(depth - 1)}k: x\n`,
  'flow lists': (depth: number) => `a: ${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}\n`,
  'flow maps': (depth: number) => `a: ${'{"a": '.repeat(depth - 1)}1${'}'.repeat(depth - 1)}\n`,
};

describe('the depth cap, read alone', () => {
  it.each(Object.entries(nested))('%s: at the cap is read, one level more is refused', (_, make) => {
    expect(tooDeepAt(make(MAX_YAML_DEPTH))).toBeNull();
    expect(tooDeepAt(make(MAX_YAML_DEPTH + 1))).not.toBeNull();
  });

  it('brackets inside a block scalar, a quoted string or a plain value are text, not nesting', () => {
    const brackets = '[b]'.repeat(100);
    const text = [
      'votalTemplate: |',
      `  ${'[list]'.repeat(200)}`,
      `    ${'{{'.repeat(100)}`,
      `title: "${'['.repeat(100)}"`,
      `other: Vote ${brackets} [`,
      `comment: x # ${'['.repeat(100)}`,
      'last: 1',
    ].join('\n');
    expect(tooDeepAt(text)).toBeNull();
  });
});

describe('a file 5,000 levels deep', () => {
  it.each(Object.entries(nested))(
    '%s: a ruleset, events file and site profile say it is too deeply nested',
    (_, make) => {
      const text = make(5_000);
      for (const [kind, load] of [
        ['ruleset', () => parseRuleset(text, 'deep.yaml')],
        ['events file', () => parseEvents(text, 'deep.yaml')],
        ['site profile', () => parseSiteProfile(text, 'deep.yaml')],
      ] as const) {
        const error = refusal(load);
        expect(error.message, kind).toContain('deep.yaml');
        expect(error.message, kind).toContain(
          `too deeply nested: lists and maps more than ${MAX_YAML_DEPTH} levels deep`,
        );
        expect(error.message, kind).not.toContain('Maximum call stack');
      }
    },
  );
});

describe('votal count with a 5,000-deep --ruleset, --events or --site-profile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'votal-deep-'));
  const deep = join(dir, 'deep.yaml');
  writeFileSync(deep, nested['block maps'](5_000));
  // A loopback thread (nothing listens on port 9): every file is read before any fetch.
  const url = 'http://127.0.0.1:9/threads/deep.1/';
  beforeAll(() => vi.stubEnv('VOTAL_ALLOW_PRIVATE_HOSTS', '1'));
  afterAll(() => {
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['--ruleset', ['--ruleset', deep]],
    ['--events', ['--ruleset', 'plurality', '--events', deep]],
    ['--site-profile', ['--ruleset', 'plurality', '--site-profile', deep]],
  ])('%s: exit 2 naming the file, "too deeply nested"', async (_, options) => {
    const r = await runCli(['count', url, '--players', 'Ann,Ben', ...options]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(deep);
    expect(r.stderr).toContain('too deeply nested');
    expect(r.stderr).not.toContain('Maximum call stack');
  });
});
