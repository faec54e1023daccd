import { createHash } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { errorForResponse } from '../fetch/classify-response.js';
import type { FetchedPage } from '../fetch/fetched-page.js';
import { DEFAULT_USER_AGENT } from '../fetch/fetcher-options.js';
import { isPlaywrightTimeout } from './playwright-timeout.js';
import type { ResolveHost } from '../fetch/private-host.js';
import type { BrowserCookie } from './browser-cookie.js';
import type { PageRenderer } from './page-renderer.js';
import { chromiumPath } from './chromium-path.js';
import { BrowserUnavailableError, RenderError } from './errors.js';
import { requestGuard } from './request-guard.js';
import { sharedChromium } from './shared-chromium.js';
import { withTimeout } from './with-timeout.js';

/** The politeness gate the browser's page loads pass through: PageFetcher.politely. */
export interface PoliteGate {
  politely<T>(url: string, visit: (target: URL) => Promise<T>): Promise<T>;
}

export interface ChromiumRendererOptions {
  /** Default: CHROMIUM_PATH, else /usr/bin/chromium. */
  executablePath?: string;
  userAgent?: string;
  launchTimeoutMs?: number;
  /** Opening a tab, and closing it. */
  stepTimeoutMs?: number;
  /** Until the page's HTML has arrived (DOMContentLoaded). */
  navigationTimeoutMs?: number;
  /** After that, how long the page's scripts get to draw the posts. */
  readyTimeoutMs?: number;
  /** Logged-in session cookies for a URL (SiteCookies.browserCookies). */
  cookiesFor?: (url: string) => BrowserCookie[];
  /** Default: VOTAL_ALLOW_PRIVATE_HOSTS=1, as for the fetcher. */
  allowPrivateHosts?: boolean;
  resolveHost?: ResolveHost;
}

/** Subresources a forum page's posts do not need: not fetched, to spare the forum. */
const POLL_MS = 100;

/**
 * The browser fallback: opens a page in Debian's Chromium (playwright-core) and returns
 * the HTML its scripts produced, to the same adapter that reads plain HTTP pages.
 *
 * Each page load goes through the fetcher's gate (public host, robots.txt, the host's
 * pause). Inside the page, requests to private addresses are refused (a page's script
 * must not reach the machine or its network) and images, fonts and styles are not
 * fetched. Every step has a time limit; the tab is closed in `finally`.
 */
export class ChromiumRenderer implements PageRenderer {
  private readonly executablePath: string;
  private readonly o: Required<
    Omit<ChromiumRendererOptions, 'executablePath' | 'cookiesFor' | 'allowPrivateHosts' | 'resolveHost'>
  >;

  constructor(
    private readonly gate: PoliteGate,
    private readonly options: ChromiumRendererOptions = {},
  ) {
    this.executablePath = options.executablePath ?? chromiumPath();
    this.o = {
      userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
      launchTimeoutMs: options.launchTimeoutMs ?? 30_000,
      stepTimeoutMs: options.stepTimeoutMs ?? 10_000,
      navigationTimeoutMs: options.navigationTimeoutMs ?? 30_000,
      readyTimeoutMs: options.readyTimeoutMs ?? 10_000,
    };
  }

  async render(url: string, opts: { ready: (html: string) => boolean }): Promise<FetchedPage> {
    // The gate first: a page robots.txt disallows must not even start a browser.
    return this.gate.politely(url, async (target) => {
      const context = await this.browser(url);
      const page = await this.step(context.newPage(), target, 'open a tab');
      try {
        return await this.load(context, page, target, opts.ready);
      } finally {
        await withTimeout(page.close(), this.o.stepTimeoutMs, () => new Error('tab did not close')).catch(() => {});
      }
    });
  }

  private async browser(url: string): Promise<BrowserContext> {
    try {
      return await sharedChromium({
        executablePath: this.executablePath,
        userAgent: this.o.userAgent,
        launchTimeoutMs: this.o.launchTimeoutMs,
      });
    } catch (error) {
      // Playwright's launch errors carry a long log; the first line says what went wrong.
      const detail = ((error as Error).message ?? String(error)).split('\n')[0] ?? 'Chromium did not start';
      throw new BrowserUnavailableError(url, detail);
    }
  }

  private async load(
    context: BrowserContext,
    page: Page,
    target: URL,
    ready: (html: string) => boolean,
  ): Promise<FetchedPage> {
    const cookies = this.options.cookiesFor?.(target.href) ?? [];
    if (cookies.length > 0) await this.step(context.addCookies(cookies), target, 'set the session cookies');
    const guard = requestGuard({
      ...(this.options.allowPrivateHosts !== undefined ? { allowPrivateHosts: this.options.allowPrivateHosts } : {}),
      ...(this.options.resolveHost ? { resolveHost: this.options.resolveHost } : {}),
    });
    await this.step(page.route('**/*', guard), target, 'set up request checks');

    let response;
    try {
      response = await page.goto(target.href, { waitUntil: 'domcontentloaded', timeout: this.o.navigationTimeoutMs });
    } catch (error) {
      throw new RenderError(
        target,
        (await isPlaywrightTimeout(error)) ? `no page within ${this.o.navigationTimeoutMs} ms` : 'navigation failed',
      );
    }
    const status = response?.status() ?? 200;
    let html = await this.content(page);
    const deadline = performance.now() + this.o.readyTimeoutMs;
    while (!ready(html) && performance.now() < deadline) {
      await page.waitForTimeout(POLL_MS);
      html = await this.content(page);
    }
    // The same judgement as for plain HTTP answers: 404, 429, challenge page...
    const headers = new Headers(
      response ? await this.step(response.allHeaders(), target, 'read the headers').catch(() => ({})) : {},
    );
    const problem = errorForResponse(target.href, { status, headers, body: html }, { maxRetryAfterMs: 0 });
    if (problem) throw problem;
    return {
      url: target.href,
      finalUrl: page.url(),
      status,
      body: html,
      etag: null,
      lastModified: null,
      hash: createHash('sha256').update(html, 'utf8').digest('hex'),
      notModified: false,
      fetchedAt: new Date().toISOString(),
    };
  }

  /** The page's HTML now; a page still navigating (a script redirect) is asked again. */
  private async content(page: Page): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.step(page.content(), page.url(), 'read the page');
      } catch (error) {
        if (attempt >= 3) throw new RenderError(page.url(), `could not read the page (${(error as Error).name})`);
        await page.waitForTimeout(POLL_MS);
      }
    }
  }

  /** A browser step without a time limit of its own, bounded by stepTimeoutMs. */
  private step<T>(promise: Promise<T>, url: string | URL, what: string): Promise<T> {
    return withTimeout(
      promise,
      this.o.stepTimeoutMs,
      () => new RenderError(url, `could not ${what} within ${this.o.stepTimeoutMs} ms`),
    );
  }
}
