import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { chromiumMissing } from './chromium-path.js';
import { CHROMIUM_FLAGS } from './launch-flags.js';
import { withTimeout } from './with-timeout.js';

export interface ChromiumLaunch {
  executablePath: string;
  userAgent: string;
  launchTimeoutMs: number;
}

interface Running {
  context: BrowserContext;
  userDataDir: string;
}

/**
 * One Chromium per process, started on first use and shared by every renderer (a
 * browser is hundreds of MB; a count needs one). It runs with a fresh temporary
 * `--user-data-dir` that is removed when it closes, so nothing of one run (cookies,
 * cache) leaks into the next. A failed start is not remembered: the next call tries again.
 */
let running: Promise<Running> | null = null;

export function sharedChromium(launch: ChromiumLaunch): Promise<BrowserContext> {
  if (!running) {
    running = start(launch);
    running.catch(() => {
      running = null;
    });
  }
  return running.then((r) => r.context);
}

async function start(launch: ChromiumLaunch): Promise<Running> {
  const missing = chromiumMissing(launch.executablePath);
  if (missing) throw new Error(missing);
  const userDataDir = mkdtempSync(join(tmpdir(), 'votal-chromium-'));
  const removeDir = (): void => rmSync(userDataDir, { recursive: true, force: true });
  // If the process ends without close(), still leave no profile behind (Playwright kills the browser).
  process.once('exit', removeDir);
  try {
    // playwright-core (6.5 MiB) is loaded when a browser is first needed, not by every command.
    const { chromium } = await import('playwright-core');
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: launch.executablePath,
      headless: true,
      args: [...CHROMIUM_FLAGS],
      timeout: launch.launchTimeoutMs,
      userAgent: launch.userAgent,
      // Forum pages are read, not watched: no service workers caching behind our back.
      serviceWorkers: 'block',
      acceptDownloads: false,
    });
    // A persistent context opens with a blank tab; every render opens (and closes) its own.
    await Promise.all(context.pages().map((page) => page.close()));
    return { context, userDataDir };
  } catch (error) {
    process.removeListener('exit', removeDir);
    removeDir();
    throw error;
  }
}

/** Closes the process's browser (if one was started) and removes its profile folder. */
export async function closeSharedChromium(timeoutMs = 10_000): Promise<void> {
  const current = running;
  running = null;
  if (!current) return;
  let r: Running;
  try {
    r = await current;
  } catch {
    return;
  }
  try {
    await withTimeout(r.context.close(), timeoutMs, () => new Error(`Chromium did not close within ${timeoutMs} ms`));
  } catch {
    // Playwright kills the browser process when ours exits; the folder goes now.
  } finally {
    rmSync(r.userDataDir, { recursive: true, force: true });
  }
}
