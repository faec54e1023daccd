import type { EngineId } from '../src/model/engine.js';
import type { EngineAdapter } from './adapter.js';
import { phpbb } from './phpbb.js';
import { xenforo2 } from './xenforo2.js';

/** Every engine Votal reads. Identification tries them in this order. */
export const adapters: readonly EngineAdapter[] = [xenforo2, phpbb];

export function adapterFor(engine: EngineId): EngineAdapter | null {
  return adapters.find((a) => a.descriptor.engine === engine) ?? null;
}
