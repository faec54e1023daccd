import type { Context, MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * Response headers for every page the UI serves. The CSP allows scripts, styles and
 * fetches from this origin only: no inline script, no inline style attribute, no plugin,
 * no framing, forms post only here. Trusted Types limit HTML parsing in our scripts to one
 * named policy (the live page's fragment swap).
 */
export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types votal',
].join('; ');

export function uiHeaders(): MiddlewareHandler {
  const secure = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      fontSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
      objectSrc: ["'none'"],
      requireTrustedTypesFor: ["'script'"],
      trustedTypes: ['votal'],
    },
    referrerPolicy: 'same-origin',
    xFrameOptions: 'DENY',
    // HSTS only means something over https; harmless otherwise, but keep local http clean.
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
    permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [] },
  });
  return async (c, next) => {
    await secure(c, next);
    if (isHttps(c)) c.header('Strict-Transport-Security', 'max-age=31536000');
    const type = c.res.headers.get('content-type') ?? '';
    // Pages (and fragments) are never cached: they hold counts and, for the GM, CSRF tokens.
    if (type.startsWith('text/html') && !c.res.headers.has('cache-control')) c.header('Cache-Control', 'no-store');
  };
}

/** Whether the client reached us over https (directly, or through a proxy that says so). */
export function isHttps(c: Context): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return (c.req.header('x-forwarded-proto') ?? '').split(',')[0]?.trim().toLowerCase() === 'https';
}
