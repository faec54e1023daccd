import type { Document, Element } from 'domhandler';
import { hashBody, type Post } from '../src/model/post.js';
import { BBCODE } from '../src/model/dialect.js';
import { defineDescriptor, type EngineAdapter, type PageContext, type ThreadPage, type ThreadRef } from './adapter.js';
import { buildBody } from './body-builder.js';
import { all, attr, one, text, pageDocument } from './dom.js';
import { fromEpochMillis } from './forum-time.js';
import { readEach, requirePosts } from './page-checks.js';
import { pageSizeFor, placeInThread, shownPageSize } from './post-number.js';

/**
 * ProBoards (hosted, `*.proboards.com`): one table row per post, times as epoch
 * milliseconds in `abbr[data-timestamp]`, no visible post numbers. No real page has been
 * saved; the markup is what scrapers and plugins run on live boards read
 * (../shared/research/proboards-gog-evidence.md, §1). Where that evidence leaves a class
 * name open, the adapter reads the confirmed markup first and names its fallback
 * (docs/fetching.md, "ProBoards and GOG: what the evidence says").
 */
export const descriptor = defineDescriptor({
  engine: 'proboards',
  name: 'ProBoards',
  // ProBoards may render HTML typed in a post: `<` `>` become look-alikes. Its list markup
  // is not verified here: wagons are plain lines. No no-parse tag.
  dialect: { ...BBCODE, id: 'bbcode-proboards', html: true, list: null },
  hosts: ['\\.proboards\\.com$'],
  threadPaths: ['/thread/\\d+'],
  fingerprints: ['tr.post[id^="post-"] td.content div.message'],
  postsPerPage: 20,
  regions: ['.post[id^="post-"]', 'ul.ui-pagination', 'li.ui-pagination-next', 'li.next', 'h1'],
  body: {
    quote: [
      {
        // Confirmed: `div.quote` with `author="@name"` and a header ending "said:". In the v5
        // quote a ProBoards plugin rebuilds for its preview (Tcll's Real-Time Post Preview,
        // 2014) `.quote_header` sits inside `div.quote_body` after an avatar box and holds the
        // quoted post's time, then the member's `a.user-link` > `span[itemprop=name]`, then
        // "said:": that name is the author (the name players know); header and avatar are chrome.
        selector:
          'div.quote:has(> .quote_header [itemprop=name]), div.quote:has(> .quote_body > .quote_header [itemprop=name])',
        authorSelector: '.quote_header [itemprop=name]',
        chrome: '.quote_header, .quote_clear, .quote_avatar_container',
      },
      {
        // A header of plain text ("Name said:"), directly in `div.quote` or in its body.
        selector: 'div.quote:has(> .quote_header), div.quote:has(> .quote_body > .quote_header)',
        authorSelector: '.quote_header',
        authorPattern: '^(.*?)\\s+said:',
        chrome: '.quote_clear, .quote_avatar_container',
      },
      // Fallback (`quoteAuthorFromAttribute`): no `.quote_header`, so the quoted member is the
      // `author` attribute (the "@" dropped); a header line of another class stays quoted text.
      { selector: 'div.quote', authorAttr: 'author', chrome: '.quote_clear' },
    ],
    spoiler: { selector: 'div.spoiler', titleSelector: '.spoiler_header' },
    code: 'div.code, pre, code',
    bold: 'b, strong',
    strike: 's, strike, del',
    // Smileys come from ProBoards' smiley set (images.proboards.com/…/smiley/…).
    smilie: 'img.smile, img.smiley, img[src*="/smiley/"]',
    // Confirmed: an @mention is `a.user-link` around `<span itemprop="name">` (wertercatt's importer).
    mention: 'a.user-link',
  },
});

const POST = 'tr.post[id^="post-"], .post[id^="post-"]';

export const proboards: EngineAdapter = {
  descriptor,

  threadRef(url: URL): ThreadRef {
    const m = /^(\/thread\/(\d+)(?:\/[^/?#]+)?)/.exec(url.pathname);
    return { engine: 'proboards', url: `${url.origin}${m ? m[1] : url.pathname}`, id: m?.[2] ?? null };
  },

  pageUrl(thread, page) {
    return page <= 1 ? thread.url : `${thread.url}?page=${page}`;
  },

  pageOf(url) {
    return Number(url.searchParams.get('page')) || 1;
  },

  parsePage(html: string, ctx: PageContext): ThreadPage {
    const doc = pageDocument(html, descriptor, ctx);
    const els = requirePosts(doc, POST, html, ctx.url).filter((el) => /^post-\d+$/.test(attr(el, 'id') ?? ''));
    const { page, pageCount } = pagination(doc, ctx);
    // No post numbers on the page: a post's number is its place in the thread.
    const size = { page, pageCount, postsOnPage: els.length };
    const perPage = pageSizeFor(size, ctx, descriptor.postsPerPage);
    const title = text(one(doc, 'h1')) || null;
    const posts = readEach(els, (el, i) => readPost(el, placeInThread(page, i, perPage), page, ctx));
    return { title, page, pageCount, postsPerPage: shownPageSize(size), posts };
  },
};

/**
 * `ul.ui-pagination`: the selected item is this page, the highest number the last. The
 * pager shows a window of pages, and scrapers run on live boards follow its next link,
 * `li.ui-pagination-next` (its href may be absolute; `li.next` on older boards, the
 * `olderNextLink` fallback): a live next link means at least one more page, whatever
 * numbers show; `state-disabled` marks the last page.
 */
function pagination(doc: Document, ctx: PageContext): { page: number; pageCount: number } {
  const pager = one(doc, 'ul.ui-pagination');
  const current =
    Number(text(pager ? one(pager, 'li.state-selected') : null)) || proboards.pageOf(new URL(ctx.url), null);
  const numbers = pager ? all(pager, 'li').map((li) => Number(text(li)) || 0) : [];
  const next = all(doc, 'li.ui-pagination-next, li.next').some(
    (li) =>
      !/\bstate-disabled\b/.test(attr(li, 'class') ?? '') && /[?&]page=\d/.test(attr(one(li, 'a[href]'), 'href') ?? ''),
  );
  return { page: current, pageCount: Math.max(current, ...numbers, next ? current + 1 : 0) };
}

function readPost(el: Element, number: number, page: number, ctx: PageContext): Post {
  const id = (attr(el, 'id') ?? '').replace(/^post-/, '');
  const panel = one(el, 'td.left-panel, .mini-profile') ?? el;
  const userLink = one(panel, 'a.user-link, a.o-user-link');
  const guest = one(panel, 'span.user-guest');
  const messageEl = one(el, 'article div.message, div.message');
  const body = messageEl
    ? buildBody(messageEl, descriptor.body, { pageUrl: ctx.url, forumOrigins: ctx.profile.aliases })
    : [];
  const stamp = one(el, 'span.date abbr[data-timestamp]') ?? one(el, 'abbr.o-timestamp[data-timestamp]');
  const editEl = one(el, '.edited_by');
  const path = `/post/${id}`;
  const permalinkEl = all(el, 'a[href]').find((a) => a.attribs.href!.includes(path)) ?? null;
  return {
    id,
    number,
    page,
    author: text(userLink) || text(guest),
    authorId: attr(userLink, 'data-id') ?? /\/user\/(\d+)/.exec(attr(userLink, 'href') ?? '')?.[1] ?? null,
    postedAt: fromEpochMillis(attr(stamp, 'data-timestamp')),
    permalink: new URL(attr(permalinkEl, 'href') ?? `/post/${id}`, ctx.url).href,
    edit: editEl
      ? {
          at: fromEpochMillis(attr(one(editEl, 'abbr[data-timestamp]'), 'data-timestamp')),
          // A guest who edited their own post is a `span.user-guest` (wertercatt's fork met one).
          by: text(one(editEl, 'a.user-link, a[href*="/user/"]')) || text(one(editEl, 'span.user-guest')) || null,
          text: text(editEl),
        }
      : null,
    bodyHash: hashBody(body),
    body,
  };
}
