import { z } from 'zod';

/**
 * The environment `votal serve` and `votal worker` read, validated once at start-up.
 * Messages name the variable and never echo its value (DATABASE_URL may hold a password,
 * the token and the key are secrets).
 */

const blankIsUnset = (v: unknown): unknown => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = <T extends z.ZodType>(schema: T) => z.preprocess(blankIsUnset, schema.optional());

/** 32 bytes, written as 64 hex digits or as base64 / base64url (`openssl rand -base64 32`). */
function parseSecretKey(text: string): Buffer | null {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (/^[A-Za-z0-9+/_-]{42,44}={0,2}$/.test(t)) {
    const key = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length === 32) return key;
  }
  return null;
}

/** What an admin token must hold beyond its length: bits by its own letters' frequencies, and distinct letters. */
const MIN_TOKEN_BITS = 80;
const MIN_TOKEN_SYMBOLS = 8;

/**
 * The entropy a token shows by itself: its length times the Shannon entropy of its letters'
 * frequencies. Random tokens score near their true strength (`openssl rand -hex 16`: about
 * 120 bits (never under 90 in 2,000 draws), `-base64 32`: about 200); 32 identical
 * characters score 0, `abab…` 32.
 */
function tokenBits(token: string): number {
  const counts = new Map<string, number>();
  for (const ch of token) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const n = [...token].length;
  let perChar = 0;
  for (const k of counts.values()) perChar -= (k / n) * Math.log2(k / n);
  return perChar * n;
}

/** Why `token` is too guessable, or null. */
function weakToken(token: string): string | null {
  const symbols = new Set(token).size;
  if (symbols < MIN_TOKEN_SYMBOLS) return `uses only ${symbols} different characters (at least ${MIN_TOKEN_SYMBOLS})`;
  if (tokenBits(token) < MIN_TOKEN_BITS) return 'is too predictable (repeats its characters too much)';
  // A short piece said again and again (`abcdefgh` four times): as strong as the piece.
  const n = token.length;
  for (let p = 1; p <= n / 2; p++) {
    if (n % p === 0 && token.slice(0, p).repeat(n / p) === token) return `is one ${p}-character piece repeated`;
  }
  return null;
}

const Flag = z
  .preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', '']).optional(),
  )
  .transform((v) => v === '1' || v === 'true' || v === 'yes' || v === 'on');

export const EnvSchema = z.object({
  DATABASE_URL: optionalString(
    z.string().refine((v) => /^postgres(ql)?:\/\/\S+$/.test(v) && URL.canParse(v), {
      message: 'must be a postgres:// or postgresql:// URL',
    }),
  ),
  VOTAL_DATA_DIR: optionalString(z.string()).transform((v) => v ?? '.votal'),
  VOTAL_ADMIN_TOKEN: optionalString(
    z
      .string()
      .min(32, { message: 'must be at least 32 characters (make one with: openssl rand -base64 32)' })
      .regex(/^\S+$/, {
        message: 'must not contain spaces',
      })
      // Long is not enough: 32 identical characters is one guess.
      .superRefine((token, ctx) => {
        const weak = token.length >= 32 ? weakToken(token) : null;
        if (weak) ctx.addIssue({ code: 'custom', message: `${weak}; make one with: openssl rand -base64 32` });
      }),
  ),
  VOTAL_SECRET_KEY: optionalString(
    z.string().refine((v) => parseSecretKey(v) !== null, {
      message: 'must be 32 random bytes as 64 hex digits or base64 (make one with: openssl rand -base64 32)',
    }),
  ).transform((v) => (v === undefined ? undefined : parseSecretKey(v)!)),
  VOTAL_PUBLIC_URL: optionalString(
    z.string().refine((v) => /^https?:\/\/[^\s/]+(\/\S*)?$/.test(v) && URL.canParse(v), {
      message: 'must be the http(s) address players and the GM use, e.g. https://votal.example.org',
    }),
  ).transform((v) => (v === undefined ? undefined : new URL(v).origin)),
  PORT: z.preprocess(
    blankIsUnset,
    z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65_535).default(8080),
  ),
  HOST: optionalString(z.string()).transform((v) => v ?? '127.0.0.1'),
  VOTAL_ALLOW_PRIVATE_HOSTS: Flag,
  VOTAL_QUEUE_SCHEMA: optionalString(
    z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, { message: 'must be a lower-case schema name (letters, digits, _)' }),
  ),
  VOTAL_TRUST_PROXY: optionalString(
    z
      .string()
      .refine(
        (v) =>
          /^(1|0|true|false|yes|no|on|off)$/i.test(v.trim()) ||
          v.split(',').every((a) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(a.trim())),
        {
          message:
            'must be 1 (trust loopback and private proxies) or a comma-separated list of proxy addresses or CIDR ranges',
        },
      ),
  ).transform((v): 'private' | string[] | undefined => {
    const t = v?.trim().toLowerCase();
    if (t === undefined || ['0', 'false', 'no', 'off'].includes(t)) return undefined;
    if (['1', 'true', 'yes', 'on'].includes(t)) return 'private';
    return v!.split(',').map((a) => a.trim());
  }),
  VOTAL_POLL_CONCURRENCY: z.preprocess(
    blankIsUnset,
    z.coerce.number({ error: 'must be a whole number of polls at once (1-256)' }).int().min(1).max(256).optional(),
  ),
  VOTAL_LOG_LEVEL: optionalString(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])).transform(
    (v) => v ?? 'info',
  ),
});

/** The validated configuration, in the names the code uses. */
export interface VotalEnv {
  /** PostgreSQL; unset means embedded PGlite in `dataDir`. */
  databaseUrl: string | undefined;
  /** PGlite's folder, the admin token file. Default `.votal`. */
  dataDir: string;
  /** GM routes need `Authorization: Bearer <adminToken>`; unset: `votal serve` makes and keeps one. */
  adminToken: string | undefined;
  /** AES-256-GCM key for forum logins and cookies stored at rest; unset: storing them is refused. */
  secretKey: Buffer | undefined;
  /**
   * The origin browsers use (behind a reverse proxy, e.g. `https://votal.example.org`):
   * sign-in and dashboard forms from it are accepted, links in webhooks point at it.
   */
  publicUrl?: string | undefined;
  port: number;
  host: string;
  /** Private and loopback thread URLs allowed (tests, local fake forums). */
  allowPrivateHosts: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * `VOTAL_TRUST_PROXY`: behind a reverse proxy, the client's address is the rightmost
   * X-Forwarded-For hop that is not a trusted proxy (`private`: loopback and private
   * addresses; or these addresses / CIDR ranges). Unset: off.
   */
  trustProxy?: 'private' | string[] | undefined;
  /** Polls one process runs at once; unset: one per forum host among the active games. */
  pollConcurrency?: number | undefined;
  /** PostgreSQL: the job queue's schema (default `pgboss`); separate Votal installations on one database need their own. */
  queueSchema?: string | undefined;
}

export class EnvError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(`bad environment: ${problems.map((p) => `${p.variable} ${p.message}`).join('; ')}`);
    this.name = 'EnvError';
  }
}

/** Validates `source` (default `process.env`); throws EnvError naming every bad variable. */
export function loadEnv(source: Record<string, string | undefined> = process.env): VotalEnv {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((i) => ({ variable: String(i.path[0] ?? '?'), message: i.message })));
  }
  const e = parsed.data;
  return {
    databaseUrl: e.DATABASE_URL,
    dataDir: e.VOTAL_DATA_DIR,
    adminToken: e.VOTAL_ADMIN_TOKEN,
    secretKey: e.VOTAL_SECRET_KEY,
    publicUrl: e.VOTAL_PUBLIC_URL,
    port: e.PORT,
    host: e.HOST,
    allowPrivateHosts: e.VOTAL_ALLOW_PRIVATE_HOSTS,
    logLevel: e.VOTAL_LOG_LEVEL,
    queueSchema: e.VOTAL_QUEUE_SCHEMA,
    trustProxy: e.VOTAL_TRUST_PROXY,
    pollConcurrency: e.VOTAL_POLL_CONCURRENCY,
  };
}
