import type { EngineId } from '../src/model/engine.js';
import type { EngineAdapter } from './adapter.js';
import { discourse } from './discourse.js';
import { gog } from './gog.js';
import { invision } from './invision.js';
import { mybb } from './mybb.js';
import { nodebb } from './nodebb.js';
import { phpbb } from './phpbb.js';
import { proboards } from './proboards.js';
import { smf } from './smf.js';
import { vbulletin3 } from './vbulletin3.js';
import { vbulletin4 } from './vbulletin4.js';
import { vbulletin5 } from './vbulletin5.js';
import { xenforo1 } from './xenforo1.js';
import { xenforo2 } from './xenforo2.js';

/** Every engine Votal reads. Identification tries them in this order. */
export const adapters: readonly EngineAdapter[] = [xenforo2, phpbb, xenforo1, vbulletin3, vbulletin4, vbulletin5, discourse, nodebb, proboards, gog, smf, mybb, invision];

export function adapterFor(engine: EngineId): EngineAdapter | null {
  return adapters.find((a) => a.descriptor.engine === engine) ?? null;
}
