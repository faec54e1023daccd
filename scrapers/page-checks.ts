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
  const older = olderVersion(html);
  if (older) throw new LayoutError(url, `no post containers (${selector}) on the page: ${older}`);
  throw new LayoutError(
    url,
    `no post containers (${selector}) on the page: the forum's layout changed or this is not a thread page`,
  );
}

/**
 * Older versions still online whose markup differs from what the adapters read, told
 * by what they print (a copyright line, a style's own class): a page of one is refused
 * naming the version, never read as an empty or half thread. From the engines' own
 * templates and copyright lines (docs/fetching.md), not from real game threads.
 */
const OLDER_VERSIONS: readonly { sign: RegExp; name: (m: RegExpExecArray) => string }[] = [
  // "Powered by SMF 1.1.19" (bitcointalk.org still runs it): posts in tables, no div.post_wrapper.
  { sign: /Powered by SMF (1\.\d+(?:\.\d+)?)/i, name: (m) => `SMF ${m[1]} (the 1.x table layout)` },
  // "Community Forum Software by IP.Board 3.4.9": div.post_block#post_id_N, not Invision 4's articles.
  { sign: /\bIP\.Board ([1-3](?:\.\d+)*)/i, name: (m) => `IP.Board ${m[1]}` },
  { sign: /\bInvision Power Board v?([1-3](?:\.\d+)*)/i, name: (m) => `Invision Power Board ${m[1]}` },
  // phpBB 3.0's subsilver2 style prints the poster as <b class="postauthor"> in tables.
  { sign: /class="postauthor"/, name: () => "phpBB with the subsilver2 style (tables, not prosilver's div.post)" },
  // "Powered by vBulletin® Version 3.7.4": anything older than the 3.8 markup the adapter was checked on is named.
  {
    sign: /Powered by vBulletin(?:&reg;|®)?\s+Version\s+((?:[0-2]\.\d+|3\.[0-7])(?:\.\d+)?)\b/i,
    name: (m) => `vBulletin ${m[1]}`,
  },
];

/** "this page is SMF 1.1.19 (…), a version whose layout Votal does not read" when the page says which old version it is. */
export function olderVersion(html: string): string | null {
  for (const v of OLDER_VERSIONS) {
    const m = v.sign.exec(html);
    if (m)
      return `this page is ${v.name(m)}, a version whose layout Votal does not read (save it with \`votal capture <url>\` and send it, so it can be added)`;
  }
  return null;
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
