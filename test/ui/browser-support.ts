import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { chromiumMissing, chromiumPath } from '../../src/browser/chromium-path.js';
import { CHROMIUM_FLAGS } from '../../src/browser/launch-flags.js';
import { packageRoot } from '../../src/config/package-root.js';

/**
 * Browser tests drive Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH) with
 * playwright-core. Without it they are skipped with a loud warning, unless
 * VOTAL_REQUIRE_BROWSER=1 (CI), where a missing browser fails the suite.
 */
const CHROMIUM = chromiumPath();
const missing = chromiumMissing(CHROMIUM);
const REQUIRED = process.env['VOTAL_REQUIRE_BROWSER'] === '1';

export function describeBrowser(name: string, body: () => void): void {
  if (missing === null) {
    describe(name, body);
  } else if (REQUIRED) {
    describe(name, () => {
      it('Chromium is installed (VOTAL_REQUIRE_BROWSER=1)', () => {
        throw new Error(missing);
      });
    });
  } else {
    console.warn(`\n*** SKIPPED ${name}: ${missing}. Set VOTAL_REQUIRE_BROWSER=1 to fail instead. ***\n`);
    describe.skip(name, () => {
      it('needs Chromium', () => {});
    });
  }
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_FLAGS], timeout: 30_000 });
}

/** A page of a new 1280×900 context, signed in to the dashboard at `origin` with `secret` (the admin token). */
export async function signedInPage(browser: Browser, origin: string, secret: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await page.goto(`${origin}/gm/login`);
  await page.fill('#secret', secret);
  await page.click('button[type=submit]');
  await page.waitForURL(`${origin}/gm`);
  return page;
}

/** Serves a fetch handler on 127.0.0.1 (a free port). */
export async function serveApp(
  fetch: (req: Request) => Response | Promise<Response>,
): Promise<{ origin: string; close(): Promise<void> }> {
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** Everything a page did that a test should know about: dialogs, script errors, CSP or Trusted Types refusals. */
export interface PageWatch {
  dialogs: string[];
  errors: string[];
  console: string[];
}

export function watchPage(page: Page): PageWatch {
  const watch: PageWatch = { dialogs: [], errors: [], console: [] };
  page.on('dialog', (d) => {
    watch.dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  page.on('pageerror', (e) => watch.errors.push(e.message));
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'error' || m.type() === 'warning') watch.console.push(`${m.type()}: ${m.text()}`);
  });
  return watch;
}

/**
 * Where the story's screenshots go: test-output/screenshots (ignored by git), so a test
 * run never rewrites tracked files; `VOTAL_WRITE_SCREENSHOTS=1` refreshes docs/screenshots.
 */
const SCREENSHOTS =
  process.env['VOTAL_WRITE_SCREENSHOTS'] === '1'
    ? join(packageRoot(import.meta.url), 'docs', 'screenshots')
    : join(packageRoot(import.meta.url), 'test-output', 'screenshots');

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
