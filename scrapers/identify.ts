import type { EngineId } from '../src/model/engine.js';
import type { EngineAdapter } from './adapter.js';
import { all, attr, one, parseHtml, type Document } from './dom.js';
import { adapterFor, adapters } from './registry.js';
import type { SiteProfile } from './site-profile.js';

/** How an engine was recognised: what decided it, and the rule that matched (`votal read` shows it). */
export interface Recognition {
  engine: EngineId;
  by: 'site-profile' | 'host' | 'url' | 'generator' | 'fingerprint';
  /** The pattern or selector that matched (a site profile: its engine). */
  detail: string;
}

/** Which engine a thread URL belongs to, from the URL alone; null when the URL does not say. */
export function engineFromUrl(url: URL, profile?: SiteProfile): EngineId | null {
  return recogniseUrl(url, profile)?.engine ?? null;
}

/** `engineFromUrl` with its reason: the profile's engine, then `hosts`, then one unambiguous `threadPaths` match. */
export function recogniseUrl(url: URL, profile?: SiteProfile): Recognition | null {
  if (profile?.engine) return { engine: profile.engine, by: 'site-profile', detail: profile.engine };
  const path = url.pathname + url.search;
  for (const a of adapters) {
    const host = a.descriptor.hosts.find((h) => new RegExp(h, 'i').test(url.hostname));
    if (host) return { engine: a.descriptor.engine, by: 'host', detail: host };
  }
  const byPath = adapters.flatMap((a) => {
    const p = a.descriptor.threadPaths.find((x) => new RegExp(x, 'i').test(path));
    return p ? [{ engine: a.descriptor.engine, by: 'url' as const, detail: p }] : [];
  });
  return byPath.length === 1 ? byPath[0]! : null;
}

/** Which engine rendered a page, from its HTML fingerprints (a board on its own domain). */
export function engineFromHtml(html: string | Document): EngineId | null {
  return recogniseHtml(html)?.engine ?? null;
}

/** `engineFromHtml` with its reason: the `<meta name="generator">` pattern or the fingerprint that matched. */
export function recogniseHtml(html: string | Document): Recognition | null {
  const doc = typeof html === 'string' ? parseHtml(html) : html;
  const generator = attr(one(doc, 'meta[name="generator"]'), 'content') ?? '';
  for (const a of adapters) {
    const d = a.descriptor;
    if (d.generator && new RegExp(d.generator, 'i').test(generator))
      return { engine: d.engine, by: 'generator', detail: generator };
    const print = d.fingerprints.find((f) => one(doc, f) !== null);
    if (print) return { engine: d.engine, by: 'fingerprint', detail: print };
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

/**
 * Forum engines Votal has no adapter for, told by what their pages carry (their own
 * stylesheets, body classes, credit links), from the Harvest corpus's pages
 * (../shared/forum-samples/harvest): a page of one is refused naming the engine, never
 * read by a wrong adapter or called a login wall because of its header's quick-login box.
 */
const UNSUPPORTED: readonly { name: string; marks: readonly string[] }[] = [
  // WordPress's forum plugin: body.bbpress, div#bbpress-forums (shift.ms).
  { name: 'bbPress', marks: ['body.bbpress', '#bbpress-forums'] },
  // Joomla's forum component: /media/kunena/ stylesheets, the kunena.org credit (proxer.me).
  { name: 'Kunena', marks: ['link[href*="/media/kunena/"]', 'a[href*="kunena.org"]', '#kunena'] },
  // A hosted community platform: insided.com uploads and credit (community.kaspersky.com).
  { name: 'inSided', marks: ['a[href*="insided.com"]', 'link[href*=".insided.com/"]'] },
];

/** The name of an engine Votal does not read yet when the page shows one; null otherwise. */
export function unsupportedEngine(html: string | Document): string | null {
  const doc = typeof html === 'string' ? parseHtml(html) : html;
  return UNSUPPORTED.find((e) => e.marks.some((m) => one(doc, m) !== null))?.name ?? null;
}

/**
 * Whether a page carries any of an engine's marks (its generator or fingerprints). A page
 * an adapter chose by its URL alone (FluxBB's viewtopic.php looks like phpBB's) and could
 * not read, without them, is another engine's, not a changed layout of this one.
 */
export function carriesMarks(adapter: EngineAdapter, html: string | Document): boolean {
  const doc = typeof html === 'string' ? parseHtml(html) : html;
  const d = adapter.descriptor;
  const generator = all(doc, 'meta[name="generator"]').map((m) => attr(m, 'content') ?? '');
  if (d.generator && generator.some((g) => new RegExp(d.generator!, 'i').test(g))) return true;
  return d.fingerprints.some((f) => one(doc, f) !== null);
}
