import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CookieJar } from 'tough-cookie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CookieFileError, readCookieFile } from '../../src/site/cookie-file.js';
import { saveCookieFile } from '../../src/site/save-cookie-file.js';
import { SiteCookies } from '../../src/site/site-cookies.js';

const SECRET = 'S3CR3T-session-value';
const future = Math.floor(Date.now() / 1000) + 86_400;
const past = Math.floor(Date.now() / 1000) - 86_400;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'votal-cookies-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(name: string, text: string, mode = 0o600): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  chmodSync(file, mode);
  return file;
}

const netscape = [
  '# Netscape HTTP Cookie File',
  '',
  `forum.example.com\tFALSE\t/\tFALSE\t${future}\txf_session\t${SECRET}`,
  `.example.com\tTRUE\t/\tFALSE\t0\twide\tall-subdomains`,
  `#HttpOnly_forum.example.com\tFALSE\t/private/\tTRUE\t${future}\tpriv\tonly-https-private`,
  `forum.example.com\tFALSE\t/\tFALSE\t${past}\told\texpired`,
  `tracker.example.net\tFALSE\t/\tFALSE\t${future}\ttrack\tthird-party`,
].join('\n');

describe('cookie files', () => {
  it('reads a Netscape cookies.txt: domain, subdomains, path, Secure, expiry', () => {
    const { jar, count, warnings } = readCookieFile(write('cookies.txt', netscape));
    expect(count).toBe(4);
    expect(warnings).toEqual([]);
    expect(jar.getCookieStringSync('http://forum.example.com/threads/1')).toBe(
      `xf_session=${SECRET}; wide=all-subdomains`,
    );
    expect(jar.getCookieStringSync('http://other.example.com/')).toBe('wide=all-subdomains');
    expect(jar.getCookieStringSync('https://forum.example.com/private/x')).toContain('priv=only-https-private');
    expect(jar.getCookieStringSync('http://forum.example.com/private/x')).not.toContain('priv=');
  });

  it('reads a Playwright storage state', () => {
    const state = {
      cookies: [
        {
          name: 'xf_user',
          value: SECRET,
          domain: 'forum.example.com',
          path: '/',
          expires: future,
          httpOnly: true,
          secure: false,
          sameSite: 'Lax',
        },
        {
          name: 'xf_csrf',
          value: 'abc',
          domain: '.example.com',
          path: '/',
          expires: -1,
          httpOnly: false,
          secure: false,
          sameSite: 'Lax',
        },
      ],
      origins: [{ origin: 'https://forum.example.com', localStorage: [] }],
    };
    const { jar, count } = readCookieFile(write('state.json', JSON.stringify(state)));
    expect(count).toBe(2);
    expect(jar.getCookieStringSync('http://forum.example.com/')).toBe(`xf_user=${SECRET}; xf_csrf=abc`);
    expect(jar.getCookieStringSync('http://www.example.com/')).toBe('xf_csrf=abc');
  });

  it('warns when others can read the file', () => {
    const file = write('open.txt', netscape, 0o644);
    expect(readCookieFile(file).warnings.join('\n')).toContain(`chmod 600 ${file}`);
  });

  it('errors name the file and line, never a cookie value', () => {
    const broken = write('broken.txt', `forum.example.com\tFALSE\t/\t${SECRET}`);
    expect(() => readCookieFile(broken)).toThrow(CookieFileError);
    expect(() => readCookieFile(broken)).toThrow(/broken\.txt: line 1/);
    expect(() => readCookieFile(broken)).not.toThrow(new RegExp(SECRET));
    const json = write('bad.json', JSON.stringify({ cookies: [{ name: 'a', value: SECRET, domain: 5 }] }));
    expect(() => readCookieFile(json)).toThrow(/not a Playwright storage state \(problem at "cookies.0.domain"\)/);
    expect(() => readCookieFile(json)).not.toThrow(new RegExp(SECRET));
    expect(() => readCookieFile(join(dir, 'missing.txt'))).toThrow(/cannot read it \(ENOENT\)/);
  });

  it("a site's jar serves that site's hosts only, even if the file holds other domains' cookies", () => {
    const { jar } = readCookieFile(write('cookies.txt', netscape));
    const cookies = new SiteCookies();
    cookies.add((url) => url.hostname === 'forum.example.com', jar);
    expect(cookies.cookieHeader('http://forum.example.com/t/1')).toContain('xf_session=');
    expect(cookies.cookieHeader('http://tracker.example.net/')).toBeUndefined();
    expect(cookies.cookieHeader('http://other.example.com/')).toBeUndefined();
  });

  it('keeps a session the forum refreshes with Set-Cookie', () => {
    const cookies = new SiteCookies();
    cookies.add(() => true, new CookieJar());
    cookies.storeCookies('http://forum.example.com/t/1', ['xf_session=renewed; Path=/; HttpOnly', 'bad\u0000cookie']);
    expect(cookies.cookieHeader('http://forum.example.com/t/2')).toBe('xf_session=renewed');
  });

  it('gives the browser the same cookies, in Playwright form', () => {
    const { jar } = readCookieFile(write('cookies.txt', netscape));
    const cookies = new SiteCookies();
    cookies.add(() => true, jar);
    const forBrowser = cookies.browserCookies('http://forum.example.com/threads/1');
    expect(forBrowser).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'xf_session',
          domain: 'forum.example.com',
          path: '/',
          expires: future,
          secure: false,
        }),
        expect.objectContaining({ name: 'wide', domain: '.example.com', expires: -1 }),
      ]),
    );
  });

  it('a saved jar is 0600 and reads back the same', async () => {
    const { jar } = readCookieFile(write('cookies.txt', netscape));
    const saved = join(dir, 'saved.txt');
    await saveCookieFile(saved, jar);
    expect(statSync(saved).mode & 0o777).toBe(0o600);
    const again = readCookieFile(saved);
    expect(again.count).toBe(4);
    expect(again.jar.getCookieStringSync('https://forum.example.com/private/')).toBe(
      jar.getCookieStringSync('https://forum.example.com/private/'),
    );
  });
});
