import {
  createHash,
  randomBytes,
  scrypt as scryptCb,
  timingSafeEqual,
  type BinaryLike,
  type ScryptOptions,
} from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { HTTPException } from 'hono/http-exception';
import { ADMIN_NAME, actorOf, type Gm } from '../model/gm.js';
import type { GmsRepo } from '../store/gms-repo.js';
import { isHttps } from './https.js';

/**
 * GM sign-in, shared by the dashboard (`requireGm`) and the API's door (gm-access.ts `apiAccess`),
 * so neither imports the other's folder.
 *
 * - Credentials: the instance admin signs in with the admin token (VOTAL_ADMIN_TOKEN, or the
 *   one `votal serve` keeps) or the admin password set on first run (setting it needs the
 *   token, so whoever reaches a fresh server first cannot claim it; an scrypt hash in
 *   `<data dir>/admin-password`, 0600). Other GMs sign in with their name and their own
 *   password (scrypt, in the store), chosen when they took an invite (gms-page.tsx).
 * - Sessions: a random id in an HttpOnly, SameSite=Strict cookie (Secure, with the
 *   `__Host-` prefix, over https); the store keeps only its SHA-256, so sessions survive a
 *   restart and a database dump signs nobody in. Idle sessions end after 12 hours, any
 *   session after 7 days.
 * - CSRF: every form carries the session's random token; a POST without it (or from
 *   another origin) is refused. The sign-in form uses a double-submit cookie instead.
 */

const scrypt = (password: BinaryLike, salt: BinaryLike, keylen: number, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (e, key) => (e ? reject(e) : resolve(key))),
  );

const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
export const MIN_PASSWORD = 10;

/** `scrypt$N$r$p$salt$hash` (base64url): the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  if (password.length < MIN_PASSWORD) throw new RangeError(`the password needs at least ${MIN_PASSWORD} characters`);
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** Whether `password` matches a `hashPassword` line (constant time). */
async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const got = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** A made-up hash: a sign-in with an unknown name costs one scrypt too, so timing does not tell names apart. */
let decoy: Promise<string> | null = null;
const decoyHash = (): Promise<string> => (decoy ??= hashPassword('decoy-password-never-matches'));

export interface Session {
  /** The cookie's value; the store has only its SHA-256. */
  id: string;
  csrf: string;
  gm: Gm;
  createdAt: number;
  seenAt: number;
}

export interface AuthOptions {
  /** The admin token; unset: only a password signs in (and none can be set). */
  adminToken: string | undefined;
  /** Where the admin password hash lives. */
  dataDir: string;
  /** GM accounts and sessions. */
  gms: GmsRepo;
  now?: () => number;
  idleMs?: number;
  maxAgeMs?: number;
}

const sha256 = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** What the store keeps of a session id or an invite token. */
export const secretHash = (s: string): string => sha256(s).toString('hex');

/** Constant-time comparison of two strings of any length. */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

export class GmAuth {
  readonly #token: string | undefined;
  /** Null with an in-memory store (`memory://`): the password then lives as long as the process. */
  readonly #file: string | null;
  #memoryHash: string | null = null;
  readonly #gms: GmsRepo;
  readonly #now: () => number;
  readonly #idleMs: number;
  readonly #maxAgeMs: number;

  constructor(options: AuthOptions) {
    this.#token = options.adminToken;
    this.#file = options.dataDir.startsWith('memory://') ? null : join(options.dataDir, 'admin-password');
    this.#gms = options.gms;
    this.#now = options.now ?? (() => Date.now());
    this.#idleMs = options.idleMs ?? 12 * 3600_000;
    this.#maxAgeMs = options.maxAgeMs ?? 7 * 24 * 3600_000;
  }

  get hasToken(): boolean {
    return this.#token !== undefined;
  }

  async hasPassword(): Promise<boolean> {
    return (await this.#readHash()) !== null;
  }

  /** Whether `secret` is the admin token or the admin password. */
  async check(secret: string): Promise<boolean> {
    if (!secret) return false;
    if (this.#token !== undefined && sameSecret(secret, this.#token)) return true;
    const stored = await this.#readHash();
    return stored !== null && verifyPassword(secret, stored);
  }

  /**
   * The GM these credentials sign in: no name (or the admin's) with the admin token or
   * password is the instance admin; a name with that GM's password is that GM. Null otherwise
   * (a revoked GM included); `known` says whether the name was a GM's, for the audit.
   */
  async signIn(name: string, secret: string): Promise<{ gm: Gm | null; known: boolean }> {
    const wanted = name.trim();
    if (wanted === '' || wanted.toLowerCase() === ADMIN_NAME) {
      return { gm: (await this.check(secret)) ? await this.#gms.admin(new Date(this.#now())) : null, known: true };
    }
    const found = await this.#gms.credentials(wanted);
    const ok = await verifyPassword(secret, found?.passwordHash ?? (await decoyHash()));
    if (!found || found.passwordHash === null || found.revokedAt !== null || !ok) {
      return { gm: null, known: found !== null };
    }
    const { passwordHash: _, ...gm } = found;
    return { gm, known: true };
  }

  checkToken(secret: string): boolean {
    return this.#token !== undefined && secret !== '' && sameSecret(secret, this.#token);
  }

  /** Stores a new admin password (scrypt, random salt), written atomically with mode 0600. */
  async setPassword(password: string): Promise<void> {
    const line = await hashPassword(password);
    if (this.#file === null) {
      this.#memoryHash = line;
      return;
    }
    await mkdir(join(this.#file, '..'), { recursive: true, mode: 0o700 });
    const tmp = `${this.#file}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(tmp, `${line}\n`, { mode: 0o600 });
    await rename(tmp, this.#file);
  }

  async #readHash(): Promise<string | null> {
    if (this.#file === null) return this.#memoryHash;
    try {
      const text = (await readFile(this.#file, 'utf8')).trim();
      return text.startsWith('scrypt$') ? text : null;
    } catch {
      return null;
    }
  }

  async start(gm: Gm): Promise<Session> {
    const t = this.#now();
    const session: Session = {
      id: randomBytes(32).toString('base64url'),
      csrf: randomBytes(32).toString('base64url'),
      gm,
      createdAt: t,
      seenAt: t,
    };
    await this.#gms.startSession({ idHash: secretHash(session.id), gmId: gm.id, csrf: session.csrf, at: new Date(t) });
    return session;
  }

  /** The live session with this id (touching it), or null. */
  async get(id: string | undefined): Promise<Session | null> {
    if (!id || id.length > 128) return null;
    const rules = { at: new Date(this.#now()), idleMs: this.#idleMs, maxAgeMs: this.#maxAgeMs };
    const found = await this.#gms.session(secretHash(id), rules);
    if (!found) return null;
    const { csrf, gm } = found;
    return { id, csrf, gm, createdAt: Date.parse(found.createdAt), seenAt: Date.parse(found.seenAt) };
  }

  async end(id: string | undefined): Promise<void> {
    if (id) await this.#gms.endSession(secretHash(id));
  }

  /** Ends every session of one GM (the admin after a password change). */
  async endAll(gm: Gm): Promise<void> {
    await this.#gms.endSessions(gm.id);
  }
}

/** Cookie names: `__Host-` ones over https (Secure, Path=/, no Domain: the browser enforces it). */
function cookieName(c: Context, base: string): string {
  return isHttps(c) ? `__Host-${base}` : base;
}

const cookieOptions = (c: Context, maxAge?: number) => ({
  path: '/',
  httpOnly: true,
  sameSite: 'Strict' as const,
  secure: isHttps(c),
  ...(maxAge !== undefined ? { maxAge } : {}),
});

export function setSessionCookie(c: Context, session: Session): void {
  setCookie(c, cookieName(c, 'votal_gm'), session.id, cookieOptions(c));
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, cookieName(c, 'votal_gm'), { path: '/', secure: isHttps(c) });
}

export function sessionIdOf(c: Context): string | undefined {
  return getCookie(c, cookieName(c, 'votal_gm'));
}

/** The sign-in form's double-submit token: a cookie and the same value in the form. */
export function preAuthToken(c: Context): string {
  const name = cookieName(c, 'votal_pre');
  const existing = getCookie(c, name);
  if (existing && /^[A-Za-z0-9_-]{32,64}$/.test(existing)) return existing;
  const token = randomBytes(24).toString('base64url');
  setCookie(c, name, token, cookieOptions(c, 3600));
  return token;
}

export function checkPreAuthToken(c: Context, fromForm: unknown): boolean {
  const cookie = getCookie(c, cookieName(c, 'votal_pre'));
  return typeof fromForm === 'string' && !!cookie && sameSecret(fromForm, cookie);
}

/** The posted form; a body that does not parse (a broken multipart) is the client's fault: 400. */
export async function readForm(c: Context): Promise<Record<string, unknown>> {
  try {
    return await c.req.parseBody();
  } catch {
    throw new HTTPException(400, { message: 'the form body could not be read' });
  }
}

export type GmVariables = {
  session: Session;
  /** The signed-in GM. */
  gm: Gm;
  /** Who the audit names for this request: `gm:<name>`. */
  actor: string;
};

/**
 * Lets a request through only with a live session: pages redirect to the sign-in form,
 * anything else gets 401. Form posts must carry the session's CSRF token.
 */
export function requireGm(auth: GmAuth): MiddlewareHandler<{ Variables: GmVariables }> {
  return async (c, next) => {
    const session = await auth.get(sessionIdOf(c));
    if (!session) {
      if (c.req.method === 'GET' || c.req.method === 'HEAD') {
        const next = new URL(c.req.url).pathname;
        return c.redirect(`/gm/login?next=${encodeURIComponent(next)}`, 303);
      }
      return c.text('Sign in first.', 401);
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const type = c.req.header('content-type') ?? '';
      if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) {
        return c.text('Forms only.', 415);
      }
      const form = await readForm(c);
      const token = form._csrf;
      if (typeof token !== 'string' || !sameSecret(token, session.csrf)) {
        return c.text('The form is out of date or did not come from this site; go back, reload and try again.', 403);
      }
    }
    c.set('session', session);
    c.set('gm', session.gm);
    c.set('actor', actorOf(session.gm));
    await next();
  };
}

/** `next=` targets after sign-in: only paths on the dashboard, never another site. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/gm(\/[A-Za-z0-9/_-]*)?$/.test(next) ? next : '/gm';
}
