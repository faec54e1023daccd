import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { adapterOf, engineFromHtml, engineFromUrl } from '../../scrapers/identify.js';
import type { SiteProfile } from '../../scrapers/site-profile.js';
import type { EngineId } from '../model/engine.js';
import { FetchError } from '../fetch/errors.js';
import type { PageFetcherOptions } from '../fetch/fetcher-options.js';
import type { PageFetcher, ServedPage } from '../fetch/page-fetcher.js';
import { assertPublicUrl } from '../fetch/private-host.js';
import { redactUrl } from '../fetch/redact-url.js';
import { CookieFileError } from '../site/cookie-file.js';
import { SiteProfileError } from '../site/load-site-profiles.js';
import { openSiteReading, type SiteReading } from '../site/site-reading.js';
import { parseEngine } from './count-command.js';
import { CliError, EXIT } from './exit-codes.js';
import { forumFailure } from './forum-failure.js';
import type { ProgressLine } from './progress.js';

export interface CaptureOptions {
  engine?: string;
  cookies?: string;
  siteProfile?: string[];
  /** Where to save; default `fixtures/<engine>/captured` under the current folder. */
  outDir?: string;
  /** Progress on stderr (the page asked for, retries); absent with `--quiet`. */
  progress?: ProgressLine | undefined;
}

export interface CaptureResult {
  /** The saved page and its sidecar. */
  page: string;
  sidecar: string;
  sidecarJson: CaptureSidecar;
  output: string;
  notes: string[];
}

/** What the next person needs to know about a saved page, beside it as `<name>.json`. */
export interface CaptureSidecar {
  url: string;
  finalUrl: string;
  status: number;
  fetchedAt: string;
  engine: EngineId | null;
  /** What named the engine: `--engine`, the site profile, the page's HTML, or its URL. */
  engineFrom: 'option' | 'site-profile' | 'page' | 'url' | null;
  /** The response headers that tell about the page: type and charset, server, validators. */
  headers: Record<string, string>;
  bytes: number;
  sha256: string;
  /** Read with the user's session (cookies): the page shows their name and session tokens. */
  loggedIn: boolean;
  /** What Votal makes of the page today: posts read, or the error a count would show. */
  read: { posts: number; page: number; pageCount: number } | { error: string };
}

/** Headers worth keeping: what the page is, who served it, and when it changes. */
const KEPT_HEADERS = ['content-type', 'content-language', 'date', 'server', 'x-powered-by', 'etag', 'last-modified'];
/** Captures go here unless `--out-dir` says otherwise; an unrecognised page under `unknown`. */
const FIXTURES = 'fixtures';

/**
 * `votal capture`: saves one thread page exactly as the forum served it (bytes, not
 * decoded text) with a small sidecar of headers, so a GM whose forum Votal cannot read
 * can send one file. The page is fetched through the polite fetcher (robots.txt, the
 * host's pause, the private-host guard, the site profile's cookies) like any count.
 */
export async function runCapture(
  url: string,
  opts: CaptureOptions,
  fetcher: PageFetcherOptions = {},
  cwd: string = process.cwd(),
): Promise<CaptureResult> {
  const chosen = parseEngine(opts.engine);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`not a URL: ${url}`);
  }
  const { served, site } = await fetchServed(parsed, opts, fetcher);
  const notes = [...site.notes];
  const loggedIn = Boolean(opts.cookies || site.entry?.cookies);
  const finalUrl = new URL(served.page.finalUrl);
  const { engine, engineFrom } = engineNamed(chosen, site.profile, served.page.body, finalUrl);
  if (!engine)
    notes.push(
      'no supported engine recognised on the page: it is saved under unknown/ (name one with --engine if you know it)',
    );
  const sidecar: CaptureSidecar = {
    url: redactUrl(parsed),
    finalUrl: redactUrl(finalUrl),
    status: served.page.status,
    fetchedAt: served.page.fetchedAt,
    engine,
    engineFrom,
    headers: Object.fromEntries(
      KEPT_HEADERS.flatMap((h) => {
        const v = served.headers.get(h);
        return v === null ? [] : [[h, v]];
      }),
    ),
    bytes: served.bytes.byteLength,
    sha256: createHash('sha256').update(served.bytes).digest('hex'),
    loggedIn,
    // Read at the redacted URL: the error a layout change gives names it, and it is saved.
    read: readToday(engine, served.page.body, redactUrl(finalUrl), site.profile, served.page.fetchedAt),
  };
  if (loggedIn) {
    notes.push(
      "this page was read with your login: it shows your user name and the forum's form tokens for your session; " +
        'log out (which voids them) before you send or commit it',
    );
  }
  const dir = resolve(cwd, opts.outDir ?? join(FIXTURES, engine ?? 'unknown', 'captured'));
  const { page, side } = saveCapture(dir, fileName(finalUrl, served.page.fetchedAt), served.bytes, sidecar);
  const how =
    'error' in sidecar.read
      ? `Votal cannot read it today: ${sidecar.read.error}`
      : `Votal reads ${sidecar.read.posts} posts on it (page ${sidecar.read.page} of ${sidecar.read.pageCount})`;
  const output = `saved ${page}\n  and ${side}\n  engine: ${engine ?? 'not recognised'}${engineFrom ? ` (from ${engineFrom})` : ''}; ${sidecar.bytes} bytes; ${how}\n`;
  return { page, sidecar: side, sidecarJson: sidecar, output, notes };
}

/** The page as the forum served it, through the polite fetcher and the site's profile (closed after). */
async function fetchServed(
  parsed: URL,
  opts: CaptureOptions,
  fetcher: PageFetcherOptions,
): Promise<{ served: ServedPage; site: SiteReading }> {
  let site: SiteReading;
  try {
    await assertPublicUrl(
      parsed.href,
      fetcher.allowPrivateHosts !== undefined ? { allowPrivate: fetcher.allowPrivateHosts } : {},
    );
    site = await openSiteReading({
      threadUrl: parsed.href,
      fetcher: opts.progress ? { ...fetcher, onRetry: (info) => opts.progress?.retry(info) } : fetcher,
      ...(opts.siteProfile?.length ? { profileFiles: opts.siteProfile } : {}),
      ...(opts.cookies ? { cookiesFile: opts.cookies } : {}),
    });
  } catch (e) {
    throw cliError(e);
  }
  try {
    opts.progress?.fetching(redactUrl(parsed));
    return { served: await (site.source as PageFetcher).getServed(parsed.href), site };
  } catch (e) {
    throw cliError(e);
  } finally {
    await site.close();
  }
}

/** The engine, and what named it: `--engine`, else the site profile, the page's HTML, its URL. */
function engineNamed(
  chosen: EngineId | undefined,
  profile: SiteProfile,
  html: string,
  finalUrl: URL,
): Pick<CaptureSidecar, 'engine' | 'engineFrom'> {
  const fromProfile = profile.engine;
  const fromPage = chosen || fromProfile ? null : engineFromHtml(html);
  const fromUrl = chosen || fromProfile || fromPage ? null : engineFromUrl(finalUrl);
  const engine = chosen ?? fromProfile ?? fromPage ?? fromUrl ?? null;
  const engineFrom = chosen ? 'option' : fromProfile ? 'site-profile' : fromPage ? 'page' : fromUrl ? 'url' : null;
  return { engine, engineFrom };
}

/** The page's bytes and its sidecar, side by side; never over an earlier capture, a logged-in page the user's alone. */
function saveCapture(
  dir: string,
  name: string,
  bytes: Uint8Array,
  sidecar: CaptureSidecar,
): { page: string; side: string } {
  mkdirSync(dir, { recursive: true });
  const page = join(dir, `${name}.html`);
  const side = join(dir, `${name}.json`);
  // Never overwrite an earlier capture ('wx'); a logged-in page is the user's alone (0600).
  const mode = sidecar.loggedIn ? 0o600 : 0o644;
  try {
    writeFileSync(page, bytes, { flag: 'wx', mode });
    writeFileSync(side, `${JSON.stringify(sidecar, null, 2)}\n`, { flag: 'wx', mode });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST')
      throw new CliError(`${page} exists already; capture again in a second`, EXIT.input);
    throw e;
  }
  return { page, side };
}

function cliError(e: unknown): unknown {
  if (e instanceof FetchError) return forumFailure(e, e.message);
  if (e instanceof SiteProfileError || e instanceof CookieFileError) return new CliError(e.message, EXIT.input);
  return e;
}

/** What a count would make of the page: the posts, or the error it would stop with. */
function readToday(
  engine: EngineId | null,
  html: string,
  url: string,
  profile: SiteProfile,
  now: string,
): CaptureSidecar['read'] {
  if (!engine) return { error: 'no supported engine recognised on this page' };
  try {
    const page = adapterOf(engine).parsePage(html, { url, profile, now });
    return { posts: page.posts.length, page: page.page, pageCount: page.pageCount };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** `forum.example.com_index.php_topic_92066.0_2026-12-01T12-15-03Z`: readable, safe on every file system. */
function fileName(url: URL, fetchedAt: string): string {
  const where = `${url.host}${url.pathname}${redactUrl(url).replace(/^[^?]*/, '')}`;
  const safe = where
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 120);
  return `${safe}_${fetchedAt.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')}`;
}
