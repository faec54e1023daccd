import { randomBytes } from 'node:crypto';
import { chmod, rename, rm, writeFile } from 'node:fs/promises';
import type { CookieJar } from 'tough-cookie';

/**
 * Writes a jar as a Netscape cookies.txt (what readCookieFile reads back), so a session
 * from a form login is reused next time instead of logging in on every count. The file
 * is created 0600 and replaced atomically; it holds a live session.
 */
export async function saveCookieFile(file: string, jar: CookieJar): Promise<void> {
  const lines = [
    '# Netscape HTTP Cookie File',
    '# Written by votal: a logged-in session. Keep it private (0600) and out of git.',
    '',
  ];
  const all = (await jar.serialize())?.cookies ?? [];
  for (const c of all) {
    if (!c.key || !c.domain) continue;
    const expires =
      typeof c.expires === 'string' && c.expires !== 'Infinity' ? Math.floor(Date.parse(c.expires) / 1000) : 0;
    const domain = c.hostOnly ? c.domain : `.${c.domain}`;
    const prefix = c.httpOnly ? '#HttpOnly_' : '';
    lines.push(
      [
        `${prefix}${domain}`,
        c.hostOnly ? 'FALSE' : 'TRUE',
        c.path ?? '/',
        c.secure ? 'TRUE' : 'FALSE',
        String(expires),
        c.key,
        String(c.value ?? ''),
      ].join('\t'),
    );
  }
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, `${lines.join('\n')}\n`, { mode: 0o600, flag: 'wx' });
    await rename(temp, file);
    // rename keeps the temp file's mode, but an umask-proof chmod costs nothing.
    await chmod(file, 0o600);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
