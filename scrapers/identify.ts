import type { EngineId } from '../src/model/engine.js';
import type { EngineAdapter } from './adapter.js';
import { all, attr, one, parseHtml, type Document } from './dom.js';
import { adapters } from './registry.js';
import type { SiteProfile } from './site-profile.js';

/** Which engine a thread URL belongs to, from the URL alone; null when the URL does not say. */
export function engineFromUrl(url: URL, profile?: SiteProfile): EngineId | null {
  return urlEngine(url, profile)?.engine ?? null;
}

/**
 * The engine a URL says, and what said it: the site profile, a hosted forum's host name, or
 * only the path's shape (which another engine, FluxBB's viewtopic.php, may share).
 */
export function urlEngine(
  url: URL,
  profile?: SiteProfile,
): { engine: EngineId; by: 'profile' | 'host' | 'path' } | null {
  if (profile?.engine) return { engine: profile.engine, by: 'profile' };
  const path = url.pathname + url.search;
  for (const a of adapters) {
    if (a.descriptor.hosts.some((h) => new RegExp(h, 'i').test(url.hostname)))
      return { engine: a.descriptor.engine, by: 'host' };
  }
  const byPath = adapters.filter((a) => a.descriptor.threadPaths.some((p) => new RegExp(p, 'i').test(path)));
  return byPath.length === 1 ? { engine: byPath[0]!.descriptor.engine, by: 'path' } : null;
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
  const a = adapters.find((x) => x.descriptor.engine === engine);
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
