import {
  escapeAttr as attr,
  escapeHtml as html,
  pad2,
  pagesOf,
  wallClock,
  type GameScript,
  type ScriptNode,
  type ScriptPost,
} from '../game-script.js';
import type { RenderedPage, ThreadRenderer } from './index.js';

/**
 * GOG.com forum topic pages, after the markup GOG userscripts read (Adalia Fundamentals,
 * Barefoot Essentials, JerkMuter; see ../shared/research/forum-engines.md):
 * `div.spot_h` > `div.big_post_main` with `.b_u_name`, `.post_date` "Posted March 02, 2026"
 * (a date, no time), `.post_nr` "#N", `.post_text_c`, `div.quot` with `.quot_user_name`
 * "Name: ", `span.bold`, `span.podkreslenie`, `.post_attaczments .pencil_text` "Post edited
 * DATE by X", pages `/page{N}`, last page in `.n_b_b_nr_last`.
 *
 * GOG's BBCode knows [b], [i], [u], [url] and [quote] only: spoiler, strike, colour and
 * code tags stay literal text, mentions are plain "@Name", smileys are typed text, and
 * pictures are attachments shown under the post text (fixtures/gog/standard-game/expected.json
 * says what that changes).
 */

/** GOG slugs use underscores. */
const slug = (s: GameScript): string => s.thread.slug.replace(/-/g, '_');
const FORUM = 'mafia';
/** Zone the dates are printed in for a guest. */
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

export const gogRenderer: ThreadRenderer = {
  engine: 'gog',
  // Page 1 is `/page1`: GOG's bare topic URL redirects to the last page.
  threadPath: (s) => `/forum/${FORUM}/${slug(s)}/page1`,
  render(script: GameScript): RenderedPage[] {
    const pages = pagesOf(script);
    return pages.map((posts, i) => {
      const page = i + 1;
      const path = `/forum/${FORUM}/${slug(script)}/page${page}`;
      return { page, path, file: `page-${page}.html`, body: renderPage(script, posts, page, pages.length) };
    });
  },
};

function renderPage(s: GameScript, posts: readonly ScriptPost[], page: number, pageCount: number): string {
  return `<!DOCTYPE html>
<html lang="en-US">
<head>
<meta charset="utf-8">
<title>${html(s.thread.title)}${page > 1 ? `, page ${page}` : ''} - Forum - GOG.com</title>
<link rel="canonical" href="https://www.gog.com/forum/${FORUM}/${slug(s)}${page > 1 ? `/page${page}` : ''}">
</head>
<body>
<div class="content">
<div class="nav_bar_top_h">
<h1>${html(s.thread.title)}</h1>
${pager(s, page, pageCount)}
</div>
<div class="list_h">
${posts.map((p) => renderPost(s, p)).join('\n')}
</div>
<div class="nav_bar_bottom_h">
${pager(s, page, pageCount)}
</div>
</div>
</body>
</html>
`;
}

function pager(s: GameScript, page: number, pageCount: number): string {
  const href = (n: number): string => `/forum/${FORUM}/${slug(s)}/page${n}`;
  const items: string[] = [];
  for (let n = 1; n <= pageCount; n++) {
    if (n === page) items.push(`<span class="n_b_b_nr_act">${n}</span>`);
    else items.push(`<a class="${n === pageCount ? 'n_b_b_nr_last' : 'n_b_b_nr'}" href="${attr(href(n))}">${n}</a>`);
  }
  return `<div class="n_b_b_nrs">${items.join(' ')}</div>`;
}

/** "March 02, 2026" in the board's zone. */
function day(iso: string): string {
  const w = wallClock(iso, ZONE);
  return `${MONTHS[w.mo - 1]} ${pad2(w.d)}, ${w.y}`;
}

function renderPost(s: GameScript, p: ScriptPost): string {
  const images = collect(p.body, 'image');
  const attachments = images.map((src) => {
    const thumb = src.replace(/(\.\w+)$/, '_thumb$1');
    return `<div class="post_attaczment_h"><a href="${attr(src)}" target="_blank"><img src="${attr(thumb)}" alt=""></a></div>`;
  });
  const edit = p.edited
    ? `<div class="pencil_text">Post edited ${day(p.edited.time)} by ${html(p.edited.by)}</div>`
    : '';
  const box = attachments.length || edit ? `<div class="post_attaczments">${attachments.join('')}${edit}</div>` : '';
  const stat = p.author === s.posts[0]!.author ? 'Game host' : 'New User';
  return `<div id="p_b_${p.n}" class="spot_h" style=";">
<div class="big_post_h">
<div class="big_post_left"></div>
<div class="big_post_main"><div class="big_user_info"><div class="b_u_info_1"> <span class="user is-data-pending user--block"> <div class="b_p_avatar_h"><span class="user__avatar-container avatar--medium "> <img src="https://images.gog.com/${attr(p.author.toLowerCase())}_forum_avatar.jpg" alt="${attr(p.author)}" width="49" height="49"><i class="icon-pointer"></i></span> </div> <div class="b_u_name">${html(p.author)}</div> <div class="b_u_stat">${stat}</div> <span class="user__data"> <span class="user__item user__item--header"> <span class="user__header-details"> <span class="user__name ">${html(p.author)}</span> </span> </span> <a ng-href="" gog-login-required="" class="user__item user__item--action">Start conversation</a> </span> </span><div class="clear"></div></div></div><div class="big_post_content "><div class="post_header_h"><div class="post_date">Posted ${day(p.time)}</div> <div class="p_button_left_h"><a class="post_nr" href="/forum/${FORUM}/${slug(s)}/post${p.n}">#${p.n}</a></div> </div><div class="post_text"><div class="post_text_c">${body(s, p, p.body)}</div></div>${box}</div></div>
<div class="big_post_right"></div><div class="clear"></div>
</div>
</div>`;
}

function collect(nodes: readonly ScriptNode[], op: 'image'): string[] {
  const out: string[] = [];
  for (const n of nodes) {
    if (n.op === op) out.push(n.src);
    else if ('children' in n) out.push(...collect(n.children, op));
  }
  return out;
}

function body(s: GameScript, post: ScriptPost, nodes: readonly ScriptNode[]): string {
  return nodes.map((n) => node(s, post, n)).join('');
}

/** What GOG prints for each script op: its few tags as HTML, the rest as the BBCode typed. */
function node(s: GameScript, post: ScriptPost, n: ScriptNode): string {
  switch (n.op) {
    case 'text':
      return html(n.text);
    case 'br':
      return '<br>';
    case 'bold':
      return `<span class="bold">${body(s, post, n.children)}</span>`;
    case 'italic':
      return `<i>${body(s, post, n.children)}</i>`;
    case 'strike':
      return `[s]${body(s, post, n.children)}[/s]`;
    case 'color':
      return `[color=${html(n.color)}]${body(s, post, n.children)}[/color]`;
    case 'quote': {
      const who = n.author === null ? '' : `<span class="quot_user_name">${html(n.author)}: </span>`;
      return `<div class="quot">${who}${body(s, post, n.children)}</div>`;
    }
    case 'spoiler':
      return `[spoiler${n.title ? `=${html(n.title)}` : ''}]${body(s, post, n.children)}[/spoiler]`;
    case 'code':
      return `[code]${html(n.text)}[/code]`;
    case 'smilie':
      return html(n.alt);
    // Pictures are attachments, printed under the text (see renderPost).
    case 'image':
      return '';
    case 'link':
      return n.kind === 'external'
        ? `<a href="${attr(n.href)}" target="_blank">${body(s, post, n.children)}</a>`
        : `<a href="${attr(n.href)}">${body(s, post, n.children)}</a>`;
    case 'mention':
      return `@${html(n.name)}`;
  }
}
