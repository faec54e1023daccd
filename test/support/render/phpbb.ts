import {
  DAY_ABBR,
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
 * phpBB 3.3 prosilver viewtopic pages as a guest gets them, modelled on the 3.0 sample
 * (../shared/forum-samples/phpbb3/nettally-phpBB.html) and prosilver's 3.3 templates:
 * `body#phpbb`, `div.post.has-profile.bg1|bg2#pID`, `p.author` with `a.username` and
 * `<time datetime>` (UTC; the text is in the board's zone), `div.content`, `div.notice`
 * "Last edited by X on DATE, edited N time(s) in total.", `.pagination` with `start=`
 * links. As in prosilver's pagination.html, "Page N of M" is printed only for threads of
 * more than 6 pages (in the jump-to-page box); shorter threads show the page links alone.
 */

const BOARD = 'Votal Test Board';
/** The board's default zone (guests see it); phpBB's own default is UTC. */
const ZONE = 'UTC';
const FORUM = { id: 2, title: 'Mafia Games' };

export const phpbbRenderer: ThreadRenderer = {
  engine: 'phpbb',
  threadPath: (script) => `/${topicUrl(script)}`,
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

const topicUrl = (s: GameScript): string => `viewtopic.php?f=${FORUM.id}&t=${s.thread.id}`;
const pageUrl = (s: GameScript, page: number): string =>
  page <= 1 ? topicUrl(s) : `${topicUrl(s)}&start=${(page - 1) * s.thread.postsPerPage}`;
const profileUrl = (uid: number): string => `./memberlist.php?mode=viewprofile&u=${uid}`;
const postUrl = (id: number): string => `./viewtopic.php?p=${id}#p${id}`;

function renderPage(s: GameScript, posts: readonly ScriptPost[], page: number, pageCount: number): string {
  const title = html(s.thread.title);
  const pageTitle = page > 1 ? `${title} - Page ${page} - ${BOARD}` : `${title} - ${BOARD}`;
  const pagination = paginationBox(s, page, pageCount);
  return `<!DOCTYPE html>
<html dir="ltr" lang="en-gb">
<head>
<meta charset="utf-8" />
<meta http-equiv="X-UA-Compatible" content="IE=edge">
<meta name="viewport" content="width=device-width, initial-scale=1" />

<title>${pageTitle}</title>

	<link rel="alternate" type="application/atom+xml" title="Feed - ${attr(BOARD)}" href="/app.php/feed?sid=">
	<link rel="canonical" href="${attr(`./${pageUrl(s, page)}`)}">

<link href="./assets/css/font-awesome.min.css?assets_version=12" rel="stylesheet">
<link href="./styles/prosilver/theme/stylesheet.css?assets_version=12" rel="stylesheet">
<link href="./styles/prosilver/theme/en/stylesheet.css?assets_version=12" rel="stylesheet">

</head>
<body id="phpbb" class="nojs notouch section-viewtopic ltr ">


<div id="wrap" class="wrap">
	<a id="top" class="top-anchor" accesskey="t"></a>
	<div id="page-header">
		<div class="headerbar" role="banner">
			<div class="inner">

			<div id="site-description" class="site-description">
				<a id="logo" class="logo" href="./index.php" title="Board index">
					<span class="site_logo"></span>
				</a>
				<h1>${html(BOARD)}</h1>
				<p>Forum Mafia, one Day at a time</p>
				<p class="skiplink"><a href="#start_here">Skip to content</a></p>
			</div>

			<div id="search-box" class="search-box search-header" role="search">
				<form action="./search.php" method="get" id="search">
				<fieldset>
					<input name="keywords" id="keywords" type="search" maxlength="128" title="Search for keywords" class="inputbox search tiny" size="20" value="" placeholder="Search…" />
					<button class="button button-search" type="submit" title="Search">
						<i class="icon fa-search fa-fw" aria-hidden="true"></i><span class="sr-only">Search</span>
					</button>
				</fieldset>
				</form>
			</div>

			</div>
		</div>
		<div class="navbar" role="navigation">
			<div class="inner">

			<ul id="nav-main" class="nav-main linklist" role="menubar">
				<li><a href="/app.php/help/faq" rel="help" title="Frequently Asked Questions" role="menuitem"><i class="icon fa-question-circle fa-fw" aria-hidden="true"></i><span>FAQ</span></a></li>
				<li class="rightside"><a href="./ucp.php?mode=login&amp;redirect=viewtopic.php%3Ft%3D${s.thread.id}" title="Login" accesskey="x" role="menuitem"><i class="icon fa-power-off fa-fw" aria-hidden="true"></i><span>Login</span></a></li>
				<li class="rightside"><a href="./ucp.php?mode=register" role="menuitem"><i class="icon fa-pencil-square-o  fa-fw" aria-hidden="true"></i><span>Register</span></a></li>
			</ul>

			<ul id="nav-breadcrumbs" class="nav-breadcrumbs linklist navlinks" role="menubar">
				<li class="breadcrumbs" itemscope itemtype="https://schema.org/BreadcrumbList">
					<span class="crumb" itemtype="https://schema.org/ListItem" itemprop="itemListElement" itemscope><a itemprop="item" href="./index.php" accesskey="h" data-navbar-reference="index"><i class="icon fa-home fa-fw"></i><span itemprop="name">Board index</span></a><meta itemprop="position" content="1" /></span>
					<span class="crumb" itemtype="https://schema.org/ListItem" itemprop="itemListElement" itemscope data-forum-id="${FORUM.id}"><a itemprop="item" href="./viewforum.php?f=${FORUM.id}"><span itemprop="name">${html(FORUM.title)}</span></a><meta itemprop="position" content="2" /></span>
				</li>
			</ul>

			</div>
		</div>
	</div>


	<a id="start_here" class="anchor"></a>
	<div id="page-body" class="page-body" role="main">

<h2 class="topic-title"><a href="${attr(`./${topicUrl(s)}`)}">${title}</a></h2>
<!-- NOTE: remove the style="display: none" when you want to have the forum description on the topic body -->

<div class="action-bar bar-top">
	<a href="./posting.php?mode=reply&amp;f=${FORUM.id}&amp;t=${s.thread.id}" class="button" title="Post a reply">
		<span>Post Reply</span> <i class="icon fa-reply fa-fw" aria-hidden="true"></i>
	</a>

	<div class="search-box" role="search">
		<form method="get" id="topic-search" action="./search.php">
		<fieldset>
			<input class="inputbox search tiny"  type="search" name="keywords" id="search_keywords" size="20" placeholder="Search this topic…" />
			<button class="button button-search" type="submit" title="Search"><i class="icon fa-search fa-fw" aria-hidden="true"></i><span class="sr-only">Search</span></button>
			<input type="hidden" name="t" value="${s.thread.id}" />
			<input type="hidden" name="sf" value="msgonly" />
		</fieldset>
		</form>
	</div>

${pagination}
</div>

${posts.map((p, i) => renderPost(s, p, i)).join('')}
<div class="action-bar bar-bottom">
	<a href="./posting.php?mode=reply&amp;f=${FORUM.id}&amp;t=${s.thread.id}" class="button" title="Post a reply">
		<span>Post Reply</span> <i class="icon fa-reply fa-fw" aria-hidden="true"></i>
	</a>

${pagination}
</div>

<div class="action-bar actions-jump">
	<p class="jumpbox-return">
		<a href="./viewforum.php?f=${FORUM.id}" class="left-box arrow-left" accesskey="r">
			<i class="icon fa-angle-left fa-fw icon-black" aria-hidden="true"></i><span>Return to &ldquo;${html(FORUM.title)}&rdquo;</span>
		</a>
	</p>
</div>

	</div>


<div id="page-footer" class="page-footer" role="contentinfo">
	<div class="navbar" role="navigation">
		<div class="inner">
		<ul id="nav-footer" class="nav-footer linklist" role="menubar">
			<li class="breadcrumbs"><span class="crumb"><a href="./index.php" data-navbar-reference="index"><i class="icon fa-home fa-fw" aria-hidden="true"></i><span>Board index</span></a></span></li>
			<li class="rightside">All times are <span title="UTC">UTC</span></li>
		</ul>
		</div>
	</div>

	<div class="copyright">
		<p class="footer-row">
			<span class="footer-copyright">Powered by <a href="https://www.phpbb.com/">phpBB</a>&reg; Forum Software &copy; phpBB Limited</span>
		</p>
	</div>
</div>

</div>

<div>
	<a id="bottom" class="anchor" accesskey="z"></a>
</div>

<script src="./assets/javascript/jquery-3.6.0.min.js?assets_version=12"></script>
<script src="./assets/javascript/core.js?assets_version=12"></script>
<script src="./styles/prosilver/template/forum_fn.js?assets_version=12"></script>
<script src="./styles/prosilver/template/ajax.js?assets_version=12"></script>

</body>
</html>
`;
}

function renderPost(s: GameScript, p: ScriptPost, row: number): string {
  const uid = userIdOf(s, p.author)!;
  const first = p.n === 1;
  const subject = first ? html(s.thread.title) : `Re: ${html(s.thread.title)}`;
  const postsByAuthor = s.posts.filter((q) => q.author === p.author).length;
  const notice = p.edited
    ? `

			<div class="notice">
				Last edited by ${username(s, p.edited.by)} on ${dateText(p.edited.time)}, edited 1 time in total.
			</div>`
    : '';
  return `		<div id="p${p.id}" class="post has-profile ${row % 2 === 0 ? 'bg2' : 'bg1'}">
		<div class="inner">

		<dl class="postprofile" id="profile${p.id}">
			<dt class="no-profile-rank no-avatar">
				<div class="avatar-container">
				</div>
				${username(s, p.author)}
			</dt>

			<dd class="profile-posts"><strong>Posts:</strong> <a href="./search.php?author_id=${uid}&amp;sr=posts">${100 + postsByAuthor}</a></dd>
			<dd class="profile-joined"><strong>Joined:</strong> Mon Jan 05, 2026 8:00 pm</dd>

		</dl>

		<div class="postbody">
			<div id="post_content${p.id}">

			<h3 ${first ? 'class="first"' : ''}><a href="${attr(postUrl(p.id))}">${subject}</a></h3>

			<ul class="post-buttons">
				<li>
					<a href="./posting.php?mode=quote&amp;p=${p.id}" title="Reply with quote" class="button button-icon-only">
						<i class="icon fa-quote-left fa-fw" aria-hidden="true"></i><span class="sr-only">Quote</span>
					</a>
				</li>
			</ul>

			<p class="author">
				<a class="unread" href="${attr(postUrl(p.id))}" title="Post">
					<i class="icon fa-file fa-fw icon-lightgray icon-md" aria-hidden="true"></i><span class="sr-only">Post</span>
				</a>
				<span class="responsive-hide">by <strong>${username(s, p.author)}</strong> &raquo; </span><time datetime="${rfc3339(p.time)}">${dateText(p.time)}</time>
			</p>

			<div class="content">${body(s, p, p.body)}</div>${notice}

			</div>

		</div>

		<div class="back2top">
			<a href="#top" class="top" title="Top">
				<i class="icon fa-chevron-circle-up fa-fw icon-gray" aria-hidden="true"></i>
				<span class="sr-only">Top</span>
			</a>
		</div>

		</div>
	</div>

	<hr class="divider" />
`;
}

/** A member link; the thread starter (the game's host) is staff, shown in the group colour. */
function username(s: GameScript, name: string): string {
  const uid = userIdOf(s, name);
  if (uid === null) return `<span class="username">${html(name)}</span>`;
  return name === s.posts[0]!.author
    ? `<a href="${attr(profileUrl(uid))}" style="color: #AA0000;" class="username-coloured">${html(name)}</a>`
    : `<a href="${attr(profileUrl(uid))}" class="username">${html(name)}</a>`;
}

/** `POST_DATE_RFC3339`: the instant in UTC. */
function rfc3339(iso: string): string {
  const w = wallClock(iso, 'UTC');
  return `${w.y}-${pad2(w.mo)}-${pad2(w.d)}T${pad2(w.h)}:${pad2(w.mi)}:${pad2(w.s)}${offsetText(w.offsetMinutes, ':')}`;
}

/** The board's default date format `D M d, Y g:i a`, in the board's zone. */
function dateText(iso: string): string {
  const w = wallClock(iso, ZONE);
  const [h, ampm] = twelveHour(w.h);
  return `${DAY_ABBR[w.weekday]} ${MONTH_ABBR[w.mo - 1]} ${pad2(w.d)}, ${w.y} ${h}:${pad2(w.mi)} ${ampm}`;
}

/** `.pagination`: "N posts", then the page list (with the jump box and "Page N of M" above 6 pages). */
function paginationBox(s: GameScript, page: number, pageCount: number): string {
  const total = `${s.posts.length} post${s.posts.length === 1 ? '' : 's'}`;
  if (pageCount <= 1) {
    return `	<div class="pagination">
		${total}
		&bull; Page <strong>1</strong> of <strong>1</strong>
	</div>`;
  }
  const href = (n: number): string => attr(`./${pageUrl(s, n)}`);
  const items: string[] = [];
  if (pageCount > 6) {
    items.push(`		<li class="dropdown-container dropdown-button-control dropdown-page-jump page-jump">
			<a class="button button-icon-only dropdown-trigger" href="#" title="Click to jump to page…" role="button"><i class="icon fa-level-down fa-rotate-270" aria-hidden="true"></i><span class="sr-only">Page <strong>${page}</strong> of <strong>${pageCount}</strong></span></a>
			<div class="dropdown">
				<div class="pointer"><div class="pointer-inner"></div></div>
				<ul class="dropdown-contents">
					<li>Jump to page:</li>
					<li class="page-jump-form">
						<input type="number" name="page-number" min="1" max="${pageCount}" maxlength="6" title="Enter the page number you wish to go to" class="inputbox tiny" data-per-page="${s.thread.postsPerPage}" data-base-url="${attr(`./${topicUrl(s)}`)}" data-start-name="start" />
						<input class="button2" value="Go" type="button" />
					</li>
				</ul>
			</div>
		</li>`);
  }
  if (page > 1) {
    items.push(
      `		<li class="arrow previous"><a class="button button-circle" href="${href(page - 1)}" tabindex="-1" role="button"><i class="icon fa-chevron-left fa-fw" aria-hidden="true"></i><span class="sr-only">Previous</span></a></li>`,
    );
  }
  let gap = false;
  for (let n = 1; n <= pageCount; n++) {
    const shown = pageCount <= 6 || n === 1 || n === pageCount || Math.abs(n - page) <= 1;
    if (!shown) {
      if (!gap) items.push(`		<li class="ellipsis" role="separator"><span>…</span></li>`);
      gap = true;
      continue;
    }
    gap = false;
    items.push(
      n === page
        ? `		<li class="active"><span>${n}</span></li>`
        : `		<li><a class="button" href="${href(n)}" role="button">${n}</a></li>`,
    );
  }
  if (page < pageCount) {
    items.push(
      `		<li class="arrow next"><a class="button button-circle" href="${href(page + 1)}" tabindex="-1" role="button"><i class="icon fa-chevron-right fa-fw" aria-hidden="true"></i><span class="sr-only">Next</span></a></li>`,
    );
  }
  return `	<div class="pagination">
		${total}
		<ul>
${items.join('\n')}
		</ul>
	</div>`;
}

/** The message HTML phpBB 3.3's text formatter stores and prints inside `div.content`. */
function body(s: GameScript, post: ScriptPost, nodes: readonly ScriptNode[]): string {
  return nodes.map((n) => node(s, post, n)).join('');
}

function node(s: GameScript, post: ScriptPost, n: ScriptNode): string {
  switch (n.op) {
    case 'text':
      return html(n.text);
    case 'br':
      return '<br>\n';
    case 'bold':
      return `<strong class="text-strong">${body(s, post, n.children)}</strong>`;
    case 'italic':
      return `<em class="text-italics">${body(s, post, n.children)}</em>`;
    // [s] is a custom BBCode on phpBB 3 boards; this is the usual replacement.
    case 'strike':
      return `<span style="text-decoration: line-through">${body(s, post, n.children)}</span>`;
    case 'color':
      return `<span style="color:${attr(n.color)}">${body(s, post, n.children)}</span>`;
    case 'quote':
      return quote(s, post, n.author, body(s, post, n.children));
    // Core phpBB has no spoiler; boards add a custom BBCode such as this one.
    case 'spoiler':
      return `<details class="spoiler"><summary>${html(n.title ?? 'Spoiler')}</summary><div class="spoiler-content">${body(s, post, n.children)}</div></details>`;
    case 'code':
      return `<div class="codebox"><p>Code: <a href="#" onclick="selectCode(this); return false;">Select all</a></p><pre><code>${html(n.text)}</code></pre></div>`;
    case 'smilie':
      return `<img class="smilies" src="${attr(n.src)}" width="20" height="20" alt="${attr(n.alt)}" title="${attr(n.alt)}">`;
    case 'image':
      return `<img src="${attr(n.src)}" class="postimage" alt="Image">`;
    case 'link':
      return `<a href="${attr(n.href)}" class="${n.kind === 'external' ? 'postlink' : 'postlink-local'}">${body(s, post, n.children)}</a>`;
    // Core phpBB 3.3 has no @mentions; mention extensions print a profile link like this.
    case 'mention':
      return `<a href="${attr(profileUrl(n.userId))}" class="mention">@${html(n.name)}</a>`;
  }
}

/**
 * `[quote="Alice" post_id=9002 time=… user_id=11]` as the Quote button writes it (the
 * source is the author's latest post before this one); `[quote]` without a name is
 * `blockquote.uncited`.
 */
function quote(s: GameScript, post: ScriptPost, author: string | null, inner: string): string {
  if (author === null) return `<blockquote class="uncited"><div>${inner}</div></blockquote>`;
  const uid = userIdOf(s, author);
  const source = [...s.posts].reverse().find((q) => q.author === author && q.n < post.n);
  const who = uid === null ? html(author) : `<a href="${attr(profileUrl(uid))}">${html(author)}</a>`;
  const jump = source
    ? ` <a href="${attr(postUrl(source.id))}" data-post-id="${source.id}" onclick="if(document.getElementById(hash.substr(1)))href=hash">↑</a><span class="responsive-hide">${dateText(source.time)}</span>`
    : '';
  const cite = source ? ` cite="${attr(postUrl(source.id))}"` : '';
  return `<blockquote${cite}><div><cite>${who} wrote:${jump}</cite>${inner}</div></blockquote>`;
}
