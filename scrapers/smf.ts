import type { Document, Element } from 'domhandler';
import { removeElement } from 'domutils';
import { hashBody, type Post } from '../src/model/post.js';
import { BBCODE } from '../src/model/dialect.js';
import { defineDescriptor, type EngineAdapter, type PageContext, type ThreadPage, type ThreadRef } from './adapter.js';
import { buildBody } from './body-builder.js';
import { all, attr, byId, one, text, pageDocument } from './dom.js';
import { fromForumText, type TextDateOptions, withPageDateOrder } from './forum-time.js';
import { readEach, requirePosts } from './page-checks.js';
import { pageSizeFor, placeInThread, postNumber, shownPageSize } from './post-number.js';

/**
 * "Quote from: Alice on March 02, 2026, 06:05:00 PM" → Alice; a bare "Quote" → no author.
 * The date is in the board's format: "on Fri, 13 October 2017, 23:54:44" too (geekhack).
 */
const QUOTE_FROM = '^Quote(?:\\s+from)?:?\\s*(.*?)(?:\\s+on\\s+(?:[A-Za-z]+,?\\s+\\d|\\d|Today|Yesterday).*)?$';
const QUOTE_AUTHOR = new RegExp(QUOTE_FROM, 'u');

/**
 * Simple Machines Forum 2.0 and 2.1 (Display.template.php). Times are text in the
 * board's format and zone only. 2.1's "#N" and 2.0's "Reply #N on:" count replies (the
 * opening post shows none), so a post's number is N + 1. Pages are post offsets:
 * `index.php?topic=42.15` is the page starting at post 16.
 */
export const descriptor = defineDescriptor({
  engine: 'smf',
  name: 'Simple Machines Forum',
  // SMF 2's [nobbc] leaves its content unparsed; smilies are still broken by hand, as
  // [nobbc] is not documented to stop them.
  dialect: { ...BBCODE, id: 'bbcode-smf', noParse: 'nobbc' },
  replyForm: {
    replyUrl: '{dir}index.php?action=post;topic={id}.0',
    form: 'form#postmodify',
    messageField: 'message',
    fields: { post: 'Post' },
    skip: ['preview'],
    errorSelector: '#post_error, .errorbox',
  },
  browserReply: { editor: 'textarea[name="message"]', submit: 'form#postmodify input[name="post"]' },
  threadPaths: ['[?&/]topic[=,]\\d+'],
  // `smf_scripturl` is in a head script, which no selector reaches; the quick-moderation
  // form around the posts is on every SMF topic page.
  fingerprints: ['form#quickModForm div.post_wrapper div.inner[id^="msg_"]'],
  postsPerPage: 15,
  // 2.1 names the topic in #top_subject; 2.0 in the posts' header ("Topic: X (Read N times)").
  regions: [
    {
      selector: 'div.post_wrapper',
      // Of the poster column, only the name; of the post, its header, message and edit line.
      parts: [
        { selector: 'div.poster', parts: ['h4'] },
        'div.keyinfo',
        '[id^="subject_"]',
        'div.inner',
        '.modified',
        '[id^="modified_"]',
      ],
    },
    '.pagelinks',
    '.pagesection',
    '#top_subject',
    'h3.catbg',
  ],
  body: {
    // 2.0 prints "Quote from: X on DATE" in a header before the quote (moved onto it, see
    // `markQuoteAuthors`); code blocks have a "Code: [Select]" header.
    skip: 'script, style, noscript, iframe, object, embed, form, input, button, .quoteheader, .quotefooter, .codeheader',
    quote: [
      {
        // `bbc_standard_quote` / `bbc_alternate_quote`, and plain blockquotes of older themes.
        selector: 'blockquote',
        authorAttr: 'data-votal-author',
        authorSelector: 'cite',
        authorPattern: QUOTE_FROM,
      },
    ],
    // Spoilers are a mod, not core; this is the common mod's markup.
    spoiler: { selector: 'div.spoiler, details', titleSelector: '.spoilerheader, summary' },
    code: 'code.bbc_code, pre.bbc_code, pre, code',
    bold: 'b, strong',
    strike: 's, del, strike',
    smilie: 'img.smiley',
    mention: 'a.mention',
  },
});

const POST = 'div.post_wrapper';
const INNER = 'div.inner[id^="msg_"]';

/** `topic=42.15` (query) or `topic,42.15.html` (SEO path); the part after the dot is an offset or `msg…`. */
function topicOf(url: URL): { id: string; offset: number } | null {
  const m = /[?&/;]topic[=,](\d+)(?:\.(\w+))?/.exec(url.pathname + url.search);
  if (!m) return null;
  return { id: m[1]!, offset: /^\d+$/.test(m[2] ?? '') ? Number(m[2]) : 0 };
}

export const smf: EngineAdapter = {
  descriptor,

  threadRef(url: URL): ThreadRef {
    const t = topicOf(url);
    if (!t) return { engine: 'smf', url: url.href.replace(/#.*$/, ''), id: null };
    const seo = /\/topic,\d+/.test(url.pathname);
    const path = seo ? url.pathname.replace(/\/topic,.*$/, `/topic,${t.id}.0.html`) : `${url.pathname}?topic=${t.id}.0`;
    return { engine: 'smf', url: `${url.origin}${path}`, id: t.id };
  },

  pageUrl(thread, page, postsPerPage) {
    const offset = (Math.max(1, page) - 1) * (postsPerPage ?? descriptor.postsPerPage);
    return thread.url.replace(/(topic[=,]\d+)\.0/, `$1.${offset}`);
  },

  pageOf(url, postsPerPage) {
    const t = topicOf(url);
    return t ? Math.floor(t.offset / (postsPerPage ?? descriptor.postsPerPage)) + 1 : 1;
  },

  parsePage(html: string, given: PageContext): ThreadPage {
    // Numeric dates in the order the page shows, before the profile's.
    const ctx = withPageDateOrder(html, given);
    const doc = pageDocument(html, descriptor, ctx);
    // A wrapper without its message (div.inner#msg_N) is no post; the message is found once.
    const inners = new Map<Element, Element>();
    for (const el of requirePosts(doc, POST, html, ctx.url)) {
      const inner = one(el, INNER);
      if (inner) inners.set(el, inner);
    }
    const els = [...inners.keys()];
    const { page, pageCount, postsPerPage } = pagination(doc, ctx);
    const size = { stated: postsPerPage, page, pageCount, postsOnPage: els.length };
    const perPage = pageSizeFor(size, ctx, descriptor.postsPerPage);
    const title = topicTitle(doc);
    const posts = readEach(els, (el, i) => readPost(el, inners.get(el)!, placeInThread(page, i, perPage), page, ctx));
    return { title, page, pageCount, postsPerPage: shownPageSize(size), posts };
  },
};

function topicTitle(doc: Document): string | null {
  // The headers are sought only without #top_subject: their search walks every post.
  const header = (): string =>
    all(doc, 'h3.catbg')
      .map((h) => text(h))
      .find((t) => /\bTopic:/i.test(t)) ?? '';
  const raw = text(one(doc, '#top_subject')) || header().replace(/^.*?\bTopic:/i, '');
  return (
    raw
      .replace(/^Topic:\s*/i, '')
      .replace(/\s*\(Read \d[\d,.]* times\)$/i, '')
      .trim() || null
  );
}

/**
 * Guests without a cookie get SMF's session id in every link (`?PHPSESSID=…&topic=…`):
 * a permalink is kept without it, so it is the same for every reader and never a secret.
 */
function withoutSession(href: string): string {
  const url = new URL(href);
  url.searchParams.delete('PHPSESSID');
  return url.href.replace(/\?(?=#|$)/, '');
}

/** `.pagelinks`: the current page is bold (2.0) or `.current_page` (2.1); links carry offsets. */
function pagination(doc: Document, ctx: PageContext): { page: number; pageCount: number; postsPerPage: number | null } {
  const box = one(doc, '.pagelinks, .pagesection .pages');
  const links = box ? all(box, 'a[href]') : [];
  let perPage: number | null = null;
  for (const a of links) {
    const n = Number(text(a));
    const t = topicOf(new URL(attr(a, 'href') ?? '', ctx.url));
    if (n > 1 && t && t.offset > 0) {
      perPage = t.offset / (n - 1);
      break;
    }
  }
  const current = Number(text(box ? one(box, '.current_page, strong') : null)) || null;
  const page = current ?? (perPage ? Math.floor((topicOf(new URL(ctx.url))?.offset ?? 0) / perPage) + 1 : 1);
  const numbers = links.map((a) => Number(text(a)) || 0);
  const pageCount = Math.max(page, ...numbers);
  return { page, pageCount, postsPerPage: perPage };
}

function readPost(el: Element, inner: Element, position: number, page: number, ctx: PageContext): Post {
  const id = attr(inner, 'data-msgid') ?? (attr(inner, 'id') ?? '').replace(/^msg_/, '');
  const nameLink = one(el, 'div.poster h4 a[href*="action=profile"]') ?? one(el, 'div.poster h4 a');
  const keyinfo = one(el, 'div.keyinfo');
  const dates: TextDateOptions = { timeZone: ctx.profile.timeZone, dateOrder: ctx.profile.dateOrder, now: ctx.now };
  // 2.1: `a.smalltext` holds the time; 2.0: "« Reply #3 on: DATE »" in `div.smalltext`.
  const timeEl = keyinfo ? (one(keyinfo, 'a.smalltext') ?? one(keyinfo, 'div.smalltext, span.smalltext')) : null;
  const timeText = text(timeEl)
    .replace(/^«\s*/, '')
    .replace(/\s*»$/, '')
    .replace(/^(?:Reply\s+#\d+\s+)?on:\s*/i, '');
  // "#N" (2.1) and "Reply #N" (2.0) count replies: the opening post shows none, the first reply #1.
  const reply = postNumber(
    text(keyinfo ? one(keyinfo, 'span.page_number') : null) || /Reply\s+#\d+/i.exec(text(timeEl))?.[0],
  );
  const modified = byId(el, `modified_${id}`) ?? one(el, '.modified');
  const modifiedText = text(modified).replace(/^«\s*/, '').replace(/\s*»$/, '');
  const edit = /Last Edit:\s*(.*?)(?:\s+by\s+(.+))?$/i.exec(modifiedText);
  markQuoteAuthors(inner);
  const body = buildBody(inner, descriptor.body, { pageUrl: ctx.url, forumOrigins: ctx.profile.aliases });
  const subject = byId(el, `subject_${id}`);
  const subjectLink = subject ? one(subject, 'a[href]') : null;
  return {
    id,
    number: reply === null ? position : reply + 1,
    page,
    author: text(nameLink) || text(one(el, 'div.poster h4')),
    authorId: /[?;&]u=(\d+)/.exec(attr(nameLink, 'href') ?? '')?.[1] ?? null,
    postedAt: fromForumText(timeText, dates),
    permalink: withoutSession(new URL(attr(subjectLink, 'href') ?? attr(timeEl, 'href') ?? `?msg=${id}`, ctx.url).href),
    edit: edit ? { at: fromForumText(edit[1] ?? '', dates), by: edit[2]?.trim() || null, text: modifiedText } : null,
    bodyHash: hashBody(body),
    body,
  };
}

/** SMF 2.0 prints "Quote from: X on DATE" in `div.quoteheader` before the blockquote. */
function markQuoteAuthors(root: Element): void {
  for (const header of all(root, 'div.quoteheader')) {
    const quote = nextElement(header);
    if (!quote || quote.name !== 'blockquote') continue;
    const author = QUOTE_AUTHOR.exec(text(header))?.[1]?.trim();
    if (author) quote.attribs['data-votal-author'] = author;
    removeElement(header);
  }
}

function nextElement(el: Element): Element | null {
  for (let n = el.next; n; n = n.next) {
    if (n.type === 'tag') return n as Element;
    if (n.type === 'text' && n.data.trim() !== '') return null;
  }
  return null;
}
