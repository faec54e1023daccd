import type { EngineId } from '../model/engine.js';
import type { Tally } from '../model/tally.js';
import { dialectFor, dialectSpec, type Dialect } from './dialect.js';
import { renderVotal, type VotalOptions } from './render-votal.js';

/**
 * The BBCode dialect for a thread's engine: its own where it writes BBCode (GOG's few
 * tags included); for Markdown forums or an unknown engine, phpBB's — the most careful
 * (no no-parse tag to rely on, so brackets become look-alikes and smilies are broken).
 */
function bbcodeDialectFor(engine: EngineId | null): Dialect {
  const dialect = engine ? dialectFor(engine) : null;
  return dialect && dialectSpec(dialect).family === 'bbcode' ? dialect : 'bbcode-phpbb';
}

/** `votal count --format bbcode`: the votal in the thread engine's BBCode. */
export function renderBbcode(t: Tally, opts: Partial<VotalOptions> = {}): string {
  return renderVotal(t, { ...opts, dialect: opts.dialect ?? bbcodeDialectFor(t.engine) });
}
