import {
  escapeAttr as attr,
  escapeHtml as html,
  pad2,
  twelveHour,
  userIdOf,
  wallClock,
  type GameScript,
  type ScriptNode,
  type ScriptPost,
} from '../game-script.js';
import type { RenderedPage, ThreadRenderer } from './index.js';

/**
 * Vanilla 2/3 discussion pages as a guest gets them (no JavaScript), written after Vanilla's
 * own views at vanilla/vanilla 76c2333708 (release/2025.010; fixtures/vanilla/README.md):
 * applications/vanilla/views/discussion/index.php (the `div.PageTitle` h1, the discussion on
 * page 1 only, the comments with `PagerBefore`/`PagerAfter`), discussion.php (the
 * `div.ItemDiscussion#Discussion_ID`) and helper_functions.php `writeComment` (the
 * `li.ItemComment#Comment_ID`, the permalink `name="Item_N"` with N the comment's offset,
 * `Gdn_Format::date` as `<time title datetime>`, `dateUpdated` as `span.DateUpdated`).
 * Bodies are what the BBCode formatter (library/core/class.bbcode.php over Nbbc) prints,
 * the formatter that shows every feature of the standard game: `<b>`, `<i>`, `<strike>`,
 * `<span style="color:…">`, `doQuote`'s `blockquote.Quote.UserQuote` with `div.QuoteAuthor`
 * "X wrote: »", `[spoiler]` as an untitled `div.Spoiler` (the title is added by JavaScript),
 * `[code]` as `<pre><code>`, `doImage`'s `img.bbcode_img`, emoji as `img.emoji`, and
 * `Gdn_Format::mentions` linking "@Name" to `/profile/Name`. The page layout (the discussion
 * above a full page of comments) is Vanilla's: 8 comments a page here.
 */

const FORUM = { title: 'Votal Test Community', category: 'Mafia Games', categoryUrl: '/categories/mafia-games' };
/** The guest's zone (Garden.GuestTimeZone). */
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

export const vanillaRenderer: ThreadRenderer = {
  engine: 'vanilla',
  threadPath: (s) => discussionUrl(s),
  render(script: GameScript): RenderedPage[] {
    const pages = vanillaPages(script);
    return pages.map((posts, i) => {
      const page = i + 1;
      return {
        page,
        path: pageUrl(script, page),
        file: `page-${page}.html`,
        body: renderPage(script, posts, page, pages.length),
      };
    });
  },
};

/** Page 1: the discussion and a page of comments; then a page of comments each. */
function vanillaPages(s: GameScript): ScriptPost[][] {
  const per = s.thread.postsPerPage;
  const [first, ...comments] = s.posts;
  const pages: ScriptPost[][] = [];
  for (let i = 0; i < comments.length; i += per) pages.push(comments.slice(i, i + per));
  pages[0] = [first!, ...(pages[0] ?? [])];
  return pages;
}

const discussionUrl = (s: GameScript): string => `/discussion/${s.thread.id}/${s.thread.slug}`;
const pageUrl = (s: GameScript, page: number): string => `${discussionUrl(s)}${page > 1 ? `/p${page}` : ''}`;
const commentUrl = (id: number): string => `/discussion/comment/${id}/#Comment_${id}`;
const profileUrl = (name: string): string => `/profile/${encodeURIComponent(name)}`;

/** `Gdn_Format::dateFull`: "March 2, 2026 6:00PM". */
function fullDate(iso: string): string {
  const w = wallClock(iso, ZONE);
  const [h, ampm] = twelveHour(w.h);
  return `${MONTHS[w.mo - 1]} ${w.d}, ${w.y} ${h}:${pad2(w.mi)}${ampm.toUpperCase()}`;
}

/** `Gdn_Format::date($d, 'html')`: this year's dates as "March 2", with the full date and machine time. */
function dateHtml(iso: string): string {
  const w = wallClock(iso, ZONE);
  const stamp = `${w.y}-${pad2(w.mo)}-${pad2(w.d)}T${pad2(w.h)}:${pad2(w.mi)}:${pad2(w.s)}+00:00`;
  return `<time title="${fullDate(iso)}" datetime="${stamp}">${MONTHS[w.mo - 1]} ${w.d}</time>`;
}

function renderPage(s: GameScript, posts: readonly ScriptPost[], page: number, pageCount: number): string {
  const title = html(s.thread.title);
  const comments = posts.filter((p) => p.n > 1);
  const discussion = posts.find((p) => p.n === 1);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="X-UA-Compatible" content="IE=edge">
<title>${title} — ${html(FORUM.title)}</title>
<link rel="stylesheet" href="/applications/dashboard/design/style.css?v=3.3" media="all" />
<link rel="stylesheet" href="/applications/vanilla/design/spoilers.css?v=3.3" media="all" />
<link rel="canonical" href="${attr(pageUrl(s, page))}" />
<meta property="og:type" content="article" />
<meta property="og:site_name" content="${attr(FORUM.title)}" />
<script>gdn=window.gdn||{};gdn.meta={"DiscussionID":"${s.thread.id}","Category":"${attr(FORUM.category)}"};</script>
</head>
<body id="vanilla_discussion_index" class="Vanilla Discussion isDesktop index Section-Discussion UserLoggedOut locale-en">
<div id="Frame">
<div class="Frame-top">
<div class="Frame-header"><header id="titleBar" class="titleBar"><a href="/" class="Title">${html(FORUM.title)}</a>
<div class="SignInLinks"><a href="/entry/signin" class="SignInPopup" rel="nofollow">Sign In</a> <a href="/entry/register" class="ApplyButton" rel="nofollow">Register</a></div></header></div>
<div class="Frame-body">
<div class="Frame-content">
<div class="Container">
<div class="Frame-contentWrap">
<div class="Frame-details">
<div class="Frame-row">
<main class="Content MainContent">
<div class="BreadcrumbsBox"><span class="Breadcrumbs" itemscope itemtype="http://data-vocabulary.org/Breadcrumb"><span class="CrumbLabel CrumbLabel HomeCrumb"><a href="/" itemprop="url"><span itemprop="title">Home</span></a></span> <span class="Crumb">›</span> <span class="CrumbLabel Category-mafia-games Last"><a href="${attr(FORUM.categoryUrl)}" itemprop="url"><span itemprop="title">${html(FORUM.category)}</span></a></span></span></div>
<div class="MessageList Discussion">
<div id="Item_0" class="PageTitle"><div class="Options"></div><h1>${title}</h1></div>
${discussion ? renderDiscussion(s, discussion) : ''}</div><div class="CommentsWrap"><span class="BeforeCommentHeading">${pager(s, page, pageCount, 'span', 'PagerBefore')}</span><div class="DataBox DataBox-Comments"><h2 class="CommentHeading">Comments</h2> <ul class="MessageList DataList Comments">
${comments.map((p, i) => renderComment(s, p, i)).join('')}</ul>
</div><div class="P PagerWrap">${pager(s, page, pageCount, 'div', 'PagerAfter')}</div></div>
<div class="Foot Closed"><div class="Note Closed SignInOrRegister"><a href="/entry/signin" class="Popup" rel="nofollow">Sign In</a> or <a href="/entry/register" rel="nofollow">Register</a> to comment.</div></div>
</main>
</div>
</div>
</div>
</div>
</div>
</div>
<div class="Frame-footer"><div class="Footer"><a href="https://open.vanillaforums.com/" class="PoweredByVanilla" title="Community Software by Vanilla Forums">Forum Software Powered by Vanilla</a></div></div>
</div>
</div>
</body>
</html>
`;
}

/** PagerModule's NumberedPager: «, the page links (the current one `Highlight`), ». */
function pager(s: GameScript, page: number, pageCount: number, tag: 'span' | 'div', id: string): string {
  if (pageCount <= 1) return '';
  const items: string[] = [];
  items.push(
    page > 1
      ? `<a href="${attr(pageUrl(s, page - 1))}" class="Previous Pager-nav" rel="prev">«</a>`
      : `<span class="Previous Pager-nav" aria-disabled="true">«</span>`,
  );
  for (let n = 1; n <= pageCount; n++) {
    const cls = [
      n === page ? 'Highlight' : '',
      'Pager-p',
      `p-${n}`,
      n === 1 ? 'FirstPage' : '',
      n === pageCount ? 'LastPage' : '',
    ]
      .filter(Boolean)
      .join(' ');
    const current = n === page ? ' aria-current="page"' : '';
    const rel = n === page + 1 ? ' rel="next"' : n === page - 1 ? ' rel="prev"' : '';
    items.push(`<a href="${attr(pageUrl(s, n))}" class="${cls}" aria-label="Page ${n}"${current}${rel}>${n}</a>`);
  }
  items.push(
    page < pageCount
      ? `<a href="${attr(pageUrl(s, page + 1))}" class="Next Pager-nav" rel="next">»</a>`
      : `<span class="Next Pager-nav" aria-disabled="true">»</span>`,
  );
  return `<${tag} role="navigation" aria-label="pagination" id="${id}" class="Pager PagerLinkCount-${pageCount} NumberedPager"> ${items.join('')} </${tag}>`;
}

/** `userAnchor`: the profile link, with the member's id for the hover card. */
function author(s: GameScript, p: ScriptPost): string {
  const href = attr(profileUrl(p.author));
  const uid = userIdOf(s, p.author);
  return `<span class="Author">
<a title="${attr(p.author)}" href="${href}" class="PhotoWrap Offline"><img src="/applications/dashboard/design/images/defaulticon.png" alt="${attr(p.author)}" class="ProfilePhoto ProfilePhotoMedium" /></a><a href="${href}" class="Username js-userCard" data-userid="${uid}">${html(p.author)}</a> </span>
<span class="AuthorInfo">
</span>`;
}

/** `dateUpdated`: " edited March 3" titled with the full date (and "by X" when another member edited). */
function updated(p: ScriptPost): string {
  if (!p.edited) return '';
  const by = p.edited.by === p.author ? '' : ` by ${html(p.edited.by)}`;
  const w = wallClock(p.edited.time, ZONE);
  return `<span class="MItem"> <span title="Edited ${fullDate(p.edited.time)}${by}." class="DateUpdated">edited ${MONTHS[w.mo - 1]} ${w.d}</span> </span>`;
}

function renderDiscussion(s: GameScript, p: ScriptPost): string {
  return `<div id="Discussion_${s.thread.id}" class="Item ItemDiscussion Offline noPhotoWrap">
<div class="Discussion">
<div class="Item-Header DiscussionHeader">
<div class="AuthorWrap">
${author(s, p)}
</div>
<div class="Meta DiscussionMeta">
<span class="MItem DateCreated">
<a href="${attr(discussionUrl(s))}" class="Permalink" rel="nofollow">${dateHtml(p.time)}</a> </span>
${updated(p)} <span class="MItem Category"> in <a href="${attr(FORUM.categoryUrl)}">${html(FORUM.category)}</a></span> </div>
</div>
<div class="Item-BodyWrap">
<div class="Item-Body">
<div class="Message userContent">
${body(s, p.body)} </div>
<div class="Reactions"><span class="Column-Score Hidden">0</span><span class="ReactMenu"><span class="ReactButtons"> </span></span></div> </div>
</div>
</div>
</div>
`;
}

function renderComment(s: GameScript, p: ScriptPost, row: number): string {
  const op = p.author === s.posts[0]!.author ? ' isOriginalPoster' : '';
  return `<li class="Item${row % 2 === 0 ? ' Alt' : ''} ItemComment Offline noPhotoWrap${op} pageBox" id="Comment_${p.id}">
<div class="Comment">
<div class="Options">
 </div>
<div class="Item-Header CommentHeader">
<div class="AuthorWrap">
${author(s, p)}
</div>
<div class="Meta CommentMeta CommentInfo">
<span class="MItem DateCreated">
<a href="${attr(commentUrl(p.id))}" class="Permalink" name="Item_${p.n - 1}" rel="nofollow">${dateHtml(p.time)}</a> </span>
${updated(p)} </div>
</div>
<div class="Item-BodyWrap">
<div class="Item-Body">
<div class="Message userContent">
${body(s, p.body)} </div>
<div class="Reactions"><span class="Column-Score Hidden">0</span><span class="ReactMenu"><span class="ReactButtons"> </span></span></div> </div>
</div>
</div>
</li>
`;
}

function body(s: GameScript, nodes: readonly ScriptNode[]): string {
  return nodes.map((n) => node(s, n)).join('');
}

/** What Vanilla's BBCode formatter (Nbbc with Vanilla's rules) and its enhancer print. */
function node(s: GameScript, n: ScriptNode): string {
  switch (n.op) {
    case 'text':
      return html(n.text);
    case 'br':
      return '<br />\n';
    case 'bold':
      return `<b>${body(s, n.children)}</b>`;
    case 'italic':
      return `<i>${body(s, n.children)}</i>`;
    case 'strike':
      return `<strike>${body(s, n.children)}</strike>`;
    case 'color':
      return `<span style="color:${attr(n.color)}">${body(s, n.children)}</span>`;
    case 'quote':
      return quote(n.author, body(s, n.children));
    // The title of [spoiler=…] is dropped: Vanilla's spoilers.js adds "Spoiler" in the browser.
    case 'spoiler':
      return `\n<div class="Spoiler">${body(s, n.children)}</div>\n`;
    case 'code':
      return `\n<pre><code>${html(n.text)}\n</code></pre>\n`;
    case 'smilie':
      return `<img class="emoji" src="${attr(`/resources/emoji/${n.src.replace(/^.*\//, '')}`)}" title="${attr(n.alt)}" alt="${attr(n.alt)}" height="20" loading="lazy" />`;
    case 'image':
      return `<img src="${attr(n.src)}" alt="${attr(n.src.replace(/^.*\//, ''))}" class="bbcode_img" />`;
    case 'link':
      return `<a href="${attr(n.href)}" rel="nofollow">${body(s, n.children)}</a>`;
    case 'mention':
      return `<a href="${attr(profileUrl(n.name))}" rel="nofollow">@${html(n.name)}</a>`;
  }
}

/** `doQuote` for `[quote="Alice"]`: the author's profile link and "wrote:" (`[quote]` has no title). */
function quote(who: string | null, inner: string): string {
  const title =
    who === null ? '' : `<div class="QuoteAuthor"><a href="${attr(profileUrl(who))}">${html(who)}</a> wrote:</div>`;
  return `\n<blockquote class="Quote UserQuote">\n${title}\n<div class="QuoteText">${inner}</div>\n</blockquote>\n`;
}
