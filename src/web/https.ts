import type { Context } from 'hono';

/** Whether the client reached us over https (directly, or through a proxy that says so). */
export function isHttps(c: Context): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return (c.req.header('x-forwarded-proto') ?? '').split(',')[0]?.trim().toLowerCase() === 'https';
}
