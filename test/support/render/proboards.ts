import {
  escapeAttr as attr,
  escapeHtml as html,
  MONTH_ABBR,
  pad2,
  userIdOf,
  wallClock,
  type GameScript,
  type ScriptNode,
  type ScriptPost,
} from '../game-script.js';
import type { RenderedPage, ThreadRenderer } from './index.js';
import { descriptor } from '../../../scrapers/proboards.js';

/**
 * ProBoards v5 thread pages as a guest gets them, after the markup in
 * ../shared/research/forum-engines.md (nrsyed/proboards-scraper, wertercatt's importer):
 * `div.container.posts` > `tr.item.post#post-{id}` with `td.left-panel a.user-link[data-id]`,
 * `span.date abbr.o-timestamp[data-timestamp]` in milliseconds (the title is the
 * viewer's zone, here GMT -8), `div.message`, `div.edited_by`, `div.quote[author]`,
 * `ul.ui-pagination` with `?page=N`.
 *
 * ProBoards prints no post numbers, so a post's number is its place in the thread and
 * depends on the page size. Pages here hold the board's default page size (the
 * adapter's `postsPerPage`), not the script's: without a site profile nothing on a
 * ProBoards page says how many posts a full page holds.
 */

/** Zone of the guest viewing the pages (only the `title` text shows it). */
const VIEWER_ZONE = 'America/Los_Angeles';

export const proboardsRenderer: ThreadRenderer = {
  engine: 'proboards',
  threadPath: (s) => `/thread/${s.thread.id}/${s.thread.slug}`,
  render(script: GameScript): RenderedPage[] {
    return renderProboardsPages(script, descriptor.postsPerPage);
  },
};

/** The thread's pages on a board set to `per` posts a page (boards choose their page size). */
export function renderProboardsPages(script: GameScript, per: number): RenderedPage[] {
  const pages: ScriptPost[][] = [];
  for (let i = 0; i < script.posts.length; i += per) pages.push(script.posts.slice(i, i + per));
  return pages.map((posts, i) => {
    const page = i + 1;
    const path = `/thread/${script.thread.id}/${script.thread.slug}${page > 1 ? `?page=${page}` : ''}`;
    return { page, path, file: `page-${page}.html`, body: renderPage(script, posts, page, pages.length) };
  });
}

function renderPage(s: GameScript, posts: readonly ScriptPost[], page: number, pageCount: number): string {
  const first = posts[0]!.n === 1;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<title>${html(s.thread.title)} | Votal Test Mafia</title>
<link rel="stylesheet" href="//storage.proboards.com/forum/css/votaltest.css">
<script type="text/javascript">
proboards.data('route', ${JSON.stringify({ name: 'thread', params: { thread_id: String(s.thread.id), page } })});
proboards.data('page', ${JSON.stringify({ thread: { id: s.thread.id, created_by: userIdOf(s, s.posts[0]!.author), board_id: 3, is_announcement: 0, is_locked: 0, is_poll: 0, is_sticky: 0, views: 120 } })});
</script>
</head>
<body class="thread">
<div id="wrapper">
<div id="content">
<div class="container posts">
  <div class="title-bar"><h1>${html(s.thread.title)}</h1></div>
  <div class="control-bar ui-helper-clearfix">
${pagination(s, page, pageCount)}
  </div>
  <div class="content cap-bottom">
  <table class="list">
  <tbody>
${posts.map((p, i) => renderPost(s, p, first && i === 0, i)).join('\n')}
  </tbody>
  </table>
  </div>
  <div class="control-bar ui-helper-clearfix">
${pagination(s, page, pageCount)}
  </div>
</div>
</div>
</div>
</body>
</html>
`;
}

function pagination(s: GameScript, page: number, pageCount: number): string {
  const href = (n: number): string => `/thread/${s.thread.id}/${s.thread.slug}${n > 1 ? `?page=${n}` : ''}`;
  const items = [
    page > 1
      ? `      <li class="ui-pagination-page ui-pagination-slot prev"><a href="${attr(href(page - 1))}">&laquo;</a></li>`
      : `      <li class="ui-pagination-page ui-pagination-slot prev state-disabled"><a href="javascript:void(0)">&laquo;</a></li>`,
  ];
  for (let n = 1; n <= pageCount; n++) {
    items.push(
      n === page
        ? `      <li class="ui-pagination-page ui-pagination-slot state-selected"><span>${n}</span></li>`
        : `      <li class="ui-pagination-page ui-pagination-slot"><a href="${attr(href(n))}">${n}</a></li>`,
    );
  }
  items.push(
    page < pageCount
      ? `      <li class="ui-pagination-page ui-pagination-slot next"><a href="${attr(href(page + 1))}">&raquo;</a></li>`
      : `      <li class="ui-pagination-page ui-pagination-slot next state-disabled"><a href="javascript:void(0)">&raquo;</a></li>`,
  );
  return `    <ul class="ui-pagination">\n${items.join('\n')}\n    </ul>`;
}

function userLink(s: GameScript, name: string): string {
  const uid = userIdOf(s, name)!;
  return `<a class="user-link user-${uid} group-0" href="/user/${uid}" data-id="${uid}" title="@${attr(name.toLowerCase())}">${html(name)}</a>`;
}

/** `data-timestamp` is exact (ms); the text is the viewer's clock, "Mar 2, 2026 10:00:00 GMT -8". */
function stamp(iso: string): string {
  const w = wallClock(iso, VIEWER_ZONE);
  const zone = `GMT ${w.offsetMinutes < 0 ? '-' : '+'}${Math.abs(w.offsetMinutes / 60)}`;
  const text = `${MONTH_ABBR[w.mo - 1]} ${w.d}, ${w.y} ${w.h}:${pad2(w.mi)}:${pad2(w.s)} ${zone}`;
  return `<abbr class="o-timestamp time" data-timestamp="${Date.parse(iso)}" title="${attr(text)}">${html(text)}</abbr>`;
}

function renderPost(s: GameScript, p: ScriptPost, first: boolean, row: number): string {
  const edited = p.edited
    ? `\n        <div class="edited_by">Last Edit: ${stamp(p.edited.time)} by ${userLink(s, p.edited.by)}</div>`
    : '';
  return `  <tr class="item post${first ? ' first' : ''} ${row % 2 === 0 ? 'odd' : 'even'}" id="post-${p.id}">
    <td class="left-panel">
      <div class="mini-profile">
        ${userLink(s, p.author)}
        <div class="info">Posts: ${100 + s.posts.filter((q) => q.author === p.author).length}</div>
      </div>
    </td>
    <td class="content">
      <article>
        <div class="content-head ui-helper-clearfix">
          <div class="info">
            <span class="date">${stamp(p.time)}</span>
            <a href="/post/${p.id}/thread" rel="nofollow" class="post-link">Post by ${html(p.author)}</a>
          </div>
        </div>
        <div class="message">${body(s, p, p.body)}</div>${edited}
      </article>
    </td>
  </tr>`;
}

function body(s: GameScript, post: ScriptPost, nodes: readonly ScriptNode[]): string {
  return nodes.map((n) => node(s, post, n)).join('');
}

function node(s: GameScript, post: ScriptPost, n: ScriptNode): string {
  switch (n.op) {
    case 'text':
      return html(n.text);
    case 'br':
      return '<br>';
    case 'bold':
      return `<b>${body(s, post, n.children)}</b>`;
    case 'italic':
      return `<i>${body(s, post, n.children)}</i>`;
    case 'strike':
      return `<s>${body(s, post, n.children)}</s>`;
    case 'color':
      return `<span style="color: ${attr(n.color)}">${body(s, post, n.children)}</span>`;
    case 'quote': {
      const source =
        n.author === null ? undefined : [...s.posts].reverse().find((q) => q.author === n.author && q.n < post.n);
      const header =
        n.author === null
          ? 'Quote'
          : source
            ? `<a href="/post/${source.id}/thread">${html(n.author)} said:</a>`
            : `${html(n.author)} said:`;
      const who = n.author === null ? '' : ` author="@${attr(n.author.toLowerCase())}"`;
      const when = source ? ` data-timestamp="${Date.parse(source.time)}"` : '';
      return `<div class="quote"${who}${when}><div class="quote_header">${header}</div><div class="quote_body">${body(s, post, n.children)}<div class="quote_clear"></div></div></div>`;
    }
    case 'spoiler':
      return `<div class="spoiler"><div class="spoiler_header">${html(n.title ?? 'Spoiler')}</div><div class="spoiler_body" style="display: none;">${body(s, post, n.children)}</div></div>`;
    case 'code':
      return `<div class="code"><pre>${html(n.text)}</pre></div>`;
    case 'smilie':
      return `<img src="//images.proboards.com/v5/smiley${attr(n.src.replace(/^.*(\/[^/]+)$/, '$1'))}" alt="${attr(n.alt)}" title="${attr(n.alt)}" class="smile">`;
    case 'image':
      return `<img src="${attr(n.src)}" alt=" ">`;
    case 'link':
      return n.kind === 'external'
        ? `<a href="${attr(n.href)}" target="_blank" rel="nofollow">${body(s, post, n.children)}</a>`
        : `<a href="${attr(n.href)}">${body(s, post, n.children)}</a>`;
    case 'mention':
      return `<a class="user-link user-${n.userId} group-0" href="/user/${n.userId}" data-id="${n.userId}">@${html(n.name)}</a>`;
  }
}
