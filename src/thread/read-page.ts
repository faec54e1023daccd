import type { FetchedPage, Validators } from '../fetch/fetched-page.js';
import { LayoutError, LoginRequiredError } from '../fetch/errors.js';
import { BrowserUnavailableError } from '../browser/errors.js';
import type { EngineAdapter, ThreadPage } from '../../scrapers/adapter.js';
import type { SiteProfile } from '../../scrapers/site-profile.js';
import { whyNoPosts } from './empty-page.js';
import type { PageRenderer } from '../browser/page-renderer.js';
import { GenericOfferError } from './generic-offer-error.js';
import { ScriptShellError } from './script-shell-error.js';
import { UnsupportedEngineError } from './unsupported-engine-error.js';
import { carriesMarks, unsupportedEngine } from '../../scrapers/identify.js';
import { olderVersion } from '../../scrapers/page-checks.js';

/** What the page reader needs from the fetcher (the real PageFetcher, or a stand-in). */
export interface PageSource {
  get(url: string, validators?: Validators): Promise<FetchedPage>;
  /** The pause a polite source keeps between two requests to `url`'s host (ms); absent: it keeps none. */
  pauseFor?(url: string): number;
}

export interface PageReading {
  source: PageSource;
  adapter: EngineAdapter;
  profile: SiteProfile;
  /** The browser fallback, when the user allowed it (`--browser`) or the profile needs it. */
  renderer?: PageRenderer | undefined;
  onNote?: ((message: string) => void) | undefined;
  /**
   * The adapter was chosen by the URL's shape alone (no profile, host or --engine): a page it
   * cannot read that carries none of its marks is another engine's, not its changed layout.
   */
  byUrlShape?: boolean | undefined;
  /** The page size the thread's earlier pages showed (numbers the posts of a last page where posts show none). */
  postsPerPage?: number | null | undefined;
}

/** A page asked about with validators either did not change, or was read afresh. */
export type PageOutcome =
  | { kind: 'unchanged'; doc: FetchedPage }
  | { kind: 'read'; doc: FetchedPage; page: ThreadPage };

/**
 * Reads one thread page: plain HTTP first (with validators: "changed since?"), the
 * browser when the site needs it or the page turned out to be a script shell. A page
 * without posts is always an error naming the URL (login wall, script shell, changed
 * layout, cut-off download), never an empty page: an empty page would wipe a tally.
 */
export async function readPage(
  r: PageReading,
  url: string,
  validators: Validators = {},
  prefetched: FetchedPage | null = null,
): Promise<PageOutcome> {
  let doc: FetchedPage;
  let rendered = false;
  if (r.profile.needsBrowser && r.renderer) {
    try {
      doc = await render(r, url, validators);
      rendered = true;
    } catch (error) {
      if (!(error instanceof BrowserUnavailableError)) throw error;
      // Plain HTTP may still do; if not, its error is the one to show.
      r.onNote?.(`${error.message}; reading over plain HTTP instead`);
      doc = prefetched ?? (await r.source.get(url, validators));
    }
  } else {
    doc = prefetched ?? (await r.source.get(url, validators));
  }
  if (doc.notModified) return { kind: 'unchanged', doc };

  try {
    return { kind: 'read', doc, page: await parseWithParts(r, doc) };
  } catch (error) {
    const shell = explain(error, doc, r);
    if (!(shell instanceof ScriptShellError) || rendered || !r.renderer) throw shell;
    try {
      doc = await render(r, url, validators);
    } catch (browserError) {
      // The user can act on "this page needs JavaScript", not on a browser that would not start.
      r.onNote?.((browserError as Error).message);
      throw shell;
    }
    if (doc.notModified) return { kind: 'unchanged', doc };
    try {
      return { kind: 'read', doc, page: await parseWithParts(r, doc) };
    } catch (again) {
      throw explain(again, doc, r);
    }
  }
}

async function render(r: PageReading, url: string, validators: Validators): Promise<FetchedPage> {
  const page = await r.renderer!.render(url, { ready: (html) => parsesToPosts(r, html, url) });
  // A rendered page has no HTTP validators; its hash still tells "nothing new".
  return { ...page, notModified: validators.hash != null && validators.hash === page.hash };
}

function parse(r: PageReading, doc: FetchedPage): ThreadPage {
  return r.adapter.parsePage(doc.body, {
    url: doc.finalUrl,
    profile: r.profile,
    now: doc.fetchedAt,
    postsPerPage: r.postsPerPage ?? null,
  });
}

/** The page and the further documents it lists (Discourse post batches). */
async function parseWithParts(r: PageReading, doc: FetchedPage): Promise<ThreadPage> {
  const page = parse(r, doc);
  for (const more of page.next ?? []) {
    const extra = await r.source.get(more);
    page.posts.push(...parse(r, extra).posts);
  }
  // Page 1 always holds the opening post and later pages exist because they hold posts.
  if (page.posts.length === 0) throw new LayoutError(doc.finalUrl, 'the page parsed to no posts');
  const untimed = untimedPosts(page, doc.finalUrl);
  if (untimed) {
    page.warnings = [...(page.warnings ?? []), untimed];
    r.onNote?.(untimed);
  }
  return page;
}

/**
 * A post whose time the page does not show in a way Votal reads is counted by its place,
 * but no clock rule (the deadline, a Hammer check, votes after the end) can judge it: said,
 * naming the posts, never left a silent null.
 */
function untimedPosts(page: ThreadPage, url: string): string | null {
  const missing = page.posts.filter((p) => p.postedAt === null);
  if (missing.length === 0) return null;
  const named = missing.map((p) => `#${p.number} (id ${p.id})`).join(', ');
  return `${url}: no time Votal could read for post${missing.length === 1 ? '' : 's'} ${named}; clock rules (deadline, Hammer check, votes after the end) cannot apply to ${missing.length === 1 ? 'it' : 'them'}`;
}

function parsesToPosts(r: PageReading, html: string, url: string): boolean {
  try {
    return r.adapter.parsePage(html, { url, profile: r.profile, now: new Date().toISOString() }).posts.length > 0;
  } catch {
    return false;
  }
}

/**
 * Turns "no posts here" into the reason when the page shows one. Other errors pass
 * through unchanged (a truncated page is already its own error).
 */
function explain(error: unknown, doc: FetchedPage, r: PageReading): unknown {
  if (!(error instanceof LayoutError)) return error;
  const unsupported = unsupportedEngine(doc.body);
  if (unsupported) return new UnsupportedEngineError(doc.finalUrl, unsupported);
  // An older version is named: the adapter's own refusal ("SMF 1.1.21 ..., a version whose
  // layout Votal does not read") stands, and names it where a generic one would not.
  const older = olderVersion(doc.body);
  if (older) return error.message.includes(older) ? error : new LayoutError(doc.finalUrl, older);
  const why = whyNoPosts(doc.body);
  if (why === 'login-wall') {
    return new LoginRequiredError(
      doc.finalUrl,
      'the forum answered with a login form instead of the thread (log in and pass --cookies, or set cookies in the site profile)',
      doc.status,
    );
  }
  if (why === 'script-shell') return new ScriptShellError(doc.finalUrl);
  // Chosen by a URL shape another engine shares (FluxBB's viewtopic.php is phpBB's too).
  const { name } = r.adapter.descriptor;
  if (r.byUrlShape && !carriesMarks(r.adapter, doc.body))
    return new LayoutError(
      doc.finalUrl,
      `the page's address looks like ${name}'s but the page shows none of its marks: it is another forum engine, not a changed ${name} layout; name the engine with --engine, or read it with \`votal read <url> --generic\``,
    );
  return offerGeneric(error, r.adapter, doc.finalUrl);
}

/**
 * An adapter that found no posts offers the generic reader to the GM, never switches to
 * it: "the XenForo 1 layout was not found; read it generically?".
 */
function offerGeneric(error: LayoutError, adapter: EngineAdapter, url: string): LayoutError {
  if (adapter.descriptor.engine === 'generic' || error.constructor !== LayoutError) return error;
  const detail = error.message.replace(/^Page layout not understood: /, '').replace(/ \([^()]*\)$/, '');
  return new GenericOfferError(
    url,
    `${detail}; the ${adapter.descriptor.name} layout was not found: read it generically? (\`votal read <url> --generic\`, or \`--engine generic\`)`,
    adapter.descriptor.engine,
  );
}
