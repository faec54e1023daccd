import {
  escapeAttr as attr,
  escapeHtml as html,
  userIdOf,
  type GameScript,
  type ScriptNode,
  type ScriptPost,
} from '../game-script.js';
import type { RenderedPage, ThreadRenderer } from './index.js';

/**
 * Discourse as Votal reads it: the topic JSON `/t/{id}.json` (the first 20 posts and the
 * ids of all of them in `post_stream.stream`), then `/t/{id}/posts.json?post_ids[]=…` for
 * the rest. Shaped after the saved try.discourse.org samples
 * (../shared/forum-samples/discourse/*.json) and today's field set; `cooked` is what
 * Discourse's Markdown engine stores: `<p>` paragraphs, `aside.quote[data-username]`,
 * `img.emoji`, `a.mention`, `[details]` for a titled spoiler, fenced code as `pre > code`.
 * The whole topic is one "page" made of several documents, each listed in thread.json.
 */

/** Discourse's `chunk_size`: posts in the topic JSON; the rest come in posts.json batches. */
const CHUNK = 20;
const BATCH = 50;
const CATEGORY = 5;
/** What Discourse's emoji parser turns a typed smiley into. */
const EMOJI: Record<string, string> = { ':)': 'slight_smile', ':D': 'smiley', ';)': 'wink', ':(': 'frowning' };

export const discourseRenderer: ThreadRenderer = {
  engine: 'discourse',
  threadPath: (s) => `/t/${s.thread.slug}/${s.thread.id}`,
  render(script: GameScript): RenderedPage[] {
    const first = script.posts.slice(0, CHUNK);
    const docs: RenderedPage[] = [
      { page: 1, path: `/t/${script.thread.id}.json`, file: 'topic.json', body: json(topicDoc(script, first)) },
    ];
    const rest = script.posts.slice(CHUNK);
    for (let i = 0; i < rest.length; i += BATCH) {
      const batch = rest.slice(i, i + BATCH);
      const query = batch.map((p) => `post_ids[]=${p.id}`).join('&');
      docs.push({
        page: 1,
        path: `/t/${script.thread.id}/posts.json?${query}`,
        file: `posts-${i / BATCH + 1}.json`,
        body: json({ post_stream: { posts: batch.map((p) => postJson(script, p)) }, id: script.thread.id }),
      });
    }
    return docs;
  },
};

const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;

/** A username as Discourse stores it (the script's names are valid usernames). */
const username = (name: string): string => name;

function topicDoc(s: GameScript, first: readonly ScriptPost[]): unknown {
  const starter = s.posts[0]!;
  const last = s.posts[s.posts.length - 1]!;
  return {
    post_stream: { posts: first.map((p) => postJson(s, p)), stream: s.posts.map((p) => p.id) },
    timeline_lookup: [[1, 0]],
    tags: [],
    id: s.thread.id,
    title: s.thread.title,
    fancy_title: html(s.thread.title),
    posts_count: s.posts.length,
    created_at: iso(starter.time),
    views: 120,
    reply_count: s.posts.length - 1,
    like_count: 0,
    last_posted_at: iso(last.time),
    visible: true,
    closed: false,
    archived: false,
    has_summary: false,
    archetype: 'regular',
    slug: s.thread.slug,
    category_id: CATEGORY,
    word_count: 420,
    deleted_at: null,
    user_id: userIdOf(s, starter.author),
    featured_link: null,
    pinned_globally: false,
    pinned_at: null,
    pinned_until: null,
    draft: null,
    draft_key: `topic_${s.thread.id}`,
    draft_sequence: null,
    pinned: false,
    current_post_number: 1,
    highest_post_number: s.posts.length,
    deleted_by: null,
    actions_summary: [],
    chunk_size: CHUNK,
    bookmarked: false,
    message_archived: false,
    topic_timer: null,
    message_bus_last_id: 0,
    participant_count: new Set(s.posts.map((p) => p.author)).size,
    show_read_indicator: false,
    thumbnails: null,
    details: {
      can_edit: false,
      notification_level: 1,
      participants: [],
      created_by: user(s, starter.author),
      last_poster: user(s, last.author),
    },
  };
}

function user(s: GameScript, name: string): unknown {
  return { id: userIdOf(s, name), username: username(name), name, avatar_template: avatar(name) };
}

const avatar = (name: string): string => `/letter_avatar_proxy/v4/letter/${name[0]!.toLowerCase()}/8e7dd6/{size}.png`;

function postJson(s: GameScript, p: ScriptPost): unknown {
  const edited = p.edited !== null;
  return {
    id: p.id,
    name: p.author,
    username: username(p.author),
    avatar_template: avatar(p.author),
    created_at: iso(p.time),
    cooked: cooked(s, p, p.body),
    post_number: p.n,
    post_type: 1,
    updated_at: iso(p.edited?.time ?? p.time),
    reply_count: 0,
    reply_to_post_number: null,
    quote_count: p.body.some((n) => n.op === 'quote') ? 1 : 0,
    incoming_link_count: 0,
    reads: 7,
    readers_count: 6,
    score: 1.2,
    yours: false,
    topic_id: s.thread.id,
    topic_slug: s.thread.slug,
    display_username: p.author,
    primary_group_name: null,
    flair_name: null,
    version: edited ? 2 : 1,
    can_edit: false,
    can_delete: false,
    can_recover: false,
    can_wiki: false,
    read: true,
    user_title: null,
    bookmarked: false,
    actions_summary: [],
    moderator: p.author === s.posts[0]!.author,
    admin: false,
    staff: p.author === s.posts[0]!.author,
    user_id: userIdOf(s, p.author),
    hidden: false,
    trust_level: 1,
    deleted_at: null,
    user_deleted: false,
    edit_reason: null,
    can_view_edit_history: true,
    wiki: false,
    ...(edited ? { last_edited_at: iso(p.edited!.time) } : {}),
  };
}

/** Discourse always prints milliseconds and `Z`. */
const iso = (t: string): string => new Date(t).toISOString();

/** Inline runs become `<p>` paragraphs; quotes, code and spoilers are blocks of their own. */
function cooked(s: GameScript, post: ScriptPost, nodes: readonly ScriptNode[]): string {
  const blocks: string[] = [];
  let para = '';
  const flush = (): void => {
    const trimmed = para.replace(/(<br>\n)+$/, '');
    if (trimmed.trim()) blocks.push(`<p>${trimmed}</p>`);
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
      if (n.author === null) return `<blockquote>\n${cooked(s, post, n.children)}\n</blockquote>`;
      const source = [...s.posts].reverse().find((q) => q.author === n.author && q.n < post.n);
      const data = source ? ` data-post="${source.n}" data-topic="${s.thread.id}"` : '';
      return `<aside class="quote no-group" data-username="${attr(username(n.author))}"${data}>
<div class="title">
<div class="quote-controls"></div>
<img loading="lazy" alt="" width="24" height="24" src="${attr(avatar(n.author).replace('{size}', '48'))}" class="avatar"> ${html(n.author)}:</div>
<blockquote>
${cooked(s, post, n.children)}
</blockquote>
</aside>`;
    }
    case 'code':
      return `<pre><code class="lang-auto">${html(n.text)}\n</code></pre>`;
    // `[details="title"]` (core); untitled spoilers are the spoiler-alert plugin's `div.spoiler`.
    case 'spoiler':
      return n.title === null
        ? `<div class="spoiler">\n${cooked(s, post, n.children)}\n</div>`
        : `<details>\n<summary>\n${html(n.title)}</summary>\n${cooked(s, post, n.children)}\n</details>`;
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
    // The official discourse-bbcode plugin's [color=…].
    case 'color':
      return `<font color="${attr(n.color)}">${kids(n.children)}</font>`;
    case 'smilie': {
      const name = EMOJI[n.alt] ?? 'slight_smile';
      return `<img src="https://emoji.discourse-cdn.com/twitter/${name}.png?v=12" title=":${name}:" class="emoji" alt=":${name}:" loading="lazy" width="20" height="20">`;
    }
    case 'image': {
      const file = n.src.split('/').pop() ?? 'image';
      return `<img src="${attr(n.src)}" alt="${attr(file)}" data-base62-sha1="" width="640" height="480">`;
    }
    case 'link':
      return n.kind === 'external'
        ? `<a href="${attr(n.href)}" rel="noopener nofollow ugc">${kids(n.children)}</a>`
        : `<a href="${attr(n.href)}">${kids(n.children)}</a>`;
    case 'mention':
      return `<a class="mention" href="/u/${attr(username(n.name).toLowerCase())}">@${html(username(n.name))}</a>`;
    // Blocks met inside an inline run (a quote inside bold) are printed as blocks anyway.
    case 'quote':
    case 'code':
    case 'spoiler':
      return block(s, post, n);
  }
}
