import { BBCODE, type DialectSpec } from '../src/model/dialect.js';
import type { ThreadRef } from './adapter.js';

/*
 * What XenForo 1 and 2 share: the same forum software's BBCode, reply route, message field,
 * thread URLs and page size. Each version keeps its own markup, editor chrome and error boxes
 * in its file (xenforo1.ts, xenforo2.ts).
 */

/** XenForo's [PLAIN] keeps its content plain: no tags, smilies or auto-links. */
export const XF_DIALECT: DialectSpec = { ...BBCODE, id: 'bbcode-xenforo', noParse: 'PLAIN' };

/** Both reply from the thread's `reply` page, a form posting to `add-reply` with a `message`. */
export const XF_REPLY = {
  replyUrl: '{thread}reply',
  form: 'form[action*="add-reply"]',
  messageField: 'message',
} as const;

/** `/threads/slug.123/` (or `/threads/123/`), the friendly URL of both versions. */
export const XF_THREAD_PATH = '/threads/[^/]*?\\.?\\d+/?';

/** The default "messages per page" of both versions. */
export const XF_POSTS_PER_PAGE = 20;

/** Page N of a thread is `…/threads/slug.123/page-N`; page 1 is the thread's own URL. */
export function xenforoPageUrl(thread: ThreadRef, page: number): string {
  return page <= 1 ? thread.url : `${thread.url}page-${page}`;
}

/** The page a route (`/threads/slug.123/page-4`) names; 1 where it names none. */
export function xenforoPageOf(route: string): number {
  const m = /\/page-(\d+)/.exec(route);
  return m ? Number(m[1]) : 1;
}
