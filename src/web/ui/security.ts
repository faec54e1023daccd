import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { isHttps } from '../https.js';
import { hasInvisibleControls, withoutInvisibleControls } from '../../model/forum-text.js';

/**
 * Response headers for every page the UI serves. The CSP allows scripts, styles and
 * fetches from this origin only: no inline script, no inline style attribute, no plugin,
 * no framing, forms post only here. Trusted Types limit HTML parsing in our scripts to one
 * named policy (the live page's fragment swap).
 */
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
    if (type.startsWith('text/html')) await withoutControlsInPage(c);
  };
}

/**
 * Every page and fragment leaves without bidi or invisible controls (model/forum-text.ts):
 * names, snippets and titles on them come from the forum, and one U+202E shows the rest of
 * its line reversed (a name that reads as another player's). One pass over the finished
 * page, so no string on any page can be forgotten.
 */
async function withoutControlsInPage(c: Context): Promise<void> {
  if (!c.res.body) return;
  const html = await c.res.text();
  c.res = new Response(hasInvisibleControls(html) ? withoutInvisibleControls(html) : html, c.res);
}

const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\b/i;

/**
 * CSRF: a form POST must come from this site. The browser's `Sec-Fetch-Site: same-origin`
 * is enough; without it (older browsers) the Origin header, or failing that the Referer,
 * must name this server: as the request reached it, as the client saw it through an
 * https proxy (X-Forwarded-Proto), or the configured public origin (VOTAL_PUBLIC_URL).
 */
export function sameSiteForms(publicOrigin?: string): MiddlewareHandler {
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    if (!FORM_TYPES.test(c.req.header('content-type') ?? 'text/plain')) return next();
    if (c.req.header('sec-fetch-site') === 'same-origin') return next();
    const claimed = c.req.header('origin') ?? originOf(c.req.header('referer'));
    if (claimed && claimed !== 'null' && ourOrigins(c, publicOrigin).includes(claimed)) return next();
    throw new HTTPException(403, { res: new Response('Forbidden', { status: 403 }) });
  };
}

function originOf(url: string | undefined): string | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  return new URL(url).origin;
}

function ourOrigins(c: Context, publicOrigin: string | undefined): string[] {
  const reached = new URL(c.req.url);
  const origins = [reached.origin];
  if (isHttps(c) && reached.protocol === 'http:') origins.push(`https://${reached.host.replace(/:80$/, '')}`);
  if (publicOrigin) origins.push(publicOrigin);
  return origins;
}
