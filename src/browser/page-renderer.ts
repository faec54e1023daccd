import type { FetchedPage } from '../fetch/fetched-page.js';

/**
 * Loads a page in a real browser and returns the HTML its scripts produced, for the same
 * adapter that reads plain HTTP pages (one parser for both paths). Implemented by
 * chromium-renderer.ts; the thread reader takes this port, so it never loads Playwright.
 */
export interface PageRenderer {
  /**
   * The rendered page, once `ready(html)` says the posts are there or the time is up
   * (then the last HTML is returned and the adapter says what is missing). Throws
   * BrowserUnavailableError when there is no browser to use.
   */
  render(url: string, opts: { ready: (html: string) => boolean }): Promise<FetchedPage>;
}
