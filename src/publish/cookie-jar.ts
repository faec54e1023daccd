import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CookieJar } from 'tough-cookie';
import { readCookieFile } from '../site/cookie-file.js';

/**
 * A cookie export (Netscape cookies.txt or Playwright storage state, as the site profiles
 * take them) -> a tough-cookie jar serialised to JSON, ready to be sealed. The text passes
 * through a 0600 file in a private temporary folder (the reader works on files) that is
 * removed at once. Errors name the problem, never a cookie value.
 */
export async function cookieJarFromExport(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'votal-cookies-'));
  try {
    const file = join(dir, text.trimStart().startsWith('{') ? 'cookies.json' : 'cookies.txt');
    await writeFile(file, text, { mode: 0o600, flag: 'wx' });
    const { jar, count } = readCookieFile(file);
    if (count === 0) throw new Error('the cookie export holds no usable cookies (all expired, or none for a forum)');
    return JSON.stringify(jar.serializeSync());
  } catch (error) {
    // The reader's messages name the temporary file; say "cookies" instead.
    throw new Error(String((error as Error).message).replace(/cookie file \S+/g, 'cookies'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function jarFromJson(json: string): CookieJar {
  return CookieJar.deserializeSync(json);
}
