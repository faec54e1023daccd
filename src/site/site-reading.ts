import { access } from 'node:fs/promises';
import { CookieJar } from 'tough-cookie';
import type { SiteProfile } from '../../scrapers/site-profile.js';
import { ChromiumRenderer } from '../browser/chromium-renderer.js';
import { closeSharedChromium } from '../browser/shared-chromium.js';
import { DEFAULT_USER_AGENT, type PageFetcherOptions } from '../fetch/fetcher-options.js';
import { PageFetcher } from '../fetch/page-fetcher.js';
import { FileThreadCache } from '../thread/file-thread-cache.js';
import type { PageRenderer } from '../browser/page-renderer.js';
import type { PageSource } from '../thread/read-page.js';
import type { ThreadCache } from '../thread/thread-cache.js';
import { readCookieFile } from './cookie-file.js';
import { hasSession, logInWithForm } from './form-login.js';
import { hostMatches } from './host-pattern.js';
import { loadSiteProfiles, SiteProfiles } from './load-site-profiles.js';
import { saveCookieFile } from './save-cookie-file.js';
import { SiteCookies } from './site-cookies.js';
import { adapterProfile, type SiteProfileEntry } from './site-profile-entry.js';

export interface SiteReadingOptions {
  /** The thread to read: its site's profile, cookies and login apply. */
  threadUrl: string;
  /** Site profile files or folders (`--site-profile`). */
  profileFiles?: readonly string[];
  /** Profiles loaded already (the service loads them once); over `profileFiles`. */
  profiles?: SiteProfiles;
  /** A logged-in session for the thread's site (a game's stored one), over the profile's and `cookiesFile`. */
  sessionJar?: CookieJar;
  /** A cookie jar for the thread's site (`--cookies`), over the profile's own. */
  cookiesFile?: string;
  /** Keep reads here (`--cache-dir`): a re-count fetches only from the last page seen. */
  cacheDir?: string;
  /** Allow the browser fallback for pages that draw their posts with JavaScript (`--browser`). */
  browser?: boolean;
  /** Base fetcher options (tests: no pause, loopback allowed). */
  fetcher?: PageFetcherOptions;
  /** A ready page source instead of a PageFetcher (tests). Profile pauses and cookies do not apply to it. */
  source?: PageSource;
}

/** Everything `readThread` needs for one site, and what to close afterwards. */
export interface SiteReading {
  /** The thread site's profile, or null when none names its host. */
  entry: SiteProfileEntry | null;
  /** What the adapters read (time zone, date order, engine...). */
  profile: SiteProfile;
  source: PageSource;
  renderer?: PageRenderer;
  cache?: ThreadCache;
  /** For the user: cookie files others can read, a bad cache file, a session saved. */
  notes: string[];
  close(): Promise<void>;
}

/**
 * Sets up reading one site the way its profile says: the pause per host (profiles'
 * `minIntervalMs`), the logged-in session (cookie file, or a form login whose session is
 * saved back to the profile's cookie file, 0600), the browser fallback (`needsBrowser`,
 * or `--browser`) and the cache. Shared code never asks which host this is: the
 * profile's data decides.
 */
export async function openSiteReading(o: SiteReadingOptions): Promise<SiteReading> {
  const notes: string[] = [];
  const profiles = o.profiles ?? (o.profileFiles?.length ? loadSiteProfiles(o.profileFiles) : new SiteProfiles());
  const entry = profiles.profileFor(o.threadUrl);
  const threadHost = new URL(o.threadUrl);
  const coversSite = (url: URL): boolean =>
    entry ? entry.hosts.some((p) => hostMatches(p, url)) : url.host === threadHost.host;

  const cookies = new SiteCookies();
  let siteJar: CookieJar | null = null;
  for (const file of [entry?.cookies, o.cookiesFile]) {
    if (!file) continue;
    if (file === entry?.cookies && entry.login && !(await exists(file))) continue; // the login below creates it
    const loaded = readCookieFile(file);
    notes.push(...loaded.warnings);
    cookies.add(coversSite, loaded.jar);
    siteJar = loaded.jar;
  }
  if (o.sessionJar) {
    cookies.add(coversSite, o.sessionJar);
    siteJar = o.sessionJar;
  }
  if (entry?.login && !siteJar) {
    siteJar = new CookieJar();
    cookies.add(coversSite, siteJar);
  }

  const userAgent = o.fetcher?.userAgent ?? DEFAULT_USER_AGENT;
  const fetcher = o.source
    ? null
    : new PageFetcher({
        ...o.fetcher,
        ...(cookies.size > 0 ? { cookieHeader: cookies.cookieHeader, storeCookies: cookies.storeCookies } : {}),
        minIntervalFor: (url) => profiles.profileFor(url)?.minIntervalMs,
      });
  const source: PageSource = o.source ?? fetcher!;

  // A game's own session is the GM's to renew; the profile's form login fills the profile's jar only.
  if (entry?.login && siteJar && fetcher && !o.sessionJar && !hasSession(entry.login, siteJar)) {
    await logInWithForm(entry.login, siteJar, fetcher, { userAgent, timeoutMs: o.fetcher?.timeoutMs ?? 20_000 });
    if (entry.cookies) {
      await saveCookieFile(entry.cookies, siteJar);
      notes.push(`logged in to ${entry.name}; the session is saved in ${entry.cookies} (0600)`);
    }
  }

  const gate = fetcher ?? (isGate(o.source) ? o.source : null);
  const wantsBrowser = o.browser === true || entry?.needsBrowser === true;
  const renderer =
    wantsBrowser && gate
      ? new ChromiumRenderer(gate, {
          userAgent,
          cookiesFor: (url) => cookies.browserCookies(url),
          ...(o.fetcher?.allowPrivateHosts !== undefined ? { allowPrivateHosts: o.fetcher.allowPrivateHosts } : {}),
        })
      : undefined;
  const cache = o.cacheDir ? new FileThreadCache(o.cacheDir, (m) => notes.push(m)) : undefined;

  return {
    entry,
    profile: adapterProfile(entry),
    source,
    ...(renderer ? { renderer } : {}),
    ...(cache ? { cache } : {}),
    notes,
    close: async () => {
      if (renderer) await closeSharedChromium();
    },
  };
}

function isGate(source: PageSource | undefined): source is PageSource & PageFetcher {
  return typeof (source as Partial<PageFetcher> | undefined)?.politely === 'function';
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
