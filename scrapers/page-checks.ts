import type { Document, Element } from 'domhandler';
import { LayoutError, TruncatedPageError } from '../src/fetch/errors.js';
import { all, one } from './dom.js';

/**
 * A page that shows none of the engine's post containers is an error naming the URL,
 * never an empty thread: a changed layout or a cut-off download must not wipe a tally.
 */
export function requirePosts(doc: Document, selector: string, html: string, url: string): Element[] {
  const els = all(doc, selector);
  if (els.length > 0) {
    if (isTruncated(html)) throw new TruncatedPageError(url, 'the page ends before </html>; the download was cut off');
    return els;
  }
  if (isTruncated(html)) throw new TruncatedPageError(url, 'the page ends before </html> and shows no posts');
  throw new LayoutError(url, `no post containers (${selector}) on the page: the forum's layout changed or this is not a thread page`);
}

/**
 * The marks forums put on each post whatever the engine or theme: an id holding the
 * post's number (`msg_12`, `post-12`, `p12`, `elComment_12`, `postcount12`, `js-post-12`)
 * or a post-id data attribute. A login wall shows none. Engine-neutral on purpose: it
 * is asked about pages an adapter could not read.
 */
const POST_ID = /^(?:msg|post|p|pid|postcount|post_message|comment|elComment|entry|reply|js-post)[-_]?\d+$/i;
const POST_ATTRS = '[data-pid], [data-post-id], [data-postid], [data-commentid], [data-msgid], [data-content^="post-"]';

/**
 * Whether a page shows posts, judged without an engine. A guest page carries a quick-login
 * box (a password field) in its header next to the posts; only a page that asks for a
 * login and shows no posts is a login wall.
 */
export function showsPosts(doc: Document): boolean {
  if (one(doc, POST_ATTRS)) return true;
  return all(doc, '[id]').some((el) => POST_ID.test(el.attribs['id'] ?? ''));
}

/** Server HTML ends with </html>; a body cut mid-way does not. */
export function isTruncated(html: string): boolean {
  const tail = html.slice(-2048).toLowerCase();
  return !tail.includes('</html>') && !tail.includes('</body>');
}

/**
 * Reads each post container in turn and lets go of its contents once read, so a page's
 * earlier posts are garbage while its later ones are read (rather than copied by every
 * young-generation collection until the page is done). Call it last: afterwards the
 * containers are empty.
 */
export function readEach<T>(els: readonly Element[], read: (el: Element, index: number) => T): T[] {
  return els.map((el, index) => {
    const out = read(el, index);
    el.children = [];
    return out;
  });
}
