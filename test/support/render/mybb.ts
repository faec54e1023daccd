import {
  escapeAttr as attr,
  escapeHtml as html,
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
 * MyBB 1.8 showthread pages (default theme, horizontal postbit) as a guest gets them:
 * `div#posts` > `div.post#post_PID` with `.author_information .largetext a`
 * (`member.php?action=profile&uid=N`), `.post_head` holding "#N" (`.float_right strong a`)
 * and `span.post_date` "03-02-2026, 06:00 PM" (board format m-d-Y, board zone) with
 * `span.post_edit#edited_by_PID > span.edited_post` "(This post was last modified: DATE by
 * X.)", body `div.post_body#pid_PID`. MyCode output: `span.mycode_b|i|s`,
 * `blockquote.mycode_quote > cite`, `img.smilie`, `img.mycode_img`, `a.mycode_url`,
 * `div.codeblock`; spoilers and @mentions are plugins (common markup). Pages are
 * `showthread.php?tid=ID&page=N`; `div.pagination` says "Pages (N):".
 */

const ZONE = 'UTC';

export const mybbRenderer: ThreadRenderer = {
  engine: 'mybb',
  threadPath: (s) => `/showthread.php?tid=${s.thread.id}`,
  render(script: GameScript): RenderedPage[] {
    const pages = pagesOf(script);
    return pages.map((posts, i) => {
      const page = i + 1;
      return {
        page,
        path: pagePath(script, page),
        file: `page-${page}.html`,
        body: renderPage(script, posts, page, pages.length),
      };
    });
  },
};

const pagePath = (s: GameScript, page: number): string =>
  `/showthread.php?tid=${s.thread.id}${page > 1 ? `&page=${page}` : ''}`;
const postUrl = (s: GameScript, pid: number): string => `showthread.php?tid=${s.thread.id}&pid=${pid}#pid${pid}`;
const profileUrl = (uid: number): string => `member.php?action=profile&uid=${uid}`;

/** The board's date and time formats (m-d-Y, h:i A) in the board's zone. */
function dateText(iso: string): string {
  const w = wallClock(iso, ZONE);
  const [h, ampm] = twelveHour(w.h);
  return `${pad2(w.mo)}-${pad2(w.d)}-${w.y}, ${pad2(h)}:${pad2(w.mi)} ${ampm.toUpperCase()}`;
}

function renderPage(s: GameScript, posts: readonly ScriptPost[], page: number, pageCount: number): string {
  const items: string[] = [`<span class="pages">Pages (${pageCount}):</span>`];
  if (page > 1)
    items.push(`<a href="${attr(pagePath(s, page - 1).slice(1))}" class="pagination_previous">&laquo; Previous</a>`);
  for (let n = 1; n <= pageCount; n++) {
    items.push(
      n === page
        ? `<span class="pagination_current">${n}</span>`
        : `<a href="${attr(pagePath(s, n).slice(1))}" class="pagination_page">${n}</a>`,
    );
  }
  if (page < pageCount)
    items.push(`<a href="${attr(pagePath(s, page + 1).slice(1))}" class="pagination_next">Next &raquo;</a>`);
  const pagination = pageCount > 1 ? `<div class="pagination">\n${items.join('\n')}\n</div>` : '';
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xml:lang="en" lang="en" xmlns="http://www.w3.org/1999/xhtml">
<head>
<title>${html(s.thread.title)}</title>
<script type="text/javascript">
<!--
	lang.unknown_error = "An unknown error has occurred.";
	var cookieDomain = "";
	var cookiePath = "/";
	var cookiePrefix = "";
	var cookieSecureFlag = "0";
	var deleteevent_confirm = "Are you sure you want to delete this event?";
	var removeattach_confirm = "Are you sure you want to remove the selected attachment from this post?";
	var loading_text = 'Loading. <br />Please Wait..';
	var saving_changes = 'Saving changes..';
	var use_xmlhttprequest = "1";
	var my_post_key = "5f1c2d3e4a5b6c7d8e9f0a1b2c3d4e5f";
	var rootpath = "";
	var imagepath = "images";
// -->
</script>
</head>
<body>
<div id="container">
<div id="content">
<div class="wrapper">
<div class="navigation">
<a href="index.php">Votal Test Forum</a> &rsaquo; <a href="forumdisplay.php?fid=2">Mafia Games</a> &rsaquo; <span class="active">${html(s.thread.title)}</span>
</div>
<div class="float_left">
	${pagination}
</div>
<table border="0" cellspacing="0" cellpadding="5" class="tborder tfixed clear">
	<tr>
		<td class="thead">
			<div class="float_right">
				<span class="smalltext"><strong><a href="javascript:void(0)" id="thread_modes">Thread Modes</a></strong></span>
			</div>
			<div>
				<strong>${html(s.thread.title)}</strong>
			</div>
		</td>
	</tr>
<tr><td id="posts_container">
	<div id="posts">${posts.map((p) => renderPost(s, p)).join('')}
	</div>
</td></tr>
</table>
<div class="float_left">
	${pagination}
</div>
</div>
</div>
</div>
</body>
</html>
`;
}

function renderPost(s: GameScript, p: ScriptPost): string {
  const uid = userIdOf(s, p.author)!;
  const edited = p.edited
    ? `<span class="edited_post">(This post was last modified: ${dateText(p.edited.time)} by <a href="${attr(profileUrl(userIdOf(s, p.edited.by)!))}">${html(p.edited.by)}</a>.)</span>`
    : '';
  return `
<a name="pid${p.id}" id="pid${p.id}"></a>
<div class="post " style="" id="post_${p.id}">
<div class="post_author">
	<div class="author_avatar"><a href="${attr(profileUrl(uid))}"><img src="images/default_avatar.png" alt="" width="55" height="55" /></a></div>
	<div class="author_information">
			<strong><span class="largetext"><a href="${attr(profileUrl(uid))}">${html(p.author)}</a></span></strong> <a href="${attr(profileUrl(uid))}" title="Offline" class="offline"></a><br />
			<span class="smalltext">
				${p.author === s.posts[0]!.author ? 'Game Moderator' : 'Member'}<br />
			</span>
	</div>
	<div class="author_statistics">
		Posts: ${100 + s.posts.filter((q) => q.author === p.author).length}<br />
		Threads: 2<br />
		Joined: Jan 2026
	</div>
</div>
<div class="post_content">
	<div class="post_head">
		<div class="float_right" style="vertical-align: top">
<strong><a href="${attr(postUrl(s, p.id))}" title="${p.n === 1 ? '' : 'RE: '}${attr(s.thread.title)}">#${p.n}</a></strong>
		</div>
		<span class="post_date">${dateText(p.time)} <span class="post_edit" id="edited_by_${p.id}">${edited}</span></span>
	</div>
	<div class="post_body scaleimages" id="pid_${p.id}">
		${body(s, p, p.body)}
	</div>
	<div class="post_meta" id="post_meta_${p.id}">
	</div>
</div>
<div class="post_controls">
	<div class="postbit_buttons author_buttons float_left">
		<a href="search.php?action=finduser&amp;uid=${uid}" title="Find all posts by this user" class="postbit_find"><span>Find</span></a>
	</div>
</div>
</div>`;
}

/** A post body as MyBB 1.8's MyCode parser writes it (also used by the template renderer). */
export function body(s: GameScript, post: ScriptPost, nodes: readonly ScriptNode[]): string {
  return nodes.map((n) => node(s, post, n)).join('');
}

function node(s: GameScript, post: ScriptPost, n: ScriptNode): string {
  switch (n.op) {
    case 'text':
      return html(n.text);
    case 'br':
      return '<br />\n';
    case 'bold':
      return `<span style="font-weight: bold;" class="mycode_b">${body(s, post, n.children)}</span>`;
    case 'italic':
      return `<span style="font-style: italic;" class="mycode_i">${body(s, post, n.children)}</span>`;
    case 'strike':
      return `<span style="text-decoration: line-through;" class="mycode_s">${body(s, post, n.children)}</span>`;
    case 'color':
      return `<span style="color: ${attr(n.color)};" class="mycode_color">${body(s, post, n.children)}</span>`;
    case 'quote': {
      if (n.author === null)
        return `<blockquote class="mycode_quote"><cite>Quote:</cite>${body(s, post, n.children)}</blockquote>`;
      const source = [...s.posts].reverse().find((q) => q.author === n.author && q.n < post.n);
      const when = source ? `<span> (${dateText(source.time)})</span>` : '';
      const jump = source
        ? `<a href="${attr(`showthread.php?pid=${source.id}#pid${source.id}`)}" class="quick_jump"></a>`
        : '';
      return `<blockquote class="mycode_quote"><cite>${when}${html(n.author)} Wrote:  ${jump}</cite>${body(s, post, n.children)}</blockquote>`;
    }
    case 'spoiler':
      return `<div class="spoiler"><div class="spoiler_title"><span class="spoiler_button">${html(n.title ?? 'Spoiler')}</span></div><div class="spoiler_content" style="display: none;">${body(s, post, n.children)}</div></div>`;
    case 'code':
      return `<div class="codeblock"><div class="title">Code:</div><div class="body" dir="ltr"><code>${html(n.text)}</code></div></div>`;
    case 'smilie':
      return `<img src="images/smilies${attr(n.src.replace(/^.*(\/[^/]+)$/, '$1'))}" alt="${attr(n.alt)}" title="${attr(n.alt)}" class="smilie smilie_1" />`;
    case 'image': {
      const file = n.src.split('/').pop() ?? 'image';
      return `<img src="${attr(n.src)}" loading="lazy"  alt="[Image: ${attr(file)}]" class="mycode_img" />`;
    }
    case 'link':
      return n.kind === 'external'
        ? `<a href="${attr(n.href)}" target="_blank" rel="noopener" class="mycode_url">${body(s, post, n.children)}</a>`
        : `<a href="${attr(n.href)}" class="mycode_url">${body(s, post, n.children)}</a>`;
    case 'mention':
      return `<a href="${attr(profileUrl(n.userId))}" class="mentionme_mention">@${html(n.name)}</a>`;
  }
}
