import type { Document, Element } from 'domhandler';
import type { Post } from '../src/model/post.js';
import { hashBody } from '../src/model/post.js';
import { defineDescriptor, type EngineAdapter, type PageContext, type ThreadPage, type ThreadRef } from './adapter.js';
import { buildBody } from './body-builder.js';
import { all, attr, byId, documentBase, one, text, pageDocument } from './dom.js';
import { fromForumText, type TextDateOptions, withPageDateOrder } from './forum-time.js';
import { readEach, requirePosts } from './page-checks.js';
import { pageSizeFor, placeInThread, postNumber, shownPageSize } from './post-number.js';
import {
  memberId,
  VB_BBCODE_CHROME,
  VB_BBCODE_QUOTES,
  VB_BROWSER_REPLY,
  VB_DIALECT,
  VB_REPLY_FORM,
  VB_SPOILER,
  vbEditNote,
} from './vbulletin-markup.js';

export const descriptor = defineDescriptor({
  engine: 'vbulletin3',
  name: 'vBulletin 3',
  dialect: VB_DIALECT,
  replyForm: VB_REPLY_FORM,
  browserReply: VB_BROWSER_REPLY,
  threadPaths: ['/showthread\\.php'],
  // Stock vB3 has no id on <html>/<body>: the generator tag, else the post tables.
  generator: '^\\s*vBulletin\\s+3\\b',
  fingerprints: ['div#posts table[id^="post"][class~="tborder"]'],
  postsPerPage: 15,
  regions: [
    {
      selector: 'table[id^="post"]',
      parts: [
        '[id^="postmenu_"]',
        'a.bigusername',
        'a[id^="postcount"]',
        'a[id^="postlink"]',
        '[id^="post_message_"]',
        'td.thead',
        'div.smallfont',
      ],
    },
    'div.pagenav',
    'td.navbar',
    'title',
    'base',
  ],
  body: {
    // vB3 quotes and code share `div[style*="margin:20px"]` with a "Quote:"/"Code:"
    // caption; the named quote's first line is "Originally Posted by <strong>X</strong>"
    // + a view-post button image, followed by the italic message.
    skip:
      'script, style, noscript, iframe, object, embed, form, input, button, ' +
      'div[style*="margin:20px"] > div.smallfont:first-child, ' +
      'td.alt2 > div:first-child:has(> strong):has(+ div[style*="font-style:italic"]), ' +
      VB_BBCODE_CHROME,
    quote: [
      {
        selector:
          'div[style*="margin:20px"]:has(> table > tr > td.alt2 > div:first-child > strong), ' +
          'div[style*="margin:20px"]:has(> table > tbody > tr > td.alt2 > div:first-child > strong)',
        authorSelector: 'td.alt2 > div:first-child > strong',
      },
      { selector: 'div[style*="margin:20px"]:has(> table)' },
      ...VB_BBCODE_QUOTES,
    ],
    spoiler: VB_SPOILER,
    code: 'pre.alt2, div.alt2 > code, pre.bbcode_code, div.bbcode_code, pre, code',
    // No core [S]; boards add it as <strike>/<s> or a line-through span.
    strike: 's, strike, del, span[style*="line-through"]',
    // img.inlineimg is also every status icon and button: only the smilies folder counts.
    smilie: 'img[src*="smilies"], img[smilieid]',
    mention: 'a.mention',
  },
});

const POST = 'table[id^="post"]';

export const vbulletin3: EngineAdapter = {
  descriptor,

  threadRef(url: URL): ThreadRef {
    const t = url.searchParams.get('t') ?? /showthread\.php[/?](\d+)/.exec(url.pathname + url.search)?.[1] ?? null;
    const keep = new URLSearchParams();
    if (t) keep.set('t', t);
    else if (url.searchParams.get('p')) keep.set('p', url.searchParams.get('p')!);
    return { engine: 'vbulletin3', url: `${url.origin}${url.pathname}?${keep}`, id: t };
  },

  pageUrl(thread, page) {
    return page <= 1 ? thread.url : `${thread.url}&page=${page}`;
  },

  pageOf(url) {
    return Number(url.searchParams.get('page')) || 1;
  },

  parsePage(html: string, given: PageContext): ThreadPage {
    // Numeric dates in the order the page shows, before the profile's.
    const ctx = withPageDateOrder(html, given);
    const doc = pageDocument(html, descriptor, ctx);
    const els = requirePosts(doc, POST, html, ctx.url).filter((el) => /^post\d+$/.test(attr(el, 'id') ?? ''));
    const { page, pageCount } = pagination(doc, this.pageOf(new URL(ctx.url), null));
    const base = documentBase(doc, ctx.url);
    const title =
      text(one(doc, 'td.navbar strong')) ||
      text(one(doc, 'title'))
        .replace(/\s+-\s+Page\s+\d+\b.*$/i, '')
        .replace(/\s+-\s+[^-]*$/, '') ||
      null;
    // Where a post shows no number, its place in the thread stands in.
    const size = { page, pageCount, postsOnPage: els.length };
    const perPage = pageSizeFor(size, ctx, descriptor.postsPerPage);
    const posts = readEach(els, (el, i) => readPost(el, placeInThread(page, i, perPage), page, base, ctx));
    return { title, page, pageCount, postsPerPage: shownPageSize(size), posts };
  },
};

/** "Page 152 of 155" in the page navigator; a one-page thread shows none. */
function pagination(doc: Document, fromUrl: number): { page: number; pageCount: number } {
  const m = /(\d+)\D+(\d+)/.exec(text(one(doc, 'div.pagenav td.vbmenu_control')));
  const page = m ? Number(m[1]) : fromUrl;
  return { page, pageCount: Math.max(page, m ? Number(m[2]) : 0) };
}

function readPost(el: Element, position: number, page: number, base: string, ctx: PageContext): Post {
  const id = (attr(el, 'id') ?? '').replace(/^post/, '');
  const dates: TextDateOptions = { timeZone: ctx.profile.timeZone, dateOrder: ctx.profile.dateOrder, now: ctx.now };
  const menu = byId(el, `postmenu_${id}`);
  const nameEl = (menu ? one(menu, 'a.bigusername') : null) ?? one(el, 'a.bigusername');
  // Guests have no profile link: their name is the post menu's text.
  const author = text(nameEl) || text(menu);
  const numberEl = byId(el, `postcount${id}`, 'a') ?? one(el, 'a[id^="postcount"][name]');
  const bodyEl = byId(el, `post_message_${id}`);
  const body = bodyEl ? buildBody(bodyEl, descriptor.body, { pageUrl: base, forumOrigins: ctx.profile.aliases }) : [];
  // The date is the text of the header cell holding the post anchor.
  const dateCell = one(el, 'td.thead');
  const editEl = all(el, 'div.smallfont > em').find((em) => !isInside(em, bodyEl) && /\S/.test(text(em))) ?? null;
  return {
    id,
    number: postNumber(attr(numberEl, 'name')) ?? postNumber(text(numberEl)) ?? position,
    page,
    author,
    authorId: memberId(attr(nameEl, 'href')),
    postedAt: fromForumText(text(dateCell), dates),
    permalink: new URL(attr(byId(el, `postlink${id}`, 'a'), 'href') ?? `showthread.php?p=${id}#post${id}`, base).href,
    edit: editEl ? vbEditNote(text(editEl), dates) : null,
    bodyHash: hashBody(body),
    body,
  };
}

function isInside(el: Element, container: Element | null): boolean {
  for (let p = el.parent; p && container; p = p.parent) if (p === container) return true;
  return false;
}
