import type { Element } from 'domhandler';
import { hashBody, type Post } from '../src/model/post.js';
import { defineDescriptor, type EngineAdapter, type PageContext, type ThreadPage, type ThreadRef } from './adapter.js';
import { buildBody } from './body-builder.js';
import { all, attr, one, text, pageDocument } from './dom.js';
import { fromEpochSeconds, fromIso } from './forum-time.js';
import { readEach, requirePosts } from './page-checks.js';
import { pageSizeFor, placeInThread, postNumber, shownPageSize } from './post-number.js';
import { XF_DIALECT, XF_POSTS_PER_PAGE, XF_REPLY, XF_THREAD_PATH, xenforoPageOf, xenforoPageUrl } from './xenforo.js';

export const descriptor = defineDescriptor({
  engine: 'xenforo2',
  name: 'XenForo 2',
  dialect: XF_DIALECT,
  replyForm: {
    ...XF_REPLY,
    errorSelector: '.blockMessage--error, .formRow--error, .block-body--error',
  },
  browserReply: {
    editor: 'textarea[name="message"]',
    plainTextToggle: '.fr-toolbar [data-cmd="xfBbCode"]',
    submit:
      'form[action*="add-reply"] button[type="submit"].button--primary, form[action*="add-reply"] button[type="submit"]',
  },
  threadPaths: [XF_THREAD_PATH],
  fingerprints: ['html#XF'],
  postsPerPage: XF_POSTS_PER_PAGE,
  regions: [
    {
      selector: 'article.message, article.message--post',
      parts: [
        '.message-attribution-main',
        'ul.message-attribution-opposite',
        '.message-name',
        '.message-body',
        '.message-lastEdit',
      ],
    },
    'ul.pageNav-main',
    'h1.p-title-value',
  ],
  body: {
    // Ads live inside .message-body on some boards; quote expand links and the title of a
    // code block ("Python:") are chrome.
    skip: 'script, style, noscript, iframe, form, button, .samCodeUnit, .samBannerUnit, .bbCodeBlock-expandLink, .js-selectToQuoteEnd, .bbCodeBlock--code > .bbCodeBlock-title',
    quote: [
      {
        selector: 'blockquote.bbCodeBlock--quote, .bbCodeBlock--quote',
        authorAttr: 'data-quote',
        // The quote's own title: a code block inside the quote has a title too.
        authorSelector: '.bbCodeBlock--quote > .bbCodeBlock-title',
        authorPattern: '^(.*?)\\s+said:',
      },
    ],
    // XF 2.2 wraps a spoiler's content in .bbCodeBlock--spoiler inside .bbCodeSpoiler: one spoiler.
    spoiler: {
      selector:
        '.bbCodeSpoiler, .bbCodeInlineSpoiler, .bbCodeBlock--spoiler:not(.bbCodeSpoiler-content > .bbCodeBlock--spoiler)',
      // The title has its own element; the rest of the button ("Spoiler") is chrome.
      titleSelector: '.bbCodeSpoiler-button-title',
    },
    code: '.bbCodeBlock--code, pre.bbCodeCode, code.bbCodeInlineCode',
    smilie: 'img.smilie, img.smilie--sprite, img.smilie--emoji, img.emoji',
    mention: 'a.username[data-user-id]',
    internalLink: 'a.link--internal',
  },
});

const POST = 'article.message--post[data-content], article.message[data-content^="post-"]';

export const xenforo2: EngineAdapter = {
  descriptor,

  threadRef(url: URL): ThreadRef {
    const m = /^(.*?\/threads\/(?:[^/]*?\.)?(\d+))(?:\/|$)/.exec(url.pathname);
    const path = m ? `${m[1]}/` : url.pathname.replace(/\/(page-\d+|post-\d+|unread|latest)\/?$/, '/');
    return { engine: 'xenforo2', url: `${url.origin}${path}`, id: m?.[2] ?? null };
  },

  pageUrl: xenforoPageUrl,

  pageOf: (url) => xenforoPageOf(url.pathname),

  parsePage(html: string, ctx: PageContext): ThreadPage {
    const doc = pageDocument(html, descriptor, ctx);
    const els = requirePosts(doc, POST, html, ctx.url);
    const nav = all(doc, 'ul.pageNav-main li.pageNav-page');
    const current = one(doc, 'ul.pageNav-main li.pageNav-page--current');
    const page = Number(text(current)) || this.pageOf(new URL(ctx.url), null);
    const pageCount = Math.max(page, ...nav.map((li) => Number(text(li)) || 0));
    const title = text(one(doc, 'h1.p-title-value')) || null;
    // Where a post shows no number, its place in the thread stands in.
    const size = { page, pageCount, postsOnPage: els.length };
    const perPage = pageSizeFor(size, ctx, descriptor.postsPerPage);
    const posts = readEach(els, (el, i) => readPost(el, placeInThread(page, i, perPage), page, ctx));
    return { title, page, pageCount, postsPerPage: shownPageSize(size), posts };
  },
};

function readPost(el: Element, position: number, page: number, ctx: PageContext): Post {
  const id = (attr(el, 'data-content') ?? '').replace(/^post-/, '');
  const time = one(el, '.message-attribution-main time');
  const permalinkEl = one(el, '.message-attribution-main a[href]');
  const nameEl = one(el, '.message-name [data-user-id]') ?? one(el, '.message-name');
  const bodyEl = one(el, '.message-body .bbWrapper') ?? one(el, '.message-body');
  const body = bodyEl
    ? buildBody(bodyEl, descriptor.body, { pageUrl: ctx.url, forumOrigins: ctx.profile.aliases })
    : [];
  const editEl = one(el, '.message-lastEdit');
  const editTime = editEl ? one(editEl, 'time') : null;
  const numberText = text(all(el, 'ul.message-attribution-opposite li a').pop());
  return {
    id,
    number: postNumber(numberText) ?? position,
    page,
    author: attr(el, 'data-author') ?? text(nameEl),
    authorId: attr(nameEl, 'data-user-id'),
    postedAt: fromEpochSeconds(attr(time, 'data-time')) ?? fromIso(attr(time, 'datetime')),
    permalink: new URL(attr(permalinkEl, 'href') ?? `posts/${id}/`, ctx.url).href,
    edit: editEl
      ? {
          at: fromEpochSeconds(attr(editTime, 'data-time')) ?? fromIso(attr(editTime, 'datetime')),
          by: null,
          text: text(editEl),
        }
      : null,
    bodyHash: hashBody(body),
    body,
  };
}
