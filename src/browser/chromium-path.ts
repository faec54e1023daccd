import { accessSync, constants } from 'node:fs';

/** Debian's Chromium package. Browsers cannot be downloaded on these machines; this one is installed with apt. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** The Chromium to drive: `CHROMIUM_PATH` when set, else Debian's. Never a downloaded browser. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHROMIUM_PATH?.trim() || DEBIAN_CHROMIUM;
}

/** Why Chromium at `path` cannot be used, or null when it is there and executable. */
export function chromiumMissing(path: string): string | null {
  try {
    accessSync(path, constants.X_OK);
    return null;
  } catch {
    return `no Chromium at ${path} (install it with "apt-get install -y chromium", or set CHROMIUM_PATH)`;
  }
}
