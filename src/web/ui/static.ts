import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { VOTAL_CSS } from './assets/votal-css.js';
import { COMMON_JS, GM_JS, LIVE_JS } from './assets/scripts.js';

/** The UI's static files: one stylesheet and three small scripts, kept in the code (no build step). */
const FILES: Record<string, { type: string; body: string }> = {
  'votal.css': { type: 'text/css; charset=utf-8', body: VOTAL_CSS },
  'common.js': { type: 'text/javascript; charset=utf-8', body: COMMON_JS },
  'live.js': { type: 'text/javascript; charset=utf-8', body: LIVE_JS },
  'gm.js': { type: 'text/javascript; charset=utf-8', body: GM_JS },
};

/** Changes whenever a file does: pages ask for `?v=` so browsers never run stale scripts. */
export const ASSET_VERSION = createHash('sha256')
  .update(Object.values(FILES).map((f) => f.body).join('\0'))
  .digest('hex')
  .slice(0, 12);

const ETAG = `"${ASSET_VERSION}"`;

export function staticFiles(): Hono {
  const app = new Hono();
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
