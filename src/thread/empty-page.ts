import type { AnyNode } from 'domhandler';
import { all, attr, one, parseHtml, type Element } from '../../scrapers/dom.js';
import { showsPosts } from '../../scrapers/page-checks.js';

/**
 * Why a 200 page with none of the engine's post containers has no posts, judged from
 * the page alone (no engine descriptor needed, so it holds for every engine):
 * - `login-wall`: the forum answered with its login form (a private board, or a session
 *   that expired). A password input is the sign; a page with posts may carry a quick
 *   login box too (in the header, beside the posts): a page that shows posts by the
 *   marks every engine puts on them is never a wall, even when its layout is not understood.
 * - `script-shell`: the posts are drawn by JavaScript: an empty application root next
 *   to scripts, or a `<noscript>` notice on a page with next to no text of its own.
 *   (Many ordinary forum pages carry a `<noscript>` banner; the text limit keeps a page
 *   whose layout changed from passing for a shell.) A browser may show the posts.
 * Null: neither; the layout is simply not understood.
 */
export type EmptyPageKind = 'login-wall' | 'script-shell';

/** Mount points single-page apps render into. */
const APP_ROOTS = '#app, #root, #__next, #__nuxt, #svelte, #main-app, [data-reactroot], [ng-app], [data-app-root]';
/** Visible text (outside scripts and noscript) a shell page may have: a title, a spinner label. */
const SHELL_TEXT_CHARS = 500;
const INVISIBLE = new Set(['script', 'style', 'noscript', 'template']);

export function whyNoPosts(html: string): EmptyPageKind | null {
  const doc = parseHtml(html);
  // A guest page has a quick-login box beside its posts: that is no wall (an unreadable layout).
  if (all(doc, 'input').some((el) => (attr(el, 'type') ?? '').trim().toLowerCase() === 'password'))
    return showsPosts(doc) ? null : 'login-wall';

  if (all(doc, 'script').length === 0) return null;
  if (all(doc, APP_ROOTS).some(isEmpty)) return 'script-shell';
  if (all(doc, 'noscript').length > 0 && visibleText(one(doc, 'body') ?? doc).length < SHELL_TEXT_CHARS)
    return 'script-shell';
  return null;
}

function isEmpty(el: Element): boolean {
  return el.children.every((c) => c.type !== 'tag' || INVISIBLE.has(c.name)) && visibleText(el) === '';
}

function visibleText(root: AnyNode): string {
  const parts: string[] = [];
  const walk = (node: AnyNode): void => {
    if (node.type === 'text') parts.push(node.data);
    if (
      (node.type === 'tag' || node.type === 'script' || node.type === 'style') &&
      INVISIBLE.has((node as Element).name)
    )
      return;
    if ('children' in node) for (const child of node.children) walk(child);
  };
  walk(root);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}
