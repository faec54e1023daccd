import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PostReading } from '../../src/model/action.js';
import { runCli } from './run-cli.js';

const root = join(import.meta.dirname, '../..');

describe('votal parse', () => {
  it("prints one post's actions, effect and violations as JSON in DESIGN.md's shape", async () => {
    const html =
      '<blockquote class="bbCodeBlock bbCodeBlock--quote" data-quote="Bob"><div class="bbCodeBlock-title">Bob said:</div>' +
      '<div class="bbCodeBlock-content"><b>Vote: Carol</b></div></blockquote>I disagree.<br /><b>Vote: alice</b>' +
      '<br /><img src="https://i.example.net/x.png" class="bbImage" />';
    const r = await runCli(
      ['parse', '--engine', 'xenforo2', '--players', 'Alice,Bob,Carol', '--ruleset', 'witchhunt'],
      html,
    );
    expect(r.code).toBe(0);
    const reading = PostReading.parse(JSON.parse(r.stdout));
    expect(reading.actions).toEqual([
      expect.objectContaining({ kind: 'vote', target: 'Alice', match: 'exact', raw: 'Vote: alice' }),
    ]);
    expect(reading.effect).toEqual({ kind: 'vote', target: 'Alice', reason: null });
    expect(reading.violations).toEqual([{ kind: 'image', detail: 'https://i.example.net/x.png' }]);
  });

  it("reads the engine's own markup: phpBB bold is a styled span", async () => {
    const r = await runCli(
      ['parse', '--engine', 'phpbb', '--players', 'Alice,Bob'],
      '<span style="font-weight: bold">Vote: Bob</span>',
    );
    expect(JSON.parse(r.stdout).effect).toEqual({ kind: 'vote', target: 'Bob', reason: null });
  });

  it('sends an ambiguous name to review with its candidates', async () => {
    const r = await runCli(['parse', '--engine', 'xenforo2', '--players', 'Dave,Davina'], '<b>vote dav</b>');
    const reading = JSON.parse(r.stdout) as PostReading;
    expect(reading.effect).toEqual({ kind: 'review', target: null, reason: 'ambiguous-target' });
    expect(reading.actions[0]).toMatchObject({ match: 'ambiguous', candidates: ['Dave', 'Davina'] });
  });

  it('prints a short text reading with --format text', async () => {
    const r = await runCli(
      ['parse', '--engine', 'xenforo2', '--players', 'Alice', '--format', 'text'],
      '<b>Unvote</b>',
    );
    expect(r.stdout).toBe('unvote [none] "Unvote"\neffect: unvote\n');
  });

  const errors: { name: string; args: string[]; stdin: string; message: RegExp }[] = [
    {
      name: 'unknown engine',
      args: ['parse', '--engine', 'myspace', '--players', 'A'],
      stdin: '<b>vote a</b>',
      message: /unknown engine "myspace"/,
    },
    {
      name: 'no players',
      args: ['parse', '--engine', 'xenforo2'],
      stdin: '<b>vote a</b>',
      message: /name the players/,
    },
    {
      name: 'nothing on stdin',
      args: ['parse', '--engine', 'xenforo2', '--players', 'A'],
      stdin: '',
      message: /no post body on stdin/,
    },
    {
      name: 'broken ruleset file',
      args: [
        'parse',
        '--engine',
        'xenforo2',
        '--players',
        'A',
        '--ruleset',
        join(root, 'test/cli/fixtures/bad-ruleset.yaml'),
      ],
      stdin: 'x',
      message: /bad-ruleset\.yaml:4:\d+/,
    },
  ];
  for (const c of errors) {
    it(`refuses ${c.name} with exit code 2`, async () => {
      const r = await runCli(c.args, c.stdin);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(c.message);
    });
  }
});

describe('votal ruleset check', () => {
  it('accepts every shipped ruleset', async () => {
    for (const name of ['witchhunt', 'plurality', 'mafiascum-majority']) {
      const r = await runCli(['ruleset', 'check', name]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`${name}: ok`);
    }
  });
  it('prints file:line:column for each problem', async () => {
    const r = await runCli(['ruleset', 'check', join(root, 'test/cli/fixtures/bad-ruleset.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad-ruleset\.yaml:4:9/);
  });
});

describe('votal ruleset list', () => {
  it('lists every shipped ruleset by name, each with its one-line description', async () => {
    const r = await runCli(['ruleset', 'list']);
    expect(r.code, r.stderr).toBe(0);
    const names = readdirSync(join(root, 'rulesets'))
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => f.replace(/\.yaml$/, ''));
    const lines = r.stdout.split('\n');
    for (const name of names) {
      const line = lines.find((l) => l.startsWith(`${name} `));
      expect(line, name).toBeDefined();
      expect(line!.slice(name.length).trim().length, name).toBeGreaterThan(10);
    }
    expect(r.stdout).toMatch(/^plurality +Plain plurality: the usual default when a game states nothing more\.$/m);
    expect(r.stdout).toContain('--ruleset NAME');
  });
});
