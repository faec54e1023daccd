import type { Document, Element } from 'domhandler';
import { hashBody, type Post } from '../src/model/post.js';
import { BBCODE } from '../src/model/dialect.js';
import { defineDescriptor, type EngineAdapter, type PageContext, type ThreadPage, type ThreadRef } from './adapter.js';
import { buildBody } from './body-builder.js';
import { all, one, text, pageDocument } from './dom.js';
import { fromForumText, type TextDateOptions, withPageDateOrder } from './forum-time.js';
import { readEach, requirePosts } from './page-checks.js';
import { pageSizeFor, placeInThread, postNumber, shownPageSize } from './post-number.js';

/**
 * The GOG.com forum: legacy server HTML with GOG's own class names. It prints only a
 * calendar date per post ("Posted December 21, 2016"), so thread order is page order,
 * and knows only [b], [i], [u], [url] and [quote]: spoiler, strike and code tags stay
 * literal text. No whole page has been saved; the markup is what scrapers and userscripts
 * run on live pages read, and a post block copied from a live page
 * (../shared/research/proboards-gog-evidence.md §2, gog-post-block/). What that evidence
 * leaves open is read by named fallbacks (docs/fetching.md, "ProBoards and GOG: what the
 * evidence says").
 */
export const descriptor = defineDescriptor({
  engine: 'gog',
  name: 'GOG.com forum',
  // GOG knows [b] [i] [u] [url] [quote] only, and shows typed smilies as text.
  dialect: { ...BBCODE, id: 'gog', smilies: false, list: null, color: null },
  hosts: ['^(www\\.)?gog\\.com$'],
  // GOG slugs use underscores; vBulletin 5's `/forum/x/123-title` has a dash and is not ours.
  threadPaths: ['^/forum/\\w+/\\w+(?:/(?:page|post)\\d+)?/?(?:[?#]|$)'],
  fingerprints: ['div.spot_h .big_post_main .post_text_c'],
  postsPerPage: 50,
  regions: ['div.big_post_main', '.n_b_b_nr_act', '.n_b_b_nr_last', '.n_b_b_nr', 'h1'],
  body: {
    // Attached images show below the text beside the edit note (`.pencil_text`, not post
    // text); their links point at GOG's image host, which is the forum's own.
    skip: 'script, style, noscript, iframe, object, embed, form, input, button, .pencil_text',
    internalLink: '.post_attaczments a',
    quote: [{ selector: 'div.quot', authorSelector: '.quot_user_name', authorPattern: '^(.*?):?\\s*$' }],
    bold: 'span.bold, b, strong',
    italic: 'i, em, span.italic',
    underline: 'span.podkreslenie, u',
  },
});

const POST = 'div.big_post_main';

export const gog: EngineAdapter = {
  descriptor,

  threadRef(url: URL): ThreadRef {
    // `/forum/{forum}/{topic}`, kept under any folder a copy of the forum sits in; never `/pageN` or `/postN`.
    const m = /^(.*?\/forum\/[^/]+\/([^/]+))/.exec(url.pathname);
    const path = m ? m[1]! : url.pathname.replace(/\/(?:page|post)\d+\/?$/, '');
    return { engine: 'gog', url: `${url.origin}${path}`, id: m?.[2] ?? null };
  },

  // Page 1 is asked for as `/page1`: the bare topic URL redirects to the topic's last page.
  pageUrl(thread, page) {
    return `${thread.url}/page${Math.max(1, page)}`;
  },

  pageOf(url, postsPerPage) {
    const page = /\/page(\d+)\/?$/.exec(url.pathname);
    if (page) return Number(page[1]);
    // `/post45` is a link to post #45.
    const post = /\/post(\d+)\/?$/.exec(url.pathname);
    return post ? Math.ceil(Number(post[1]) / (postsPerPage ?? descriptor.postsPerPage)) : 1;
  },

  parsePage(html: string, given: PageContext): ThreadPage {
    // Numeric dates in the order the page shows, before the profile's.
    const ctx = withPageDateOrder(html, given);
    const doc = pageDocument(html, descriptor, ctx);
    // Scrapers of live pages read the text from `div.post_text_c`; its `.post_text` wrapper is from notes.
    const els = requirePosts(doc, POST, html, ctx.url).filter((el) => one(el, '.post_text, .post_text_c') !== null);
    const { page, pageCount } = pagination(doc, ctx);
    // Where a post shows no "#N", its place in the thread stands in.
    const size = { page, pageCount, postsOnPage: els.length };
    const perPage = pageSizeFor(size, ctx, descriptor.postsPerPage);
    const thread = gog.threadRef(new URL(ctx.url)).url;
    const title = text(one(doc, 'h1')) || null;
    const posts = readEach(els, (el, i) => readPost(el, placeInThread(page, i, perPage), page, thread, ctx));
    return { title, page, pageCount, postsPerPage: shownPageSize(size), posts };
  },
};

/**
 * The last page is the `.n_b_b_nr_last` link (confirmed: userscripts read it). This page's
 * `.n_b_b_nr_act` is from notes: without it, the page is the one the URL asks for
 * (`pageFromUrl` fallback, `/page3`).
 */
function pagination(doc: Document, ctx: PageContext): { page: number; pageCount: number } {
  const page = Number(text(one(doc, '.n_b_b_nr_act'))) || gog.pageOf(new URL(ctx.url), null);
  const numbers = all(doc, '.n_b_b_nr_last, .n_b_b_nr, .n_b_b_nr_act').map((e) => Number(text(e)) || 0);
  return { page, pageCount: Math.max(page, ...numbers) };
}

function readPost(el: Element, position: number, page: number, thread: string, ctx: PageContext): Post {
  // GOG numbers posts in the thread (`[quote_45]` and `/post45` use it); no other id is known.
  const number = postNumber(text(one(el, '.post_nr'))) ?? position;
  const dates: TextDateOptions = { timeZone: ctx.profile.timeZone, dateOrder: ctx.profile.dateOrder, now: ctx.now };
  const textEl = one(el, '.post_text_c') ?? one(el, '.post_text');
  const bodyCtx = { pageUrl: ctx.url, forumOrigins: ctx.profile.aliases };
  const body = textEl ? buildBody(textEl, descriptor.body, bodyCtx) : [];
  for (const box of all(el, '.post_attaczments')) body.push(...buildBody(box, descriptor.body, bodyCtx));
  // The edit note's place is confirmed (`.post_attaczments .pencil_text`), its wording is not:
  // any note there marks the post edited; "Post edited DATE by X" also gives when and who
  // (`editNoteOfAnyWording` fallback: other wording keeps its text, with no time or editor).
  const editEl = one(el, '.post_attaczments .pencil_text, .pencil_text');
  const editText = text(editEl);
  const edit = /^Post edited\s+(.*?)(?:\s+by\s+(.+))?$/i.exec(editText);
  return {
    id: String(number),
    number,
    page,
    author: ownText(one(el, '.b_u_name')),
    authorId: null,
    postedAt: gogDate(text(one(el, '.post_header_h .post_date, .post_date')).replace(/^Posted\s+/i, ''), dates),
    permalink: `${thread}/post${number}`,
    edit: editEl
      ? { at: edit ? gogDate(edit[1] ?? '', dates) : null, by: edit?.[2]?.trim() || null, text: editText }
      : null,
    bodyHash: hashBody(body),
    body,
  };
}

/** The name as printed, without what scripts or links add after it (a mute button, "[×]"). */
function ownText(el: Element | null): string {
  const link = el ? one(el, 'a') : null;
  return (text(link) || text(el)).replace(/\s*\[×\]$/, '');
}

/** "December 21, 2016", "now", "5 minutes ago", "Yesterday": dates in the board's zone. */
function gogDate(raw: string, opts: TextDateOptions): string | null {
  const s = raw.trim().toLowerCase();
  if (s === 'now' || s === 'just now') return new Date(opts.now).toISOString();
  const ago = /^(\d+|an?|one)\s+(second|minute|hour|day|week)s?\s+ago$/.exec(s);
  if (ago) {
    const n = /^\d+$/.test(ago[1]!) ? Number(ago[1]) : 1;
    const unit = { second: 1e3, minute: 6e4, hour: 3.6e6, day: 8.64e7, week: 6.048e8 }[ago[2] as 'second'];
    return new Date(Date.parse(opts.now) - n * unit).toISOString();
  }
  return fromForumText(raw, opts);
}
