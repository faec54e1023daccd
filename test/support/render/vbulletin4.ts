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
import { asVbulletinWrites, VB_SMILIES } from './vbulletin3.js';
import { relativeBase } from './xenforo1.js';

/**
 * vBulletin 4.2 showthread pages as a guest gets them, modelled on
 * ../shared/forum-samples/vbulletin4/nettally-vBulletin4.html (militarytimes, 4.2.3):
 * `html#vbulletin_html`, generator meta, `<base href>`, advanced friendly URLs
 * (`showthread.php/ID-Title/pageN`), `ol#posts > li.postcontainer#post_ID`, the date as
 * "03-02-2026,&nbsp;<span class=time>06:00 PM</span>" (vB's default m-d-Y h:i A),
 * `a.postcounter` "#N", `.username_container a.username`, the body in
 * `#post_message_ID > blockquote.postcontent`, `bbcode_*` quote and code blocks, and
 * "Page X of Y" in `#pagination_top`. The edit note is `blockquote.postcontent.lastedited`
 * after the content, as a live vB 4 page (ubuntuforums) prints it.
 *
 * vBulletin has no core [SPOILER] or [USER]: see `asVbulletinWrites` and
 * fixtures/vbulletin4/standard-game/expected.json.
 */

const BOARD = 'Votal Test Forum';
/** The board's default zone (what guests see). */
const ZONE = 'UTC';
const FORUM = { id: 2, title: 'Mafia Games', slug: 'Mafia-Games' };

export const vbulletin4Renderer: ThreadRenderer = {
  engine: 'vbulletin4',
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

// Relative to <base href> (a relative one here: see relativeBase), as vB 4 writes every link.
const slug = (s: GameScript): string => s.thread.title.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
const threadUrl = (s: GameScript): string => `showthread.php/${s.thread.id}-${slug(s)}`;
const pageUrl = (s: GameScript, page: number): string => (page <= 1 ? threadUrl(s) : `${threadUrl(s)}/page${page}`);
const memberUrl = (name: string, uid: number): string => `member.php/${uid}-${name.replace(/[^A-Za-z0-9]+/g, '-')}`;

function renderPage(
  s: GameScript,
  posts: readonly ScriptPost[],
  page: number,
  pageCount: number,
  base: string,
): string {
  const title = html(s.thread.title);
  const per = s.thread.postsPerPage;
  const first = (page - 1) * per + 1;
  const last = first + posts.length - 1;
  const total = s.posts.length;
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" dir="ltr" lang="en" id="vbulletin_html">
<head>
	<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
<meta id="e_vb_meta_bburl" name="vb_meta_bburl" content="${base}" />
<base href="${base}" /><!--[if IE]></base><![endif]-->
<meta name="generator" content="vBulletin 4.2.3" />
<meta http-equiv="X-UA-Compatible" content="IE=9" />
	<link rel="Shortcut Icon" href="favicon.ico" type="image/x-icon" />
<script type="text/javascript" src="clientscript/yui/yuiloader-dom-event/yuiloader-dom-event.js?v=423"></script>
<script type="text/javascript">
<!--
	var SESSIONURL = "";
	var SECURITYTOKEN = "guest";
	var IMGDIR_MISC = "images/misc";
	var vb_disable_ajax = parseInt("0", 10);
// -->
</script>
<script type="text/javascript" src="clientscript/vbulletin-core.js?v=423"></script>
	<meta name="description" content="${attr(s.thread.title)}" />
	<title> ${title}${page > 1 ? ` - Page ${page}` : ''}</title>
	<link rel="canonical" href="${attr(pageUrl(s, page))}" />
<link rel="stylesheet" type="text/css" href="css.php?styleid=1&amp;langid=1&amp;d=1772000000&amp;td=ltr&amp;sheet=bbcode.css,editor.css,popupmenu.css,reset-fonts.css,vbulletin.css,vbulletin-chrome.css,vbulletin-formcontrols.css," />
<link rel="stylesheet" type="text/css" href="css.php?styleid=1&amp;langid=1&amp;d=1772000000&amp;td=ltr&amp;sheet=toolsmenu.css,postlist.css,showthread.css,postbit.css,options.css,attachment.css,poll.css,lightbox.css" />
</head>
<body>
<div class="above_body">
<div id="header" class="floatcontainer doc_header">
	<div><a name="top" href="forum.php" class="logo-image"><img src="images/misc/vbulletin4_logo.png" alt="${attr(BOARD)} - Powered by vBulletin" /></a></div>
	<div id="toplinks" class="toplinks">
		<ul class="nouser">
			<li><a href="register.php" rel="nofollow">Register</a></li>
			<li><a rel="help" href="faq.php">Help</a></li>
		</ul>
	</div>
</div>
</div>
<div class="body_wrapper">
<div id="breadcrumb" class="breadcrumb">
	<ul class="floatcontainer">
		<li class="navbithome"><a href="index.php" accesskey="1"><img src="images/misc/navbit-home.png" alt="Home" /></a></li>
		<li class="navbit"><a href="forum.php">Forum</a></li>
		<li class="navbit"><a href="forumdisplay.php/${FORUM.id}-${FORUM.slug}">${html(FORUM.title)}</a></li>
		<li class="navbit lastnavbit"><span> ${title}</span></li>
	</ul>
	<hr />
</div>

	<div id="above_postlist" class="above_postlist">
		${pagination(s, page, pageCount, 'top', first, last, total)}
	</div>
	<div id="pagetitle" class="pagetitle">
		<h1>
			Thread: <span class="threadtitle"><a href="${attr(pageUrl(s, page))}" title="Reload this Page">${title}</a></span>
		</h1>
	</div>

<div id="postlist" class="postlist restrain">
		<ol id="posts" class="posts" start="${first}">
${posts.map((p) => renderPost(s, p)).join('\n')}
		</ol>
		<div class="separator"></div>
		<div class="postlistfoot"></div>
</div>

<div id="below_postlist" class="noinlinemod below_postlist">
	${pagination(s, page, pageCount, 'bottom', first, last, total)}
</div>

<div id="footer" class="floatcontainer footer">
	<ul id="footer_links" class="footer_links">
		<li><a href="sendmessage.php" rel="nofollow" accesskey="9">Contact Us</a></li>
		<li><a href="#top" onclick="document.location.hash='top'; return false;">Top</a></li>
	</ul>
</div>
</div>
<div class="below_body">
<div id="footer_time" class="shade footer_time">All times are GMT. The time now is <span class="time">12:00 AM</span>.</div>
<div id="footer_copyright" class="shade footer_copyright">Powered by <a href="https://www.vbulletin.com" id="vbulletinlink">vBulletin&reg;</a> Version 4.2.3 <br />Copyright &copy; 2026 vBulletin Solutions, Inc. All rights reserved.</div>
</div>
</body>
</html>
`;
}

function renderPost(s: GameScript, p: ScriptPost): string {
  const uid = userIdOf(s, p.author)!;
  const member = memberUrl(p.author, uid);
  const edited = p.edited
    ? `
			<!-- edit note -->
			<blockquote class="postcontent lastedited">
					Last edited by ${html(p.edited.by)}; ${dateOnly(p.edited.time)} at <span class="time">${timeOnly(p.edited.time)}</span>.
			</blockquote>
			<!-- / edit note -->`
    : '';
  return `<li class="postbitlegacy postbitim postcontainer old" id="post_${p.id}">
<!-- see bottom of postbit.css for .userinfo .popupmenu styles -->

	<div class="posthead">
			<span class="postdate old">
					<span class="date">${dateOnly(p.time)},&nbsp;<span class="time">${timeOnly(p.time)}</span></span>
			</span>
			<span class="nodecontrols">
					<a name="post${p.id}" href="${attr(pageUrl(s, 1))}?p=${p.id}&amp;viewfull=1#post${p.id}" class="postcounter">#${p.n}</a><a id="postcount${p.id}" name="${p.n}"></a>
			</span>
	</div>
	<div class="postdetails">
		<div class="userinfo">
			<div class="username_container">
				<div class="popupmenu memberaction">
	<a class="username offline popupctrl" href="${attr(member)}" title="${attr(p.author)} is offline"><strong>${html(p.author)}</strong></a>
	<ul class="popupbody popuphover memberaction_body">
		<li class="left">
			<a href="${attr(member)}" class="siteicon_profile">
				View Profile
			</a>
		</li>
		<li class="right">
			<a href="search.php?do=finduser&amp;userid=${uid}&amp;contenttype=vBForum_Post&amp;showposts=1" class="siteicon_forum" rel="nofollow">
				View Forum Posts
			</a>
		</li>
	</ul>
</div>
				<img class="inlineimg onlinestatus" src="images/statusicon/user-offline.png" alt="${attr(p.author)} is offline" border="0" />
			</div>
			<span class="usertitle">
				${p.author === s.posts[0]!.author ? 'Game Moderator' : 'Member'}
			</span>
				<hr />
				<dl class="userinfo_extra">
					<dt>Join Date</dt> <dd>Jan 2026</dd>
					<dt>Posts</dt> <dd>${100 + uid}</dd>
				</dl>
		</div>
		<div class="postbody">
			<div class="postrow">
				<div class="content">
					<div id="post_message_${p.id}">
						<blockquote class="postcontent restore ">
							${body(s, p, asVbulletinWrites(p.body, { mentions: false }))}
						</blockquote>
					</div>
				</div>${edited}
			</div>
			<div class="cleardiv"></div>
		</div>
	</div>
		<div class="postfoot">
			<div class="textcontrols floatcontainer">
				<span class="postcontrols">
					<img style="display:none" id="progress_${p.id}" src="images/misc/progress.gif" alt="" />
						<a id="qrwq_${p.id}" class="newreply" href="newreply.php?do=newreply&amp;p=${p.id}" rel="nofollow" title="Reply With Quote"><img id="quoteimg_${p.id}" src="clear.gif" alt="Reply With Quote" />  Reply With Quote</a>
				</span>
				<span class="postlinking"></span>
			</div>
		</div>
	<hr />
</li>`;
}

/** vB's default date format, m-d-Y, in the board's zone. */
function dateOnly(iso: string): string {
  const w = wallClock(iso, ZONE);
  return `${pad2(w.mo)}-${pad2(w.d)}-${w.y}`;
}

/** vB's default time format, h:i A. */
function timeOnly(iso: string): string {
  const w = wallClock(iso, ZONE);
  const [h, ampm] = twelveHour(w.h);
  return `${pad2(h)}:${pad2(w.mi)} ${ampm.toUpperCase()}`;
}

function pagination(
  s: GameScript,
  page: number,
  pageCount: number,
  where: 'top' | 'bottom',
  first: number,
  last: number,
  total: number,
): string {
  const stats = `Results ${first} to ${last} of ${total}`;
  if (pageCount <= 1)
    return `<div id="postpagestats_${where === 'top' ? 'above' : 'below'}" class="postpagestats">${stats}</div>`;
  const spans: string[] = [];
  for (let n = 1; n <= pageCount; n++) {
    spans.push(
      n === page
        ? `<span class="selected"><a href="javascript://" title="${stats}">${n}</a></span>`
        : `<span><a href="${attr(pageUrl(s, n))}" title="Show results">${n}</a></span>`,
    );
  }
  const prev =
    page > 1
      ? `<span class="prev_next"><a rel="prev" href="${attr(pageUrl(s, page - 1))}" title="Prev Page"><img src="images/pagination/previous-left.png" alt="Previous" /></a></span>`
      : '';
  const next =
    page < pageCount
      ? `<span class="prev_next"><a rel="next" href="${attr(pageUrl(s, page + 1))}" title="Next Page"><img src="images/pagination/next-right.png" alt="Next" /></a></span>`
      : '';
  return `<div id="pagination_${where}" class="pagination_${where}">
			<form action="${attr(pageUrl(s, page))}" method="get" class="pagination popupmenu nohovermenu">
<input type="hidden" name="t" value="${s.thread.id}" />
		<span><a href="javascript://" class="popupctrl">Page ${page} of ${pageCount}</a></span>
		${prev}
		${spans.join('')}
		${next}
	<ul class="popupbody popuphover">
		<li class="formsubmit jumptopage"><label>Jump to page: <input type="text" name="page" size="4" /></label> <input type="submit" class="button" value="Go" /></li>
	</ul>
</form>
			<div id="postpagestats_${where === 'top' ? 'above' : 'below'}" class="postpagestats">
				${stats}
			</div>
		</div>`;
}

/** BB code output inside `blockquote.postcontent`, as vB 4.2's parser and bbcode templates print it. */
function body(s: GameScript, post: ScriptPost, nodes: readonly ScriptNode[]): string {
  return nodes.map((n) => node(s, post, n)).join('');
}

function node(s: GameScript, post: ScriptPost, n: ScriptNode): string {
  switch (n.op) {
    case 'text':
      return html(n.text);
    case 'br':
      return '<br />\n';
    case 'bold':
      return `<b>${body(s, post, n.children)}</b>`;
    case 'italic':
      return `<i>${body(s, post, n.children)}</i>`;
    // [S] is a custom BBCode on vB boards; a line-through span is the usual replacement.
    case 'strike':
      return `<span style="text-decoration: line-through">${body(s, post, n.children)}</span>`;
    case 'color':
      return `<font color="${attr(n.color)}">${body(s, post, n.children)}</font>`;
    case 'quote':
      return quote(s, post, n.author, body(s, post, n.children));
    case 'spoiler':
      return body(s, post, n.children); // rewritten away by asVbulletinWrites
    case 'code':
      return `<div class="bbcode_container">
	<div class="bbcode_description">Code:</div>
	<pre class="bbcode_code" style="height:36px;">${html(n.text)}</pre>
</div>`;
    case 'smilie': {
      const file = Object.values(VB_SMILIES).find((v) => v.title === n.alt)?.file ?? 'smile';
      return `<img src="images/smilies/${attr(file)}.png" border="0" alt="" title="${attr(n.alt)}" class="inlineimg" />`;
    }
    case 'image':
      return `<img src="${attr(n.src)}" border="0" alt="" />`;
    case 'link':
      return n.kind === 'external'
        ? `<a href="${attr(n.href)}" target="_blank" rel="nofollow">${body(s, post, n.children)}</a>`
        : `<a href="${attr(n.href)}" target="_blank">${body(s, post, n.children)}</a>`;
    case 'mention':
      return html(n.name); // rewritten away by asVbulletinWrites
  }
}

/** vB 4's bbcode_quote template; the view-post arrow points at the author's latest earlier post. */
function quote(s: GameScript, post: ScriptPost, author: string | null, inner: string): string {
  const source = author === null ? undefined : [...s.posts].reverse().find((q) => q.author === author && q.n < post.n);
  const postedBy =
    author === null
      ? ''
      : `
				<div class="bbcode_postedby">
					<img src="images/misc/quote_icon.png" alt="Quote" /> Originally Posted by <strong>${html(author)}</strong>
					${source ? `<a href="showthread.php?p=${source.id}#post${source.id}" rel="nofollow"><img class="inlineimg" src="images/buttons/viewpost-right.png" alt="View Post" /></a>` : ''}
				</div>`;
  const message =
    author === null ? `\n\t\t\t\t${inner}\n\t\t\t` : `\n\t\t\t\t<div class="message">${inner}</div>\n\t\t\t`;
  return `<div class="bbcode_container">
	<div class="bbcode_quote">
		<div class="quote_container">
			<div class="bbcode_quote_container"></div>${postedBy}${message}
		</div>
	</div>
</div>`;
}
