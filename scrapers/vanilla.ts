import type { Element } from 'domhandler';
import { MARKDOWN } from '../src/model/dialect.js';
import { hashBody, type Post } from '../src/model/post.js';
import { defineDescriptor, type EngineAdapter, type PageContext, type ThreadPage, type ThreadRef } from './adapter.js';
import { buildBody } from './body-builder.js';
import { all, attr, one, pageDocument, text } from './dom.js';
import { fromForumText, fromIso } from './forum-time.js';
import { readEach, requirePosts } from './page-checks.js';
import { pageSizeFor, placeInThread, shownPageSize } from './post-number.js';

/**
 * Vanilla 2 and 3 (Vanilla Forums, self-hosted and cloud) discussion pages as a guest gets
 * them, after the core views (vanilla/vanilla, applications/vanilla/views/discussion/
 * discussion.php and helper_functions.php `writeComment`) and four real pages
 * (../shared/forum-samples/harvest/: community.bitdefender.com and
 * forums.moneysavingexpert.com): the opening post is `div.ItemDiscussion#Discussion_ID`
 * (page 1 only), each comment `li.ItemComment#Comment_ID`, the author `a.Username`, the time
 * `span.DateCreated time[datetime]` inside the permalink, whose `name="Item_N"` is the
 * comment's offset in the discussion (N comments before it, the discussion being post 1),
 * an edit `span.DateUpdated` ("edited …", the time in its title), the body
 * `div.Message.userContent`. Pages are `/discussion/ID/slug/pN`, 30 comments a page.
 */
export const descriptor = defineDescriptor({
  engine: 'vanilla',
  name: 'Vanilla',
  // Vanilla's post format is the forum's InputFormatter (Rich, Markdown, BBCode, Html, Text).
  // Markdown is the one a votal can be written in for most of them: the Markdown formatter
  // reads it, and the Rich editor (the default since Vanilla 3) turns Markdown typed or
  // pasted into its own format; BBCode is read only where the forum picked it. Vanilla's
  // Markdown passes HTML through its sanitiser, so `<` and `>` in names are written as look-alikes.
  dialect: { ...MARKDOWN, id: 'markdown-vanilla', html: true },
  // No replyForm: the comment form posts through the editor's JavaScript (Rich stores its own
  // JSON, not the text typed), so the GM publishes by copy.
  threadPaths: ['/discussion/\\d+(?:/|$)'],
  // The body id is `{application}_{controller}_{method}`; comments are `li.ItemComment#Comment_ID`.
  fingerprints: ['body#vanilla_discussion_index', 'div.ItemDiscussion[id^="Discussion_"] div.Message.userContent'],
  postsPerPage: 30,
  regions: [
    {
      selector: 'div.ItemDiscussion, li.ItemComment',
      parts: ['span.Author', 'span.DateCreated', 'span.DateUpdated', 'div.Message'],
    },
    'div.PageTitle',
    'span.Pager, div.Pager',
  ],
  body: {
    // Rich's spoiler toggle is a button. A Rich embed (a quoted comment) shows its link without JavaScript.
    skip: 'script, style, noscript, iframe, object, embed, form, input, button, .spoiler-buttonContainer',
    quote: [
      {
        // The BBCode formatter and the Quotes plugin: `blockquote.Quote.UserQuote` with a
        // `div.QuoteAuthor` ("X wrote:", "X said:") before its `div.QuoteText`. Vanilla 3's
        // UserContentCssProcessor marks every `div` of an imported blockquote
        // `blockquote-content`, so the author line may be the first of two of those ("X wrote: »").
        selector: 'blockquote.Quote, blockquote.UserQuote',
        authorSelector: '.QuoteAuthor, .blockquote-content:not(:last-child)',
        authorPattern: '^(.*?)\\s+(?:wrote|said)(?:\\s+on\\s[^:]*)?:',
      },
      // Markdown and Rich (`blockquote.blockquote` > `div.blockquote-content`) quotes have no author.
      { selector: 'blockquote, div.blockquote' },
    ],
    spoiler: { selector: 'div.Spoiler, div.spoiler, .UserSpoiler' },
    code: 'pre, code, .codeBlock',
    smilie: 'img.emoji, img.Smiley',
    // Vanilla 3 marks mentions `a.atMention`; Vanilla 2 links "@Name" to `/profile/Name`.
    mention: 'a.atMention, a[href*="/profile/"]',
  },
});

const POST = 'div.ItemDiscussion[id^="Discussion_"], li.ItemComment[id^="Comment_"]';

export const vanilla: EngineAdapter = {
  descriptor,

  threadRef(url: URL): ThreadRef {
    // A forum may sit under a folder or a locale (`/en/discussion/81455/slug`).
    const m = /^(.*?\/discussion\/(\d+))(?:\/([^/]*))?/.exec(url.pathname);
    if (!m || m[3] === undefined || /^p\d+$/.test(m[3])) {
      return { engine: 'vanilla', url: m ? `${url.origin}${m[1]}` : url.href.replace(/#.*$/, ''), id: m?.[2] ?? null };
    }
    return { engine: 'vanilla', url: `${url.origin}${m[1]}/${m[3]}`, id: m[2]! };
  },

  pageUrl(thread, page) {
    return page <= 1 ? thread.url : `${thread.url}/p${page}`;
  },

  pageOf(url) {
    const m = /\/p(\d+)\/?$/.exec(url.pathname);
    return m ? Number(m[1]) : 1;
  },

  parsePage(html: string, ctx: PageContext): ThreadPage {
    const doc = pageDocument(html, descriptor, ctx);
    const els = requirePosts(doc, POST, html, ctx.url);
    const pager = all(doc, '.Pager a');
    const current = one(doc, '.Pager a.Highlight') ?? one(doc, '.Pager a[aria-current="page"]');
    const page = Number(text(current)) || this.pageOf(new URL(ctx.url), null);
    const pageCount = Math.max(page, ...pager.map((a) => Number(text(a)) || 0));
    const title = text(one(doc, 'div.PageTitle h1')) || null;
    // Page 1 holds the discussion besides its comments: the page size counts comments only.
    const comments = els.filter((el) => el.name === 'li').length;
    const size = { page, pageCount, postsOnPage: comments };
    const perPage = pageSizeFor(size, ctx, descriptor.postsPerPage);
    const posts = readEach(els, (el, i) => {
      // Where a theme drops the `Item_N` offset, the post's place: the discussion, then comments.
      const place = page === 1 ? i + 1 : placeInThread(page, i, perPage) + 1;
      return readPost(el, place, page, ctx);
    });
    return { title, page, pageCount, postsPerPage: shownPageSize(size), posts };
  },
};

function readPost(el: Element, place: number, page: number, ctx: PageContext): Post {
  const discussion = el.name !== 'li';
  // Discussions and comments are numbered apart: the discussion's id is kept apart as `d<ID>`.
  const raw = (attr(el, 'id') ?? '').replace(/^(?:Discussion|Comment)_/, '');
  const id = discussion ? `d${raw}` : raw;
  const nameEl = one(el, 'span.Author a.Username') ?? one(el, 'a.Username');
  // Some themes repeat the meta line (`div.RecordMeta`); the first DateCreated is the post's.
  const created = one(el, 'span.DateCreated');
  const link = created ? one(created, 'a.Permalink') : null;
  const time = created ? one(created, 'time') : null;
  const offset = /^Item_(\d+)$/.exec(attr(link, 'name') ?? '');
  const bodyEl = one(el, 'div.Message');
  const body = bodyEl
    ? buildBody(bodyEl, descriptor.body, { pageUrl: ctx.url, forumOrigins: ctx.profile.aliases })
    : [];
  const updated = one(el, 'span.DateUpdated');
  const dates = { timeZone: ctx.profile.timeZone, dateOrder: ctx.profile.dateOrder, now: ctx.now };
  const href = attr(nameEl, 'href') ?? '';
  return {
    id,
    number: discussion ? 1 : offset ? Number(offset[1]) + 1 : place,
    page,
    author: text(nameEl),
    // `userAnchor` prints `data-userid` (Vanilla 3); Vanilla 2.0 links carry it (`/profile/123/Name`).
    authorId: attr(nameEl, 'data-userid') ?? /\/profile\/(\d+)\//.exec(href)?.[1] ?? null,
    postedAt:
      fromIso(attr(time, 'datetime')) ?? (time ? fromForumText(attr(time, 'title') ?? text(time), dates) : null),
    permalink: new URL(
      attr(link, 'href') ?? (discussion ? ctx.url : `/discussion/comment/${raw}/#Comment_${raw}`),
      ctx.url,
    ).href,
    edit: updated
      ? {
          // The title ("Edited September 29, 2019 8:51AM.") is in the guest's zone; not a machine time.
          at: null,
          by: null,
          text: (attr(updated, 'title') ?? text(updated)).replace(/\.$/, ''),
        }
      : null,
    bodyHash: hashBody(body),
    body,
  };
}
