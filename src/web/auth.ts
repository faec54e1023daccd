import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { clientIp, TokenBuckets, type RateLimitOptions } from './rate-limit.js';

/**
 * GM routes: `Authorization: Bearer <VOTAL_ADMIN_TOKEN>`. Both sides are hashed first so
 * the comparison takes the same time whatever the length or content of the guess. The
 * request's `actor` (who the commands record as doing what it asks) is set here.
 */
function tokenMatches(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

/** The token from an Authorization header, or null. */
function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return m ? m[1]! : null;
}

/**
 * Wrong tokens are counted per client address: after `capacity` (default 100) of them,
 * refilled at `perSecond` (default one per 10 s), that address gets 429 with Retry-After,
 * and no token, right or wrong, is even compared until the wait is over (a guess that
 * would have been right must not be told apart). A GM with the right token never spends.
 */
export function requireAdmin(
  expected: string,
  throttle: RateLimitOptions | false = {},
): MiddlewareHandler<{ Variables: { actor: string } }> {
  if (!expected) throw new TypeError('requireAdmin needs a non-empty admin token');
  const failures = throttle === false ? null : new TokenBuckets({ capacity: 100, perSecond: 0.1, ...throttle });
  const keyOf = (throttle && throttle.keyOf) || clientIp;
  return async (c, next) => {
    const client = keyOf(c);
    const waitMs = failures?.waitFor(client) ?? 0;
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      c.header('Retry-After', String(seconds));
      return c.json({ error: `too many wrong admin tokens from this address; try again in ${seconds} s` }, 429);
    }
    const token = bearerToken(c.req.header('authorization'));
    if (token === null || !tokenMatches(token, expected)) {
      failures?.take(client);
      c.header('WWW-Authenticate', 'Bearer realm="votal"');
      return c.json({ error: 'unauthorized: send Authorization: Bearer <admin token>' }, 401);
    }
    // The admin token is the GM's: what the request does is done by the GM.
    c.set('actor', 'gm');
    await next();
  };
}
