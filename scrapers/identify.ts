import type { EngineId } from '../src/model/engine.js';
import type { EngineAdapter } from './adapter.js';
import { attr, one, parseHtml, type Document } from './dom.js';
import { adapterFor, adapters } from './registry.js';
import type { SiteProfile } from './site-profile.js';

/** Which engine a thread URL belongs to, from the URL alone; null when the URL does not say. */
export function engineFromUrl(url: URL, profile?: SiteProfile): EngineId | null {
  if (profile?.engine) return profile.engine;
  const path = url.pathname + url.search;
  for (const a of adapters) {
    if (a.descriptor.hosts.some((h) => new RegExp(h, 'i').test(url.hostname))) return a.descriptor.engine;
  }
  const byPath = adapters.filter((a) => a.descriptor.threadPaths.some((p) => new RegExp(p, 'i').test(path)));
  return byPath.length === 1 ? byPath[0]!.descriptor.engine : null;
}

/** Which engine rendered a page, from its HTML fingerprints (a board on its own domain). */
export function engineFromHtml(html: string | Document): EngineId | null {
  const doc = typeof html === 'string' ? parseHtml(html) : html;
  const generator = attr(one(doc, 'meta[name="generator"]'), 'content') ?? '';
  for (const a of adapters) {
    const d = a.descriptor;
    if (d.generator && new RegExp(d.generator, 'i').test(generator)) return d.engine;
    if (d.fingerprints.some((f) => one(doc, f) !== null)) return d.engine;
  }
  return null;
}

export function adapterOf(engine: EngineId): EngineAdapter {
  // The generic reader is chosen by name, never identified: adapterFor knows it, `adapters` does not.
  const a = adapterFor(engine);
  if (!a)
    throw new Error(
      `engine "${engine}" is not supported yet (supported: ${adapters.map((x) => x.descriptor.engine).join(', ')})`,
    );
  return a;
}
