import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { adapterOf } from '../../scrapers/identify.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { EngineId } from '../model/engine.js';
import type { FakeForum } from './server.js';

/** `thread.json` in a fixture thread folder: where each page is served. */
export const ThreadFolder = z.object({
  engine: EngineId,
  /** The thread's URL path on the fake forum (page 1). */
  path: z.string().startsWith('/'),
  pages: z
    .array(
      z.object({
        page: z.number().int().positive(),
        path: z.string().startsWith('/'),
        file: z.string(),
        contentType: z.string().optional(),
      }),
    )
    .min(1),
});
export type ThreadFolder = z.infer<typeof ThreadFolder>;

/**
 * Serve a fixture thread folder page by page; returns the thread's URL on the forum.
 * `prefix` puts the board under a path ("/xenforo2"), as real boards often are, so several
 * engines' threads can share one forum.
 */
export function mountThreadFolder(forum: FakeForum, dir: string, prefix = ''): { url: string; folder: ThreadFolder } {
  const file = join(dir, 'thread.json');
  let folder: ThreadFolder;
  try {
    folder = ThreadFolder.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (e) {
    throw new Error(`${file}: not a thread folder manifest: ${(e as Error).message}`);
  }
  for (const p of folder.pages) {
    const body = readFileSync(join(dir, p.file));
    const contentType =
      p.contentType ?? (p.file.endsWith('.json') ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8');
    forum.route(prefix + p.path, { body, contentType });
    mountPermalinks(forum, folder.engine, prefix, p.path, body.toString('utf8'));
  }
  return { url: forum.url(prefix + folder.path), folder };
}

/**
 * Each post's permalink leads to its page, as on the real board (the demo's and the
 * votal's post links would otherwise be dead ends). Read with the engine's own adapter.
 */
function mountPermalinks(forum: FakeForum, engine: EngineId, prefix: string, pagePath: string, html: string): void {
  const pageUrl = forum.url(prefix + pagePath);
  let posts;
  try {
    posts = adapterOf(engine).parsePage(html, {
      url: pageUrl,
      profile: DEFAULT_PROFILE,
      now: new Date(0).toISOString(),
    }).posts;
  } catch {
    return; // a page the adapter cannot read still serves; only its post links stay unrouted
  }
  const origin = new URL(pageUrl).origin;
  for (const post of posts) {
    const link = new URL(post.permalink, pageUrl);
    if (link.origin !== origin) continue;
    const path = link.pathname + link.search;
    // Only links within the board's folder: pages written for the root served under a folder
    // would otherwise claim the root's paths.
    if (!path.startsWith(`${prefix}/`)) continue;
    if (path === prefix + pagePath) continue; // "page#post-N": the page itself already answers
    const location = `${prefix}${pagePath}#${link.hash.slice(1) || `post-${post.id}`}`;
    forum.route(path, { status: 302, headers: { location }, body: '' });
  }
}
