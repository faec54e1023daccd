import {
  escapeAttr as attr,
  escapeHtml as html,
  pad2,
  pagesOf,
  userIdOf,
  wallClock,
  type GameScript,
  type ScriptNode,
  type ScriptPost,
} from '../game-script.js';
import type { RenderedPage, ThreadRenderer } from './index.js';

/**
 * vBulletin 3.8 showthread pages as a guest gets them, modelled on
 * ../shared/forum-samples/vbulletin3/nettally-vBulletin3.html (AnimeSuki, 3.8.11):
 * generator meta and no id on <html>, `div#posts` holding one `table#postID.tborder` per
 * post, the date as text in the first `td.thead` ("2016-02-01, 02:21", the sample's
 * Y-m-d 24-hour format), "#N" as `a#postcountID[name=N]`, `a.bigusername` in
 * `#postmenu_ID`, the body in `#post_message_ID`, quotes as `div[style*=margin:20px]`
 * tables, "Last edited by X; DATE at TIME." in `div.smallfont em`, and "Page X of Y" in
 * `div.pagenav`.
 *
 * What a vBulletin board cannot write is rewritten by `asVbulletinWrites` (shared with
 * the vB 4 and 5 renderers); fixtures/vbulletin3/standard-game/expected.json says why.
 */

const BOARD = 'Votal Test Forum';
/** The board's default zone (what guests see). */
const ZONE = 'UTC';
const FORUM = { id: 2, title: 'Mafia Games' };

/** vBulletin's default smilies: the image file and the title it shows (alt is empty). */
export const VB_SMILIES: Record<string, { file: string; title: string }> = {
  ':)': { file: 'smile', title: 'Smile' },
  ':(': { file: 'frown', title: 'Frown' },
  ';)': { file: 'wink', title: 'Wink' },
  ':D': { file: 'biggrin', title: 'Big Grin' },
  ':p': { file: 'tongue', title: 'Stick Out Tongue' },
  ':cool:': { file: 'cool', title: 'Cool' },
};

/**
 * A script body as players write it on a vBulletin board. No vBulletin version has a core
 * [SPOILER] tag, so "[spoiler=title]...[/spoiler]" stays literal text around the inner
 * BBCode (which still renders); vB 3 and 4 have no [USER] mention either, so a mention is
 * the name typed out. Smilies are shown by their title (vB prints `alt=""`).
 */
export function asVbulletinWrites(nodes: readonly ScriptNode[], opts: { mentions: boolean }): ScriptNode[] {
  return nodes.flatMap((n): ScriptNode[] => {
    switch (n.op) {
      case 'spoiler':
        return [
          { op: 'text', text: n.title === null ? '[spoiler]' : `[spoiler=${n.title}]` },
          ...asVbulletinWrites(n.children, opts),
          { op: 'text', text: '[/spoiler]' },
        ];
      case 'mention':
        return opts.mentions ? [n] : [{ op: 'text', text: n.name }];
      case 'smilie':
        return [{ ...n, alt: VB_SMILIES[n.alt]?.title ?? n.alt }];
      case 'bold':
      case 'italic':
      case 'strike':
      case 'color':
      case 'quote':
      case 'link':
        return [{ ...n, children: asVbulletinWrites(n.children, opts) }];
      default:
        return [n];
    }
  });
}

export const vbulletin3Renderer: ThreadRenderer = {
  engine: 'vbulletin3',
  threadPath: (script) => `/${threadUrl(script)}`,
  render(script: GameScript): RenderedPage[] {
    const pages = pagesOf(script);
    return pages.map((posts, i) => {
      const page = i + 1;
      return {
        page,
        path: `/${pageUrl(script, page)}`,
        file: `page-${page}.html`,
        body: renderPage(script, posts, page, pages.length),
      };
    });
  },
};

const threadUrl = (s: GameScript): string => `showthread.php?t=${s.thread.id}`;
const pageUrl = (s: GameScript, page: number): string => (page <= 1 ? threadUrl(s) : `${threadUrl(s)}&page=${page}`);

function renderPage(s: GameScript, posts: readonly ScriptPost[], page: number, pageCount: number): string {
  const title = html(s.thread.title);
  const nav = pageNav(s, page, pageCount);
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" dir="ltr" lang="en">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1" />
<meta name="generator" content="vBulletin 3.8.11" />
<meta name="keywords" content="mafia, werewolf" />
<meta name="description" content="${attr(s.thread.title)}" />
<style type="text/css" id="vbulletin_css">
.tborder { background: #D1D1E1; color: #000000; border: 1px solid #0B198C; }
.alt1, .alt1Active { background: #F5F5FF; color: #000000; }
.alt2, .alt2Active { background: #E1E4F2; color: #000000; }
.smallfont { font: 11px verdana, geneva, lucida, 'lucida grande', arial, helvetica, sans-serif; }
</style>
<script type="text/javascript" src="clientscript/yui/yahoo-dom-event/yahoo-dom-event.js?v=3811"></script>
<script type="text/javascript" src="clientscript/vbulletin_global.js?v=3811"></script>
<script type="text/javascript" src="clientscript/vbulletin_menu.js?v=3811"></script>
<title>${title}${page > 1 ? ` - Page ${page}` : ''} - ${html(BOARD)}</title>
<script type="text/javascript" src="clientscript/vbulletin_post_loader.js?v=3811"></script>
</head>
<body onload="if (document.body.scrollIntoView &amp;&amp; (window.location.href.indexOf('#') == -1 || window.location.href.indexOf('#post') &gt; -1)) { fetch_object('currentPost').scrollIntoView(true); }">
<a name="top"></a>
<table class="tborder" cellpadding="6" cellspacing="1" border="0" width="100%" align="center">
<tr>
	<td class="alt1" width="100%">
		<table cellpadding="0" cellspacing="0" border="0">
		<tr valign="bottom">
			<td><a href="#" onclick="history.back(1); return false;"><img src="images/misc/navbits_start.gif" alt="Go Back" border="0" /></a></td>
			<td>&nbsp;</td>
			<td width="100%"><span class="navbar"><a href="index.php" accesskey="1">${html(BOARD)}</a></span>
	<span class="navbar">&gt; <a href="forumdisplay.php?f=${FORUM.id}">${html(FORUM.title)}</a></span>
</td>
		</tr>
		<tr>
			<td class="navbar" style="font-size:10pt; padding-top:1px" colspan="3"><a href="${attr(pageUrl(s, page))}"><img class="inlineimg" src="images/misc/navbits_finallink_ltr.gif" alt="Reload this Page" border="0" /></a> <strong>
	${title}
</strong></td>
		</tr>
		</table>
	</td>
</tr>
</table>
<br />

<a name="poststop" id="poststop"></a>

<!-- controls above postbits -->
<table cellpadding="0" cellspacing="0" border="0" width="100%" style="margin-bottom:3px">
<tr valign="bottom">
	<td class="smallfont"><a href="newreply.php?do=newreply&amp;noquote=1&amp;p=${posts[0]!.id}" rel="nofollow"><img src="images/buttons/reply.gif" alt="Reply" border="0" /></a></td>
	<td align="right">${nav}</td>
</tr>
</table>
<!-- / controls above postbits -->

<div id="posts">${posts.map((p) => renderPost(s, p)).join('')}<div id="lastpost"></div></div>

<!-- controls below postbits -->
<table cellpadding="0" cellspacing="0" border="0" width="100%" style="margin-top:-3px">
<tr valign="top">
	<td class="smallfont"><a href="newreply.php?do=newreply&amp;noquote=1&amp;p=${posts[posts.length - 1]!.id}" rel="nofollow"><img src="images/buttons/reply.gif" alt="Reply" border="0" /></a></td>
	<td align="right">${nav}</td>
</tr>
</table>
<!-- / controls below postbits -->

<br />
<div class="smallfont" align="center">All times are GMT. The time now is <span class="time">00:00</span>.</div>
<br />
<div align="center">
	<div class="smallfont" align="center">Powered by vBulletin&reg; Version 3.8.11<br />Copyright &copy;2000 - 2026, vBulletin Solutions Inc.</div>
</div>
</body>
</html>
`;
}

function renderPost(s: GameScript, p: ScriptPost): string {
  const uid = userIdOf(s, p.author)!;
  const edited = p.edited
    ? `
		<!-- edit note -->
			<div class="smallfont" style="clear:both;">
				<hr size="1" style="color:#D1D1E1; background-color:#D1D1E1;border:0px;border-bottom:1px solid black;" />
				<em>
					
						Last edited by ${html(p.edited.by)}; ${dateText(p.edited.time).replace(', ', ' at <span class="time">')}</span>.
					
				</em>
			</div>
		<!-- / edit note -->
		`
    : '';
  return `<!-- post #${p.id} -->

	<!-- open content container -->

<div align="center">
	<div class="page" style="width:100%; text-align:left">
		<div style="padding:0px 10px 0px 10px" align="left">

	<div id="edit${p.id}" style="padding:0px 0px 6px 0px">

<table id="post${p.id}" class="tborder" cellpadding="6" cellspacing="0" border="0" width="100%" align="center">
<tr>
		<td class="thead" style="font-weight:normal; border: 1px solid #D1D1E1; border-right: 0px" >
			<!-- status icon and date -->
			<a name="post${p.id}"><img class="inlineimg" src="images/statusicon/post_old.gif" alt="Old" border="0" /></a>
			${dateText(p.time)}
			<!-- / status icon and date -->
		</td>
		<td class="thead" style="font-weight:normal; border: 1px solid #D1D1E1; border-left: 0px" align="right">
			&nbsp;
			<a href="showthread.php?p=${p.id}#post${p.id}" target="new" rel="nofollow" id="postlink${p.id}" title="Permanent link to this post in context.">Link</a>
			#<a href="showpost.php?p=${p.id}&amp;postcount=${p.n}" target="new" rel="nofollow" id="postcount${p.id}" name="${p.n}"><strong>${p.n}</strong></a>
		</td>
</tr>
<tr valign="top">
	<td class="alt2" width="175" style="border: 1px solid #D1D1E1; border-top: 0px; border-bottom: 0px">
			<div id="postmenu_${p.id}">
				<a class="bigusername" href="member.php?u=${uid}">${html(p.author)}</a>
				<script type="text/javascript"> vbmenu_register("postmenu_${p.id}", true); </script>
			</div>
			<div class="smallfont">${p.author === s.posts[0]!.author ? 'Game Moderator' : 'Member'}</div>
			<div class="smallfont">
				&nbsp;<br />
				<div>Join Date: Jan 2026</div>
				<div>Posts: ${100 + uid}</div>
			</div>
	</td>
	<td class="alt1" id="td_post_${p.id}" style="border-right: 1px solid #D1D1E1">
		<!-- message -->
		<div id="post_message_${p.id}">${body(s, p, asVbulletinWrites(p.body, { mentions: false }))}</div>
		<!-- / message -->
		<div style="clear:both;">${edited}</div>
	</td>
</tr>
<tr>
	<td class="alt2" style="border: 1px solid #D1D1E1; border-top: 0px">
		<img class="inlineimg" src="images/statusicon/user_offline.gif" alt="${attr(p.author)} is offline" border="0" />
		<a href="report.php?p=${p.id}" rel="nofollow"><img class="inlineimg" src="images/buttons/report.gif" alt="Report Post" border="0" /></a>
		&nbsp;
	</td>
	<td class="alt1" align="right" style="border: 1px solid #D1D1E1; border-left: 0px; border-top: 0px">
		<!-- controls -->
			<a href="newreply.php?do=newreply&amp;p=${p.id}" rel="nofollow"><img src="images/buttons/quote.gif" alt="Reply With Quote" border="0" /></a>
		<!-- / controls -->
	</td>
</tr>
</table>

<!-- post ${p.id} popup menu -->
<div class="vbmenu_popup" id="postmenu_${p.id}_menu" style="display:none">
	<table cellpadding="4" cellspacing="1" border="0">
	<tr><td class="thead">${html(p.author)}</td></tr>
	<tr><td class="vbmenu_option"><a href="member.php?u=${uid}">View Public Profile</a></td></tr>
	<tr><td class="vbmenu_option"><a href="search.php?do=finduser&amp;u=${uid}" rel="nofollow">Find More Posts by ${html(p.author)}</a></td></tr>
	</table>
</div>
<!-- / post ${p.id} popup menu -->

	</div>
		</div>
	</div>
</div>

<!-- / close content container -->

<!-- / post #${p.id} -->`;
}

/** "2026-03-02, 18:00": the sample board's date and time formats, in the board's zone. */
function dateText(iso: string): string {
  const w = wallClock(iso, ZONE);
  return `${w.y}-${pad2(w.mo)}-${pad2(w.d)}, ${pad2(w.h)}:${pad2(w.mi)}`;
}

function pageNav(s: GameScript, page: number, pageCount: number): string {
  if (pageCount <= 1) return '&nbsp;';
  const cells: string[] = [];
  for (let n = 1; n <= pageCount; n++) {
    cells.push(
      n === page
        ? `<td class="alt2"><span class="smallfont" title="Showing results"><strong>${n}</strong></span></td>`
        : `<td class="alt1"><a class="smallfont" href="${attr(pageUrl(s, n))}" title="Show results">${n}</a></td>`,
    );
  }
  const prev =
    page > 1
      ? `\n\t<td class="alt1"><a rel="prev" class="smallfont" href="${attr(pageUrl(s, page - 1))}" title="Prev Page">&lt;</a></td>`
      : '';
  const next =
    page < pageCount
      ? `\n\t<td class="alt1"><a rel="next" class="smallfont" href="${attr(pageUrl(s, page + 1))}" title="Next Page">&gt;</a></td>`
      : '';
  return `<div class="pagenav" align="right">
<table class="tborder" cellpadding="3" cellspacing="1" border="0">
<tr>
	<td class="vbmenu_control" style="font-weight:normal">Page ${page} of ${pageCount}</td>${prev}
	${cells.join('')}${next}
	<td class="vbmenu_control" title="${attr(threadUrl(s))}"><a name="PageNav"></a></td>
</tr>
</table>
</div>`;
}

/** BB code output inside `#post_message_ID`, as vB 3.8's parser and bbcode_* templates print it. */
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
      return `<div style="margin:20px; margin-top:5px">
	<div class="smallfont" style="margin-bottom:2px">Code:</div>
	<pre class="alt2" dir="ltr" style="
		margin: 0px;
		padding: 6px;
		border: 1px inset;
		width: 640px;
		height: 34px;
		text-align: left;
		overflow: auto">${html(n.text)}</pre>
</div>`;
    case 'smilie': {
      const file =
        Object.values(VB_SMILIES).find((v) => v.title === n.alt)?.file ??
        n.src
          .split('/')
          .pop()!
          .replace(/\.\w+$/, '');
      return `<img src="images/smilies/${attr(file)}.gif" border="0" alt="" title="${attr(n.alt)}" class="inlineimg" />`;
    }
    case 'image':
      return `<img src="${attr(n.src)}" border="0" alt="" />`;
    case 'link':
      return `<a href="${attr(n.href)}" target="_blank">${body(s, post, n.children)}</a>`;
    case 'mention':
      return html(n.name); // rewritten away by asVbulletinWrites
  }
}

/**
 * vB 3.8's bbcode_quote template: "Quote:" caption, then a table cell holding either
 * "Originally Posted by <strong>X</strong>" + view-post button + the italic message, or
 * (bare [QUOTE]) the message alone. The button points at the author's latest earlier post.
 */
function quote(s: GameScript, post: ScriptPost, author: string | null, inner: string): string {
  const source = author === null ? undefined : [...s.posts].reverse().find((q) => q.author === author && q.n < post.n);
  const content =
    author === null
      ? `
				${inner}
			`
      : `
				<div>
					Originally Posted by <strong>${html(author)}</strong>
					${source ? `<a href="showthread.php?p=${source.id}#post${source.id}" rel="nofollow"><img class="inlineimg" src="images/buttons/viewpost.gif" border="0" alt="View Post" /></a>` : ''}
				</div>
				<div style="font-style:italic">${inner}</div>
			`;
  return `<div style="margin:20px; margin-top:5px; ">
	<div class="smallfont" style="margin-bottom:2px">Quote:</div>
	<table cellpadding="6" cellspacing="0" border="0" width="100%">
	<tr>
		<td class="alt2" style="border:1px inset">${content}</td>
	</tr>
	</table>
</div>`;
}
