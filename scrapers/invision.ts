import type { Document, Element } from 'domhandler';
import { hashBody, type Post } from '../src/model/post.js';
import { BBCODE } from '../src/model/dialect.js';
import { defineDescriptor, type EngineAdapter, type PageContext, type ThreadPage, type ThreadRef } from './adapter.js';
import { buildBody } from './body-builder.js';
import { all, attr, one, text, pageDocument } from './dom.js';
import { fromEpochSeconds, fromIso } from './forum-time.js';
import { readEach, requirePosts } from './page-checks.js';
import { pageSizeFor, placeInThread, shownPageSize } from './post-number.js';

/**
 * Invision Community 4 (compiled `forums/front/topics` templates). Each post carries its
 * author and exact time as JSON in `data-quoteData`; posts have no visible numbers.
 */
export const descriptor = defineDescriptor({
  engine: 'invision',
  name: 'Invision Community',
  // Invision may render HTML typed in a post (`<` `>` become look-alikes); no no-parse tag.
  dialect: { ...BBCODE, id: 'bbcode-invision', html: true },
  // `/topic/123-slug/`, also without URL rewriting (`index.php?/topic/123-slug/`).
  threadPaths: ['/topic/\\d+-'],
  fingerprints: ['article.cPost [data-controller="core.front.core.comment"]', 'article.cPost[id^="elComment_"]'],
  postsPerPage: 25,
  regions: [
    {
      selector: 'article[id^="elComment_"]',
      // Of the author pane, only the name; of the comment, its data, meta line (time,
      // share link) and content. Also sought outside the comment's wrap, where a theme moves them.
      parts: [
        '.cAuthorPane_author',
        { selector: '[data-commentid]', parts: ['.ipsComment_meta', '[data-role="commentContent"]'] },
        '.ipsComment_meta',
        '[data-role="commentContent"]',
      ],
    },
    'ul.ipsPagination',
    'h1',
  ],
  body: {
    // The "Edited … by X" line sits inside the post body, marked as not part of it.
    skip: 'script, style, noscript, iframe, object, embed, form, input, button, [data-excludequote]',
    quote: [
      {
        selector: 'blockquote.ipsQuote',
        authorAttr: 'data-ipsquote-username',
        authorSelector: '.ipsQuote_citation',
        authorPattern: '^(?:On .*?,\\s*)?(.*?)\\s+said:',
      },
    ],
    spoiler: { selector: 'div.ipsSpoiler, div.ipsStyle_spoiler', titleSelector: '.ipsSpoiler_header' },
    code: 'pre.ipsCode, pre, code',
    bold: 'b, strong',
    strike: 's, strike, del',
    smilie: 'img[data-emoticon]',
    mention: 'a[data-mentionid]',
  },
});

const POST = 'article[id^="elComment_"]';

interface QuoteData {
  userid?: number | string | null;
  username?: string;
  timestamp?: number;
}

/** `data-quoteData`: `{"userid":11,"username":"Alice","timestamp":1772474400,…}`; guests have no userid. */
function quoteDataOf(raw: string | null): QuoteData {
  try {
    const v = JSON.parse(raw ?? '') as unknown;
    return v && typeof v === 'object' ? (v as QuoteData) : {};
  } catch {
    return {};
  }
}

/** `/topic/{id}-{slug}/page/{n}/`; boards without rewriting put the path in the query. */
function topicOf(url: URL): { base: string; id: string; page: number } | null {
  const where = url.pathname + url.search;
  const m = /^(.*?\/topic\/(\d+)(?:-[^/?#&]*)?)(?:\/page\/(\d+))?/.exec(where);
  if (!m) return null;
  return { base: m[1]!, id: m[2]!, page: Number(m[3]) || Number(url.searchParams.get('page')) || 1 };
}

export const invision: EngineAdapter = {
  descriptor,

  threadRef(url: URL): ThreadRef {
    const t = topicOf(url);
    if (!t) return { engine: 'invision', url: url.href.replace(/#.*$/, ''), id: null };
    return { engine: 'invision', url: `${url.origin}${t.base}/`, id: t.id };
  },

  pageUrl(thread, page) {
    return page <= 1 ? thread.url : `${thread.url}page/${page}/`;
  },

  pageOf(url) {
    return topicOf(url)?.page ?? 1;
  },

  parsePage(html: string, ctx: PageContext): ThreadPage {
    const doc = pageDocument(html, descriptor, ctx);
    const els = requirePosts(doc, POST, html, ctx.url);
    const { page, pageCount, postsPerPage } = pagination(doc, ctx);
    // No post numbers on the page: a post's number is its place in the thread.
    const size = { stated: postsPerPage, page, pageCount, postsOnPage: els.length };
    const perPage = pageSizeFor(size, ctx, descriptor.postsPerPage);
    const title = text(one(doc, 'h1.ipsType_pageTitle, h1')) || null;
    const posts = readEach(els, (el, i) => readPost(el, placeInThread(page, i, perPage), page, ctx));
    return { title, page, pageCount, postsPerPage: shownPageSize(size), posts };
  },
};

/**
 * `ul.ipsPagination` says the page count (`data-pages`) and posts per page
 * (`data-ipsPagination-perPage`); the active item is this page.
 */
function pagination(doc: Document, ctx: PageContext): { page: number; pageCount: number; postsPerPage: number | null } {
  const box = one(doc, 'ul.ipsPagination');
  const page =
    Number(text(box ? one(box, 'li.ipsPagination_active') : null)) || invision.pageOf(new URL(ctx.url), null);
  const declared = Number(attr(box, 'data-pages')) || 0;
  const numbers = box ? all(box, 'li.ipsPagination_page').map((li) => Number(text(li)) || 0) : [];
  const perPage = Number(attr(box, 'data-ipspagination-perpage')) || null;
  return { page, pageCount: Math.max(page, declared, ...numbers), postsPerPage: perPage };
}

function readPost(el: Element, number: number, page: number, ctx: PageContext): Post {
  const wrap = one(el, '[data-commentid]');
  const id = attr(wrap, 'data-commentid') ?? (attr(el, 'id') ?? '').replace(/^elComment_/, '');
  const quoteData = quoteDataOf(attr(wrap, 'data-quotedata'));
  const nameLink = one(el, 'aside.cAuthorPane .cAuthorPane_author a, .cAuthorPane_author a');
  const time = one(el, '.ipsComment_meta time[datetime]');
  const editEl = one(el, '[data-role="commentContent"] [data-excludequote]');
  const editText = text(editEl);
  const contentEl = one(el, '[data-role="commentContent"]');
  const body = contentEl
    ? buildBody(contentEl, descriptor.body, { pageUrl: ctx.url, forumOrigins: ctx.profile.aliases })
    : [];
  // The share link (`do=findComment`); the post's tools also link `do=reportComment` first.
  const comment = `comment=${id}`;
  const links = all(el, 'a[href]');
  const permalinkEl =
    links.find((a) => a.attribs.href!.includes('do=findComment') && a.attribs.href!.includes(comment)) ??
    links.find((a) => a.attribs.href!.includes(comment) && !a.attribs.href!.includes('do=report'));
  const userId = quoteData.userid ?? /\/profile\/(\d+)-/.exec(attr(nameLink, 'href') ?? '')?.[1];
  return {
    id,
    number,
    page,
    author: quoteData.username ?? text(nameLink),
    authorId: userId === undefined || userId === null ? null : String(userId),
    postedAt: fromEpochSeconds(quoteData.timestamp) ?? fromIso(attr(time, 'datetime')),
    permalink: new URL(
      attr(permalinkEl, 'href') ?? `?do=findComment&comment=${id}`,
      invision.threadRef(new URL(ctx.url)).url,
    ).href,
    edit:
      editEl && /edited/i.test(editText)
        ? {
            at: fromIso(attr(one(editEl, 'time[datetime]'), 'datetime')),
            by: /\bby\s+(.+)$/i.exec(editText)?.[1]?.trim() ?? null,
            text: editText,
          }
        : null,
    bodyHash: hashBody(body),
    body,
  };
}
