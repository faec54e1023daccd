import { describe, expect, it } from 'vitest';
import { PostReading } from '../../src/model/action.js';
import { runParse, type ParseOptions } from '../../src/cli/parse-command.js';
import { loadCases, TOPICS, type LoadedCase, type Point } from './load-cases.js';

/*
 * Issue #4: a table of real-looking post bodies in XenForo 2, phpBB, ProBoards, GOG and
 * vBulletin markup (fixtures/parse-cases/*.yaml), each read through `votal parse` (the
 * JSON it prints, parsed back and validated) and compared with what a moderator reads.
 */

const files = loadCases();
const all = [...files.values()].flat();

function options(c: LoadedCase): ParseOptions {
  return {
    engine: c.engine,
    players: c.players,
    ruleset: c.ruleset,
    url: c.url,
    format: 'json',
    ...(c.dead !== undefined ? { dead: c.dead } : {}),
    ...(c.replaced !== undefined ? { replaced: c.replaced } : {}),
    ...(c.edit !== undefined ? { edited: c.edit } : {}),
    ...(c.correct !== undefined ? { correct: c.correct } : {}),
  };
}

function check(c: LoadedCase): void {
  const { output } = runParse(c.html, options(c));
  const reading = PostReading.parse(JSON.parse(output));
  const got = {
    actions: reading.actions.map((a, i) => {
      const want = c.expect.actions[i];
      return {
        kind: a.kind,
        target: a.target,
        match: a.match,
        source: a.source,
        ...(want?.raw !== undefined ? { raw: a.raw } : {}),
        ...(want?.candidates !== undefined ? { candidates: a.candidates } : {}),
      };
    }),
    effect: reading.effect,
    violations: reading.violations.map((v, i) => (c.expect.violations[i]?.detail !== undefined ? v : { kind: v.kind })),
  };
  expect(got).toEqual({ actions: c.expect.actions, effect: c.expect.effect, violations: c.expect.violations });
}

for (const [file, cases] of files) {
  describe(file, () => {
    for (const c of cases) {
      const title = c.gap ? `${c.name} [known gap: ${c.gap}]` : c.name;
      (c.gap ? it.fails : it)(title, () => check(c));
    }
  });
}

describe('the case tables cover issue #4', () => {
  const counted = all.filter((c) => !c.gap);
  const engineOf = (c: LoadedCase): string => (c.engine.startsWith('vbulletin') ? 'vbulletin' : c.engine);

  it('at least 150 cases across XenForo 2, phpBB, ProBoards, GOG and vBulletin markup', () => {
    expect(counted.length).toBeGreaterThanOrEqual(150);
    expect(new Set(counted.map(engineOf))).toEqual(new Set(['xenforo2', 'phpbb', 'proboards', 'gog', 'vbulletin']));
  });

  it('every point of the issue on every engine, every topic on at least two', () => {
    for (const point of Object.keys(TOPICS) as Point[]) {
      const engines = new Set(counted.filter((c) => c.covers.some((t) => t.startsWith(`${point}:`))).map(engineOf));
      expect(engines.size, `point ${point}`).toBe(5);
    }
    const thin = Object.entries(TOPICS)
      .flatMap(([p, ts]) => ts.map((t) => `${p}:${t}`))
      .filter((t) => new Set(counted.filter((c) => c.covers.includes(t)).map(engineOf)).size < 2);
    expect(thin).toEqual([]);
  });

  it('at least 100 cases ported from other vote counters, each naming its repository, file and test', () => {
    const ported = all.filter((c) => !c.gap && c.source !== undefined && 'repo' in c.source);
    expect(ported.length).toBeGreaterThanOrEqual(100);
    expect(new Set(ported.map((c) => (c.source as { repo: string }).repo)).size).toBeGreaterThanOrEqual(4);
  });

  it('names read as rules, prefixed with their engine', () => {
    const prefix: Record<string, RegExp> = {
      xenforo2: /^XenForo 2: /,
      phpbb: /^phpBB( 3\.\d)?: /,
      proboards: /^ProBoards: /,
      gog: /^GOG: /,
      vbulletin3: /^vB3: /,
      vbulletin4: /^vB4: /,
      vbulletin5: /^vB5: /,
    };
    expect(all.filter((c) => !prefix[c.engine]!.test(c.name)).map((c) => c.name)).toEqual([]);
  });
});
