import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { VOTAL_CSS } from './assets/votal-css.js';
import { COMMON_JS, GM_JS, LIVE_JS } from './assets/scripts.js';

/** A ballot box: the tab icon (browsers that ask for /favicon.ico get it too). */
const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="4" y="12" width="24" height="16" rx="2" fill="#2b5797"/>' +
  '<rect x="11" y="4" width="10" height="12" fill="#fff" stroke="#2b5797" stroke-width="2"/><rect x="9" y="12" width="14" height="3" fill="#1b3a66"/></svg>';

/** The UI's static files: one stylesheet, three small scripts and the icon, kept in the code (no build step). */
const FILES: Record<string, { type: string; body: string }> = {
  'votal.css': { type: 'text/css; charset=utf-8', body: VOTAL_CSS },
  'common.js': { type: 'text/javascript; charset=utf-8', body: COMMON_JS },
  'live.js': { type: 'text/javascript; charset=utf-8', body: LIVE_JS },
  'gm.js': { type: 'text/javascript; charset=utf-8', body: GM_JS },
  'favicon.svg': { type: 'image/svg+xml', body: FAVICON_SVG },
};

/** Changes whenever a file does: pages ask for `?v=` so browsers never run stale scripts. */
export const ASSET_VERSION = createHash('sha256')
  .update(
    Object.values(FILES)
      .map((f) => f.body)
      .join('\0'),
  )
  .digest('hex')
  .slice(0, 12);

const ETAG = `"${ASSET_VERSION}"`;

export function staticFiles(): Hono {
  const app = new Hono();
  app.get('/favicon.ico', (c) => c.redirect(`/ui/static/favicon.svg?v=${ASSET_VERSION}`, 301));
  app.get('/ui/static/:file', (c) => {
    const name = c.req.param('file');
    // Own properties only: `__proto__` or `constructor` must not find Object.prototype's.
    const file = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
    if (!file) return c.text('Not found', 404);
    c.header('Content-Type', file.type);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Cache-Control', c.req.query('v') === ASSET_VERSION ? 'public, max-age=31536000, immutable' : 'no-cache');
    c.header('ETag', ETAG);
    if (c.req.header('if-none-match') === ETAG) return c.body(null, 304);
    return c.body(file.body);
  });
  return app;
}

export const STATIC_FILES = Object.keys(FILES);
