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
 * vBulletin 5.5 topic pages as a guest gets them, modelled on
 * ../shared/forum-samples/vbulletin5/nettally-vBulletin5.html (fandompost, 5.5.2):
 * `body#vb-page-body`, generator meta, `/forum/{channel}/{id}-{slug}[/pageN]` URLs under `<base href>`,
 * `ul.conversation-list > li.b-post[data-node-id][data-node-publishdate]`, the author in
 * `[itemprop=author] .author a`, "#N" in `a.b-post__count`, `time[itemprop=dateCreated]`
 * whose zone-less datetime is the server's clock (SERVER_ZONE, as in the sample) and whose
 * text is the board's zone, the body in `.js-post__content-text`, vB 4's `bbcode_*` quote
 * and code HTML, "Page N of <span class=pagetotal>M</span>", and sidebar widgets with
 * their own `h1.main-title`.
 *
 * Not in the sample, so from third-party scrapers or memory: the edit note
 * `.b-post__edit` ("Last edited by <a>X</a>; DATE.") [C] and [USER] mentions as
 * `a.b-bbcode-user[data-userid]` [M]. vB 5 has [USER] but no core [SPOILER]: see
 * `asVbulletinWrites` and fixtures/vbulletin5/standard-game/expected.json.
 *
 * vB 5's topic URL carries the starter post's node id; the script gives the thread and its
 * first post different ids, so the URL keeps the script's thread id.
 */

const BOARD = 'Votal Test Forum';
/** The board's display zone (what guests see in the text). */
const ZONE = 'UTC';
/** The zone of the `datetime` attribute: the server's clock, printed without an offset. */
const SERVER_ZONE = 'America/Los_Angeles';
const CHANNEL = { title: 'Mafia Games', slug: 'mafia-games' };

export const vbulletin5Renderer: ThreadRenderer = {
  engine: 'vbulletin5',
  threadPath: (script) => threadPath(script),
  render(script: GameScript): RenderedPage[] {
    const pages = pagesOf(script);
    return pages.map((posts, i) => {
      const page = i + 1;
      const path = pagePath(script, page);
      return {
        page,
        path,
        file: `page-${page}.html`,
        body: renderPage(script, posts, page, pages.length, relativeBase(path)),
      };
    });
  },
};

const slug = (s: GameScript): string =>
  s.thread.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const threadPath = (s: GameScript): string => `/forum/${CHANNEL.slug}/${s.thread.id}-${slug(s)}`;
const pagePath = (s: GameScript, page: number): string => (page <= 1 ? threadPath(s) : `${threadPath(s)}/page${page}`);
/** A link as the page prints it: relative to <base href> (see relativeBase). */
const rel = (path: string): string => path.replace(/^\//, '');
const memberPath = (name: string, uid: number): string =>
  `/member/${uid}-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

function renderPage(
  s: GameScript,
  posts: readonly ScriptPost[],
  page: number,
  pageCount: number,
  base: string,
): string {
  const title = html(s.thread.title);
  const nav = pageNav(s, page, pageCount);
  return `<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:fb="http://www.facebook.com/2008/fbml" dir="ltr" lang="en-US">
<head>
	<meta charset="utf-8" />
	<base href="${base}" />
	<link rel="canonical" href="${attr(rel(pagePath(s, page)))}" />
	<title>
			${title} - 
		${html(BOARD)}
	</title>
	<meta name="description" content="${attr(s.thread.title)}" />
	<meta name="generator" content="vBulletin 5.5.2" />
	<link rel="stylesheet" type="text/css" href="css.php?styleid=22&amp;td=ltr&amp;sheet=css_reset.css,css_unreset.css,css_utilities.css&amp;ts=1772000000 " />
	<link rel="stylesheet" type="text/css" href="css.php?styleid=22&amp;td=ltr&amp;sheet=css_b_post.css,css_b_post_control.css,css_b_post_notice.css,css_b_userinfo.css&amp;ts=1772000000 " />
	<script type="text/javascript">
		if (location.hash) { document.write('<style type="text/css"> a.anchor { display:none;} <\\/style>'); }
		var vBulletin = vBulletin || {};
		vBulletin.version = '5.5.2';
	</script>
${page > 1 ? `<link rel="prev" href="${attr(rel(pagePath(s, page - 1)))}" />\n` : ''}${page < pageCount ? `<link rel="next" href="${attr(rel(pagePath(s, page + 1)))}" />\n` : ''}</head>
<!--[if !IE]><!-->
<body id="vb-page-body" class="l-desktop page76 vb-page view-mode logged-out" itemscope itemtype="http://schema.org/ItemPage" data-usergroupid="1" data-styleid="22">
<!--<![endif]-->
<script type="text/javascript">
	vBulletin.Responsive.Debounce.checkBrowserSize();
</script>
<div class="b-top-menu__background b-top-menu__background--sitebuilder js-top-menu-sitebuilder h-hide-on-small h-hide">
	<div class="b-top-menu__container">
		<ul class="b-top-menu b-top-menu--sitebuilder js-top-menu-sitebuilder--list js-shrink-event-parent"></ul>
	</div>
</div>
<div id="outer-wrapper">
<div id="wrapper">
	<div id="header-axd" class="header-edit-box axdnum_1 h-clearfix"></div>
	<header id="header" class="noselect">
		<div class="site-logo header-edit-box"><a href="./"><img src="images/misc/vbulletin5_logo.png" data-orig-src="images/misc/vbulletin5_logo.png" alt="Logo" title="Powered by vBulletin" /></a></div>
	</header>
	<nav id="breadcrumbs" class="breadcrumbs-wrapper">
		<ul id="breadcrumbs" class="h-clearfix" itemprop="breadcrumb">
			<li class="crumb ellipsis"><span class="b-icon b-icon__home"></span><a class="crumb-link" href="forum">Forum</a></li>
			<li class="crumb ellipsis"><span class="b-icon b-icon__chevron-right--gray separator"></span><a class="crumb-link" href="forum/${CHANNEL.slug}">${html(CHANNEL.title)}</a></li>
		</ul>
	</nav>
	<div id="content">
		<div class="canvas-layout-container js-canvas-layout-container">
<div id="canvas-layout-full" class="canvas-layout" data-layout-id="1">
	<section class="canvas-layout-row l-row no-columns h-clearfix">
		<section class="l-col__large-12 l-col__small--full l-wide-column">
<div class="canvas-widget default-widget conversation-content-widget forum-conversation-content-widget widget-tabs widget-no-border widget-no-header-buttons" id="widget_${s.thread.id}" data-widget-id="8" data-widget-instance-id="${s.thread.id}">
	<div class="widget-header h-clearfix">
		<div class="module-title h-left">
				<h1 class="main-title js-main-title hide-on-editmode">${title}</h1>
		</div>
		<div class="module-buttons">
${nav}
		</div>
	</div>
	<div class="widget-content tab widget-tabs-panel">
		<div class="conversation-status-messages"></div>
		<div class="conversation-content">
			<ul class="conversation-list list-container h-clearfix thread-view">
${posts.map((p) => renderPost(s, p)).join('\n')}
			</ul>
		</div>
		<div class="conversation-toolbar-wrapper bottom">
${nav}
		</div>
	</div>
</div>
		</section>
	</section>
	<section class="canvas-layout-row l-row no-columns h-clearfix">
<div class="canvas-widget default-widget custom-html-widget" id="widget_21" data-widget-id="21" data-widget-instance-id="21">
	<div class="widget-header h-clearfix">
		<div class="module-title h-left">
				<h1 class="main-title js-main-title hide-on-editmode">Today's Birthdays</h1>
		</div>
	</div>
	<div class="widget-content">There are no members with birthdays on this day.</div>
</div>
	</section>
</div>
		</div>
	</div>
	<footer id="footer">
		<div id="footer-copyright">Powered by <a href="https://www.vbulletin.com" id="vbulletinlink">vBulletin&reg;</a> Version 5.5.2 <br />Copyright &copy; 2026 MH Sub I, LLC dba vBulletin. All rights reserved.</div>
		<div id="footer-current-datetime">All times are GMT. This page was generated at <span class="time">12:00 AM</span>.</div>
	</footer>
</div>
</div>
</body>
</html>
`;
}

function renderPost(s: GameScript, p: ScriptPost): string {
  const uid = userIdOf(s, p.author)!;
  const member = rel(memberPath(p.author, uid));
  const starter = p.n === 1;
  // The starter's "#1" links to the topic's anchor; replies carry ?p=.
  const permalink = rel(starter ? `${threadPath(s)}#post${p.id}` : `${threadPath(s)}?p=${p.id}#post${p.id}`);
  const edited = p.edited
    ? `
						<div class="b-post__edit h-margin-top-xl">Last edited by <a href="${attr(rel(memberPath(p.edited.by, userIdOf(s, p.edited.by)!)))}" data-vbnamecard="${userIdOf(s, p.edited.by)!}">${html(p.edited.by)}</a>; ${textDate(p.edited.time)}.</div>`
    : '';
  return `<li data-node-id="${p.id}" 
	data-node-publishdate="${Math.floor(Date.parse(p.time) / 1000)}"  
	class="b-post js-post js-comment-entry__parent h-restore--on-preview b-post--text ${starter ? 'b-post--first OLD__conversation-starter js-conversation-starter' : ' OLD__conversation-reply js-conversation-reply'} h-left h-clear" itemscope itemtype="http://schema.org/${starter ? 'CreativeWork' : 'Comment'}">
	<a id="post${p.id}" class="anchor"></a>
	<div class="l-row l-row__fixed--left">
		<div class="l-col__fixed-3 l-col__small--full h-hide--on-preview h-padding-right-l">
<div class="userinfo b-userinfo b-post__hide-when-deleted" itemprop="author" itemscope itemtype="http://schema.org/Person">
			<a href="${attr(member)}" class="b-avatar b-avatar--m b-avatar--thread h-margin-bottom-l"><img src="./core/image.php?userid=${uid}&amp;thumb=1" alt="${attr(p.author)}" title="${attr(p.author)}" /></a>
	<div class="b-userinfo__details">
		<div class="author h-text-size--14">
			<strong><a href="${attr(member)}" >${html(p.author)}</a></strong>
		</div>
			<div class="usertitle">${p.author === s.posts[0]!.author ? 'Game Moderator' : 'Member'}</div>
		<ul class="b-userinfo__additional-info-block h-margin-top-xl">
				<li class="b-userinfo__additional-info"><label>Join Date:</label> <span>Jan 2026</span></li>
				<li class="b-userinfo__additional-info"><label>Posts:</label> <span>${100 + uid}</span></li>
		</ul>
	</div>
</div>
		</div>
		<div class="js-post__content-wrapper l-col__flex-3 l-col__small--full h-restore--on-preview OLD__list-item-body-wrapper">
			<div class="b-post__body h-restore--on-preview h-padding-horiz-xxl h-padding-top-xl h-padding-bottom-m h-clearfix">
				<div class="b-post__arrow b-post__hide-when-deleted OLD__pointer-left"></div>
				<div class="b-post__content js-post__content b-post__hide-when-deleted">
					<hr class="b-divider--section OLD__section-divider" />
					<div class="b-media h-hide--on-preview">
						<div class="b-media__img--rev">
								<a class="b-post__count" href="${attr(permalink)}">#${p.n}</a>
						</div>
						<div class="b-media__body">
							${starter ? `<h2 class="b-post__title js-post-title OLD__post-title">${html(s.thread.title)}</h2>` : ''}
							<div class="b-post__timestamp OLD__post-date"><time itemprop="dateCreated" datetime="${serverClock(p.time)}">${textDate(p.time)}</time></div>
						</div>
					</div>
					<div class="OLD__post-content h-padding-vert-xl">
						<div class="js-post__content-text OLD__post-content-text restore h-wordwrap" itemprop="text">
							${body(s, p, asVbulletinWrites(p.body, { mentions: true }))}
						</div>${edited}
					</div>
				</div>
			</div>
			<div class="b-post__footer h-hide--on-preview h-clear h-padding-bottom-m h-margin-horiz-xl">
				<div class="h-clearfix">
					<hr class="b-divider b-divider--post-controls" />
					<ul class="h-left js-post-info"></ul>
					<ul class="h-margin-top-s h-right js-post-controls b-comp-menu-horizontal js-comp-menu-horizontal" data-node-id="${p.id}"></ul>
				</div>
			</div>
			<div class="edit-conversation-container"></div>
		</div>
	</div>
</li><!-- /end .b-post -->`;
}

/** "03-02-2026, 06:00 PM": vB's default m-d-Y, h:i A, in the board's zone. */
function textDate(iso: string): string {
  const w = wallClock(iso, ZONE);
  const [h, ampm] = twelveHour(w.h);
  return `${pad2(w.mo)}-${pad2(w.d)}-${w.y}, ${pad2(h)}:${pad2(w.mi)} ${ampm.toUpperCase()}`;
}

/** The `datetime` attribute: the server's wall clock with no zone designator. */
function serverClock(iso: string): string {
  const w = wallClock(iso, SERVER_ZONE);
  return `${w.y}-${pad2(w.mo)}-${pad2(w.d)}T${pad2(w.h)}:${pad2(w.mi)}:${pad2(w.s)}`;
}

function pageNav(s: GameScript, page: number, pageCount: number): string {
  const prev =
    page > 1
      ? `<a  href="${attr(rel(pagePath(s, page - 1)))}" class="arrow left-arrow " data-page="${page - 1}" title="Previous Page" rel="prev"><span class="vb-icon vb-icon-arrow-left"></span></a>`
      : '<a  class="arrow left-arrow h-disabled"  title="Previous Page" rel="prev"><span class="vb-icon vb-icon-arrow-left"></span></a>';
  const next =
    page < pageCount
      ? `<a  href="${attr(rel(pagePath(s, page + 1)))}" class="arrow right-arrow " data-page="${page + 1}" title="Next Page" rel="next"><span class="vb-icon vb-icon-arrow-right"></span></a>`
      : '<a  class="arrow right-arrow h-disabled"  title="Next Page" rel="next"><span class="vb-icon vb-icon-arrow-right"></span></a>';
  return `<div class="pagenav-controls ">
	<form class="pagenav-form h-clearfix" action="${attr(rel(threadPath(s)))}">
		<input type="hidden" class="defaultpage" value="${page}" />
		<div class="pagenav h-left">
			Page <input type="text" name="page" class="js-pagenum textbox h-padding-horiz-none b-form-input__input--shadow" value="${page}" /> of <span class="pagetotal">${pageCount}</span>
		</div>
		<div class="horizontal-arrows h-left">
			${prev}
			${next}
		</div>
	</form>
</div>`;
}

/** BB code output inside `.js-post__content-text`, as vB 5.5's parser prints it. */
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
      return `<span style="color:${attr(n.color)}">${body(s, post, n.children)}</span>`;
    case 'quote':
      return quote(s, post, n.author, body(s, post, n.children));
    case 'spoiler':
      return body(s, post, n.children); // rewritten away by asVbulletinWrites
    case 'code':
      return `<div class="bbcode_container">
	<div class="bbcode_description">Code:</div>
	<pre class="bbcode_code" style="max-height:calc(30 * 18px + 12px);">${html(n.text)}</pre>
</div>`;
    case 'smilie': {
      const entry = Object.entries(VB_SMILIES).find(([, v]) => v.title === n.alt);
      const id = entry ? Object.keys(VB_SMILIES).indexOf(entry[0]) + 1 : 1;
      return `<img src="core/images/smilies/${attr(entry?.[1].file ?? 'smile')}.png" border="0" alt="" title="${attr(n.alt)}" smilieid="${id}" class="inlineimg" />`;
    }
    case 'image':
      return `<img src="${attr(n.src)}" border="0" alt="" />`;
    case 'link':
      return `<a href="${attr(n.href)}" target="_blank">${body(s, post, n.children)}</a>`;
    case 'mention':
      return `<a href="${attr(rel(memberPath(n.name, n.userId)))}" class="b-bbcode-user js-bbcode-user" data-userid="${n.userId}">${html(n.name)}</a>`;
  }
}

/** vB 5's quote: vB 4's bbcode_* blocks with an icon class and a "View Post" arrow link. */
function quote(s: GameScript, post: ScriptPost, author: string | null, inner: string): string {
  const source = author === null ? undefined : [...s.posts].reverse().find((q) => q.author === author && q.n < post.n);
  const postedBy =
    author === null
      ? ''
      : `
				<div class="bbcode_postedby">
					Originally posted by <strong>${html(author)}</strong>
					${source ? `<a href="${attr(rel(`${threadPath(s)}?p=${source.id}#post${source.id}`))}" rel="nofollow" title="View Post" class="b-icon b-icon__double-arrow-right--blue animate-scroll">View Post</a>` : ''}
				</div>`;
  const message =
    author === null ? `\n\t\t\t\t${inner}\n\t\t\t` : `\n\t\t\t\t<div class="message">${inner}</div>\n\t\t\t`;
  return `<div class="bbcode_container">
	<div class="bbcode_quote">
		<div class="quote_container">
			<div class="bbcode_quote_container b-icon b-icon__ldquo-l--gray"></div>${postedBy}${message}
		</div>
	</div>
</div>`;
}
