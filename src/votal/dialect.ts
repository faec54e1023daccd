import { adapters, engineFacts } from '../../scrapers/registry.js';
import { Dialect, type DialectSpec } from '../model/dialect.js';
import type { EngineId } from '../model/engine.js';

/*
 * The markup a votal is written in, read from each engine's descriptor (scrapers/<engine>.ts:
 * `dialect`, what it supports checked against the engine's own BB code table). No table of
 * engines here: an engine names its dialect where its adapter is.
 */

export { Dialect, type DialectSpec, type Wrap } from '../model/dialect.js';

/** Which dialect a forum engine's posts are written in. */
export function dialectFor(engine: EngineId): Dialect {
  return engineFacts(engine).dialect.id;
}

/**
 * Every dialect by id, from the engines that write it. Engines sharing a dialect (XenForo 1
 * and 2, vBulletin 3 to 5, Discourse and NodeBB) must describe it alike, and every `Dialect`
 * id needs an engine: either slip is an error naming the engines, never a silent pick.
 */
export function collectDialects(
  specs: readonly { engine: string; dialect: DialectSpec }[],
): Record<Dialect, DialectSpec> {
  const found = new Map<Dialect, { engine: string; spec: DialectSpec }>();
  for (const { engine, dialect } of specs) {
    const first = found.get(dialect.id);
    if (!first) found.set(dialect.id, { engine, spec: dialect });
    else if (JSON.stringify(first.spec) !== JSON.stringify(dialect)) {
      const where = `scrapers/${first.engine}.ts, scrapers/${engine}.ts`;
      throw new Error(`dialect "${dialect.id}" is described differently by ${first.engine} and ${engine} (${where})`);
    }
  }
  const missing = Dialect.options.filter((d) => !found.has(d));
  if (missing.length > 0) {
    throw new Error(`no engine writes the dialect(s) ${missing.join(', ')} (named in src/model/dialect.ts)`);
  }
  return Object.fromEntries([...found].map(([id, f]) => [id, f.spec])) as Record<Dialect, DialectSpec>;
}

export const DIALECTS: Readonly<Record<Dialect, DialectSpec>> = collectDialects(adapters.map((a) => a.descriptor));

export function dialectSpec(dialect: Dialect): DialectSpec {
  return DIALECTS[dialect];
}
