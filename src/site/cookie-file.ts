import { readFileSync, statSync } from 'node:fs';
import { Cookie, CookieJar } from 'tough-cookie';
import { z } from 'zod';

/**
 * Reads a logged-in session exported from a real browser into a tough-cookie jar:
 * a Netscape cookies.txt (curl, wget, "Get cookies.txt" extensions) or a Playwright
 * storage state JSON (`context.storageState()`). The format is told by the content.
 *
 * Cookie values are secrets: no error here ever quotes one (only the file and line).
 */
export class CookieFileError extends Error {
  constructor(file: string, detail: string) {
    super(`cookie file ${file}: ${detail}`);
    this.name = new.target.name;
  }
}

export interface CookieFile {
  jar: CookieJar;
  /** How many cookies were taken (expired ones are not). */
  count: number;
  /** Things to tell the user: a file others can read, cookies skipped. */
  warnings: string[];
}

export function readCookieFile(file: string): CookieFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CookieFileError(file, `cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const warnings: string[] = [];
  // Group/other bits: a session others on the machine can read is a session others can use.
  if ((statSync(file).mode & 0o077) !== 0 && process.platform !== 'win32') {
    warnings.push(`cookie file ${file} can be read by other users; run: chmod 600 ${file}`);
  }
  const cookies = text.trimStart().startsWith('{') ? storageStateCookies(text, file) : netscapeCookies(text, file);
  const jar = new CookieJar(undefined, { allowSpecialUseDomain: true, rejectPublicSuffixes: true });
  let count = 0;
  for (const { cookie, line } of cookies) {
    // A session cookie (no expiry) is kept for this run; an expired one is dropped.
    if ((cookie.expiryTime() ?? Number.POSITIVE_INFINITY) <= Date.now()) continue;
    try {
      const origin = `${cookie.secure ? 'https' : 'http'}://${cookie.domain}${cookie.path ?? '/'}`;
      jar.setCookieSync(cookie, origin, { ignoreError: false });
      count += 1;
    } catch {
      warnings.push(
        `cookie file ${file}${line ? `, line ${line}` : ''}: cookie "${cookie.key}" for ${cookie.domain} was not accepted; skipped`,
      );
    }
  }
  return { jar, count, warnings };
}

interface Found {
  cookie: Cookie;
  line: number | null;
}

/** Netscape format: domain, include-subdomains, path, secure, expires (epoch s, 0 = session), name, value; tab-separated. */
function netscapeCookies(text: string, file: string): Found[] {
  const found: Found[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    let entry = raw;
    let httpOnly = false;
    if (entry.startsWith('#HttpOnly_')) {
      httpOnly = true;
      entry = entry.slice('#HttpOnly_'.length);
    } else if (entry.startsWith('#') || entry.trim() === '') {
      return;
    }
    const fields = entry.split('\t');
    if (fields.length < 6 || fields.length > 7) {
      throw new CookieFileError(file, `line ${line} is not a cookies.txt entry (7 tab-separated fields expected)`);
    }
    const [domainField = '', subdomains = '', path = '/', secure = '', expires = '0', name = '', value = ''] = fields;
    const seconds = Number(expires);
    if (!name || !domainField || !Number.isFinite(seconds)) {
      throw new CookieFileError(file, `line ${line} is not a cookies.txt entry (domain, name or expiry missing)`);
    }
    const domain = domainField.replace(/^\./, '').toLowerCase();
    const domainWide = subdomains.toUpperCase() === 'TRUE' || domainField.startsWith('.');
    found.push({
      line,
      cookie: new Cookie({
        key: name,
        value,
        domain,
        path: path || '/',
        hostOnly: !domainWide,
        secure: secure.toUpperCase() === 'TRUE',
        httpOnly,
        expires: seconds > 0 ? new Date(seconds * 1000) : 'Infinity',
      }),
    });
  });
  return found;
}

const StorageState = z.object({
  cookies: z.array(
    z.object({
      name: z.string().min(1),
      value: z.string(),
      domain: z.string().min(1),
      path: z.string().default('/'),
      /** Epoch seconds; -1 for a session cookie. */
      expires: z.number().default(-1),
      httpOnly: z.boolean().default(false),
      secure: z.boolean().default(false),
      sameSite: z.enum(['Strict', 'Lax', 'None']).optional(),
    }),
  ),
  origins: z.array(z.unknown()).default([]),
});

/** Playwright storage state: `{ cookies: [...], origins: [...] }`; a leading dot on the domain means subdomains too. */
function storageStateCookies(text: string, file: string): Found[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CookieFileError(file, 'looks like JSON but does not parse as JSON');
  }
  const parsed = StorageState.safeParse(json);
  if (!parsed.success) {
    // Only the path of the bad field, never its value.
    const where = parsed.error.issues[0]?.path.join('.') ?? '';
    throw new CookieFileError(file, `not a Playwright storage state (problem at "${where}")`);
  }
  return parsed.data.cookies.map((c) => ({
    line: null,
    cookie: new Cookie({
      key: c.name,
      value: c.value,
      domain: c.domain.replace(/^\./, '').toLowerCase(),
      path: c.path,
      hostOnly: !c.domain.startsWith('.'),
      secure: c.secure,
      httpOnly: c.httpOnly,
      expires: c.expires > 0 ? new Date(c.expires * 1000) : 'Infinity',
      ...(c.sameSite ? { sameSite: c.sameSite.toLowerCase() } : {}),
    }),
  }));
}
