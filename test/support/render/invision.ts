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
 * Invision Community 4.x topic pages as a guest gets them, after the compiled
 * `forums/front/topics` templates (see ../shared/research/forum-engines.md):
 * `article.cPost#elComment_PID` with `aside.cAuthorPane` (`/profile/N-name/`), the
 * comment wrapper `[data-controller="core.front.core.comment"][data-commentID][data-quoteData]`
 * (JSON with userid, username, timestamp), `.ipsComment_meta time[datetime]` (UTC), body
 * `[data-role="commentContent"]` whose "Edited … by X" line is `[data-excludequote]`.
 * Rich text: `<p>` paragraphs, `blockquote.ipsQuote[data-ipsquote-username]`,
 * `div.ipsSpoiler`, `pre.ipsCode`, `img[data-emoticon]`, lazy `img.ipsImage[data-src]`,
 * `a[data-mentionid]`, `rel="external nofollow"` links. `ul.ipsPagination` says the page
 * count and the posts per page; pages are `/topic/ID-slug/page/N/`.
 */

export const invisionRenderer: ThreadRenderer = {
  engine: 'invision',
  threadPath: (s) => topicPath(s),
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

const topicPath = (s: GameScript): string => `/topic/${s.thread.id}-${s.thread.slug}/`;
const pagePath = (s: GameScript, page: number): string => (page <= 1 ? topicPath(s) : `${topicPath(s)}page/${page}/`);
const findComment = (s: GameScript, pid: number): string => `${topicPath(s)}?do=findComment&comment=${pid}`;
const profileUrl = (uid: number, name: string): string => `/profile/${uid}-${name.toLowerCase()}/`;

/** `title` of a `<time>`: "03/02/2026 06:00  PM" (two spaces, as IPS prints it). */
function timeTitle(iso: string): string {
  const w = wallClock(iso, 'UTC');
  const [h, ampm] = twelveHour(w.h);
  return `${pad2(w.mo)}/${pad2(w.d)}/${w.y} ${pad2(h)}:${pad2(w.mi)}  ${ampm.toUpperCase()}`;
}

function timeTag(iso: string): string {
  const w = wallClock(iso, 'UTC');
  const datetime = new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `<time datetime="${datetime}" title="${timeTitle(iso)}" data-short="${MONTH_ABBR[w.mo - 1]} ${w.d}">${MONTH_ABBR[w.mo - 1]} ${w.d}</time>`;
}

function renderPage(s: GameScript, posts: readonly ScriptPost[], page: number, pageCount: number): string {
  const items: string[] = [];
  for (let n = 1; n <= pageCount; n++) {
    items.push(
      `<li class="ipsPagination_page${n === page ? ' ipsPagination_active' : ''}"><a href="${attr(pagePath(s, n))}" data-page="${n}">${n}</a></li>`,
    );
  }
  if (page < pageCount) {
    items.push(
      `<li class="ipsPagination_next"><a href="${attr(pagePath(s, page + 1))}" rel="next" data-page="${page + 1}" data-ipsTooltip title="Next page">Next</a></li>`,
    );
    items.push(
      `<li class="ipsPagination_last"><a href="${attr(pagePath(s, pageCount))}" data-page="${pageCount}" data-ipsTooltip title="Last page"><i class="fa fa-angle-double-right"></i></a></li>`,
    );
  }
  const pagination =
    pageCount > 1
      ? `<ul class="ipsPagination" id="elPagination_7f3a" data-ipsPagination-seoPagination="true" data-pages="${pageCount}" data-ipsPagination data-ipsPagination-pages="${pageCount}" data-ipsPagination-perPage="${s.thread.postsPerPage}">
		${items.join('\n\t\t')}
	</ul>`
      : '';
  return `<!DOCTYPE html>
<html lang="en-US" dir="ltr">
<head>
	<meta charset="utf-8">
	<title>${html(s.thread.title)}${page > 1 ? ` - Page ${page}` : ''} - Mafia Games - Votal Test Community</title>
	<link rel="canonical" href="${attr(pagePath(s, page))}" />
</head>
<body class="ipsApp ipsApp_front ipsJS_none ipsClearfix" data-controller="core.front.core.app" data-message="" data-pageApp="forums" data-pageLocation="front" data-pageModule="forums" data-pageController="topic" data-pageID="${s.thread.id}">
<main id="ipsLayout_body" class="ipsLayout_container">
<div id="ipsLayout_mainArea">
<div class="ipsPageHeader ipsResponsive_pull ipsBox ipsPadding sm:ipsPadding:half ipsMargin_bottom">
	<div class="ipsFlex ipsFlex-ai:center ipsFlex-fw:wrap ipsGap:4">
		<div class="ipsFlex-flex:11">
			<h1 class="ipsType_pageTitle ipsContained_container">
				<span class="ipsType_break ipsContained"><span>${html(s.thread.title)}</span></span>
			</h1>
		</div>
	</div>
</div>
<div class="ipsClearfix">
	${pagination}
</div>
<div id="comments" data-controller="core.front.core.commentFeed,forums.front.topic.view, core.front.core.ignoredComments" data-autoPoll data-baseURL="${attr(topicPath(s))}" data-feedID="topic-${s.thread.id}" class="cTopic ipsClear ipsSpacer_top">
	<form action="${attr(topicPath(s))}?csrfKey=0123456789abcdef&amp;do=multimodComment" method="post" data-ipsPageAction data-role="moderationTools">
${posts.map((p) => renderPost(s, p)).join('\n')}
	</form>
</div>
<div class="ipsClearfix">
	${pagination}
</div>
</div>
</main>
</body>
</html>
`;
}

function renderPost(s: GameScript, p: ScriptPost): string {
  const uid = userIdOf(s, p.author)!;
  const quoteData = {
    userid: uid,
    username: p.author,
    timestamp: Math.floor(Date.parse(p.time) / 1000),
    contentapp: 'forums',
    contenttype: 'forums',
    contentid: s.thread.id,
    contentclass: 'forums_Topic',
    contentcommentid: p.id,
  };
  const profile = profileUrl(uid, p.author);
  const nameLink = `<strong><a href="${attr(profile)}" data-ipsHover data-ipsHover-target="${attr(`${profile}?do=hovercard`)}" title="Go to ${attr(p.author)}'s profile" class="ipsType_break">${html(p.author)}</a></strong>`;
  const edit = p.edited
    ? `

<p>&nbsp;</p>
<span class="ipsType_reset ipsType_medium ipsType_light" data-excludequote>
<strong>Edited ${timeTag(p.edited.time)} by ${html(p.edited.by)}</strong>

</span>
`
    : '';
  return `<article  id="elComment_${p.id}" class="cPost ipsBox ipsResponsive_pull  ipsComment  ipsComment_parent ipsClearfix ipsClear ipsColumns ipsColumns_noSpacing ipsColumns_collapsePhone    ">
	<div class="cAuthorPane_mobile ipsResponsive_showPhone">
		<div class="cAuthorPane_content">
			<h3 class="ipsType_sectionHead cAuthorPane_author ipsType_break ipsType_blendLinks ipsFlex ipsFlex-ai:center">${nameLink}</h3>
		</div>
	</div>
	<aside class="ipsComment_author cAuthorPane ipsColumn ipsColumn_medium ipsResponsive_hidePhone">
		<h3 class="ipsType_sectionHead cAuthorPane_author ipsType_blendLinks ipsType_break">${nameLink}
			<span class="ipsCustomBadges"></span>
		</h3>
		<ul class="cAuthorPane_info ipsList_reset">
			<li data-role="group">${p.author === s.posts[0]!.author ? 'Moderators' : 'Members'}</li>
			<li class="ipsType_light">${100 + s.posts.filter((q) => q.author === p.author).length} posts</li>
		</ul>
	</aside>
	<div class="ipsColumn ipsColumn_fluid ipsMargin:none">
		<div id="comment-${p.id}_wrap" data-controller="core.front.core.comment" data-commentApp="forums" data-commentType="forums" data-commentID="${p.id}" data-quoteData="${attr(JSON.stringify(quoteData))}" class="ipsComment_content ipsType_medium">
			<div class="ipsComment_meta ipsType_light ipsFlex ipsFlex-ai:center ipsFlex-jc:between ipsFlex-fd:row-reverse">
				<div class="ipsType_light ipsType_reset ipsType_blendLinks ipsComment_toolWrap">
					<ul class="ipsList_reset ipsComment_tools">
						<li><a href="${attr(findComment(s, p.id))}" data-ipsTooltip title="Share this post" data-ipsMenu data-ipsMenu-closeOnClick="false" id="elSharePost_${p.id}" data-role="shareComment"><i class="fa fa-share-alt"></i></a></li>
					</ul>
				</div>
				<div class="ipsType_reset ipsResponsive_hidePhone">
					<a href="${attr(findComment(s, p.id))}" rel="nofollow" class="ipsType_blendLinks">Posted ${timeTag(p.time)}</a>${p.edited ? '\n\t\t\t\t\t<span class="ipsResponsive_hidePhone">(edited)</span>' : ''}
				</div>
			</div>
			<div class="cPost_contentWrap">
				<div data-role="commentContent" class="ipsType_normal ipsType_richText ipsPadding_bottom ipsContained" data-controller="core.front.core.lightboxedImages">
					${rich(s, p, p.body)}${edit}
				</div>
			</div>
		</div>
	</div>
</article>`;
}

/** Inline runs become `<p>` paragraphs (line breaks kept as `<br>`); quotes, code and spoilers are blocks. */
function rich(s: GameScript, post: ScriptPost, nodes: readonly ScriptNode[]): string {
  const blocks: string[] = [];
  let para = '';
  const flush = (): void => {
    const trimmed = para.replace(/(<br>\n)+$/, '');
    if (trimmed.trim()) blocks.push(`<p>\n\t${trimmed}\n</p>`);
    para = '';
  };
  for (const n of nodes) {
    if (n.op === 'quote' || n.op === 'code' || n.op === 'spoiler') {
      flush();
      blocks.push(block(s, post, n));
    } else {
      para += inline(s, post, n);
    }
  }
  flush();
  return blocks.join('\n');
}

function block(s: GameScript, post: ScriptPost, n: Extract<ScriptNode, { op: 'quote' | 'code' | 'spoiler' }>): string {
  switch (n.op) {
    case 'quote': {
      if (n.author === null) {
        return `<blockquote class="ipsQuote" data-ipsquote=""><div class="ipsQuote_citation">Quote</div><div class="ipsQuote_contents ipsClearfix" data-gramm="false">\n${rich(s, post, n.children)}\n</div></blockquote>`;
      }
      const source = [...s.posts].reverse().find((q) => q.author === n.author && q.n < post.n);
      const uid = userIdOf(s, n.author);
      const data = source
        ? ` data-ipsquote-contentapp="forums" data-ipsquote-contentclass="forums_Topic" data-ipsquote-contentcommentid="${source.id}" data-ipsquote-contentid="${s.thread.id}" data-ipsquote-contenttype="forums" data-ipsquote-timestamp="${Math.floor(Date.parse(source.time) / 1000)}"`
        : '';
      return `<blockquote class="ipsQuote" data-ipsquote=""${data}${uid === null ? '' : ` data-ipsquote-userid="${uid}"`} data-ipsquote-username="${attr(n.author)}"><div class="ipsQuote_citation">${html(n.author)} said:</div><div class="ipsQuote_contents ipsClearfix" data-gramm="false">\n${rich(s, post, n.children)}\n</div></blockquote>`;
    }
    case 'code':
      return `<pre class="ipsCode prettyprint lang-html prettyprinted"><span class="pln">${html(n.text)}</span></pre>`;
    // IPS spoilers have no title of their own: the header always says "Spoiler".
    case 'spoiler':
      return `<div class="ipsSpoiler" data-ipsspoiler=""><div class="ipsSpoiler_header"><span>Spoiler</span></div><div class="ipsSpoiler_contents ipsClearfix" data-gramm="false">\n${rich(s, post, n.children)}\n</div></div>`;
  }
}

function inline(s: GameScript, post: ScriptPost, n: ScriptNode): string {
  const kids = (c: readonly ScriptNode[]): string => c.map((x) => inline(s, post, x)).join('');
  switch (n.op) {
    case 'text':
      return html(n.text);
    case 'br':
      return '<br>\n';
    case 'bold':
      return `<strong>${kids(n.children)}</strong>`;
    case 'italic':
      return `<em>${kids(n.children)}</em>`;
    case 'strike':
      return `<s>${kids(n.children)}</s>`;
    case 'color':
      return `<span style="color:${attr(n.color)};">${kids(n.children)}</span>`;
    case 'smilie': {
      const file = n.src.replace(/^.*\/([^/]+)$/, '$1');
      return `<img alt="${attr(n.alt)}" data-emoticon="" height="20" src="/uploads/emoticons/${attr(file)}" srcset="/uploads/emoticons/${attr(file.replace(/(\.\w+)$/, '@2x$1'))} 2x" title="${attr(n.alt)}" width="20" />`;
    }
    case 'image':
      return `<img class="ipsImage" data-ratio="75.00" width="640" data-src="${attr(n.src)}" src="/applications/core/interface/js/spacer.png" />`;
    case 'link':
      return n.kind === 'external'
        ? `<a href="${attr(n.href)}" rel="external nofollow">${kids(n.children)}</a>`
        : `<a href="${attr(n.href)}" rel="">${kids(n.children)}</a>`;
    case 'mention': {
      const profile = profileUrl(n.userId, n.name);
      return `<a contenteditable="false" data-ipshover="" data-ipshover-target="${attr(`${profile}?do=hovercard`)}" data-mentionid="${n.userId}" href="${attr(profile)}" rel="">@${html(n.name)}</a>`;
    }
    case 'quote':
    case 'code':
    case 'spoiler':
      return block(s, post, n);
  }
}
