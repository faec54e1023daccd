import {
  escapeAttr as attr,
  escapeHtml as html,
  MONTH_ABBR,
  pad2,
  pagesOf,
  twelveHour,
  userIdOf,
  wallClock,
  type GameScript,
  type ScriptNode,
  type ScriptPost,
} from '../game-script.js';
import type { RenderedPage, ThreadRenderer } from './index.js';

/**
 * XenForo 1.5 thread pages as a guest gets them, modelled on
 * ../shared/forum-samples/xenforo1/nettally-Xenforo1.html (Sufficient Velocity, XF 1.5):
 * `html#XenForo`, `<base href>` (links are relative to it; see `relativeBase`), `ol#messageList >
 * li.message#post-ID[data-author]`, the body in `.messageContent article
 * blockquote.messageText` ending in `.messageTextEndMarker`, the time in
 * `.messageMeta .DateTime`, "#N" in `a.postNumber`, `div.editDate`, and
 * `div.PageNav[data-page][data-last]`.
 *
 * XF 1 prints `abbr.DateTime[data-time]` for posts under a week old and only
 * `span.DateTime[title]` text for older ones: the pages are a snapshot taken on SNAPSHOT,
 * so Day 1's first evening is plain text and the rest carries the epoch (both forms read).
 */

const BOARD = 'Votal Test Forum';
/** The board's default zone (what guests see). */
const ZONE = 'UTC';
const SNAPSHOT = Date.parse('2026-03-10T00:00:00Z');
const RECENT_MS = 7 * 86_400_000;
const FORUM = { id: 2, title: 'Mafia Games', slug: 'mafia-games' };
/** Sprite positions of XF 1's default smilies (the meaning is in alt; the image is clear.png). */
const SMILIE_SPRITE: Record<string, { n: number; title: string }> = {
  ':)': { n: 1, title: 'Smile' },
  ';)': { n: 2, title: 'Wink' },
  ':(': { n: 3, title: 'Frown' },
  ':D': { n: 8, title: 'Big Grin' },
  ':cool:': { n: 6, title: 'Cool' },
};

export const xenforo1Renderer: ThreadRenderer = {
  engine: 'xenforo1',
  threadPath: (script) => `/${threadUrl(script)}`,
  render(script: GameScript): RenderedPage[] {
    const pages = pagesOf(script);
    return pages.map((posts, i) => {
      const page = i + 1;
      const path = `/${pageUrl(script, page)}`;
      return {
        page,
        path,
        file: `page-${page}.html`,
        body: renderPage(script, posts, page, pages.length, relativeBase(path)),
      };
    });
  },
};

// Relative to <base href>, as XF 1 writes every link.
const threadUrl = (s: GameScript): string => `threads/${s.thread.slug}.${s.thread.id}/`;
const pageUrl = (s: GameScript, page: number): string => (page <= 1 ? threadUrl(s) : `${threadUrl(s)}page-${page}`);
const memberUrl = (name: string, uid: number): string =>
  `members/${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}.${uid}/`;

function renderPage(
  s: GameScript,
  posts: readonly ScriptPost[],
  page: number,
  pageCount: number,
  base: string,
): string {
  const title = html(s.thread.title);
  const starter = s.posts[0]!;
  const starterId = userIdOf(s, starter.author)!;
  const nav = pageNav(s, page, pageCount);
  return `\uFEFF<!DOCTYPE html>
<html id="XenForo" lang="en-US" dir="LTR" class="Public NoJs LoggedOut NoSidebar  Responsive" xmlns:fb="http://www.facebook.com/2008/fbml">
<head>
<meta charset="utf-8"/>
<meta http-equiv="X-UA-Compatible" content="IE=Edge,chrome=1"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<base href="${base}"/>
<title>${page > 1 ? `${title} | Page ${page}` : title} | ${html(BOARD)}</title>
<noscript><style>.JsOnly,.jsOnly{display:none!important;}</style></noscript>
<link rel="stylesheet" href="css.php?css=xenforo,form,public&amp;style=1&amp;dir=LTR&amp;d=1772000000"/>
<link rel="stylesheet" href="css.php?css=bb_code,message,message_user_info,thread_view&amp;style=1&amp;dir=LTR&amp;d=1772000000"/>
<script src="js/jquery/jquery-1.11.0.min.js"></script>
<script src="js/xenforo/xenforo.js?_v=420bfbcf"></script>
<script src="js/xenforo/discussion.js?_v=420bfbcf"></script>
<link rel="canonical" href="${attr(pageUrl(s, page))}"/>
${page > 1 ? `<link rel="prev" href="${attr(pageUrl(s, page - 1))}"/>\n` : ''}${page < pageCount ? `<link rel="next" href="${attr(pageUrl(s, page + 1))}"/>\n` : ''}</head>
<body>
<div id="headerMover">
<div id="headerProxy"></div>
<div id="content" class="thread_view">
<div class="pageWidth">
<div class="pageContent">
<div class="breadBoxTop ">
<nav>
<fieldset class="breadcrumb">
<div class="boardTitle"><strong>${html(BOARD)}</strong></div>
<span class="crumbs">
<span class="crust homeCrumb" itemscope="itemscope" itemtype="http://data-vocabulary.org/Breadcrumb">
<a href="index.php" class="crumb" rel="up" itemprop="url"><span itemprop="title">Home</span></a>
<span class="arrowHolder"><span class="arrow"></span></span>
</span>
<span class="crust" itemscope="itemscope" itemtype="http://data-vocabulary.org/Breadcrumb">
<a href="forums/${FORUM.slug}.${FORUM.id}/" class="crumb" rel="up" itemprop="url"><span itemprop="title">${html(FORUM.title)}</span></a>
<span class="arrowHolder"><span class="arrow"></span></span>
</span>
</span>
</fieldset>
</nav>
</div>
<div class="titleBar">
<h1>${title}</h1>
<p id="pageDescription" class="muted ">
Discussion in '<a href="forums/${FORUM.slug}.${FORUM.id}/">${html(FORUM.title)}</a>' started by <a href="${attr(memberUrl(starter.author, starterId))}" class="username" dir="auto">${html(starter.author)}</a>, <a href="${attr(threadUrl(s))}">${dateTime(starter.time)}</a>.
</p>
</div>
<div class="pageNavLinkGroup">
<div class="linkGroup SelectionCountContainer"></div>
${nav}
</div>
<form action="inline-mod/post/switch" method="post" class="InlineModForm section" data-cookieName="posts" data-controls="#InlineModControls" data-imodOptions="#ModerationSelect option">
<ol class="messageList" id="messageList">
${posts.map((p) => renderPost(s, p)).join('')}</ol>
<input type="hidden" name="_xfToken" value=""/>
</form>
<div class="pageNavLinkGroup">
<div class="linkGroup">
<a href="login/" class="concealed element OverlayTrigger">(You must log in or sign up to reply here.)</a>
</div>
${nav}
</div>
</div>
</div>
</div>
</div>
<footer>
<div class="footerLegal">
<div class="pageWidth">
<div class="pageContent">
<div id="copyright"><a href="https://xenforo.com" class="concealed">Forum software by XenForo&trade; <span>&copy;2010-2017 XenForo Ltd.</span></a></div>
</div>
</div>
</div>
</footer>
</body>
</html>
`;
}

/**
 * A real board's <base href> is its absolute URL; the fixture's is relative (up to the
 * board root from the page's folder) so the board can be mounted under any path.
 */
export function relativeBase(path: string): string {
  const dir = path.split('?')[0]!.replace(/[^/]*$/, '');
  const depth = dir.split('/').length - 2;
  return depth > 0 ? '../'.repeat(depth) : './';
}

function renderPost(s: GameScript, p: ScriptPost): string {
  const uid = userIdOf(s, p.author)!;
  const member = memberUrl(p.author, uid);
  const edited = p.edited
    ? `<div class="editDate">
${p.edited.by === p.author ? 'Last edited' : 'Last edited by a moderator'}: ${dateTime(p.edited.time)}
</div>
`
    : '';
  return `<li id="post-${p.id}" class="message    
" data-author="${attr(p.author)}">
<div class="messageUserInfo" itemscope="itemscope" itemtype="http://data-vocabulary.org/Person">
<div class="messageUserBlock ">
<div class="avatarHolder">
<span class="helper"></span>
<a href="${attr(member)}" class="avatar Av${uid}m" data-avatarhtml="true"><img src="styles/default/xenforo/avatars/avatar_m.png" width="96" height="96" alt="${attr(p.author)}"/></a>
</div>
<h3 class="userText">
<a href="${attr(member)}" class="username" dir="auto" itemprop="name">${html(p.author)}</a>
<em class="userTitle" itemprop="title">${p.author === s.posts[0]!.author ? 'Game Moderator' : 'Member'}</em>
</h3>
<span class="arrow"><span></span></span>
</div>
</div>
<div class="messageInfo primaryContent">
<div class="messageContent">
<article>
<blockquote class="messageText SelectQuoteContainer ugc baseHtml">
${body(s, p, p.body)}
<div class="messageTextEndMarker">&nbsp;</div>
</blockquote>
</article>
</div>
${edited}<div class="messageMeta ToggleTriggerAnchor">
<div class="privateControls">
<span class="item muted">
<span class="authorEnd"><a href="${attr(member)}" class="username author" dir="auto">${html(p.author)}</a>,</span>
<a href="posts/${p.id}/" title="Permalink" class="datePermalink">${dateTime(p.time)}</a>
</span>
</div>
<div class="publicControls">
<a href="posts/${p.id}/" title="Permalink" class="item muted postNumber hashPermalink OverlayTrigger" data-href="posts/${p.id}/permalink">#${p.n}</a>
</div>
</div>
<div id="likes-post-${p.id}"></div>
</div>
</li>
`;
}

/**
 * `abbr.DateTime[data-time]` (recent) or `span.DateTime[title]` (older), as XF 1's
 * `xen:datetime` prints them for the board's zone.
 */
function dateTime(iso: string): string {
  const w = wallClock(iso, ZONE);
  const date = `${MONTH_ABBR[w.mo - 1]} ${w.d}, ${w.y}`;
  const [h, ampm] = twelveHour(w.h);
  const time = `${h}:${pad2(w.mi)} ${ampm.toUpperCase()}`;
  const t = Date.parse(iso);
  if (SNAPSHOT - t < RECENT_MS) {
    return `<abbr class="DateTime" data-time="${Math.floor(t / 1000)}" data-diff="${Math.floor((SNAPSHOT - t) / 1000)}" data-datestring="${date}" data-timestring="${time}">${date} at ${time}</abbr>`;
  }
  return `<span class="DateTime" title="${date} at ${time}">${date}</span>`;
}

function pageNav(s: GameScript, page: number, pageCount: number): string {
  if (pageCount <= 1) return '';
  const links: string[] = [];
  for (let n = 1; n <= pageCount; n++) {
    links.push(
      `<a href="${attr(pageUrl(s, n))}" class="${n === page ? 'currentPage ' : ''}"${n === 1 ? ' rel="start"' : ''}>${n}</a>`,
    );
  }
  const prev = page > 1 ? `<a href="${attr(pageUrl(s, page - 1))}" class="text">&lt; Prev</a>\n` : '';
  const next = page < pageCount ? `\n<a href="${attr(pageUrl(s, page + 1))}" class="text">Next &gt;</a>` : '';
  return `<div class="PageNav" data-page="${page}" data-range="2" data-start="2" data-end="${Math.max(2, pageCount - 1)}" data-last="${pageCount}" data-sentinel="{{sentinel}}" data-baseurl="${attr(`${threadUrl(s)}page-{{sentinel}}`)}">
<span class="pageNavHeader">Page ${page} of ${pageCount}</span>
<nav>
${prev}${links.join('\n')}${next}
</nav>
</div>`;
}

/** BB code output inside `blockquote.messageText`, as XF 1.5 renders it. */
function body(s: GameScript, post: ScriptPost, nodes: readonly ScriptNode[]): string {
  return nodes.map((n) => node(s, post, n)).join('');
}

function node(s: GameScript, post: ScriptPost, n: ScriptNode): string {
  switch (n.op) {
    case 'text':
      return html(n.text);
    case 'br':
      return '<br/>\n';
    case 'bold':
      return `<b>${body(s, post, n.children)}</b>`;
    case 'italic':
      return `<i>${body(s, post, n.children)}</i>`;
    case 'strike':
      return `<span style="text-decoration: line-through">${body(s, post, n.children)}</span>`;
    case 'color':
      return `<span style="color: ${attr(n.color.toLowerCase())}">${body(s, post, n.children)}</span>`;
    case 'quote':
      return quote(s, post, n.author, body(s, post, n.children));
    case 'spoiler': {
      const title = n.title === null ? '' : `: <span class="SpoilerTitle">${html(n.title)}</span>`;
      return `<div class="ToggleTriggerAnchor bbCodeSpoilerContainer">
<button type="button" class="button bbCodeSpoilerButton ToggleTrigger Tooltip JsOnly" title="Click to reveal or hide spoiler" data-target="&gt; .SpoilerTarget"><span>Spoiler${title}</span></button>
<div class="SpoilerTarget bbCodeSpoilerText">${body(s, post, n.children)}</div>
</div>`;
    }
    case 'code':
      return `<div class="bbCodeBlock bbCodeCode">
<aside>
<div class="type">Code:</div>
<pre>${html(n.text)}</pre>
</aside>
</div>`;
    case 'smilie': {
      const sprite = SMILIE_SPRITE[n.alt];
      return sprite
        ? `<img src="styles/default/xenforo/clear.png" class="mceSmilieSprite mceSmilie${sprite.n}" alt="${attr(n.alt)}" title="${attr(`${sprite.title}    ${n.alt}`)}"/>`
        : `<img src="${attr(n.src)}" class="mceSmilie" alt="${attr(n.alt)}" title="${attr(n.alt)}"/>`;
    }
    case 'image':
      return `<img src="${attr(n.src)}" class="bbCodeImage LbImage" alt="[&#x200B;IMG]" data-url="${attr(n.src)}"/>`;
    case 'link':
      return n.kind === 'external'
        ? `<a href="${attr(n.href)}" target="_blank" class="externalLink" rel="nofollow">${body(s, post, n.children)}</a>`
        : `<a href="${attr(n.href)}" class="internalLink">${body(s, post, n.children)}</a>`;
    case 'mention':
      return `<a href="${attr(memberUrl(n.name, n.userId))}" class="username" data-user="${n.userId}, ${attr(n.name)}">@${html(n.name)}</a>`;
  }
}

/**
 * `[QUOTE="Alice, post: 9002, member: 11"]` as the Reply button writes it: the "↑" jumps
 * to the author's latest post before this one. A bare `[QUOTE]` has no attribution.
 */
function quote(s: GameScript, post: ScriptPost, author: string | null, inner: string): string {
  const source = author === null ? undefined : [...s.posts].reverse().find((q) => q.author === author && q.n < post.n);
  const attribution =
    author === null
      ? ''
      : `<div class="attribution type">${html(author)} said:
${source ? `<a href="goto/post?id=${source.id}#post-${source.id}" class="AttributionLink">&uarr;</a>\n` : ''}</div>
`;
  return `<div class="bbCodeBlock bbCodeQuote"${author === null ? '' : ` data-author="${attr(author)}"`}>
<aside>
${attribution}<blockquote class="quoteContainer"><div class="quote">${inner}</div><div class="quoteExpand">Click to expand...</div></blockquote>
</aside>
</div>`;
}
