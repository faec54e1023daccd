import type { Document, Element } from 'domhandler';
import { hashBody, type Post } from '../src/model/post.js';
import { BBCODE } from '../src/model/dialect.js';
import { defineDescriptor, type EngineAdapter, type PageContext, type ThreadPage, type ThreadRef } from './adapter.js';
import { buildBody } from './body-builder.js';
import { all, attr, byId, findOutside, matches, one, text, pageDocument } from './dom.js';
import { fromForumText, type TextDateOptions, withPageDateOrder } from './forum-time.js';
import { readEach, requirePosts } from './page-checks.js';
import { pageSizeFor, placeInThread, postNumber, shownPageSize } from './post-number.js';

/**
 * MyBB 1.8 (default postbit templates, MyCode output). Times are text in the board's
 * format and zone; recent ones are relative ("Yesterday", "2 hours ago") with the real
 * date in the `title` of a span.
 */
export const descriptor = defineDescriptor({
  engine: 'mybb',
  name: 'MyBB',
  // MyBB 1.8 has no no-parse tag in the default install.
  dialect: { ...BBCODE, id: 'bbcode-mybb' },
  replyForm: {
    replyUrl: '{dir}newreply.php?tid={id}',
    form: 'form[name="input"]',
    messageField: 'message',
    fields: { submit: 'Post Reply', action: 'do_newreply' },
    skip: ['previewpost'],
    errorSelector: '.error',
  },
  browserReply: { editor: 'textarea[name="message"]', submit: 'form[name="input"] input[name="submit"]' },
  threadPaths: ['/showthread\\.php\\?(?:.*&)?tid=\\d+', '/thread-\\d+'],
  // `my_post_key` is in a head script; the post body ids are MyBB's own.
  fingerprints: ['div#posts div.post[id^="post_"] div.post_body[id^="pid_"]'],
  postsPerPage: 10,
  regions: ['div.post[id^="post_"]', 'div.pagination', 'td.thead', 'title'],
  body: {
    // "Code:" above a code block is a label, not code.
    skip: 'script, style, noscript, iframe, object, embed, form, input, button, div.codeblock > div.title',
    quote: [
      {
        selector: 'blockquote.mycode_quote, blockquote',
        // "<span> (03-02-2026, 06:05 PM)</span>Alice Wrote: <a class=quick_jump>"
        authorSelector: 'cite',
        authorPattern: '^(?:\\([^)]*\\))?\\s*(.*?)\\s+Wrote:',
      },
    ],
    // Spoilers are a plugin, not core; these are the common plugins' classes.
    spoiler: { selector: 'div.spoiler, details', titleSelector: '.spoiler_title, .spoiler_header, summary' },
    code: 'div.codeblock div.body, pre, code',
    bold: 'span.mycode_b, b, strong',
    italic: 'span.mycode_i, i, em',
    underline: 'span.mycode_u, u',
    strike: 'span.mycode_s, s, del, strike',
    smilie: 'img.smilie',
    // Mentions are a plugin (MentionMe) too.
    mention: 'a.mentionme_mention, a.mention',
  },
});

const POST = 'div.post[id^="post_"]';

/** `showthread.php?tid=42&page=2` or the SEO form `thread-42-page-2.html`. */
function threadOf(url: URL): { tid: string; page: number; seo: boolean } | null {
  const tid = url.searchParams.get('tid');
  if (tid) return { tid, page: Number(url.searchParams.get('page')) || 1, seo: false };
  const m = /\/thread-(\d+)(?:-page-(\d+))?/.exec(url.pathname);
  return m ? { tid: m[1]!, page: Number(m[2]) || 1, seo: true } : null;
}

export const mybb: EngineAdapter = {
  descriptor,

  threadRef(url: URL): ThreadRef {
    const t = threadOf(url);
    if (!t) return { engine: 'mybb', url: url.href.replace(/#.*$/, ''), id: null };
    const path = t.seo ? url.pathname.replace(/\/thread-.*$/, `/thread-${t.tid}.html`) : `${url.pathname}?tid=${t.tid}`;
    return { engine: 'mybb', url: `${url.origin}${path}`, id: t.tid };
  },

  pageUrl(thread, page) {
    if (page <= 1) return thread.url;
    return /\/thread-\d+\.html$/.test(thread.url)
      ? thread.url.replace(/\.html$/, `-page-${page}.html`)
      : `${thread.url}&page=${page}`;
  },

  pageOf(url) {
    return threadOf(url)?.page ?? 1;
  },

  parsePage(html: string, given: PageContext): ThreadPage {
    // Numeric dates in the order the page shows, before the profile's.
    const ctx = withPageDateOrder(html, given);
    const doc = pageDocument(html, descriptor, ctx);
    const els = requirePosts(doc, POST, html, ctx.url).filter((el) => /^post_\d+$/.test(attr(el, 'id') ?? ''));
    const { page, pageCount } = pagination(doc, ctx);
    // Where a post shows no number, its place in the thread stands in.
    const size = { page, pageCount, postsOnPage: els.length };
    const perPage = pageSizeFor(size, ctx, descriptor.postsPerPage);
    // The thread head also holds "Thread Modes" (floated right); the subject is the other strong.
    const title = text(one(doc, 'td.thead > div:not(.float_right) strong')) || text(one(doc, 'title')) || null;
    const posts = readEach(els, (el, i) => readPost(el, placeInThread(page, i, perPage), page, ctx));
    return { title, page, pageCount, postsPerPage: shownPageSize(size), posts };
  },
};

/** `div.pagination`: "Pages (3):", the current page in `span.pagination_current`. */
function pagination(doc: Document, ctx: PageContext): { page: number; pageCount: number } {
  const box = one(doc, 'div.pagination');
  const page = Number(text(box ? one(box, '.pagination_current') : null)) || mybb.pageOf(new URL(ctx.url), null);
  const declared = Number(/Pages\s*\((\d+)\)/i.exec(text(box))?.[1]) || 0;
  const numbers = box ? all(box, 'a.pagination_page, a.pagination_last').map((a) => Number(text(a)) || 0) : [];
  return { page, pageCount: Math.max(page, declared, ...numbers) };
}

function readPost(el: Element, position: number, page: number, ctx: PageContext): Post {
  const id = (attr(el, 'id') ?? '').replace(/^post_/, '');
  const nameLink =
    one(el, '.author_information .largetext a') ??
    one(el, '.post_author a[href*="uid="], .post_author a[href*="user-"]');
  const head = one(el, 'div.post_head');
  const numberLink = head ? one(head, '.float_right strong a, .float_right a') : null;
  const dateEl = head ? one(head, 'span.post_date') : null;
  const dates: TextDateOptions = { timeZone: ctx.profile.timeZone, dateOrder: ctx.profile.dateOrder, now: ctx.now };
  const bodyEl = byId(el, `pid_${id}`) ?? one(el, 'div.post_body');
  const editEl = editNote(el, id, bodyEl);
  const editText = text(editEl);
  const edit =
    /last modified:\s*(.*?)\s+by\s+(.+?)\.?\)/i.exec(editText) ?? /last modified:\s*(.*?)\s+by\s+(.+)$/i.exec(editText);
  const body = bodyEl
    ? buildBody(bodyEl, descriptor.body, { pageUrl: ctx.url, forumOrigins: ctx.profile.aliases })
    : [];
  return {
    id,
    number: postNumber(text(numberLink)) ?? position,
    page,
    author: text(nameLink) || text(one(el, '.author_information .largetext')),
    // `member.php?action=profile&uid=11`, or `user-11.html` with search-engine-friendly URLs.
    authorId: /(?:[?&]uid=|(?:^|\/)user-)(\d+)/.exec(attr(nameLink, 'href') ?? '')?.[1] ?? null,
    postedAt: dateEl ? mybbDate(dateEl, dates) : null,
    permalink: new URL(attr(numberLink, 'href') ?? `showthread.php?pid=${id}#pid${id}`, ctx.url).href,
    edit: editEl
      ? { at: edit ? relativeText(edit[1]!, dates) : null, by: edit?.[2]?.trim() || null, text: editText }
      : null,
    bodyHash: hashBody(body),
    body,
  };
}

/**
 * The post's own edit note (postbit_editedby's `.edited_post`): in the slot the postbit keeps
 * for it, `span#edited_by_PID` (empty while the post is unedited), or, in a theme without that
 * slot, the first one outside the body: a board that allows HTML in posts may show an edit
 * note's markup inside a body, which is the post's text, never its edit.
 */
function editNote(el: Element, id: string, bodyEl: Element | null): Element | null {
  const slot = byId(el, `edited_by_${id}`);
  if (slot) return one(slot, '.edited_post');
  const isNote = (e: Element): boolean => matches(e, '.edited_post');
  return findOutside(el, isNote, (e) => e === bodyEl, true)[0] ?? null;
}

/**
 * The post date without its edit note; a relative date ("Yesterday", "2 hours ago")
 * keeps the real date in the span's `title` ("03-02-2026", or with the time).
 */
function mybbDate(dateEl: Element, opts: TextDateOptions): string | null {
  let s = '';
  for (const n of dateEl.children) {
    if (n.type === 'text') s += n.data;
    else if (n.type === 'tag' && !/\bpost_edit\b/.test(n.attribs.class ?? '')) s += attr(n, 'title') ?? text(n);
  }
  return relativeText(s, opts);
}

function relativeText(raw: string, opts: TextDateOptions): string | null {
  const ago = /(\d+)\s+(minute|hour)s?\s+ago/i.exec(raw);
  if (ago)
    return new Date(
      Date.parse(opts.now) - Number(ago[1]) * (ago[2]!.toLowerCase() === 'hour' ? 3.6e6 : 6e4),
    ).toISOString();
  return fromForumText(raw, opts);
}
