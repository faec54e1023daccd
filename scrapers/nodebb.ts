import type { Document, Element } from 'domhandler';
import { removeElement, textContent } from 'domutils';
import { z } from 'zod';
import { LayoutError, TruncatedPageError } from '../src/fetch/errors.js';
import { hashBody, type Post } from '../src/model/post.js';
import { MARKDOWN } from '../src/model/dialect.js';
import { defineDescriptor, type EngineAdapter, type PageContext, type ThreadPage, type ThreadRef } from './adapter.js';
import { buildBody } from './body-builder.js';
import { all, attr, one, pageDocument, parseHtml, text } from './dom.js';
import { fromEpochMillis, fromIso } from './forum-time.js';
import { readEach, requirePosts } from './page-checks.js';
import { pageSizeFor, placeInThread, shownPageSize } from './post-number.js';

/**
 * NodeBB is read through `/api/topic/{tid}?page=N` (the same data the page embeds as
 * `ajaxify-data`); a topic's HTML page parses too, so a pasted page URL works as well.
 * Post bodies are the same Markdown-rendered HTML in both.
 */
export const descriptor = defineDescriptor({
  engine: 'nodebb',
  name: 'NodeBB',
  dialect: MARKDOWN,
  // `/topic/123/slug`; Invision's `/topic/123-slug/` has a dash and is not ours.
  threadPaths: ['/topic/\\d+(?:[/?#]|$)'],
  fingerprints: ['body.page-topic [component="post"][data-pid]', 'li[component="post"][data-pid][data-index]'],
  postsPerPage: 20,
  // The HTML topic page: posts as shells, their content, edit markers and the embedded API data.
  regions: [
    {
      selector: '[component="post"]',
      parts: [
        '[component="post/content"]',
        '[itemprop="author"]',
        'meta[itemprop]',
        '[component="post/editor"]',
        '[component="post/edit-indicator"]',
      ],
    },
    'script#ajaxify-data',
    '[component="pagination/select-page"]',
    '[component="topic/title"]',
  ],
  body: {
    // Plugin embeds (GitHub cards) repeat a link the poster wrote, with avatars as pictures.
    skip: 'script, style, noscript, iframe, object, embed, form, input, button, .github-embeds-container',
    // The "@X said in Title:" line before a quote is moved onto it by `markQuoteAuthors`.
    quote: [{ selector: 'blockquote', authorAttr: 'data-votal-author' }],
    // nodebb-plugin-spoilers; Markdown `<details>` on newer boards.
    spoiler: { selector: '[component="spoiler"], .ns-spoiler, details', titleSelector: '.ns-spoiler-control, summary' },
    code: 'pre, code',
    smilie: 'img.emoji',
    mention: 'a.plugin-mentions-user, a.plugin-mentions-a, a.mention',
  },
});

const POST = 'li[component="post"][data-pid], [component="post"][data-pid]';

const Id = z.union([z.number(), z.string()]).transform(String);

const ApiPost = z.looseObject({
  pid: Id,
  uid: Id.optional(),
  content: z.string().default(''),
  timestamp: z.number().optional(),
  timestampISO: z.string().optional(),
  /** Epoch ms of the last edit, 0 when never edited. */
  edited: z.number().optional(),
  editedISO: z.string().optional(),
  editor: z.looseObject({ username: z.string() }).nullable().optional(),
  /** 0-based position in the topic (0 is the topic's first post). */
  index: z.number().int().min(0).optional(),
  user: z.looseObject({ username: z.string() }).optional(),
});
type ApiPost = z.infer<typeof ApiPost>;

const ApiTopic = z.looseObject({
  tid: Id,
  title: z.string().optional(),
  posts: z.array(ApiPost),
  pagination: z.looseObject({ currentPage: z.number(), pageCount: z.number() }).optional(),
});

/** `/topic/{tid}/{slug}` or `/api/topic/{tid}`; a board may be installed under a folder. */
function parseTopicPath(pathname: string): { prefix: string; tid: string; slug: string | null } | null {
  const m = /^(.*?)(?:\/api)?\/topic\/(\d+)(?:\/([^/?#]+))?/.exec(pathname);
  if (!m) return null;
  const slug = m[3] && !/^\d+$/.test(m[3]) ? m[3] : null;
  return { prefix: m[1]!, tid: m[2]!, slug };
}

export const nodebb: EngineAdapter = {
  descriptor,

  threadRef(url: URL): ThreadRef {
    const t = parseTopicPath(url.pathname);
    if (!t) return { engine: 'nodebb', url: `${url.origin}${url.pathname}`, id: null };
    return { engine: 'nodebb', url: `${url.origin}${t.prefix}/topic/${t.tid}${t.slug ? `/${t.slug}` : ''}`, id: t.tid };
  },

  pageUrl(thread, page) {
    const url = new URL(thread.url);
    const t = parseTopicPath(url.pathname);
    return `${url.origin}${t?.prefix ?? ''}/api/topic/${thread.id ?? t?.tid}?page=${Math.max(1, page)}`;
  },

  pageOf(url) {
    return Number(url.searchParams.get('page')) || 1;
  },

  parsePage(doc: string, ctx: PageContext): ThreadPage {
    const base = baseOf(ctx.url);
    return doc.trimStart().startsWith('<') ? parseHtmlPage(doc, ctx, base) : parseApiPage(doc, ctx, base);
  },
};

/** The forum root (origin + install folder): permalinks are `{base}/post/{pid}`. */
function baseOf(pageUrl: string): string {
  const u = new URL(pageUrl);
  return `${u.origin}${parseTopicPath(u.pathname)?.prefix ?? ''}`;
}

function parseApiPage(doc: string, ctx: PageContext, base: string): ThreadPage {
  let data: unknown;
  try {
    data = JSON.parse(doc);
  } catch {
    const s = doc.trimStart();
    if (s.startsWith('{'))
      throw new TruncatedPageError(ctx.url, 'the JSON document ends early; the download was cut off');
    throw new LayoutError(ctx.url, 'expected NodeBB topic JSON but the document is not JSON');
  }
  const parsed = ApiTopic.safeParse(data);
  if (!parsed.success) {
    throw new LayoutError(
      ctx.url,
      `not a NodeBB topic document (${parsed.error.issues[0]?.message ?? 'unexpected shape'})`,
    );
  }
  const topic = parsed.data;
  if (topic.posts.length === 0) throw new LayoutError(ctx.url, 'the NodeBB topic document lists no posts');
  const page = topic.pagination?.currentPage ?? nodebb.pageOf(new URL(ctx.url), null);
  const pageCount = Math.max(page, topic.pagination?.pageCount ?? page);
  const size = { page, pageCount, postsOnPage: topic.posts.length };
  const perPage = pageSizeFor(size, ctx, descriptor.postsPerPage);
  const posts = topic.posts.map((p, i) =>
    readApiPost(p, p.index !== undefined ? p.index + 1 : placeInThread(page, i, perPage), page, base, ctx),
  );
  return { title: topic.title ?? null, page, pageCount, postsPerPage: shownPageSize(size), posts };
}

function readApiPost(p: ApiPost, number: number, page: number, base: string, ctx: PageContext): Post {
  const root = parseHtml(`<div>${p.content}</div>`).children.find((n) => n.type === 'tag') as Element;
  const body = readBody(root, ctx);
  const editor = p.editor?.username ?? null;
  return {
    id: p.pid,
    number,
    page,
    author: p.user?.username ?? '',
    authorId: p.uid ?? null,
    postedAt: fromEpochMillis(p.timestamp) ?? fromIso(p.timestampISO),
    permalink: `${base}/post/${p.pid}`,
    edit: p.edited
      ? {
          at: fromEpochMillis(p.edited) ?? fromIso(p.editedISO),
          by: editor,
          text: `last edited by ${editor ?? 'unknown'}`,
        }
      : null,
    bodyHash: hashBody(body),
    body,
  };
}

function parseHtmlPage(html: string, ctx: PageContext, base: string): ThreadPage {
  const doc = pageDocument(html, descriptor, ctx);
  const els = requirePosts(doc, POST, html, ctx.url);
  const { page, pageCount } = pagination(doc, ctx);
  const title = text(one(doc, '[component="topic/title"]')) || null;
  const posts = readEach(els, (el) => readHtmlPost(el, page, base, ctx));
  return { title, page, pageCount, postsPerPage: null, posts };
}

/** The page embeds its API data (`ajaxify-data`); Persona's "1 / 3" selector is the fallback. */
function pagination(doc: Document, ctx: PageContext): { page: number; pageCount: number } {
  const script = one(doc, 'script#ajaxify-data');
  try {
    const data = JSON.parse((script ? textContent(script) : '') || 'null') as {
      pagination?: { currentPage?: number; pageCount?: number };
    } | null;
    const p = data?.pagination;
    if (p?.currentPage && p.pageCount) return { page: p.currentPage, pageCount: Math.max(p.currentPage, p.pageCount) };
  } catch {
    // fall through to the visible pager
  }
  const m = /(\d+)\s*\/\s*(\d+)/.exec(text(one(doc, '[component="pagination/select-page"]')));
  const page = m ? Number(m[1]) : nodebb.pageOf(new URL(ctx.url), null);
  return { page, pageCount: m ? Math.max(page, Number(m[2])) : page };
}

function readHtmlPost(el: Element, page: number, base: string, ctx: PageContext): Post {
  const pid = attr(el, 'data-pid') ?? '';
  const contentEl = one(el, '[component="post/content"]');
  const body = contentEl ? readBody(contentEl, ctx) : [];
  return {
    id: pid,
    number: Number(attr(el, 'data-index') ?? 0) + 1,
    page,
    author: attr(el, 'data-username') ?? text(one(el, '[itemprop="author"]')),
    authorId: attr(el, 'data-uid'),
    postedAt:
      fromEpochMillis(attr(el, 'data-timestamp')) ??
      fromIso(attr(one(el, 'meta[itemprop="datePublished"]'), 'content')),
    permalink: `${base}/post/${pid}`,
    edit: htmlEdit(el),
    bodyHash: hashBody(body),
    body,
  };
}

/**
 * Persona keeps the "last edited by" line hidden until hover even on edited posts, so an
 * edit shows as a filled `dateModified`, a visible pencil, or a visible editor line.
 */
function htmlEdit(el: Element): Post['edit'] {
  const modified = attr(one(el, 'meta[itemprop="dateModified"]'), 'content') || null;
  const editor = one(el, '[component="post/editor"]');
  const pencilShown = one(el, '[component="post/edit-indicator"]:not(.hidden)') !== null;
  const editorShown = editor !== null && !/\bhidden\b/.test(attr(editor, 'class') ?? '');
  if (!modified && !pencilShown && !editorShown) return null;
  const line = text(editor);
  const by = /last edited by\s+(.+)$/i.exec(line)?.[1]?.trim() || null;
  const at = fromIso(modified) ?? fromIso(attr(editor ? one(editor, '.timeago[title]') : null, 'title'));
  return { at, by, text: line || 'edited' };
}

function readBody(root: Element, ctx: PageContext): Post['body'] {
  markQuoteAuthors(root);
  return buildBody(root, descriptor.body, { pageUrl: ctx.url, forumOrigins: ctx.profile.aliases });
}

/**
 * NodeBB prints who is quoted as a paragraph before the quote ("@MJ said in Title:").
 * That line is chrome, not the poster's words: its name moves onto the blockquote.
 */
function markQuoteAuthors(root: Element): void {
  for (const quote of all(root, 'blockquote')) {
    const header = previousElement(quote);
    if (!header || header.name !== 'p') continue;
    const line = text(header);
    const m = /^@?(.+?)\s+said in\b.*:\s*$/i.exec(line);
    if (!m) continue;
    const mention = one(header, 'a.plugin-mentions-user, a.plugin-mentions-a, a.mention');
    quote.attribs['data-votal-author'] = (text(mention) || m[1]!).replace(/^@/, '');
    removeElement(header);
  }
}

function previousElement(el: Element): Element | null {
  for (let n = el.prev; n; n = n.prev) {
    if (n.type === 'tag') return n as Element;
    if (n.type === 'text' && n.data.trim() !== '') return null;
  }
  return null;
}
