import type { CookieJar } from 'tough-cookie';
import type { BrowserCookie } from '../browser/browser-cookie.js';

/**
 * Logged-in sessions, one cookie jar per site. A jar only ever serves the hosts of its
 * site (its profile's host patterns), even when the imported file holds cookies for
 * other domains too; within a site tough-cookie does the RFC 6265 domain, path, expiry
 * and Secure matching. Plugs into PageFetcher's `cookieHeader` and `storeCookies` hooks
 * (a forum that refreshes its session cookie keeps us logged in) and the browser.
 */
export class SiteCookies {
  private readonly sites: { covers: (url: URL) => boolean; jar: CookieJar }[] = [];

  add(covers: (url: URL) => boolean, jar: CookieJar): void {
    this.sites.push({ covers, jar });
  }

  get size(): number {
    return this.sites.length;
  }

  /** The jar for a URL's site, or null: no session there, no cookies sent. */
  jarFor(url: string): CookieJar | null {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return null;
    }
    // The last one added wins: --cookies is added after the profiles' own files.
    for (let i = this.sites.length - 1; i >= 0; i--) {
      const site = this.sites[i]!;
      if (site.covers(target)) return site.jar;
    }
    return null;
  }

  /** For PageFetcher's `cookieHeader` hook. */
  readonly cookieHeader = (url: string): string | undefined => {
    const header = this.jarFor(url)?.getCookieStringSync(url);
    return header ? header : undefined;
  };

  /** For PageFetcher's `storeCookies` hook: bad Set-Cookie values are dropped quietly. */
  readonly storeCookies = (url: string, setCookies: string[]): void => {
    const jar = this.jarFor(url);
    if (!jar) return;
    for (const value of setCookies) jar.setCookieSync(value, url, { ignoreError: true });
  };

  /** The cookies a browser needs to open `url` as the logged-in user. */
  browserCookies(url: string): BrowserCookie[] {
    const jar = this.jarFor(url);
    if (!jar) return [];
    return jar.getCookiesSync(url).map((c) => {
      const expiry = c.expiryTime();
      const sameSite = (c.sameSite ?? '').toLowerCase();
      return {
        name: c.key,
        value: c.value,
        // Playwright: a leading dot means "and subdomains"; without one, this host only.
        domain: c.hostOnly ? (c.domain ?? new URL(url).hostname) : `.${c.domain ?? ''}`,
        path: c.path ?? '/',
        expires: expiry === undefined || !Number.isFinite(expiry) ? -1 : Math.floor(expiry / 1000),
        httpOnly: c.httpOnly,
        secure: c.secure,
        // Chromium refuses SameSite=None without Secure; Lax is what it would apply anyway.
        sameSite: sameSite === 'strict' ? 'Strict' : sameSite === 'none' && c.secure ? 'None' : 'Lax',
      };
    });
  }
}
