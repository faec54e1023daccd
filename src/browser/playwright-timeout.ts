/**
 * Whether Playwright gave up waiting: its own `errors.TimeoutError` class. playwright-core is
 * loaded on first use (shared-chromium.ts), so by the time a page call has failed it is loaded
 * and this import is the cached module.
 */
export async function isPlaywrightTimeout(error: unknown): Promise<boolean> {
  const { errors } = await import('playwright-core');
  return error instanceof errors.TimeoutError;
}
