import type { Element } from 'domhandler';
import { hashBody, type Post } from '../src/model/post.js';
import { defineDescriptor, type EngineAdapter, type PageContext, type ThreadPage, type ThreadRef } from './adapter.js';
import { buildBody } from './body-builder.js';
import { attr, documentBase, findOutside, matches, one, pageDocument, text } from './dom.js';
import { fromEpochSeconds, fromForumText, type TextDateOptions, withPageDateOrder } from './forum-time.js';
import { readEach, requirePosts } from './page-checks.js';
import { pageSizeFor, placeInThread, postNumber, shownPageSize } from './post-number.js';
import { XF_DIALECT, XF_POSTS_PER_PAGE, XF_REPLY, XF_THREAD_PATH, xenforoPageOf, xenforoPageUrl } from './xenforo.js';

export const descriptor = defineDescriptor({
  engine: 'xenforo1',
  name: 'XenForo 1',
  dialect: XF_DIALECT,
  replyForm: {
    ...XF_REPLY,
    errorSelector: '.errorOverlay, .errors',
  },
  browserReply: {
    editor: 'textarea[name="message"]',
    plainTextToggle: '.redactor_toolbar .redactor_btn_switchmode',
    submit: 'form[action*="add-reply"] input[type="submit"].primary, form[action*="add-reply"] input[type="submit"]',
  },
  // Same URL shape as XenForo 2 (the page's html#XenForo tells them apart); also the
  // unfriendly `index.php?threads/slug.123/` form.
  threadPaths: [XF_THREAD_PATH, 'index\\.php\\?threads/[^/]*?\\.?\\d+'],
  fingerprints: ['html#XenForo'],
  postsPerPage: XF_POSTS_PER_PAGE,
  regions: [
    {
      selector: 'li.message',
      parts: [
        // Of the profile box and the meta line, only the name, number, permalink and time.
        { selector: '.messageUserInfo', parts: ['a.username'] },
        { selector: '.messageMeta', parts: ['a.username', 'a.postNumber', 'a.datePermalink', '.DateTime'] },
        { selector: '.messageContent', parts: ['blockquote.messageText', 'div.editDate'] },
        'blockquote.messageText',
        'div.editDate',
        // Themes that move the date out of .messageMeta (digitalfernsehen.de, gtplanet.net).
        '.DateTime',
      ],
    },
    'div.PageNav',
    '.titleBar',
    'base',
  ],
  body: {
    // The end marker, quote attribution and "Click to expand" are chrome; dice and other
    // add-ons draw SVG, which never carries post text. The attribution is skipped rather
    // than read: the author is in the quote's own data-author, which a nested quote's
    // attribution line can never be mistaken for.
    skip:
      'script, style, noscript, iframe, object, embed, form, input, button, svg, ' +
      '.messageTextEndMarker, .quoteExpand, .attribution, .bbCodeCode > aside > .type, .bbCodePHP > aside > .type, .bbCodeHtml > aside > .type',
    quote: [{ selector: '.bbCodeQuote', authorAttr: 'data-author' }],
    // The button ("Spoiler: title") is skipped with every button; the title has its own span. [M]
    spoiler: { selector: '.bbCodeSpoilerContainer', titleSelector: '.SpoilerTitle' },
    code: '.bbCodeCode pre, .bbCodePHP blockquote, .bbCodeHtml blockquote, pre, code',
    // [S] renders as a line-through span.
    strike: 's, strike, del, span[style*="line-through"]',
    // Sprite smilies are a transparent clear.png whose meaning is in alt.
    smilie: 'img.mceSmilieSprite, img.mceSmilie, img[class*="mceSmilie"], img.smilie',
    mention: 'a.username',
    internalLink: 'a.internalLink',
  },
});

const POST = 'li.message[id^="post-"]';

export const xenforo1: EngineAdapter = {
  descriptor,

  threadRef(url: URL): ThreadRef {
    const route = url.pathname + url.search;
    const m = /^(.*?threads\/(?:[^/?&]*?\.)?(\d+))(?:[/?&#]|$)/.exec(route);
    const path = m ? `${m[1]}/` : url.pathname.replace(/\/(page-\d+|post-\d+|unread|latest)\/?$/, '/');
    return { engine: 'xenforo1', url: `${url.origin}${path}`, id: m?.[2] ?? null };
  },

  pageUrl: xenforoPageUrl,

  // The unfriendly form puts the page in the query: `index.php?threads/slug.123/page-2`.
  pageOf: (url) => xenforoPageOf(url.pathname + url.search),

  parsePage(html: string, given: PageContext): ThreadPage {
    // Numeric dates in the order the page shows, before the profile's.
    const ctx = withPageDateOrder(html, given);
    const doc = pageDocument(html, descriptor, ctx);
    const els = requirePosts(doc, POST, html, ctx.url).filter((el) => /^post-\d+$/.test(attr(el, 'id') ?? ''));
    // data-last gives the last page directly; a one-page thread has no PageNav at all.
    const nav = one(doc, 'div.PageNav[data-last]');
    const page = Number(attr(nav, 'data-page')) || this.pageOf(new URL(ctx.url), null);
    const pageCount = Math.max(page, Number(attr(nav, 'data-last')) || 0);
    const base = documentBase(doc, ctx.url);
    const title = text(one(doc, '.titleBar h1')) || null;
    // Where a post shows no number, its place in the thread stands in.
    const size = { page, pageCount, postsOnPage: els.length };
    const perPage = pageSizeFor(size, ctx, descriptor.postsPerPage);
    const posts = readEach(els, (el, i) => readPost(el, placeInThread(page, i, perPage), page, base, ctx));
    return { title, page, pageCount, postsPerPage: shownPageSize(size), posts };
  },
};

function readPost(el: Element, position: number, page: number, base: string, ctx: PageContext): Post {
  const id = (attr(el, 'id') ?? '').replace(/^post-/, '');
  const dates: TextDateOptions = { timeZone: ctx.profile.timeZone, dateOrder: ctx.profile.dateOrder, now: ctx.now };
  const nameEl = one(el, '.messageUserInfo a.username') ?? one(el, '.messageMeta a.username');
  const meta = one(el, '.messageMeta');
  const numberEl = meta ? one(meta, 'a.postNumber') : null;
  const permalinkEl = meta ? one(meta, 'a.datePermalink[href]') : null;
  const bodyEl = one(el, '.messageContent blockquote.messageText') ?? one(el, 'blockquote.messageText');
  const body = bodyEl ? buildBody(bodyEl, descriptor.body, { pageUrl: base, forumOrigins: ctx.profile.aliases }) : [];
  const author = attr(el, 'data-author') ?? text(nameEl);
  const editEl = one(el, 'div.editDate');
  const editText = text(editEl);
  return {
    id,
    number: postNumber(text(numberEl)) ?? position,
    page,
    author,
    authorId: /members\/(?:[^/]*?\.)?(\d+)\/?/.exec(attr(nameEl, 'href') ?? '')?.[1] ?? null,
    postedAt: readTime(postTime(el, meta), dates),
    permalink: new URL(attr(permalinkEl, 'href') ?? attr(numberEl, 'href') ?? `posts/${id}/`, base).href,
    edit: editEl
      ? {
          at: readTime(one(editEl, '.DateTime'), dates),
          // "Last edited:" is the poster's own edit; a moderator's reads "Last edited by a moderator:".
          by: /^Last edited\s*:/i.test(editText) ? author : null,
          text: editText,
        }
      : null,
    bodyHash: hashBody(body),
    body,
  };
}

/**
 * The post's time: in .messageMeta, or wherever the theme put it (digitalfernsehen.de,
 * gtplanet.net and musiker-board.de print it beside the author box), never a date inside
 * the body or the edit note.
 */
function postTime(el: Element, meta: Element | null): Element | null {
  const inMeta = meta ? one(meta, '.DateTime') : null;
  if (inMeta) return inMeta;
  const isTime = (e: Element): boolean => matches(e, '.DateTime');
  return findOutside(el, isTime, (e) => matches(e, 'blockquote.messageText, div.editDate'), true)[0] ?? null;
}

/**
 * Recent times are `abbr.DateTime[data-time]` (unix seconds, exact); older ones only
 * `span.DateTime[title="Oct 30, 2014 at 10:48 PM"]`, in the board's zone (site profile).
 */
function readTime(el: Element | null, dates: TextDateOptions): string | null {
  if (!el) return null;
  return (
    fromEpochSeconds(attr(el, 'data-time')) ??
    fromForumText(
      attr(el, 'title') ?? `${attr(el, 'data-datestring') ?? ''} ${attr(el, 'data-timestring') ?? ''}`,
      dates,
    ) ??
    fromForumText(text(el), dates)
  );
}
