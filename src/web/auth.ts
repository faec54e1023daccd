import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';

/**
 * GM routes: `Authorization: Bearer <VOTAL_ADMIN_TOKEN>`. Both sides are hashed first so
 * the comparison takes the same time whatever the length or content of the guess.
 */
export function tokenMatches(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

/** The token from an Authorization header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return m ? m[1]! : null;
}

export function requireAdmin(expected: string): MiddlewareHandler {
  if (!expected) throw new TypeError('requireAdmin needs a non-empty admin token');
  return async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    if (token === null || !tokenMatches(token, expected)) {
      c.header('WWW-Authenticate', 'Bearer realm="votal"');
      return c.json({ error: 'unauthorized: send Authorization: Bearer <admin token>' }, 401);
    }
    await next();
  };
}
