import type { Element } from 'domhandler';
import { z } from 'zod';
import { LayoutError, TruncatedPageError } from '../src/fetch/errors.js';
import { hashBody, type Post } from '../src/model/post.js';
import { MARKDOWN } from '../src/model/dialect.js';
import { defineDescriptor, type EngineAdapter, type PageContext, type ThreadPage, type ThreadRef } from './adapter.js';
import { buildBody } from './body-builder.js';
import { parseHtml } from './dom.js';
import { fromIso } from './forum-time.js';

/**
 * Discourse is read through its public JSON, never its Ember pages: `/t/{id}.json` holds
 * the first posts and the ids of all of them (`post_stream.stream`); the rest come from
 * `/t/{id}/posts.json?post_ids[]=…`. The whole topic is one "page" of several documents.
 */
export const descriptor = defineDescriptor({
  engine: 'discourse',
  name: 'Discourse',
  dialect: MARKDOWN,
  threadPaths: ['/t/(?:[^/?#]+/)?\\d+(?:/\\d+)?(?:\\.json)?(?:[/?#]|$)'],
  fingerprints: ['meta[name="generator"][content^="Discourse"]', '#main-outlet .crawler-post'],
  generator: '^Discourse',
  postsPerPage: 20,
  body: {
    // Quote titles carry an avatar and "name:"; lightbox captions list file name and size.
    skip: 'script, style, noscript, iframe, object, embed, form, input, button, .lightbox-wrapper .meta, aside.onebox .site-icon, .onebox-metadata',
    quote: [
      { selector: 'aside.quote', authorAttr: 'data-username', authorSelector: '.title' },
      // A Markdown "> " quote has no author; the blockquote inside aside.quote is the same quote.
      { selector: 'blockquote:not(aside.quote > blockquote)' },
    ],
    // spoiler-alert stores `div.spoiler`/`span.spoiler` (`spoiled` once its script ran);
    // `[details="title"]` is core.
    spoiler: { selector: 'div.spoiler, span.spoiler, div.spoiled, span.spoiled, details', titleSelector: 'summary' },
    code: 'pre, code',
    smilie: 'img.emoji',
    mention: 'a.mention, a.mention-group',
    // Uploads may sit on a CDN host; a lightbox link and a hashtag are still the board's own.
    internalLink: 'a.lightbox, a.hashtag, a.hashtag-cooked',
  },
});

/** Posts per posts.json request (what cyberdrop-dl uses; Discourse allows more, politeness wins). */
export const BATCH = 50;

const DiscoursePost = z.looseObject({
  id: z.number(),
  post_number: z.number().int().positive(),
  /** 1 regular; 2 moderator action, 3 small action ("pinned", "closed"), 4 whisper. */
  post_type: z.number().default(1),
  username: z.string(),
  user_id: z.number().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string().nullable().optional(),
  last_edited_at: z.string().nullable().optional(),
  version: z.number().default(1),
  cooked: z.string().default(''),
  topic_id: z.number().optional(),
  topic_slug: z.string().optional(),
});
type DiscoursePost = z.infer<typeof DiscoursePost>;

const PostStreamDoc = z.looseObject({
  id: z.number().optional(),
  title: z.string().optional(),
  slug: z.string().optional(),
  post_stream: z.looseObject({
    posts: z.array(DiscoursePost),
    /** Every post id of the topic, in order (topic JSON only). */
    stream: z.array(z.number()).optional(),
  }),
});

/** `/t/{slug}/{id}`, `/t/{id}`, `/t/{slug}/{id}/{post}`, `/t/{id}.json`; a board may live under a folder. */
function parseTopicPath(pathname: string): { prefix: string; slug: string | null; id: string } | null {
  const m = /^(.*?)\/t\/(?:([^/]*[^/\d.][^/]*)\/)?(\d+)(?:\.json)?(?:\/|$)/.exec(pathname);
  return m ? { prefix: m[1]!, slug: m[2] ?? null, id: m[3]! } : null;
}

export const discourse: EngineAdapter = {
  descriptor,

  threadRef(url: URL): ThreadRef {
    const t = parseTopicPath(url.pathname);
    if (!t) return { engine: 'discourse', url: `${url.origin}${url.pathname}`, id: null };
    const path = t.slug ? `${t.prefix}/t/${t.slug}/${t.id}` : `${t.prefix}/t/${t.id}`;
    return { engine: 'discourse', url: `${url.origin}${path}`, id: t.id };
  },

  pageUrl(thread, page) {
    const url = new URL(thread.url);
    const t = parseTopicPath(url.pathname);
    const json = `${url.origin}${t?.prefix ?? ''}/t/${thread.id ?? t?.id}.json`;
    return page <= 1 ? json : `${json}?page=${page}`;
  },

  // The reader sees the whole topic as one page: the rest arrives through `next`.
  pageOf() {
    return 1;
  },

  parsePage(doc: string, ctx: PageContext): ThreadPage {
    const data = readJson(doc, ctx.url);
    const here = new URL(ctx.url);
    const base = `${here.origin}${parseTopicPath(here.pathname)?.prefix ?? prefixOfPosts(here.pathname)}`;

    // `/posts/{id}.json`: one post on its own.
    const single = DiscoursePost.safeParse(data);
    if (single.success && !(data as { post_stream?: unknown }).post_stream) {
      const posts = single.data.post_type === 1 ? [readPost(single.data, base, null, null, ctx)] : [];
      return { title: null, page: 1, pageCount: 1, postsPerPage: null, posts };
    }

    const parsed = PostStreamDoc.safeParse(data);
    if (!parsed.success) {
      throw new LayoutError(
        ctx.url,
        `not a Discourse topic or posts document (${parsed.error.issues[0]?.message ?? 'unexpected shape'})`,
      );
    }
    const topic = parsed.data;
    const all = topic.post_stream.posts;
    if (all.length === 0) throw new LayoutError(ctx.url, 'the Discourse document lists no posts');
    const topicId = topic.id ?? all[0]?.topic_id ?? null;
    const posts = all.filter((p) => p.post_type === 1).map((p) => readPost(p, base, topicId, topic.slug ?? null, ctx));

    const loaded = new Set(all.map((p) => p.id));
    const rest = (topic.post_stream.stream ?? []).filter((id) => !loaded.has(id));
    const next: string[] = [];
    for (let i = 0; i < rest.length; i += BATCH) {
      const ids = rest
        .slice(i, i + BATCH)
        .map((id) => `post_ids[]=${id}`)
        .join('&');
      next.push(`${base}/t/${topicId}/posts.json?${ids}`);
    }
    return {
      title: topic.title ?? null,
      page: 1,
      pageCount: 1,
      postsPerPage: null,
      posts,
      ...(next.length ? { next } : {}),
    };
  },
};

/** `/posts/{id}.json` lives beside `/t/`: the folder of a subfolder install is what precedes it. */
function prefixOfPosts(pathname: string): string {
  return /^(.*?)\/posts\//.exec(pathname)?.[1] ?? '';
}

function readPost(p: DiscoursePost, base: string, topicId: number | null, slug: string | null, ctx: PageContext): Post {
  const root = parseHtml(`<div>${p.cooked}</div>`).children.find((n) => n.type === 'tag') as Element;
  const body = buildBody(root, descriptor.body, { pageUrl: ctx.url, forumOrigins: ctx.profile.aliases });
  const tid = p.topic_id ?? topicId;
  const s = p.topic_slug ?? slug;
  const permalink = tid === null ? `${base}/p/${p.id}` : `${base}/t/${s ? `${s}/` : ''}${tid}/${p.post_number}`;
  return {
    id: String(p.id),
    number: p.post_number,
    page: 1,
    author: p.username,
    authorId: p.user_id === null || p.user_id === undefined ? null : String(p.user_id),
    postedAt: fromIso(p.created_at),
    permalink,
    // Every save of a post is a new version; the first is version 1.
    edit:
      p.version > 1
        ? { at: fromIso(p.last_edited_at ?? p.updated_at ?? null), by: null, text: `edited (version ${p.version})` }
        : null,
    bodyHash: hashBody(body),
    body,
  };
}

/** JSON or a clear error naming the URL: an HTML page here is a login wall or an error page. */
function readJson(doc: string, url: string): unknown {
  const s = doc.trimStart();
  if (s.startsWith('<')) throw new LayoutError(url, 'expected Discourse JSON but got an HTML page');
  try {
    return JSON.parse(s);
  } catch {
    if (s.startsWith('{') || s.startsWith('['))
      throw new TruncatedPageError(url, 'the JSON document ends early; the download was cut off');
    throw new LayoutError(url, 'expected Discourse JSON but the document is not JSON');
  }
}
