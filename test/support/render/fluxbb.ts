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
 * FluxBB 1.5 topic pages as a guest gets them, written after fluxbb/fluxbb 5a2f95a3
 * (fixtures/fluxbb/README.md): include/template/main.tpl (`div#punviewtopic.pun`, the board
 * header), viewtopic.php (`div.blockpost#pID` with "#N" in `span.conr` and the time as the
 * permalink `viewtopic.php?pid=ID#pID`, `div.postleft dt strong` with the profile link,
 * `div.postmsg`, `p.postedit` "Last edited by X (DATE)", the signature box, the
 * `p.pagelink` of `paginate()` and the `ul.crumbs` of `generate_crumbs()`), and
 * include/parser.php's `do_bbcode` (`<strong>`, `<em>`, `span.bbs`, `<span style="color:
 * …">`, `div.quotebox` > `cite` "X wrote:" + `blockquote`, `div.codebox` > `pre` > `code`,
 * `span.postimg`, `handle_url_tag` links with `rel="nofollow"`, smilies from `img/smilies/`).
 * Times are `format_time` with the default formats "Y-m-d" and "H:i:s" in the board's zone
 * (UTC); a guest sees absolute dates once the posts are older than yesterday.
 *
 * FluxBB has no [spoiler] tag and no mentions: a spoiler stays literal text around the inner
 * BBCode (which still renders) and a mention is the name typed (`asFluxbbWrites`).
 */

const BOARD = 'Votal Test Board';
const FORUM = { id: 2, title: 'Mafia Games' };
const ZONE = 'UTC';
/** include/parser.php's `$smilies`: the code typed and the picture it becomes. */
const SMILIES: Record<string, string> = { ':)': 'smile.png', ':D': 'big_smile.png' };

export const fluxbbRenderer: ThreadRenderer = {
  engine: 'fluxbb',
  threadPath: (s) => `/${topicUrl(s)}`,
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

/** A script body as players write it on FluxBB: no spoiler tag, no mentions. */
function asFluxbbWrites(nodes: readonly ScriptNode[]): ScriptNode[] {
  return nodes.flatMap((n): ScriptNode[] => {
    switch (n.op) {
      case 'spoiler':
        return [
          { op: 'text', text: n.title === null ? '[spoiler]' : `[spoiler=${n.title}]` },
          ...asFluxbbWrites(n.children),
          { op: 'text', text: '[/spoiler]' },
        ];
      case 'mention':
        return [{ op: 'text', text: n.name }];
      case 'bold':
      case 'italic':
      case 'strike':
      case 'color':
      case 'quote':
      case 'link':
        return [{ ...n, children: asFluxbbWrites(n.children) }];
      default:
        return [n];
    }
  });
}

/** What a reader gets back from FluxBB: as written there, smilies named by their picture ("smile"). */
export function asFluxbbShows(nodes: readonly ScriptNode[]): ScriptNode[] {
  const named = (ns: readonly ScriptNode[]): ScriptNode[] =>
    ns.map((n) =>
      n.op === 'smilie'
        ? { ...n, alt: (SMILIES[n.alt] ?? 'smile.png').replace(/\.png$/, '') }
        : 'children' in n
          ? ({ ...n, children: named(n.children) } as ScriptNode)
          : n,
    );
  return named(asFluxbbWrites(nodes));
}

const topicUrl = (s: GameScript): string => `viewtopic.php?id=${s.thread.id}`;
const pageUrl = (s: GameScript, page: number): string => (page <= 1 ? topicUrl(s) : `${topicUrl(s)}&p=${page}`);

/** `format_time`: "2026-03-02 18:00:00" in the board's zone. */
function formatTime(iso: string): string {
  const w = wallClock(iso, ZONE);
  return `${w.y}-${pad2(w.mo)}-${pad2(w.d)} ${pad2(w.h)}:${pad2(w.mi)}:${pad2(w.s)}`;
}

function renderPage(s: GameScript, posts: readonly ScriptPost[], page: number, pageCount: number): string {
  const subject = html(s.thread.title);
  const crumbs = `<ul class="crumbs">
				<li><a href="index.php">Index</a></li>
				<li><span>»&#160;</span><a href="viewforum.php?id=${FORUM.id}">${html(FORUM.title)}</a></li>
				<li><span>»&#160;</span><strong><a href="${attr(topicUrl(s))}">${subject}</a></strong></li>
			</ul>`;
  const pagelink = `<p class="pagelink conl"><span class="pages-label">Pages </span>${paginate(s, page, pageCount)}</p>`;
  const next =
    page < pageCount ? `\n<link rel="next" href="${attr(pageUrl(s, page + 1))}" title="Page ${page + 1}" />` : '';
  const prev = page > 1 ? `\n<link rel="prev" href="${attr(pageUrl(s, page - 1))}" title="Page ${page - 1}" />` : '';
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en" dir="ltr">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8" />
<title>${subject} / ${html(FORUM.title)} / ${html(BOARD)}</title>
<link rel="stylesheet" type="text/css" href="style/Air.css" />
<link rel="canonical" href="${attr(pageUrl(s, page))}" title="Page ${page}" />${prev}${next}
<link rel="alternate" type="application/atom+xml" href="extern.php?action=feed&amp;tid=${s.thread.id}&amp;type=atom" title="Atom topic feed" />
</head>

<body>

<div id="punviewtopic" class="pun">
<div class="top-box"></div>
<div class="punwrap">

<div id="brdheader" class="block">
	<div class="box">
		<div id="brdtitle" class="inbox">
			<h1><a href="index.php">${html(BOARD)}</a></h1>
			<div id="brddesc"><p>Forum Mafia, one Day at a time</p></div>
		</div>
		<div id="brdmenu" class="inbox">
			<ul>
				<li id="navindex" class="isactive"><a href="index.php">Index</a></li>
				<li id="navuserlist"><a href="userlist.php">User list</a></li>
				<li id="navsearch"><a href="search.php">Search</a></li>
				<li id="navregister"><a href="register.php">Register</a></li>
				<li id="navlogin"><a href="login.php">Login</a></li>
			</ul>
		</div>
		<div id="brdwelcome" class="inbox">
			<p class="conl">You are not logged in.</p>
		</div>
	</div>
</div>

<div id="brdmain">
<div class="linkst">
	<div class="inbox crumbsplus">
		${crumbs}
		<div class="pagepost">
			${pagelink}
		</div>
		<div class="clearer"></div>
	</div>
</div>

${posts.map((p, i) => renderPost(s, p, i + 1, page)).join('\n')}

<div class="postlinksb">
	<div class="inbox crumbsplus">
		<div class="pagepost">
			${pagelink}
		</div>
		${crumbs}
		<div class="clearer"></div>
	</div>
</div>
</div>

<div id="brdfooter" class="block">
	<h2><span>Board footer</span></h2>
	<div class="box">
		<div class="inbox">
			<p id="poweredby">Powered by <a href="http://fluxbb.org/">FluxBB</a></p>
			<div class="clearer"></div>
		</div>
	</div>
</div>

</div>
<div class="end-box"></div>
</div>

</body>
</html>
`;
}

/** include/functions.php `paginate()`: the current page bold, the others linked, "Next"/"Previous" words. */
function paginate(s: GameScript, page: number, pageCount: number): string {
  if (pageCount <= 1) return '<strong class="item1">1</strong>';
  const items: string[] = [];
  const first = (): string => (items.length === 0 ? ' class="item1"' : '');
  if (page > 1) items.push(`<a rel="prev"${first()} href="${attr(pageUrl(s, page - 1))}">Previous</a>`);
  for (let n = 1; n <= pageCount; n++) {
    items.push(n === page ? `<strong${first()}>${n}</strong>` : `<a${first()} href="${attr(pageUrl(s, n))}">${n}</a>`);
  }
  if (page < pageCount) items.push(`<a rel="next" href="${attr(pageUrl(s, page + 1))}">Next</a>`);
  return items.join(' ');
}

function renderPost(s: GameScript, p: ScriptPost, count: number, page: number): string {
  const uid = userIdOf(s, p.author)!;
  const first = p.n === 1;
  const start = (page - 1) * s.thread.postsPerPage;
  const edit = p.edited
    ? `\n						<p class="postedit"><em>Last edited by ${html(p.edited.by)} (${formatTime(p.edited.time)})</em></p>`
    : '';
  const title = p.author === s.posts[0]!.author ? 'Moderator' : 'Member';
  return `<div id="p${p.id}" class="blockpost${count % 2 === 0 ? ' roweven' : ' rowodd'}${first ? ' firstpost' : ''}${count === 1 ? ' blockpost1' : ''}">
	<h2><span><span class="conr">#${start + count}</span> <a href="viewtopic.php?pid=${p.id}#p${p.id}">${formatTime(p.time)}</a></span></h2>
	<div class="box">
		<div class="inbox">
			<div class="postbody">
				<div class="postleft">
					<dl>
						<dt><strong><a href="profile.php?id=${uid}">${html(p.author)}</a></strong></dt>
						<dd class="usertitle"><strong>${title}</strong></dd>
						<dd><span>Registered: 2026-01-05</span></dd>
						<dd><span>Posts: ${100 + s.posts.filter((q) => q.author === p.author).length}</span></dd>
					</dl>
				</div>
				<div class="postright">
					<h3>${first ? '' : 'Re: '}${html(s.thread.title)}</h3>
					<div class="postmsg">
						${message(s, p.body)}${edit}
					</div>
				</div>
			</div>
		</div>
		<div class="inbox">
			<div class="postfoot clearb">
				<div class="postfootleft"><p><span>Offline</span></p></div>
			</div>
		</div>
	</div>
</div>`;
}

/** `parse_message`: the BBCode as HTML inside `<p>`, blocks (quote, code) closing and reopening it. */
function message(s: GameScript, nodes: readonly ScriptNode[]): string {
  return `<p>${body(s, asFluxbbWrites(nodes))}</p>`.replace(/<p><\/p>/g, '');
}

function body(s: GameScript, nodes: readonly ScriptNode[]): string {
  return nodes.map((n) => node(s, n)).join('');
}

function node(s: GameScript, n: ScriptNode): string {
  switch (n.op) {
    case 'text':
      return html(n.text);
    case 'br':
      return '<br />';
    case 'bold':
      return `<strong>${body(s, n.children)}</strong>`;
    case 'italic':
      return `<em>${body(s, n.children)}</em>`;
    case 'strike':
      return `<span class="bbs">${body(s, n.children)}</span>`;
    case 'color':
      return `<span style="color: ${attr(n.color)}">${body(s, n.children)}</span>`;
    case 'quote': {
      const cite = n.author === null ? '' : `<cite>${html(n.author)} wrote:</cite>`;
      return `</p><div class="quotebox">${cite}<blockquote><div><p>${body(s, n.children)}</p></div></blockquote></div><p>`;
    }
    case 'code':
      return `</p><div class="codebox"><pre><code>${html(n.text)}</code></pre></div><p>`;
    case 'smilie': {
      const file = SMILIES[n.alt] ?? 'smile.png';
      return `<img src="img/smilies/${file}" width="15" height="15" alt="${file.replace(/\.png$/, '')}" />`;
    }
    case 'image':
      return `<span class="postimg"><img src="${attr(n.src)}" alt="${attr(n.src.replace(/^.*\//, ''))}" /></span>`;
    case 'link':
      return `<a href="${attr(n.href)}" rel="nofollow">${body(s, n.children)}</a>`;
    // Rewritten as typed text by asFluxbbWrites; kept for the switch to be whole.
    case 'spoiler':
      return body(s, n.children);
    case 'mention':
      return html(n.name);
  }
}
