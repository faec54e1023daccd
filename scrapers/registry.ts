import type { EngineId } from '../src/model/engine.js';
import type { EngineAdapter, EngineDescriptor } from './adapter.js';
import { discourse } from './discourse.js';
import { fluxbb } from './fluxbb.js';
import { generic } from './generic.js';
import { gog } from './gog.js';
import { invision } from './invision.js';
import { mybb } from './mybb.js';
import { nodebb } from './nodebb.js';
import { phpbb } from './phpbb.js';
import { proboards } from './proboards.js';
import { smf } from './smf.js';
import { vanilla } from './vanilla.js';
import { vbulletin3 } from './vbulletin3.js';
import { vbulletin4 } from './vbulletin4.js';
import { vbulletin5 } from './vbulletin5.js';
import { xenforo1 } from './xenforo1.js';
import { xenforo2 } from './xenforo2.js';

/**
 * Every engine Votal reads, one line each, keyed by its id: a new `EngineId` without a line
 * here does not compile. Identification tries them in this order (an engine before one whose
 * fingerprints could also match its pages).
 */
const REGISTRY = {
  xenforo2,
  // FluxBB's viewtopic.php is phpBB's name too: the page's own markup decides.
  fluxbb,
  phpbb,
  xenforo1,
  vbulletin3,
  vbulletin4,
  vbulletin5,
  discourse,
  nodebb,
  proboards,
  gog,
  smf,
  mybb,
  invision,
  vanilla,
  generic,
} as const satisfies Record<EngineId, EngineAdapter>;

for (const [engine, adapter] of Object.entries(REGISTRY)) {
  if (adapter.descriptor.engine !== engine) {
    throw new Error(`scrapers/registry.ts: the line "${engine}" holds the adapter of "${adapter.descriptor.engine}"`);
  }
}

/**
 * Every engine's adapter, in identification order. The generic reader is not among them:
 * identification never picks it; only `--engine generic`, a site profile or the GM does.
 */
export const adapters: readonly EngineAdapter[] = Object.values(REGISTRY).filter(
  (a) => a.descriptor.engine !== 'generic',
);

export function adapterFor(engine: EngineId): EngineAdapter | null {
  return (REGISTRY as Partial<Record<EngineId, EngineAdapter>>)[engine] ?? null;
}

/** What Votal knows about an engine (its adapter's descriptor): every `EngineId` has one. */
export function engineFacts(engine: EngineId): EngineDescriptor {
  return REGISTRY[engine].descriptor;
}
