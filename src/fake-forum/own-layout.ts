/**
 * A forum engine of its own, as community sites run them (the kind no adapter claims): a
 * thread drawn from data, page by page, in one of two layouts. `lantern` is the layout a
 * GM's game starts on; `lantern-2` is the same forum after a redesign that moved every
 * landmark (other tags and classes), so selectors learned on the first stop matching.
 * For the generic reader's end-to-end tests and the demo; nothing in the pipeline reads it.
 */

export interface OwnLayoutPost {
  /** The member's name, shown and linked to their profile. */
  author: string;
  /** ISO 8601 UTC, printed in a `<time datetime>`. */
  at: string;
  /** The post's text; lines are broken with `<br>`; `[b]...[/b]` is bold. Escaped here. */
  text: string;
}

export type OwnLayoutName = 'lantern' | 'lantern-2';

export interface OwnLayoutThread {
  title: string;
  posts: readonly OwnLayoutPost[];
  /** Posts a page. */
  perPage: number;
  /** The thread's path on the forum, page 1 (`/t/12-the-game`); other pages add `?page=N`. */
  path: string;
  layout: OwnLayoutName;
}

/** The number of pages the thread has. */
export function ownLayoutPages(thread: Pick<OwnLayoutThread, 'posts' | 'perPage'>): number {
  return Math.max(1, Math.ceil(thread.posts.length / thread.perPage));
}

/** The path of page `n` (1-based). */
export function ownLayoutPath(thread: Pick<OwnLayoutThread, 'path'>, n: number): string {
  return n <= 1 ? thread.path : `${thread.path}?page=${n}`;
}

/** Page `n` of the thread as the forum serves it. */
export function ownLayoutPage(thread: OwnLayoutThread, n: number): string {
  const pages = ownLayoutPages(thread);
  const first = (n - 1) * thread.perPage;
  const posts = thread.posts.slice(first, first + thread.perPage);
  const draw = thread.layout === 'lantern' ? lanternPost : lantern2Post;
  const body = posts.map((p, i) => draw(p, first + i + 1)).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(thread.title)} | Lantern Hall</title></head>
<body>
<header class="site-top"><a href="/">Lantern Hall</a> <a href="/login">Sign in</a></header>
<main>
<h1 class="topic-title">${esc(thread.title)}</h1>
${pager(thread, n, pages)}
${thread.layout === 'lantern' ? `<div class="replies">\n${body}\n</div>` : `<section id="conversation">\n${body}\n</section>`}
${pager(thread, n, pages)}
</main>
<footer class="site-foot">Lantern Hall community · <a href="/rules">Rules</a></footer>
</body></html>
`;
}

function lanternPost(p: OwnLayoutPost, number: number): string {
  return `<div class="reply" id="reply-${1000 + number}">
  <div class="reply-head">
    <a class="who" href="/people/${slug(p.author)}">${esc(p.author)}</a>
    <time datetime="${p.at}">${p.at.slice(0, 16).replace('T', ' ')}</time>
    <a class="nr" href="/t/r/${1000 + number}">#${number}</a>
  </div>
  <div class="reply-text">${paragraphs(p.text)}</div>
</div>`;
}

function lantern2Post(p: OwnLayoutPost, number: number): string {
  return `<article class="msg" id="msg-${1000 + number}">
  <header class="msg-top">
    <span class="msg-name"><a href="/u/${slug(p.author)}">${esc(p.author)}</a></span>
    <time datetime="${p.at}">${p.at.slice(0, 10)}</time> <a href="/t/r/${1000 + number}">#${number}</a>
  </header>
  <section class="msg-body">${paragraphs(p.text)}</section>
</article>`;
}

function pager(thread: OwnLayoutThread, n: number, pages: number): string {
  if (pages <= 1) return '';
  const links: string[] = [];
  for (let i = 1; i <= pages; i++) {
    links.push(i === n ? `<b>${i}</b>` : `<a href="${esc(ownLayoutPath(thread, i))}">${i}</a>`);
  }
  if (n < pages) links.push(`<a rel="next" href="${esc(ownLayoutPath(thread, n + 1))}">Next</a>`);
  return `<nav class="pages">${links.join(' ')}</nav>`;
}

function paragraphs(text: string): string {
  return text
    .split('\n')
    .map((line) => esc(line).replace(/\[b\](.*?)\[\/b\]/g, '<b>$1</b>'))
    .join('<br>\n');
}

function slug(name: string): string {
  return encodeURIComponent(name.toLowerCase().replace(/\s+/g, '-'));
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
