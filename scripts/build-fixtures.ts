/**
 * Renders the fixture game scripts into each engine's real page markup:
 *
 *   fixtures/games/<game>.yaml  ->  fixtures/<engine>/<game>/page-N.html + thread.json
 *
 * Usage: npx tsx scripts/build-fixtures.ts [--check] [engine ...]
 *   --check  write nothing; list files that differ from what the renderers make (exit 1)
 *
 * The pages are committed; test/scrapers/<engine>.test.ts re-renders them and fails on
 * drift, so run this after changing a game script or a renderer.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EngineId } from '../src/model/engine.js';
import { packageRoot } from '../src/config/package-root.js';
import { loadGameScript } from '../test/support/game-script.js';
import { manifestOf, renderers } from '../test/support/render/index.js';

/** The game scripts rendered for every engine (fixtures/games/<name>.yaml). */
const GAMES = ['standard-game'] as const;

export interface FixtureFile {
  /** Absolute path. */
  path: string;
  content: string;
}

/** Every fixture file the renderers make, for the given engines (default: all registered). */
export function fixtureFiles(
  root: string = packageRoot(import.meta.url),
  engines?: readonly EngineId[],
): FixtureFile[] {
  const files: FixtureFile[] = [];
  for (const game of GAMES) {
    const script = loadGameScript(join(root, 'fixtures', 'games', `${game}.yaml`));
    for (const [engine, renderer] of Object.entries(renderers)) {
      if (!renderer || (engines && !engines.includes(engine as EngineId))) continue;
      const dir = join(root, 'fixtures', engine, game);
      const pages = renderer.render(script);
      for (const p of pages) files.push({ path: join(dir, p.file), content: p.body });
      files.push({
        path: join(dir, 'thread.json'),
        content: `${JSON.stringify(manifestOf(renderer, script, pages), null, 2)}\n`,
      });
    }
  }
  return files;
}

/** Files whose content on disk is missing or differs from `files`. */
export function staleFiles(files: readonly FixtureFile[]): FixtureFile[] {
  return files.filter((f) => !existsSync(f.path) || readFileSync(f.path, 'utf8') !== f.content);
}

function main(argv: readonly string[]): number {
  const check = argv.includes('--check');
  const engines = argv.filter((a) => !a.startsWith('--')).map((a) => EngineId.parse(a));
  const root = packageRoot(import.meta.url);
  const files = fixtureFiles(root, engines.length > 0 ? engines : undefined);
  const stale = staleFiles(files);
  if (check) {
    for (const f of stale) console.error(`stale: ${relative(root, f.path)}`);
    console.log(
      stale.length === 0
        ? `fixtures up to date (${files.length} files)`
        : `${stale.length} of ${files.length} fixture files are stale; run npx tsx scripts/build-fixtures.ts`,
    );
    return stale.length === 0 ? 0 : 1;
  }
  for (const f of stale) {
    mkdirSync(dirname(f.path), { recursive: true });
    writeFileSync(f.path, f.content);
    console.log(`wrote ${relative(root, f.path)}`);
  }
  console.log(`${files.length} fixture files, ${stale.length} written`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
