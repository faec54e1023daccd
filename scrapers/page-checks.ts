import type { Document, Element } from 'domhandler';
import { LayoutError, TruncatedPageError } from '../src/fetch/errors.js';
import { all, one, text } from './dom.js';

/**
 * A page that shows none of the engine's post containers is an error naming the URL,
 * never an empty thread: a changed layout or a cut-off download must not wipe a tally.
 */
export function requirePosts(doc: Document, selector: string, html: string, url: string): Element[] {
  return requireContainers(all(doc, selector), selector, html, url);
}

/** requirePosts for containers an adapter found itself (by what makes a post); `selector` names them in the error. */
export function requireContainers(els: Element[], selector: string, html: string, url: string): Element[] {
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

/**
 * The containers that are posts, each post once. An ad slot or a deleted-post stub can be
 * drawn in a post's markup: futura-sciences.com (vBulletin 4) fills its "Publicité" and
 * video slots into a copy of the post before them, the same id, no post number, an empty
 * body. A container whose id an earlier one has is the same post, not a new one: of the
 * copies the first that is no stub (`isStub`) is kept, so a slot drawn before its post
 * never takes the post's place.
 */
export function distinctPosts(
  els: readonly Element[],
  idOf: (el: Element) => string,
  isStub: (el: Element) => boolean,
): Element[] {
  const kept = new Map<string, { el: Element; stub: boolean; at: number }>();
  els.forEach((el, at) => {
    const id = idOf(el);
    const seen = kept.get(id);
    if (!seen) kept.set(id, { el, stub: isStub(el), at });
    else if (seen.stub && !isStub(el)) kept.set(id, { el, stub: false, at: seen.at });
  });
  return [...kept.values()].sort((a, b) => a.at - b.at).map((k) => k.el);
}

/** Whether a post body shows anything: text, or a picture, video or embed. */
export function showsContent(body: Element | null): boolean {
  if (!body) return false;
  return /\S/.test(text(body)) || one(body, 'img, video, iframe, object, embed') !== null;
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
