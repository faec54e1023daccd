import type { Document, Element } from 'domhandler';
import { hashBody, type Post } from '../src/model/post.js';
import { defineDescriptor, type EngineAdapter, type PageContext, type ThreadPage, type ThreadRef } from './adapter.js';
import { buildBody } from './body-builder.js';
import { all, attr, byId, childMatching, one, text, documentBase, pageDocument } from './dom.js';
import { fromForumText, type TextDateOptions, withPageDateOrder } from './forum-time.js';
import { distinctPosts, readEach, requirePosts, showsContent } from './page-checks.js';
import { pageSizeFor, placeInThread, postNumber, shownPageSize } from './post-number.js';
import {
  memberId,
  VB_BBCODE_BODY,
  VB_BROWSER_REPLY,
  VB_DIALECT,
  VB_REPLY_FORM,
  vbEditNote,
} from './vbulletin-markup.js';

export const descriptor = defineDescriptor({
  engine: 'vbulletin4',
  name: 'vBulletin 4',
  dialect: VB_DIALECT,
  replyForm: VB_REPLY_FORM,
  browserReply: VB_BROWSER_REPLY,
  // showthread.php?t=N, showthread.php?N-slug, showthread.php/N-slug, /threads/N-slug.
  threadPaths: ['/showthread\\.php', '/threads/\\d+-'],
  generator: '^\\s*vBulletin\\s+4\\b',
  fingerprints: ['html#vbulletin_html'],
  postsPerPage: 10,
  regions: [
    {
      selector: 'li[id^="post_"]',
      parts: [
        // Of the profile box, only the name.
        { selector: '.userinfo', parts: ['.username'] },
        { selector: '.userinfo_noavatar', parts: ['.username'] },
        { selector: '.username_container', parts: ['.username'] },
        '.username',
        'a.postcounter',
        'a[id^="postcount"]',
        '[id^="post_message_"]',
        '.lastedited',
        '.posthead',
        'span.date',
      ],
    },
    '#pagination_top',
    '.pagination',
    '#pagetitle',
    'span.threadtitle',
    'title',
    'base',
  ],
  body: {
    ...VB_BBCODE_BODY,
    mention: 'a.mention',
  },
});

const POST = 'li[id^="post_"]';

export const vbulletin4: EngineAdapter = {
  descriptor,

  threadRef(url: URL): ThreadRef {
    const t = url.searchParams.get('t');
    if (t) return { engine: 'vbulletin4', url: `${url.origin}${url.pathname}?t=${t}`, id: t };
    // Friendly URLs: the id leads the slug, in the path or as the whole query.
    const path = /^(.*?\/(?:showthread\.php\/|threads\/)(\d+)(?:-[^/]*)?)/.exec(url.pathname);
    if (path) return { engine: 'vbulletin4', url: `${url.origin}${path[1]}`, id: path[2]! };
    const query = /^\?((\d+)(?:-[^/&]*)?)/.exec(url.search);
    if (query) return { engine: 'vbulletin4', url: `${url.origin}${url.pathname}?${query[1]}`, id: query[2]! };
    const p = url.searchParams.get('p');
    return { engine: 'vbulletin4', url: `${url.origin}${url.pathname}${p ? `?p=${p}` : ''}`, id: null };
  },

  pageUrl(thread, page) {
    if (page <= 1) return thread.url;
    return /[?&]t=\d+/.test(thread.url) ? `${thread.url}&page=${page}` : `${thread.url}/page${page}`;
  },

  pageOf(url) {
    const m = /[?&]page=(\d+)/.exec(url.search) ?? /\/page(\d+)(?:[/?&#]|$)/.exec(url.pathname + url.search);
    return m ? Number(m[1]) : 1;
  },

  parsePage(html: string, given: PageContext): ThreadPage {
    // Numeric dates in the order the page shows, before the profile's.
    const ctx = withPageDateOrder(html, given);
    const doc = pageDocument(html, descriptor, ctx);
    const els = distinctPosts(
      requirePosts(doc, POST, html, ctx.url).filter((el) => /^post_\d+$/.test(attr(el, 'id') ?? '')),
      (el) => attr(el, 'id') ?? '',
      isStub,
    );
    const { page, pageCount } = pagination(doc, this.pageOf(new URL(ctx.url), null));
    const base = documentBase(doc, ctx.url);
    const title =
      text(one(doc, '#pagetitle .threadtitle')) ||
      text(one(doc, 'span.threadtitle')) ||
      text(one(doc, 'title')) ||
      null;
    // Where a post shows no number, its place in the thread stands in.
    const size = { page, pageCount, postsOnPage: els.length };
    const perPage = pageSizeFor(size, ctx, descriptor.postsPerPage);
    const posts = readEach(els, (el, i) => readPost(el, placeInThread(page, i, perPage), page, base, ctx));
    return { title, page, pageCount, postsPerPage: shownPageSize(size), posts };
  },
};

/** An ad slot in a post's markup: no post number and a body that shows nothing. */
function isStub(el: Element): boolean {
  const id = (attr(el, 'id') ?? '').replace(/^post_/, '');
  const number = one(el, 'a.postcounter') ?? one(el, '.posthead .nodecontrols');
  return postNumber(text(number)) === null && !showsContent(byId(el, `post_message_${id}`));
}

/** "Page 1 of 2" on the pagination control; a one-page thread shows none. */
function pagination(doc: Document, fromUrl: number): { page: number; pageCount: number } {
  const box = one(doc, '#pagination_top') ?? one(doc, '.pagination');
  const m = /(\d+)\D+(\d+)/.exec(text(box ? one(box, 'a.popupctrl') : null));
  const selected = Number(text(box ? one(box, 'span.selected') : null)) || null;
  const page = m ? Number(m[1]) : (selected ?? fromUrl);
  return { page, pageCount: Math.max(page, m ? Number(m[2]) : 0) };
}

function readPost(el: Element, position: number, page: number, base: string, ctx: PageContext): Post {
  const id = (attr(el, 'id') ?? '').replace(/^post_/, '');
  const dates: TextDateOptions = { timeZone: ctx.profile.timeZone, dateOrder: ctx.profile.dateOrder, now: ctx.now };
  // Guests are a span.username; members an a.username with the profile link.
  const nameEl =
    one(el, '.userinfo .username, .userinfo_noavatar .username, .username_container .username') ?? one(el, '.username');
  const counter = one(el, 'a.postcounter');
  const message = byId(el, `post_message_${id}`);
  const bodyEl = childMatching(message, 'blockquote.postcontent') ?? message;
  const body = bodyEl ? buildBody(bodyEl, descriptor.body, { pageUrl: base, forumOrigins: ctx.profile.aliases }) : [];
  // Some boards print an empty lastedited block on every post: only one with text is an edit.
  const editEl = all(el, 'blockquote.lastedited, .lastedited').find((e) => /\S/.test(text(e))) ?? null;
  return {
    id,
    number: postNumber(text(counter)) ?? postNumber(attr(byId(el, `postcount${id}`, 'a'), 'name')) ?? position,
    page,
    author: text(nameEl),
    authorId: memberId(attr(nameEl, 'href')),
    postedAt: fromForumText(text(one(el, '.posthead .postdate .date') ?? one(el, 'span.date')), dates),
    permalink: new URL(attr(counter, 'href') ?? `showthread.php?p=${id}#post${id}`, base).href,
    edit: editEl ? vbEditNote(text(editEl), dates) : null,
    bodyHash: hashBody(body),
    body,
  };
}
