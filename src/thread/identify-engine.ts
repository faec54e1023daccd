import { LayoutError, LoginRequiredError } from '../fetch/errors.js';
import type { FetchedPage } from '../fetch/fetched-page.js';
import type { EngineId } from '../model/engine.js';
import { engineFromHtml, unsupportedEngine } from '../../scrapers/identify.js';
import { olderVersion } from '../../scrapers/page-checks.js';
import { whyNoPosts } from './empty-page.js';
import type { PageRenderer } from '../browser/page-renderer.js';
import type { PageSource } from './read-page.js';
import { ScriptShellError } from './script-shell-error.js';
import { UnsupportedEngineError } from './unsupported-engine-error.js';

/**
 * A board on its own domain: the page itself says which engine rendered it. The page
 * is kept (it is usually page 1, read next anyway). A page that names no engine is
 * explained when it can be: a login wall, or a script shell (which the browser, when
 * allowed, renders and identifies instead).
 */
export async function identifyEngine(
  url: URL,
  source: PageSource,
  renderer: PageRenderer | undefined,
): Promise<{ engine: EngineId; page: FetchedPage }> {
  const page = await source.get(url.href);
  const engine = engineFromHtml(page.body);
  if (engine) return { engine, page };
  // An engine without an adapter, or an older version, is named before anything is guessed
  // about the page: their guest pages carry a quick-login box beside the posts.
  const unsupported = unsupportedEngine(page.body);
  if (unsupported) throw new UnsupportedEngineError(page.finalUrl, unsupported);
  const older = olderVersion(page.body);
  if (older) throw new LayoutError(page.finalUrl, older);

  const why = whyNoPosts(page.body);
  if (why === 'login-wall') {
    throw new LoginRequiredError(
      page.finalUrl,
      'the forum answered with a login form instead of the thread (log in and pass --cookies, or set cookies in the site profile)',
      page.status,
    );
  }
  if (why === 'script-shell') {
    if (!renderer) throw new ScriptShellError(page.finalUrl);
    const rendered = await renderer.render(url.href, { ready: (html) => engineFromHtml(html) !== null });
    const seen = engineFromHtml(rendered.body);
    if (seen) return { engine: seen, page: rendered };
  }
  throw new LayoutError(
    url.href,
    'no supported forum engine recognised on this page; name one with --engine or in a site profile, or read it with `votal read <url> --generic`',
  );
}
