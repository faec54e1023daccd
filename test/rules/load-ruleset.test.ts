import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRulesetPath, listRulesets, loadRuleset, parseRuleset, rulesetsDir } from '../../src/rules/load-ruleset.js';
import { RulesetError } from '../../src/rules/source-error.js';

/** The problems of a ruleset that fails, as printed lines. */
function problems(text: string, file = 'bad.yaml'): string[] {
  try {
    parseRuleset(text, file);
  } catch (e) {
    expect(e).toBeInstanceOf(RulesetError);
    return (e as RulesetError).message.split('\n').slice(1);
  }
  throw new Error('expected the ruleset to fail');
}

const valid = ['name: custom', 'title: Custom', 'threshold:', '  kind: majority', ''].join('\n');

describe('ruleset files', () => {
  const files = readdirSync(rulesetsDir()).filter((f) => /\.ya?ml$/.test(f));

  it('the shipped rulesets include witchhunt, plurality and mafiascum-majority', () => {
    expect(listRulesets()).toEqual(expect.arrayContaining(['witchhunt', 'plurality', 'mafiascum-majority']));
    expect(listRulesets()).toHaveLength(files.length);
  });

  it.each(files)('%s loads, is named after its file and says where its rules come from', (file) => {
    const name = file.replace(/\.ya?ml$/, '');
    const ruleset = loadRuleset(name);
    expect(ruleset.name).toBe(name);
    expect(ruleset.source).toBeTruthy();
  });

  it("witchhunt models the seed's voting rules", () => {
    expect(loadRuleset('witchhunt')).toMatchObject({
      votes: { bold: 'required', colon: 'required', ownLine: true },
      noLynch: { name: 'Sleep', wins: 'gm' },
      threshold: { kind: 'majority' },
      endsAtThreshold: false,
      shortOfThreshold: 'gm',
      earlyEnd: { allBut: 1 },
      violations: { edit: 'flag' },
    });
  });

  it('plurality allows No Lynch, needs bold and takes an optional colon', () => {
    expect(loadRuleset('plurality')).toMatchObject({
      votes: { bold: 'required', colon: 'optional' },
      noLynch: { name: 'No Lynch' },
      threshold: { kind: 'plurality' },
    });
  });

  it('mafiascum-majority ends the Day at majority', () => {
    expect(loadRuleset('mafiascum-majority')).toMatchObject({
      threshold: { kind: 'majority' },
      endsAtThreshold: true,
      noLynch: { name: 'No Lynch' },
    });
  });
});

describe('loadRuleset', () => {
  it('unknown ruleset name lists names', () => {
    expect(() => loadRuleset('witchunt')).toThrow(RulesetError);
    expect(() => loadRuleset('witchunt')).toThrow(
      `unknown ruleset "witchunt"; available: ${listRulesets().join(', ')}`,
    );
  });

  it('a name with a slash or a .yaml ending is a file path', () => {
    expect(['witchhunt', 'mafiascum-majority'].map(isRulesetPath)).toEqual([false, false]);
    expect(['./w', 'games/w', 'w.yaml', 'w.yml', 'C:\\w'].map(isRulesetPath)).toEqual([true, true, true, true, true]);
  });

  it('loads a ruleset from a file path', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'votal-')), 'custom.yaml');
    writeFileSync(file, valid);
    expect(loadRuleset(file)).toMatchObject({
      name: 'custom',
      threshold: { kind: 'majority' },
      endsAtThreshold: false,
    });
  });

  it('a missing file is a RulesetError naming it', () => {
    expect(() => loadRuleset('/nonexistent/x.yaml')).toThrow(/cannot read ruleset x\.yaml/);
  });
});

describe('parseRuleset errors', () => {
  it('a broken YAML gives file:line:column errors', () => {
    expect(problems('name: x\ntitle: T\nvotes: [bold\n', 'broken.yaml')).toEqual([
      expect.stringMatching(/^broken\.yaml:4:1: /),
    ]);
  });

  it('a bad value is placed at the value: file:3:5-style', () => {
    const text = ['name: custom', 'title: Custom', 'threshold:', '  kind: half+1', ''].join('\n');
    expect(problems(text)).toEqual([
      "bad.yaml:4:9: threshold.kind 'half+1' is not a threshold kind; use one of majority, plurality, fraction",
    ]);
  });

  it('unknown key named with its line', () => {
    const text = valid + 'votes:\n  bold: required\n  maxImgs: 3\n';
    expect(problems(text)).toEqual([
      'bad.yaml:7:3: votes.maxImgs: unknown key "maxImgs"; known here: bold, colon, ownLine, spoilers, marker, emptyVote, keywords, side',
    ]);
  });

  it('an unknown top-level key is placed at the key', () => {
    expect(problems(valid + 'endAtThreshold: true\n')).toEqual([
      expect.stringMatching(
        /^bad\.yaml:5:1: endAtThreshold: unknown key "endAtThreshold"; did you mean `endsAtThreshold`\? known here: name, title, /,
      ),
    ]);
  });

  it('every problem is listed, in line order', () => {
    const text = [
      'name: Bad Name',
      'title: T',
      'threshold:',
      '  kind: fraction',
      '  numerator: 0',
      'violations:',
      '  edit: punish',
      '',
    ].join('\n');
    const lines = problems(text);
    expect(lines).toHaveLength(4);
    expect(lines.map((l) => l.split(': ')[0])).toEqual([
      'bad.yaml:1:7',
      'bad.yaml:3:1',
      'bad.yaml:5:14',
      'bad.yaml:7:9',
    ]);
    expect(lines[1]).toContain('threshold.denominator');
  });

  it('a missing nested key points at the key of the map that lacks it', () => {
    expect(problems(valid.replace('kind: majority', 'kind: fraction\n  numerator: 2'))).toEqual([
      'bad.yaml:3:1: a fraction threshold needs `threshold.denominator:`',
    ]);
  });

  it('a missing required key points at the map that lacks it', () => {
    expect(problems('name: x\nthreshold: { kind: plurality }\n')).toEqual(['bad.yaml:1:1: the file needs `title:`']);
  });

  it('a duplicate key is a YAML error with its place', () => {
    expect(problems(valid + 'title: Again\n')).toEqual(['bad.yaml:5:1: Map keys must be unique']);
  });

  it('an empty file says what was expected', () => {
    expect(problems('')).toEqual(['bad.yaml:1:1: the file is empty; it should be a map of keys']);
  });

  it('the error message starts with a line naming the file', () => {
    expect(() => parseRuleset('name: 1', 'x.yaml')).toThrow(/^ruleset x\.yaml is not valid \(\d+ problems?\):\n/);
  });
});
