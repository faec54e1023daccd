import type { Document, Element } from 'domhandler';
import { LayoutError, TruncatedPageError } from '../src/fetch/errors.js';
import { all } from './dom.js';

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
