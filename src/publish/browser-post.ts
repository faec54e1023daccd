import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CookieJar } from 'tough-cookie';
import { chromiumMissing, chromiumPath } from '../browser/chromium-path.js';
import { BrowserUnavailableError } from '../browser/errors.js';
import { isPlaywrightTimeout } from '../browser/playwright-timeout.js';
import { CHROMIUM_FLAGS } from '../browser/launch-flags.js';
import { requestGuard } from '../browser/request-guard.js';
import { withTimeout } from '../browser/with-timeout.js';
import { DEFAULT_USER_AGENT } from '../fetch/fetcher-options.js';
import { redactUrl } from '../fetch/redact-url.js';
import type { EngineId } from '../model/engine.js';
import { SiteCookies } from '../site/site-cookies.js';
import { adapterOf } from '../../scrapers/identify.js';
import { browserFactsFor, formFactsFor, replyUrl, type BrowserFacts, type FormFacts } from './form-facts.js';
import type { PublishHttp } from './http.js';
import { PublishConfigError, PublishError, type Publisher, type RemotePost } from './publisher.js';
import { findMarkerInThread, findPasteInThread } from './thread-scan.js';

/**
 * The last resort for posting with a stored login (research/ecosystem.md §4): the reply
 * form is filled in Debian's Chromium (playwright-core), for boards whose reply form is
 * built by JavaScript, so that a plain form POST (form-post.ts) cannot send it.
 *
 * Each post launches its own Chromium with a fresh context holding only the forum's
 * cookies from the stored jar (never the shared reading browser: the GM's session must
 * not leak into it), opens the reply page, switches a rich editor to its plain-text
 * fallback when the engine has one, fills the editor, clicks the engine's post button,
 * waits for the navigation, and then verifies through the same marker thread-scan as the
 * other publishers that the post landed. Every step has a time limit; the page, the
 * context and the browser are closed in `finally`. Cookie values never reach a message.
 *
 * Exactly once: `find` is the HTTP thread-scan (as the logged-in user). `post` also looks
 * for the message's marker before it opens the form (a retry after a lost answer finds
 * the post instead of posting again) and after submitting, whatever the navigation did
 * (a timeout is then an `unknown` outcome only when the marker is not there).
 * Chromium missing or not starting: BrowserUnavailableError, before anything is sent.
 */

export interface BrowserPostOptions {
  threadUrl: string;
  engine: EngineId;
  /** The logged-in session (the same sealed jar the form publisher uses). */
  jar: CookieJar;
  /** For the thread-scan (reading the thread as the logged-in user). */
  http: PublishHttp;
  /** Override the engine's facts (a board with a customised form). */
  facts?: FormFacts;
  browserFacts?: BrowserFacts;
  /** Default CHROMIUM_PATH, else /usr/bin/chromium. */
  executablePath?: string;
  userAgent?: string;
  /** Private and loopback hosts allowed inside the page. Default VOTAL_ALLOW_PRIVATE_HOSTS=1. */
  allowPrivateHosts?: boolean;
  /** Default 30 s. */
  launchTimeoutMs?: number;
  /** Opening a context or tab, setting cookies, filling, clicking, closing. Default 10 s. */
  stepTimeoutMs?: number;
  /** Until the reply page has loaded. Default 30 s. */
  navigationTimeoutMs?: number;
  /** After loading, how long the page's scripts get to build the editor. Default 10 s. */
  readyTimeoutMs?: number;
  /** After the click, until the forum's answer page has loaded. Default 30 s. */
  submitTimeoutMs?: number;
}

/** Subresources a reply form does not need. */
const MARKER_IN_MESSAGE = /votal:\d+\.[0-9a-f]{8}/g;

/** The marker a message carries (its last one), or null. */
export function markerOf(message: string): string | null {
  return message.match(MARKER_IN_MESSAGE)?.at(-1) ?? null;
}

export function browserPublisher(opts: BrowserPostOptions): Publisher {
  const facts = opts.facts ?? formFactsFor(opts.engine);
  const fill = opts.browserFacts ?? browserFactsFor(opts.engine);
  if (!facts || !fill) {
    throw new PublishConfigError(
      `posting through a browser is not supported on ${opts.engine} yet; use the API or copy`,
    );
  }
  const thread = adapterOf(opts.engine).threadRef(new URL(opts.threadUrl));
  const origin = new URL(thread.url).origin;
  const cookies = new SiteCookies();
  cookies.add((url) => url.origin === origin, opts.jar);
  const t = {
    launch: opts.launchTimeoutMs ?? 30_000,
    step: opts.stepTimeoutMs ?? 10_000,
    navigation: opts.navigationTimeoutMs ?? 30_000,
    ready: opts.readyTimeoutMs ?? 10_000,
    submit: opts.submitTimeoutMs ?? 30_000,
  };
  const executablePath = opts.executablePath ?? chromiumPath();

  const find = (marker: string): Promise<RemotePost | null> =>
    findMarkerInThread(
      { threadUrl: thread.url, engine: opts.engine, http: opts.http, cookieHeader: cookies.cookieHeader },
      marker,
    );

  /** A browser step bounded by the step time limit; `outcome` says whether the post may already be sent. */
  const step = <T>(promise: Promise<T>, what: string, outcome: 'rejected' | 'unknown' = 'rejected'): Promise<T> =>
    withTimeout(
      promise,
      t.step,
      () => new PublishError(`posting through the browser: could not ${what} within ${t.step} ms`, outcome, true),
    );

  async function launch(pageUrl: string): Promise<Browser> {
    const missing = chromiumMissing(executablePath);
    if (missing) throw new BrowserUnavailableError(pageUrl, missing);
    try {
      const { chromium } = await import('playwright-core'); // loaded on first use
      return await chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_FLAGS], timeout: t.launch });
    } catch (error) {
      // Playwright's launch errors carry a long log; the first line says what went wrong.
      const detail = ((error as Error).message ?? String(error)).split('\n')[0] ?? 'Chromium did not start';
      throw new BrowserUnavailableError(pageUrl, detail);
    }
  }

  const guard = requestGuard(opts.allowPrivateHosts === undefined ? {} : { allowPrivateHosts: opts.allowPrivateHosts });

  /** Opens the reply page and waits for its (script-built) editor. Nothing is sent yet. */
  async function openForm(context: BrowserContext, page: Page, pageUrl: string): Promise<void> {
    const sessionCookies = cookies.browserCookies(pageUrl);
    if (sessionCookies.length > 0) await step(context.addCookies(sessionCookies), 'set the session cookies');
    await step(page.route('**/*', guard), 'set up request checks');
    let response;
    try {
      response = await page.goto(pageUrl, { waitUntil: 'domcontentloaded', timeout: t.navigation });
    } catch (error) {
      const timedOut = await isPlaywrightTimeout(error);
      throw new PublishError(
        `opening the reply form in the browser: ${timedOut ? `no page within ${t.navigation} ms` : 'navigation failed'} (${redactUrl(pageUrl)})`,
        'rejected',
        true,
      );
    }
    const status = response?.status() ?? 200;
    if (status >= 400) {
      const retryable = status === 429 || status >= 500;
      throw new PublishError(
        `opening the reply form in the browser: HTTP ${status}${status === 401 || status === 403 ? ' (the login may have expired; import the forum cookies again)' : ''} (${redactUrl(pageUrl)})`,
        'rejected',
        retryable,
        status,
      );
    }
    const editor = page.locator(fill!.editor).first();
    const toggle = fill!.plainTextToggle ? page.locator(fill!.plainTextToggle).first() : null;
    const ready = page.locator(toggle ? `${fill!.editor}, ${fill!.plainTextToggle}` : fill!.editor).first();
    try {
      await ready.waitFor({ state: 'attached', timeout: t.ready });
    } catch {
      throw new PublishError(
        'opening the reply form in the browser: no reply editor on the page (the login may have expired, or the thread is locked)',
        'rejected',
        false,
        status,
      );
    }
    // A rich editor hides the textarea: switch it to its plain-text (BBCode) fallback first.
    if (
      toggle &&
      !(await step(editor.isVisible(), 'look at the editor')) &&
      (await step(toggle.count(), 'look at the editor')) > 0
    ) {
      await step(toggle.click({ timeout: t.step }), 'switch the editor to plain text');
    }
    try {
      await editor.waitFor({ state: 'visible', timeout: t.ready });
    } catch {
      throw new PublishError(
        'opening the reply form in the browser: the reply editor did not become usable',
        'rejected',
        false,
        status,
      );
    }
  }

  /** The reason an answer page shows for a refusal, or null. */
  async function refusal(page: Page): Promise<string | null> {
    if (!facts!.errorSelector) return null;
    try {
      const shown = page.locator(facts!.errorSelector).first();
      if ((await withTimeout(shown.count(), t.step, () => new Error('timeout'))) === 0) return null;
      const text = await withTimeout(shown.innerText({ timeout: t.step }), t.step, () => new Error('timeout'));
      return text.replace(/\s+/g, ' ').trim().slice(0, 200);
    } catch {
      return null;
    }
  }

  return {
    // The port's kinds are fixed (publisher.ts); this is the reply form, filled by a browser.
    kind: 'form',

    find,
    /** A votal the GM copied before this game could post (see src/votal/pasted-votal.ts). */
    findPasted: (votal) =>
      findPasteInThread(
        { threadUrl: thread.url, engine: opts.engine, http: opts.http, cookieHeader: cookies.cookieHeader },
        votal,
      ),

    async post(message): Promise<RemotePost> {
      const marker = markerOf(message);
      // A retry after a lost answer: the post may be there already.
      if (marker) {
        const existing = await find(marker);
        if (existing) return existing;
      }
      const pageUrl = replyUrl(facts, thread);
      const browser = await launch(pageUrl);
      let context: BrowserContext | null = null;
      let page: Page | null = null;
      let sent = false;
      /** What went wrong after the reply was sent (the post may still have landed). */
      let failure: PublishError | null = null;
      let landedUrl: string | null = null;
      try {
        context = await step(
          browser.newContext({
            userAgent: opts.userAgent ?? DEFAULT_USER_AGENT,
            serviceWorkers: 'block',
            acceptDownloads: false,
          }),
          'open a browser context',
        );
        page = await step(context.newPage(), 'open a tab');
        await openForm(context, page, pageUrl);
        await step(page.locator(fill.editor).first().fill(message, { timeout: t.step }), 'fill in the reply');

        const navigated = page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: t.submit });
        navigated.catch(() => {});
        // From here on the forum may have the post: failures are `unknown` until the thread says otherwise.
        sent = true;
        await step(
          page.locator(fill.submit).first().click({ timeout: t.step, noWaitAfter: true }),
          'press the post button',
          'unknown',
        );
        const status = (await navigated)?.status() ?? 200;
        landedUrl = page.url();
        const why = status === 200 ? await refusal(page) : null;
        if (why !== null)
          throw new PublishError(
            `posting the votal: the forum refused it${why ? `: ${why}` : ''}`,
            'rejected',
            false,
            200,
          );
        if (status >= 400) {
          failure = new PublishError(
            `posting through the browser: the answer page was HTTP ${status}`,
            status >= 500 ? 'unknown' : 'rejected',
            status >= 500 || status === 429,
            status,
          );
        }
      } catch (error) {
        if (error instanceof PublishError) {
          if (!sent || error.outcome === 'rejected') throw error;
          failure = error;
        } else if (!sent) {
          // Playwright's own errors: a short line, without the page's text or cookies.
          throw new PublishError(
            `posting through the browser failed before sending (${(error as Error).name || 'Error'})`,
            'rejected',
            true,
          );
        } else {
          const timedOut = await isPlaywrightTimeout(error);
          failure = new PublishError(
            `posting through the browser: ${timedOut ? `no answer page within ${t.submit} ms` : `the answer page did not load (${(error as Error).name || 'Error'})`}`,
            'unknown',
            true,
          );
        }
      } finally {
        if (page) await withTimeout(page.close(), t.step, () => new Error('tab did not close')).catch(() => {});
        if (context)
          await withTimeout(context.close(), t.step, () => new Error('context did not close')).catch(() => {});
        await withTimeout(browser.close(), t.step, () => new Error('Chromium did not close')).catch(() => {});
      }
      if (!marker) {
        if (failure) throw failure;
        return { id: landedUrl ? postIdFrom(landedUrl) : null, url: landedUrl };
      }

      // Verify through the thread: the marker is the proof the post landed.
      const landed = await find(marker).catch((error: unknown) => {
        throw new PublishError(
          `posting through the browser: sent, but the thread could not be read to confirm it: ${(error as Error).message}`,
          'unknown',
          true,
          null,
          { cause: error },
        );
      });
      if (landed) return landed;
      if (failure?.outcome === 'rejected') throw failure;
      throw failure
        ? new PublishError(`${failure.message}; the post is not in the thread (yet)`, 'unknown', true, failure.status, {
            cause: failure,
          })
        : new PublishError(
            'posting through the browser: the form was sent but the post is not in the thread (yet)',
            'unknown',
            true,
          );
    },
  };
}

/** `…/post-123`, `#p123`, `p=123`, `#post123`, `pid=123`, `msg123`. */
function postIdFrom(url: string): string | null {
  const m = /(?:post-|#p|[?&]p=|#post|[?&]pid=|#msg|msg)(\d+)/.exec(url);
  return m ? m[1]! : null;
}
