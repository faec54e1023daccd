import type { Document, Element } from 'domhandler';
import { hashBody, type Post } from '../src/model/post.js';
import { defineDescriptor, type EngineAdapter, type PageContext, type ThreadPage, type ThreadRef } from './adapter.js';
import { buildBody } from './body-builder.js';
import { attr, one, text, documentBase, pageDocument } from './dom.js';
import { fromEpochSeconds, fromForumText, type TextDateOptions, withPageDateOrder } from './forum-time.js';
import { readEach, requirePosts } from './page-checks.js';
import { pageSizeFor, placeInThread, postNumber, shownPageSize } from './post-number.js';
import { memberId, VB_BBCODE_BODY, VB_DIALECT, vbEditNote } from './vbulletin-markup.js';

export const descriptor = defineDescriptor({
  engine: 'vbulletin5',
  name: 'vBulletin 5',
  dialect: VB_DIALECT,
  // Default route: /forum/{channel path}/{nodeid}-{slug}[/pageN]; also /node/{nodeid}.
  threadPaths: ['^/forum/(?:[^/]+/)+\\d+-[^/]+', '^/node/\\d+'],
  generator: '^\\s*vBulletin\\s+5\\b',
  fingerprints: ['body#vb-page-body'],
  postsPerPage: 20,
  regions: [
    {
      selector: 'li.b-post',
      parts: [
        // Of the profile card, only the name.
        { selector: '[itemprop="author"]', parts: ['.author'] },
        { selector: '.b-userinfo', parts: ['.author'] },
        'a.b-post__count',
        '.js-post__content-text',
        '.b-post__edit',
        'time[itemprop="dateCreated"]',
        '.b-post__timestamp',
      ],
    },
    '.pagenav-form',
    'input.js-pagenum',
    'span.pagetotal',
    'h1.main-title',
    'base',
  ],
  body: {
    ...VB_BBCODE_BODY,
    // [USER=N] (core in vB5). [M]
    mention: 'a.b-bbcode-user, a.js-bbcode-user, a[data-userid]',
  },
});

const POST = 'li.b-post[data-node-id]';

export const vbulletin5: EngineAdapter = {
  descriptor,

  threadRef(url: URL): ThreadRef {
    const m = /^(.*?\/(\d+)-[^/]+?)(?:\/page\d+)?\/?$/.exec(url.pathname);
    if (m) return { engine: 'vbulletin5', url: `${url.origin}${m[1]}`, id: m[2]! };
    const node = /^(.*?\/node\/(\d+))/.exec(url.pathname);
    return { engine: 'vbulletin5', url: `${url.origin}${node?.[1] ?? url.pathname}`, id: node?.[2] ?? null };
  },

  pageUrl(thread, page) {
    return page <= 1 ? thread.url : `${thread.url}/page${page}`;
  },

  pageOf(url) {
    const m = /\/page(\d+)\/?$/.exec(url.pathname) ?? /[?&]page=(\d+)/.exec(url.search);
    return m ? Number(m[1]) : 1;
  },

  parsePage(html: string, given: PageContext): ThreadPage {
    // Numeric dates in the order the page shows, before the profile's.
    const ctx = withPageDateOrder(html, given);
    const doc = pageDocument(html, descriptor, ctx);
    const els = requirePosts(doc, POST, html, ctx.url);
    const { page, pageCount } = pagination(doc, this.pageOf(new URL(ctx.url), null));
    const base = documentBase(doc, ctx.url);
    // Sidebar widgets have their own h1.main-title after the thread's.
    const title = text(one(doc, 'h1.main-title')) || null;
    // Where a post shows no number, its place in the thread stands in.
    const size = { page, pageCount, postsOnPage: els.length };
    const perPage = pageSizeFor(size, ctx, descriptor.postsPerPage);
    const posts = readEach(els, (el, i) => readPost(el, placeInThread(page, i, perPage), page, base, ctx));
    return { title, page, pageCount, postsPerPage: shownPageSize(size), posts };
  },
};

/** "Page [1] of <span class=pagetotal>2</span>": the current page is the input's value. */
function pagination(doc: Document, fromUrl: number): { page: number; pageCount: number } {
  const nav = one(doc, '.pagenav-form') ?? doc;
  const page = Number(attr(one(nav, 'input.js-pagenum'), 'value')) || fromUrl;
  return { page, pageCount: Math.max(page, Number(text(one(nav, 'span.pagetotal'))) || 0) };
}

function readPost(el: Element, position: number, page: number, base: string, ctx: PageContext): Post {
  const id = attr(el, 'data-node-id') ?? '';
  const dates: TextDateOptions = { timeZone: ctx.profile.timeZone, dateOrder: ctx.profile.dateOrder, now: ctx.now };
  const nameEl = one(el, '[itemprop="author"] .author a') ?? one(el, '.b-userinfo .author a');
  const author = text(nameEl) || text(one(el, '[itemprop="author"] .author'));
  const counter = one(el, 'a.b-post__count');
  const bodyEl = one(el, '.js-post__content-text');
  const body = bodyEl ? buildBody(bodyEl, descriptor.body, { pageUrl: base, forumOrigins: ctx.profile.aliases }) : [];
  const editEl = one(el, '.b-post__edit');
  const note = editEl && /\S/.test(text(editEl)) ? vbEditNote(text(editEl), dates) : null;
  const edit = note ? { ...note, by: nameOf(editEl) ?? note.by } : null;
  return {
    id,
    number: postNumber(text(counter)) ?? position,
    page,
    author,
    authorId: memberId(attr(nameEl, 'href')),
    // The publish date is unix seconds (exact). The time element's zone-less datetime is
    // the server's wall clock and its text the board's display zone, so without the
    // epoch only the text with the site profile's zone is trustworthy.
    postedAt:
      fromEpochSeconds(attr(el, 'data-node-publishdate')) ??
      fromForumText(text(one(el, 'time[itemprop="dateCreated"]') ?? one(el, '.b-post__timestamp')), dates),
    permalink: new URL(attr(counter, 'href') ?? `?p=${id}#post${id}`, base).href,
    edit,
    bodyHash: hashBody(body),
    body,
  };
}

/** The editor's profile link in the edit note, when it has one. */
function nameOf(editEl: Element | null): string | null {
  return text(editEl ? one(editEl, 'a[href*="member"]') : null) || null;
}
