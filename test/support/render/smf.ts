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
 * SMF 2.1 topic pages as a guest gets them, after Themes/default/Display.template.php
 * (template_single_post): `form#quickModForm` > `div.windowbg` > `div.post_wrapper` with
 * `div.poster h4 a` (`action=profile;u=N`), `div.keyinfo h5` holding the time in
 * `a.smalltext` (board format "%B %d, %Y, %I:%M:%S %p", board zone), `span.page_number`
 * "#N" counting replies (none on the opening post), `span.modified#modified_ID` "Last Edit:
 * DATE by X", body `div.inner[data-msgid]#msg_ID`. BBC output: `blockquote.bbc_standard_quote`
 * with `cite` "Quote from: X on DATE", `img.smiley`, `img.bbc_img`, `a.bbc_link`,
 * `div.codeheader` + `code.bbc_code`, `span.bbc_color`; spoilers come from the common
 * spoiler mod. Pages are post offsets: `index.php?topic=ID.OFFSET`.
 */

const ZONE = 'UTC';
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export const smfRenderer: ThreadRenderer = {
  engine: 'smf',
  threadPath: (s) => `/index.php?topic=${s.thread.id}.0`,
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
  `/index.php?topic=${s.thread.id}.${(page - 1) * s.thread.postsPerPage}`;
const msgUrl = (id: number): string => `/index.php?msg=${id}`;
const profileUrl = (uid: number): string => `/index.php?action=profile;u=${uid}`;

/** The board's time format, in the board's zone: "March 02, 2026, 06:00:00 PM". */
function timeText(iso: string): string {
  const w = wallClock(iso, ZONE);
  const [h, ampm] = twelveHour(w.h);
  return `${MONTHS[w.mo - 1]} ${pad2(w.d)}, ${w.y}, ${pad2(h)}:${pad2(w.mi)}:${pad2(w.s)} ${ampm.toUpperCase()}`;
}

function renderPage(s: GameScript, posts: readonly ScriptPost[], page: number, pageCount: number): string {
  const links: string[] = [];
  for (let n = 1; n <= pageCount; n++) {
    links.push(
      n === page
        ? `<span class="current_page">${n}</span>`
        : `<a class="nav_page" href="${attr(pagePath(s, n))}">${n}</a>`,
    );
  }
  if (page < pageCount)
    links.push(
      `<a class="nav_page" href="${attr(pagePath(s, page + 1))}"><span class="main_icons next_page"></span></a>`,
    );
  const pagelinks = (button: string): string => `<div class="pagelinks floatleft">
				${button}
				<span class="pages">Pages</span>${links.join(' ')}
			</div>`;
  return `<!DOCTYPE html>
<html lang="en-US">
<head>
	<meta charset="UTF-8">
	<title>${html(s.thread.title)}</title>
	<link rel="canonical" href="${attr(pagePath(s, page))}">
	<script>
		var smf_theme_url = "/Themes/default";
		var smf_images_url = "/Themes/default/images";
		var smf_scripturl = "/index.php";
		var smf_session_id = "0123456789abcdef0123456789abcdef";
		var smf_session_var = "c3a9f2e1";
	</script>
</head>
<body id="chrome" class="action_display board_2">
<div id="footerfix">
<div id="content_section">
	<div id="main_content_section">
		<div id="display_head" class="information">
			<h2 class="display_title">
				<span id="top_subject">${html(s.thread.title)}</span>
			</h2>
			<p>Started by ${html(s.posts[0]!.author)}, ${timeText(s.posts[0]!.time)}</p>
		</div><!-- #display_head -->
		<div class="pagesection top">
			${pagelinks('<a href="#bot" class="button">Go Down</a>')}
		</div>
		<div id="forumposts">
			<form action="/index.php?action=quickmod2;topic=${s.thread.id}.${(page - 1) * s.thread.postsPerPage}" method="post" accept-charset="UTF-8" name="quickModForm" id="quickModForm" onsubmit="return oQuickModify.bInEditMode ? oQuickModify.modifySave('0123456789abcdef0123456789abcdef', 'c3a9f2e1') : false">${posts.map((p) => renderPost(s, p)).join('')}
			</form>
		</div><!-- #forumposts -->
		<div class="pagesection">
			${pagelinks('<a href="#main_content_section" class="button" id="bot">Go Up</a>')}
		</div>
	</div><!-- #main_content_section -->
</div><!-- #content_section -->
</div><!-- #footerfix -->
</body>
</html>
`;
}

function author(s: GameScript, name: string): string {
  const uid = userIdOf(s, name);
  return uid === null
    ? html(name)
    : `<a href="${attr(profileUrl(uid))}" title="View the profile of ${attr(name)}">${html(name)}</a>`;
}

function renderPost(s: GameScript, p: ScriptPost): string {
  const counter = p.n - 1;
  const subject = counter === 0 ? html(s.thread.title) : `Re: ${html(s.thread.title)}`;
  const modified = p.edited
    ? `<span class="lastedit">Last Edit</span>: ${timeText(p.edited.time)} by ${html(p.edited.by)}`
    : '';
  return `
				<div class="windowbg">${
          counter === 0
            ? ''
            : `
					<a id="msg${p.id}"></a>`
        }
					<div class="post_wrapper">
						<div class="poster">
							<h4>
								<span class="off" title="Offline"></span>
								${author(s, p.author)}
							</h4>
							<ul class="user_info">
								<li class="membergroup">${p.author === s.posts[0]!.author ? 'Game Moderator' : 'Townsfolk'}</li>
								<li class="postcount">Posts: ${100 + s.posts.filter((q) => q.author === p.author).length}</li>
								<li class="poster_ip">Logged</li>
							</ul>
						</div><!-- .poster -->
						<div class="postarea">
							<div class="keyinfo">
								<div id="subject_${p.id}" class="subject_title subject_hidden">
									<a href="${attr(msgUrl(p.id))}" rel="nofollow">${subject}</a>
								</div>
								<h5>
									<span class="messageicon"  style="position: absolute; z-index: -1;">
										<img src="/Themes/default/images/post/xx.png" alt="">
									</span>
									<a href="${attr(msgUrl(p.id))}" rel="nofollow" title="${counter ? `Reply #${counter} - ` : ''}${subject}" class="smalltext">${timeText(p.time)}</a>
									<span class="page_number floatright">
										${counter ? ` #${counter}` : ''} 
									</span>
									<span class="smalltext modified floatright${modified ? ' mvisible' : ''}" id="modified_${p.id}">${modified}
									</span>
								</h5>
								<div id="msg_${p.id}_quick_mod"></div>
							</div><!-- .keyinfo -->
							<div class="post">
								<div class="inner" data-msgid="${p.id}" id="msg_${p.id}">
									${body(s, p, p.body)}
								</div>
							</div><!-- .post -->
							<div class="under_message">
							</div><!-- .under_message -->
						</div><!-- .postarea -->
						<div class="moderatorbar">
						</div><!-- .moderatorbar -->
					</div><!-- .post_wrapper -->
				</div><!-- $message[css_class] -->
				<hr class="post_separator">`;
}

/** A post body as SMF 2.1's BBC parser writes it (also used by the template renderer). */
export function body(s: GameScript, post: ScriptPost, nodes: readonly ScriptNode[]): string {
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
      return `<span style="color: ${attr(n.color)};" class="bbc_color">${body(s, post, n.children)}</span>`;
    case 'quote': {
      if (n.author === null)
        return `<blockquote class="bbc_standard_quote"><cite>Quote</cite>${body(s, post, n.children)}</blockquote>`;
      const source = [...s.posts].reverse().find((q) => q.author === n.author && q.n < post.n);
      const cite = source
        ? `<a href="${attr(msgUrl(source.id))}">Quote from: ${html(n.author)} on ${timeText(source.time)}</a>`
        : `Quote from: ${html(n.author)}`;
      return `<blockquote class="bbc_standard_quote"><cite>${cite}</cite>${body(s, post, n.children)}</blockquote>`;
    }
    // Core SMF has no spoiler tag; this is the common spoiler mod's output.
    case 'spoiler':
      return `<div class="spoiler"><div class="spoilerheader">${html(n.title ?? 'Spoiler')}</div><div class="spoilerbody" style="display: none;">${body(s, post, n.children)}</div></div>`;
    case 'code':
      return `<div class="codeheader"><span class="code floatleft">Code</span> <a class="codeoperation smf_select_text">Select</a> <a class="codeoperation smf_expand_code hidden" data-shrink-txt="Shrink" data-expand-txt="Expand">Expand</a></div><code class="bbc_code">${html(n.text)}</code>`;
    case 'smilie':
      return `<img src="/Smileys/fugue${attr(n.src.replace(/^.*(\/[^/]+)$/, '$1'))}" alt="${attr(n.alt)}" title="${attr(n.alt)}" class="smiley">`;
    case 'image':
      return `<img src="${attr(n.src)}" alt="" class="bbc_img" loading="lazy">`;
    case 'link':
      return n.kind === 'external'
        ? `<a href="${attr(n.href)}" class="bbc_link" target="_blank" rel="noopener">${body(s, post, n.children)}</a>`
        : `<a href="${attr(n.href)}" class="bbc_link">${body(s, post, n.children)}</a>`;
    case 'mention':
      return `<a href="${attr(profileUrl(n.userId))}" class="mention" data-mention="${n.userId}">@${html(n.name)}</a>`;
  }
}
