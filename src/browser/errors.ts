import { FetchError } from '../fetch/errors.js';

/**
 * No browser to fall back to: Chromium is not installed where CHROMIUM_PATH or
 * /usr/bin/chromium says, or it would not start. The reader then surfaces the error the
 * plain HTTP page gave, which is what the user can act on.
 */
export class BrowserUnavailableError extends FetchError {
  constructor(url: string | URL, detail: string) {
    super(url, `Browser fallback unavailable: ${detail}`);
  }
}

/** The browser started but the page did not load (navigation error or its time limit). Retried later. */
export class RenderError extends FetchError {
  constructor(url: string | URL, detail: string, status: number | null = null) {
    super(url, `Browser could not load the page: ${detail}`, { retryable: true, status });
  }
}
