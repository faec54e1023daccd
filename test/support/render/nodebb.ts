import {
  escapeAttr as attr,
  escapeHtml as html,
  pagesOf,
  userIdOf,
  type GameScript,
  type ScriptNode,
  type ScriptPost,
} from '../game-script.js';
import type { RenderedPage, ThreadRenderer } from './index.js';

/**
 * NodeBB as Votal reads it: `/api/topic/{tid}?page=N`, the JSON a topic page also embeds
 * as `ajaxify-data` (compare ../shared/forum-samples/nodebb/nettally-NodeBB.html and
 * NodeBB's public/openapi/read/topic/topic_id.yaml). Post `content` is what
 * nodebb-plugin-markdown renders: `<p dir="auto">` paragraphs, a quote as the
 * "@X said in Title:" line plus `<blockquote>`, emoji as `img.emoji` (alt = the emoji,
 * title = what was typed), mentions as `a.plugin-mentions-user`, `%(color)[text]` as a
 * coloured span, spoilers from nodebb-plugin-spoilers.
 */

const CATEGORY = 4;
/** nodebb-plugin-emoji's image, alt and class for a typed smiley. */
const EMOJI: Record<string, { file: string; alt: string; name: string }> = {
  ':)': { file: '1f642', alt: '🙂', name: 'slightly_smiling_face' },
  ':D': { file: '1f604', alt: '😄', name: 'smile' },
};

export const nodebbRenderer: ThreadRenderer = {
  engine: 'nodebb',
  threadPath: (s) => `/topic/${s.thread.id}/${s.thread.slug}`,
  render(script: GameScript): RenderedPage[] {
    const pages = pagesOf(script);
    return pages.map((posts, i) => ({
      page: i + 1,
      path: `/api/topic/${script.thread.id}?page=${i + 1}`,
      file: `page-${i + 1}.json`,
      body: `${JSON.stringify(topicDoc(script, posts, i + 1, pages.length), null, 2)}\n`,
    }));
  },
};

function topicDoc(s: GameScript, posts: readonly ScriptPost[], page: number, pageCount: number): unknown {
  const starter = s.posts[0]!;
  const last = s.posts[s.posts.length - 1]!;
  const ms = (t: string): number => Date.parse(t);
  return {
    tid: s.thread.id,
    uid: userIdOf(s, starter.author),
    cid: CATEGORY,
    mainPid: starter.id,
    title: s.thread.title,
    slug: `${s.thread.id}/${s.thread.slug}`,
    timestamp: ms(starter.time),
    lastposttime: ms(last.time),
    postcount: s.posts.length,
    viewcount: 120,
    locked: 0,
    deleted: 0,
    pinned: 0,
    titleRaw: s.thread.title,
    timestampISO: new Date(starter.time).toISOString(),
    lastposttimeISO: new Date(last.time).toISOString(),
    tags: [],
    posts: posts.map((p) => postJson(s, p)),
    category: { cid: CATEGORY, name: 'Mafia Games', slug: `${CATEGORY}/mafia-games` },
    pagination: {
      prev: { page: Math.max(1, page - 1), active: page > 1 },
      next: { page: Math.min(pageCount, page + 1), active: page < pageCount },
      first: { page: 1, active: page === 1 },
      last: { page: pageCount, active: page === pageCount },
      rel: [],
      pages: Array.from({ length: pageCount }, (_, i) => ({
        page: i + 1,
        active: i + 1 === page,
        qs: `page=${i + 1}`,
      })),
      currentPage: page,
      pageCount,
    },
    loggedIn: false,
    relative_path: '',
    url: `/topic/${s.thread.id}/${s.thread.slug}${page > 1 ? `?page=${page}` : ''}`,
  };
}

function postJson(s: GameScript, p: ScriptPost): unknown {
  const uid = userIdOf(s, p.author);
  const editor = p.edited
    ? { uid: userIdOf(s, p.edited.by), username: p.edited.by, userslug: p.edited.by.toLowerCase() }
    : null;
  return {
    pid: p.id,
    uid,
    tid: s.thread.id,
    content: content(s, p, p.body),
    timestamp: Date.parse(p.time),
    deleted: 0,
    upvotes: 0,
    downvotes: 0,
    deleterUid: 0,
    edited: p.edited ? Date.parse(p.edited.time) : 0,
    votes: 0,
    timestampISO: new Date(p.time).toISOString(),
    editedISO: p.edited ? new Date(p.edited.time).toISOString() : '',
    index: p.n - 1,
    user: {
      uid,
      username: p.author,
      userslug: p.author.toLowerCase(),
      reputation: 0,
      postcount: 10,
      picture: '',
      signature: '',
      status: 'offline',
      'icon:text': p.author[0],
      'icon:bgColor': '#3f51b5',
    },
    editor,
    bookmarked: false,
    upvoted: false,
    downvoted: false,
    replies: { hasMore: false, users: [], text: '[[topic:one_reply_to_this_post]]', count: 0 },
    selfPost: false,
    display_edit_tools: false,
    display_delete_tools: false,
    display_moderator_tools: false,
    display_move_tools: false,
    display_post_menu: true,
  };
}

/** Inline runs become `<p dir="auto">` paragraphs; quotes, code and spoilers are blocks. */
function content(s: GameScript, post: ScriptPost, nodes: readonly ScriptNode[]): string {
  const blocks: string[] = [];
  let para = '';
  const flush = (): void => {
    const trimmed = para.replace(/(<br \/>\n)+$/, '');
    if (trimmed.trim()) blocks.push(`<p dir="auto">${trimmed}</p>`);
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
  return `${blocks.join('\n')}\n`;
}

function block(s: GameScript, post: ScriptPost, n: Extract<ScriptNode, { op: 'quote' | 'code' | 'spoiler' }>): string {
  switch (n.op) {
    case 'quote': {
      const inner = `<blockquote>\n${content(s, post, n.children)}</blockquote>`;
      if (n.author === null) return inner;
      const source = [...s.posts].reverse().find((q) => q.author === n.author && q.n < post.n);
      const uid = userIdOf(s, n.author);
      const who = `<a class="plugin-mentions-user plugin-mentions-a" href="/uid/${uid}">@${html(n.author)}</a>`;
      const where = source ? `<a href="/post/${source.id}">${html(s.thread.title)}</a>` : html(s.thread.title);
      return `<p dir="auto">${who} said in ${where}:</p>\n${inner}`;
    }
    case 'code':
      return `<pre><code>${html(n.text)}\n</code></pre>`;
    case 'spoiler':
      return `<div class="ns-spoiler" component="spoiler" data-ns-visible="false"><div class="ns-spoiler-control"><a class="btn btn-default ns-spoiler-trigger" href="#">${html(n.title ?? 'Spoiler')}</a></div><div class="ns-spoiler-content" style="display: none;">\n${content(s, post, n.children)}</div></div>`;
  }
}

function inline(s: GameScript, post: ScriptPost, n: ScriptNode): string {
  const kids = (c: readonly ScriptNode[]): string => c.map((x) => inline(s, post, x)).join('');
  switch (n.op) {
    case 'text':
      return html(n.text);
    case 'br':
      return '<br />\n';
    case 'bold':
      return `<strong>${kids(n.children)}</strong>`;
    case 'italic':
      return `<em>${kids(n.children)}</em>`;
    case 'strike':
      return `<s>${kids(n.children)}</s>`;
    case 'color':
      return `<span style="color:${attr(n.color)}">${kids(n.children)}</span>`;
    case 'smilie': {
      const e = EMOJI[n.alt] ?? { file: '1f642', alt: '🙂', name: 'slightly_smiling_face' };
      return `<img
      src="/plugins/nodebb-plugin-emoji/emoji/android/${e.file}.png?v=bofa9boa1ge"
      class="not-responsive emoji emoji-android emoji--${e.name}"
      title="${attr(n.alt)}"
      alt="${e.alt}"
    />`;
    }
    case 'image': {
      const file = n.src.split('/').pop() ?? 'image';
      return `<img src="${attr(n.src)}" alt="${attr(file)}" class="img-responsive img-markdown" />`;
    }
    case 'link':
      return n.kind === 'external'
        ? `<a href="${attr(n.href)}" rel="nofollow ugc">${kids(n.children)}</a>`
        : `<a href="${attr(n.href)}">${kids(n.children)}</a>`;
    case 'mention':
      return `<a class="plugin-mentions-user plugin-mentions-a" href="/uid/${n.userId}">@${html(n.name)}</a>`;
    case 'quote':
    case 'code':
    case 'spoiler':
      return block(s, post, n);
  }
}
