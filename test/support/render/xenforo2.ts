import {
  escapeAttr as attr,
  escapeHtml as html,
  MONTH_ABBR,
  offsetText,
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
 * XenForo 2.2 thread pages as a guest gets them from the server (`has-no-js`), modelled
 * on ../shared/forum-samples/xenforo2/ (nettally-Xenforo2.html, XF 2.0/2.1 server HTML;
 * revioos-rpgcodex-thread-dom.html, XF 2.2): `html#XF`, one
 * `article.message--post[data-author][data-content=post-ID]` per post, the time as
 * `time.u-dt[datetime][data-time]` in the board's zone, "#N" last in
 * `ul.message-attribution-opposite`, the body in `.message-body .bbWrapper`,
 * `.message-lastEdit` after the user content, pagination in `ul.pageNav-main`.
 */

const BOARD = 'Votal Test Forum';
/** Guests see times in the board's default zone; `data-time` is absolute. */
const ZONE = 'Europe/Berlin';
const FORUM = { id: 2, title: 'Mafia Games', slug: 'mafia-games' };

export const xenforo2Renderer: ThreadRenderer = {
  engine: 'xenforo2',
  threadPath: (script) => threadPath(script),
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

const threadPath = (s: GameScript): string => `/threads/${s.thread.slug}.${s.thread.id}/`;
const pagePath = (s: GameScript, page: number): string => (page <= 1 ? threadPath(s) : `${threadPath(s)}page-${page}`);
const postPath = (s: GameScript, id: number): string => `${threadPath(s)}post-${id}`;
const memberPath = (name: string, uid: number): string =>
  `/members/${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}.${uid}/`;

function renderPage(s: GameScript, posts: readonly ScriptPost[], page: number, pageCount: number): string {
  const title = html(s.thread.title);
  const starter = s.posts[0]!;
  const starterId = userIdOf(s, starter.author)!;
  const pageTitle = page > 1 ? `${title} | Page ${page} | ${BOARD}` : `${title} | ${BOARD}`;
  const rel = [
    page > 1 ? `\t<link rel="prev" href="${attr(pagePath(s, page - 1))}" />` : '',
    page < pageCount ? `\t<link rel="next" href="${attr(pagePath(s, page + 1))}" />` : '',
  ]
    .filter(Boolean)
    .join('\n');
  const nav = pageNav(s, page, pageCount);
  return `<!DOCTYPE html>
<html id="XF" lang="en-US" dir="LTR"
	data-app="public"
	data-template="thread_view"
	data-container-key="node-${FORUM.id}"
	data-content-key="thread-${s.thread.id}"
	data-logged-in="false"
	data-cookie-prefix="xf_"
	data-csrf="1772470800,5d41402abc4b2a76b9719d911017c592"
	class="has-no-js template-thread_view"
	>
<head>
	<meta charset="utf-8" />
	<meta http-equiv="X-UA-Compatible" content="IE=Edge" />
	<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">

	<title>${pageTitle}</title>

	<link rel="canonical" href="${attr(pagePath(s, page))}" />
${rel}
	<meta property="og:site_name" content="${attr(BOARD)}" />
	<meta property="og:type" content="website" />
	<meta property="og:title" content="${attr(s.thread.title)}" />
	<meta property="og:url" content="${attr(threadPath(s))}" />

	<link rel="stylesheet" href="/css.php?css=public%3Anormalize.css%2Cpublic%3Afa.css%2Cpublic%3Acore.less%2Cpublic%3Aapp.less&amp;s=1&amp;l=1&amp;d=1772000000&amp;k=0f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6" />
	<link rel="stylesheet" href="/css.php?css=public%3Abb_code.less%2Cpublic%3Amessage.less%2Cpublic%3Ashare_controls.less%2Cpublic%3Aextra.less&amp;s=1&amp;l=1&amp;d=1772000000&amp;k=1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d" />
	<script src="/js/xf/preamble.min.js?_v=4b6c1a2d"></script>
</head>
<body data-template="thread_view">

<div class="p-pageWrapper" id="top">

<header class="p-header" id="header">
	<div class="p-header-inner">
		<div class="p-header-content">
			<div class="p-header-logo p-header-logo--image">
				<a href="/">
					<img src="/styles/default/xenforo/xenforo-logo.png" alt="${attr(BOARD)}" width="100" height="36" />
				</a>
			</div>
		</div>
	</div>
</header>

<div class="p-navSticky p-navSticky--primary" data-xf-init="sticky-header">
	<nav class="p-nav">
		<div class="p-nav-inner">
			<div class="p-nav-scroller hScroller" data-xf-init="h-scroller" data-auto-scroll=".p-navEl.is-selected">
				<div class="hScroller-scroll">
					<ul class="p-nav-list js-offCanvasNavSource">
						<li><div class="p-navEl is-selected" data-has-children="true"><a href="/" class="p-navEl-link p-navEl-link--splitMenu " data-nav-id="forums">Forums</a></div></li>
						<li><div class="p-navEl " data-has-children="true"><a href="/whats-new/" class="p-navEl-link p-navEl-link--splitMenu " data-nav-id="whatsNew">What's new</a></div></li>
						<li><div class="p-navEl " data-has-children="true"><a href="/members/" class="p-navEl-link p-navEl-link--splitMenu " data-nav-id="members">Members</a></div></li>
					</ul>
				</div>
			</div>
			<div class="p-nav-opposite">
				<div class="p-navgroup p-account p-navgroup--guest">
					<a href="/login/" class="p-navgroup-link p-navgroup-link--textual p-navgroup-link--logIn" data-xf-click="overlay" data-follow-redirects="on"><span class="p-navgroup-linkText">Log in</span></a>
					<a href="/register/" class="p-navgroup-link p-navgroup-link--textual p-navgroup-link--register" data-xf-click="overlay" data-follow-redirects="on"><span class="p-navgroup-linkText">Register</span></a>
				</div>
			</div>
		</div>
	</nav>
</div>

<div class="p-body">
	<div class="p-body-inner">

		<ul class="p-breadcrumbs " itemscope itemtype="https://schema.org/BreadcrumbList">
			<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">
				<a href="/" itemprop="item"><span itemprop="name">Forums</span></a>
				<meta itemprop="position" content="1" />
			</li>
			<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">
				<a href="/forums/${FORUM.slug}.${FORUM.id}/" itemprop="item"><span itemprop="name">${html(FORUM.title)}</span></a>
				<meta itemprop="position" content="2" />
			</li>
		</ul>

		<div class="p-body-header">
			<div class="p-title ">
				<h1 class="p-title-value">${title}</h1>
			</div>
			<div class="p-description">
				<ul class="listInline listInline--bullet">
					<li>
						<i class="fa--xf far fa-user" aria-hidden="true" title="Thread starter"></i>
						<span class="u-srOnly">Thread starter</span>
						<a href="${attr(memberPath(starter.author, starterId))}" class="username  u-concealed" dir="auto" data-user-id="${starterId}" data-xf-init="member-tooltip">${html(starter.author)}</a>
					</li>
					<li>
						<i class="fa--xf far fa-clock" aria-hidden="true" title="Start date"></i>
						<span class="u-srOnly">Start date</span>
						<a href="${attr(threadPath(s))}" class="u-concealed">${time(starter.time)}</a>
					</li>
				</ul>
			</div>
		</div>

		<div class="p-body-main  ">
			<div class="p-body-content">
				<div class="p-body-pageContent">

<div class="block block--messages" data-xf-init="" data-type="post" data-href="/inline-mod/" data-search-target="*">

	<span class="u-anchorTarget" id="posts"></span>

	<div class="block-outer">${nav}</div>

	<div class="block-outer js-threadStatusField"></div>

	<div class="block-container lbContainer"
		data-xf-init="lightbox select-to-quote"
		data-message-selector=".js-post"
		data-lb-id="thread-${s.thread.id}"
		data-lb-universal="0">

		<div class="block-body js-replyNewMessageContainer">
${posts.map((p) => renderPost(s, p)).join('\n')}
		</div>
	</div>

	<div class="block-outer block-outer--after">${nav}</div>
</div>

				</div>
			</div>
		</div>

	</div>
</div>

<footer class="p-footer" id="footer">
	<div class="p-footer-inner">
		<div class="p-footer-row">
			<div class="p-footer-row-opposite">
				<ul class="p-footer-linkList">
					<li><a href="/help/terms/">Terms and rules</a></li>
					<li><a href="/help/privacy-policy/">Privacy policy</a></li>
					<li><a href="/help/">Help</a></li>
				</ul>
			</div>
		</div>
		<div class="p-footer-copyright">
			<a href="https://xenforo.com" class="u-concealed" dir="ltr" target="_blank" rel="sponsored noopener">Community platform by XenForo<sup>&reg;</sup> <span class="copyright">&copy; 2010-2024 XenForo Ltd.</span></a>
		</div>
	</div>
</footer>

</div> <!-- closing p-pageWrapper -->

<div class="u-bottomFixer js-bottomFixTarget"></div>

<script src="/js/vendor/jquery/jquery-3.5.1.min.js?_v=4b6c1a2d"></script>
<script src="/js/xf/core-compiled.js?_v=4b6c1a2d"></script>
<script>
	jQuery.extend(true, XF.config, {
		userId: 0,
		enablePush: false,
		url: { fullBase: '/', basePath: '/', css: '/css.php?css=__SENTINEL__&s=1&l=1&d=1772000000', keepAlive: '/login/keep-alive' },
		cookie: { path: '/', domain: '', prefix: 'xf_', secure: false },
		visitorCounts: { conversations_unread: '0', alerts_unviewed: '0', total_unread: '0', title_count: false, icon_indicator: true }
	});
</script>
</body>
</html>
`;
}

function renderPost(s: GameScript, p: ScriptPost): string {
  const uid = userIdOf(s, p.author)!;
  const member = memberPath(p.author, uid);
  const permalink = postPath(s, p.id);
  const when = wallClock(p.time, ZONE);
  const nameHtml =
    p.author === s.posts[0]!.author
      ? `<span class="username--style3 username--staff username--moderator">${html(p.author)}</span>`
      : `<span itemprop="name">${html(p.author)}</span>`;
  const postsByAuthor = s.posts.filter((q) => q.author === p.author).length;
  const edited = p.edited
    ? `

					<div class="message-lastEdit">
						${p.edited.by === p.author ? 'Last edited:' : 'Last edited by a moderator:'} ${time(p.edited.time, 'dateModified')}
					</div>`
    : '';
  return `
	<article class="message message--post js-post js-inlineModContainer  "
		data-author="${attr(p.author)}"
		data-content="post-${p.id}"
		id="js-post-${p.id}"
		itemscope itemtype="https://schema.org/Comment" itemid="/posts/${p.id}/">

		<meta itemprop="parentItem" itemscope itemid="${attr(threadPath(s))}" />

		<span class="u-anchorTarget" id="post-${p.id}"></span>

		<div class="message-inner">
			<div class="message-cell message-cell--user">

	<section class="message-user" itemprop="author" itemscope itemtype="https://schema.org/Person" itemid="${attr(member)}">
		<meta itemprop="url" content="${attr(member)}" />
		<div class="message-avatar ">
			<div class="message-avatar-wrapper">
				<a href="${attr(member)}" class="avatar avatar--m avatar--default avatar--default--dynamic" data-user-id="${uid}" data-xf-init="member-tooltip" style="background-color: #a3c2e0; color: #2e5c8a">
					<span class="avatar-u${uid}-m" role="img" aria-label="${attr(p.author)}">${html(p.author.slice(0, 1).toUpperCase())}</span>
				</a>
			</div>
		</div>
		<div class="message-userDetails">
			<h4 class="message-name"><a href="${attr(member)}" class="username " dir="auto" data-user-id="${uid}" data-xf-init="member-tooltip">${nameHtml}</a></h4>
			<h5 class="userTitle message-userTitle" dir="auto" itemprop="jobTitle">Member</h5>
		</div>
		<div class="message-userExtras">
			<dl class="pairs pairs--justified">
				<dt>Joined</dt>
				<dd>Jan ${(uid % 28) + 1}, 2026</dd>
			</dl>
			<dl class="pairs pairs--justified">
				<dt>Messages</dt>
				<dd>${100 + postsByAuthor}</dd>
			</dl>
		</div>
		<span class="message-userArrow"></span>
	</section>

			</div>
			<div class="message-cell message-cell--main">
				<div class="message-main js-quickEditTarget">

					<header class="message-attribution message-attribution--split">
						<ul class="message-attribution-main listInline ">
							<li class="u-concealed">
								<a href="${attr(permalink)}" rel="nofollow" itemprop="url">
									${time(p.time, 'datePublished')}
								</a>
							</li>
						</ul>

						<ul class="message-attribution-opposite message-attribution-opposite--list ">
							<li>
								<a href="${attr(permalink)}" class="message-attribution-gadget" data-xf-init="share-tooltip" data-href="/posts/${p.id}/share" aria-label="Share" rel="nofollow">
									<i class="fa--xf far fa-share-alt" aria-hidden="true"></i>
								</a>
							</li>
							<li>
								<a href="${attr(permalink)}" rel="nofollow">
									#${p.n}
								</a>
							</li>
						</ul>
					</header>

					<div class="message-content js-messageContent">

						<div class="message-userContent lbContainer js-lbContainer "
							data-lb-id="post-${p.id}"
							data-lb-caption-desc="${attr(p.author)} &middot; ${attr(longDate(when))}">

							<article class="message-body js-selectToQuote">
								<div itemprop="text">
									<div class="bbWrapper">${body(s, p, p.body)}</div>
								</div>
								<div class="js-selectToQuoteEnd">&nbsp;</div>
							</article>

						</div>${edited}

					</div>

					<footer class="message-footer">
						<div class="message-actionBar actionBar">
							<div class="actionBar-set actionBar-set--external">
								<a href="/posts/${p.id}/react?reaction_id=1" class="reaction actionBar-action actionBar-action--reaction" data-xf-click="react" data-reaction-id="1" data-reaction-text="Like" rel="nofollow"><i aria-hidden="true"></i><img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" class="reaction-sprite js-reaction" alt="Like" title="Like" /><span class="reaction-text js-reactionText"><bdi>Like</bdi></span></a>
								<a href="${attr(threadPath(s))}reply?quote=${p.id}" class="actionBar-action actionBar-action--reply" title="Reply, quoting this message" rel="nofollow" data-xf-click="quote" data-quote-href="/posts/${p.id}/quote">Reply</a>
							</div>
						</div>
						<div class="reactionsBar js-reactionsList "></div>
						<div class="js-historyTarget message-historyTarget toggleTarget" data-href="trigger-href"></div>
					</footer>
				</div>
			</div>
		</div>
	</article>
`;
}

/** `<time class="u-dt">` as XF prints it: ISO in the board's zone, epoch seconds, short date text. */
function time(iso: string, itemprop?: string): string {
  const w = wallClock(iso, ZONE);
  const dateString = `${MONTH_ABBR[w.mo - 1]} ${w.d}, ${w.y}`;
  const datetime = `${w.y}-${pad2(w.mo)}-${pad2(w.d)}T${pad2(w.h)}:${pad2(w.mi)}:${pad2(w.s)}${offsetText(w.offsetMinutes)}`;
  const prop = itemprop ? ` itemprop="${itemprop}"` : '';
  return `<time class="u-dt" dir="auto" datetime="${datetime}" data-time="${Math.floor(Date.parse(iso) / 1000)}" data-date-string="${dateString}" data-time-string="${timeString(w)}" title="${attr(longDate(w))}"${prop}>${dateString}</time>`;
}

function timeString(w: { h: number; mi: number }): string {
  const [h, ampm] = twelveHour(w.h);
  return `${h}:${pad2(w.mi)} ${ampm.toUpperCase()}`;
}

function longDate(w: { y: number; mo: number; d: number; h: number; mi: number }): string {
  return `${MONTH_ABBR[w.mo - 1]} ${w.d}, ${w.y} at ${timeString(w)}`;
}

/** `ul.pageNav-main`, printed above and below the posts when the thread has more than one page. */
function pageNav(s: GameScript, page: number, pageCount: number): string {
  if (pageCount <= 1) return '';
  const items: string[] = [];
  for (let n = 1; n <= pageCount; n++) {
    const shown = n === 1 || n === pageCount || Math.abs(n - page) <= 2;
    if (shown) {
      items.push(
        `\t\t\t\t\t<li class="pageNav-page ${n === page ? 'pageNav-page--current ' : ''}"><a href="${attr(pagePath(s, n))}">${n}</a></li>`,
      );
    } else if (n === 2 || n === pageCount - 1) {
      const where = n === 2 ? 'Start' : 'End';
      items.push(
        `\t\t\t\t\t<li class="pageNav-page pageNav-page--skip pageNav-page--skip${where}"><a data-xf-init="tooltip" title="Go to page" data-xf-click="menu" role="button" tabindex="0" aria-expanded="false" aria-haspopup="true">&hellip;</a></li>`,
      );
    }
  }
  const prev =
    page > 1
      ? `\n\t\t\t\t<a href="${attr(pagePath(s, page - 1))}" class="pageNav-jump pageNav-jump--prev">Prev</a>`
      : '';
  const next =
    page < pageCount
      ? `\n\t\t\t\t<a href="${attr(pagePath(s, page + 1))}" class="pageNav-jump pageNav-jump--next">Next</a>`
      : '';
  return `
		<div class="block-outer-main">
			<nav class="pageNavWrapper pageNavWrapper--mixed ">
			<div class="pageNav  ">${prev}
				<ul class="pageNav-main">
${items.join('\n')}
				</ul>${next}
			</div>
			<div class="pageNavSimple">
				<a data-xf-init="tooltip" title="Go to page" class="pageNavSimple-el pageNavSimple-el--current" data-xf-click="menu" role="button" tabindex="0" aria-expanded="false" aria-haspopup="true">${page} of ${pageCount}</a>
			</div>
			</nav>
		</div>
	`;
}

/** BB code output inside `.bbWrapper`, as XF 2.2 renders it. */
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
    case 'strike':
      return `<s>${body(s, post, n.children)}</s>`;
    case 'color':
      return `<span style="color: ${attr(n.color.toLowerCase())}">${body(s, post, n.children)}</span>`;
    case 'quote':
      return quote(s, post, n.author, body(s, post, n.children));
    case 'spoiler': {
      const title = n.title === null ? 'Spoiler' : `<span class="bbCodeSpoiler-button-title">${html(n.title)}</span>`;
      return `

<div class="bbCodeSpoiler">
	<button type="button" class="bbCodeSpoiler-button button--longText button" data-xf-click="toggle" data-xf-init="tooltip" title="Click to reveal or hide spoiler"><span class="button-text">
		<span>
			${title}
		</span>
	</span></button>
	<div class="bbCodeSpoiler-content">
		<div class="bbCodeBlock bbCodeBlock--spoiler">
			<div class="bbCodeBlock-content">${body(s, post, n.children)}</div>
		</div>
	</div>
</div>
`;
    }
    case 'code':
      return `

<div class="bbCodeBlock bbCodeBlock--screenLimited bbCodeBlock--code">
	<div class="bbCodeBlock-title">
		Code:
	</div>
	<div class="bbCodeBlock-content" dir="ltr">
		<pre class="bbCodeCode" dir="ltr" data-xf-init="code-block" data-lang=""><code>${html(n.text)}</code></pre>
	</div>
</div>
`;
    case 'smilie':
      return `<img src="${attr(n.src)}" class="smilie" loading="lazy" alt="${attr(n.alt)}" title="${attr(n.alt)}" data-shortname="${attr(n.alt)}" />`;
    case 'image': {
      const name = n.src.split('/').pop() ?? '';
      return `<img src="${attr(n.src)}" data-url="${attr(n.src)}" class="bbImage " loading="lazy" alt="${attr(name)}" title="${attr(name)}" style="" width="" height="" />`;
    }
    case 'link':
      return n.kind === 'external'
        ? `<a href="${attr(n.href)}" target="_blank" class="link link--external" rel="nofollow ugc noopener">${body(s, post, n.children)}</a>`
        : `<a href="${attr(n.href)}" class="link link--internal">${body(s, post, n.children)}</a>`;
    case 'mention':
      return `<a href="${attr(memberPath(n.name, n.userId))}" class="username" data-xf-init="member-tooltip" data-user-id="${n.userId}" data-username="@${attr(n.name)}">@${html(n.name)}</a>`;
  }
}

/**
 * `[QUOTE="Alice, post: 9002, member: 11"]` as the Reply button writes it: the source is the
 * author's latest post before this one. An anonymous `[QUOTE]` has no title and empty data.
 */
function quote(s: GameScript, post: ScriptPost, author: string | null, inner: string): string {
  if (author === null) {
    return `
<blockquote data-attributes="" data-quote="" data-source="" class="bbCodeBlock bbCodeBlock--expandable bbCodeBlock--quote js-expandWatch">
	<div class="bbCodeBlock-content">
		<div class="bbCodeBlock-expandContent js-expandContent ">
			${inner}
		</div>
		<div class="bbCodeBlock-expandLink js-expandLink"><a role="button" tabindex="0">Click to expand...</a></div>
	</div>
</blockquote>`;
  }
  const uid = userIdOf(s, author);
  const source = [...s.posts].reverse().find((q) => q.author === author && q.n < post.n);
  const said = source
    ? `<a href="/goto/post?id=${source.id}" class="bbCodeBlock-sourceJump" rel="nofollow" data-xf-click="attribution" data-content-selector="#post-${source.id}">${html(author)} said:</a>`
    : `${html(author)} said:`;
  return `
<blockquote data-attributes="${uid === null ? '' : `member: ${uid}`}" data-quote="${attr(author)}" data-source="${source ? `post: ${source.id}` : ''}" class="bbCodeBlock bbCodeBlock--expandable bbCodeBlock--quote js-expandWatch">
	<div class="bbCodeBlock-title">
		${said}
	</div>
	<div class="bbCodeBlock-content">
		<div class="bbCodeBlock-expandContent js-expandContent ">
			${inner}
		</div>
		<div class="bbCodeBlock-expandLink js-expandLink"><a role="button" tabindex="0">Click to expand...</a></div>
	</div>
</blockquote>`;
}
