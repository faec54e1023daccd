import type { Document, Element } from 'domhandler';
import { hashBody, type Post } from '../src/model/post.js';
import { BBCODE } from '../src/model/dialect.js';
import { defineDescriptor, type EngineAdapter, type PageContext, type ThreadPage, type ThreadRef } from './adapter.js';
import { buildBody } from './body-builder.js';
import { all, attr, one, text, pageDocument } from './dom.js';
import { fromForumText, fromIso } from './forum-time.js';
import { readEach, requirePosts } from './page-checks.js';
import { pageSizeFor, placeInThread, postNumber, shownPageSize } from './post-number.js';

export const descriptor = defineDescriptor({
  engine: 'phpbb',
  name: 'phpBB 3',
  // phpBB 3 has no no-parse tag in the default install.
  dialect: { ...BBCODE, id: 'bbcode-phpbb' },
  replyForm: {
    replyUrl: '{dir}posting.php?mode=reply&t={id}',
    form: 'form#postform',
    messageField: 'message',
    fields: { post: 'Submit' },
    skip: ['preview', 'save', 'load'],
    errorSelector: '#postform p.error, .error',
  },
  browserReply: { editor: 'textarea#message, textarea[name="message"]', submit: 'form#postform input[name="post"]' },
  threadPaths: ['/viewtopic\\.php'],
  fingerprints: ['body#phpbb'],
  postsPerPage: 10,
  regions: [
    {
      selector: 'div.post',
      // Of the profile column, only the name.
      parts: [
        'p.author',
        { selector: 'dl.postprofile', parts: ['dt', 'a.username', 'a.username-coloured'] },
        'div.content',
        'div.notice',
      ],
    },
    // The title is the page's first h2 (h2.topic-title on prosilver).
    '.pagination',
    'h2',
  ],
  body: {
    // "Code: Select all" in a code box is chrome.
    skip: 'script, style, noscript, iframe, object, embed, form, input, button, div.codebox > p, dl.codebox > dt',
    quote: [{ selector: 'blockquote', authorSelector: 'cite', authorPattern: '^(.*?)\\s+wrote' }],
    // Spoilers are an extension, not core; these are the common extensions' classes.
    spoiler: { selector: 'div.spoiler, .spoilwrapper, details.spoiler', titleSelector: '.spoiltitle, summary' },
    code: 'dl.codebox, div.codebox, pre, code',
    // MafiaScum's [vote] BBCode renders as span.bbvote, bold by its stylesheet.
    // MafiaScum renders [b] as `span.noboldsig` (bold that signatures do not get).
    bold: 'b, strong, span.bbvote, span.noboldsig',
    smilie: 'img.smilies',
    mention: 'a.mention',
    internalLink: 'a.postlink-local',
  },
});

const POST = 'div.post[id^="p"]';

/**
 * The post's number where the theme prints one in the author line: MafiaScum's
 * `<span class="post-number-bolded">#0</span>`, counted from 0 for the opening post (as
 * its players and the public tools that read it, e.g. mafiascum-modtools, use it).
 */
const SHOWN_NUMBER = 'p.author .post-number-bolded';

export const phpbb: EngineAdapter = {
  descriptor,

  threadRef(url: URL): ThreadRef {
    const t = url.searchParams.get('t');
    const f = url.searchParams.get('f');
    const keep = new URLSearchParams();
    if (f) keep.set('f', f);
    if (t) keep.set('t', t);
    else if (url.searchParams.get('p')) keep.set('p', url.searchParams.get('p')!);
    // No topic in the URL (not a phpBB address): no bare "?" either.
    return { engine: 'phpbb', url: `${url.origin}${url.pathname}${keep.size ? `?${keep}` : ''}`, id: t };
  },

  pageUrl(thread, page, postsPerPage) {
    if (page <= 1) return thread.url;
    return `${thread.url}&start=${(page - 1) * (postsPerPage ?? descriptor.postsPerPage)}`;
  },

  pageOf(url, postsPerPage) {
    const start = Number(url.searchParams.get('start') ?? 0);
    return Math.floor(start / (postsPerPage ?? descriptor.postsPerPage)) + 1;
  },

  parsePage(html: string, ctx: PageContext): ThreadPage {
    const doc = pageDocument(html, descriptor, ctx);
    const els = requirePosts(doc, POST, html, ctx.url).filter((el) => /^p\d+$/.test(attr(el, 'id') ?? ''));
    const { page, pageCount, postsPerPage } = pagination(doc);
    const size = { stated: postsPerPage, page, pageCount, postsOnPage: els.length };
    const perPage = pageSizeFor(size, ctx, descriptor.postsPerPage);
    const title = text(one(doc, 'h2.topic-title, #page-body > h2, h2')) || null;
    const posts = readEach(els, (el, i) => readPost(el, placeInThread(page, i, perPage), page, ctx));
    return { title, page, pageCount, postsPerPage: shownPageSize(size), posts };
  },
};

/** "Page 2 of 10", and the posts per page from the `start=` offsets of the page links. */
function pagination(doc: Document): { page: number; pageCount: number; postsPerPage: number | null } {
  const box = one(doc, '.pagination');
  const m = /Page\s+(\d+)\s+of\s+(\d+)/i.exec(text(box));
  let perPage: number | null = null;
  for (const a of box ? all(box, 'a[href*="start="]') : []) {
    const n = Number(text(a));
    const start = Number(/[?&]start=(\d+)/.exec(attr(a, 'href') ?? '')?.[1]);
    if (n > 1 && start > 0) {
      perPage = start / (n - 1);
      break;
    }
  }
  const active = Number(text(box ? one(box, 'li.active') : null)) || null;
  const page = m ? Number(m[1]) : (active ?? 1);
  const numbers = box ? all(box, 'li a, li span').map((e) => Number(text(e)) || 0) : [];
  const pageCount = m ? Number(m[2]) : Math.max(page, ...numbers);
  return { page, pageCount, postsPerPage: perPage };
}

function readPost(el: Element, position: number, page: number, ctx: PageContext): Post {
  const id = (attr(el, 'id') ?? '').slice(1);
  const authorBox = one(el, 'p.author');
  const number = postNumber(text(one(el, SHOWN_NUMBER)), 0) ?? position;
  const nameEl =
    one(
      el,
      'p.author a.username, p.author a.username-coloured, dl.postprofile a.username, dl.postprofile a.username-coloured',
    ) ??
    one(el, 'p.author strong a') ??
    all(el, 'dl.postprofile dt a').pop() ??
    null;
  const author = text(nameEl) || text(one(el, 'p.author strong, dl.postprofile dt'));
  const bodyEl = one(el, 'div.content');
  const body = bodyEl
    ? buildBody(bodyEl, descriptor.body, { pageUrl: ctx.url, forumOrigins: ctx.profile.aliases })
    : [];
  const dates = { timeZone: ctx.profile.timeZone, dateOrder: ctx.profile.dateOrder, now: ctx.now };
  const time = authorBox ? one(authorBox, 'time[datetime]') : null;
  const postedAt =
    fromIso(attr(time, 'datetime')) ??
    fromForumText(
      text(authorBox)
        .split(/»|&raquo;/)
        .pop() ?? '',
      dates,
    );
  const notice = all(el, 'div.notice').find((n) => /edited/i.test(text(n))) ?? null;
  const noticeText = text(notice);
  return {
    id,
    number,
    page,
    author,
    authorId: /[?&]u=(\d+)/.exec(attr(nameEl, 'href') ?? '')?.[1] ?? null,
    postedAt,
    permalink: new URL(`viewtopic.php?p=${id}#p${id}`, ctx.url).href,
    edit: notice
      ? {
          at: fromForumText(/\bon\s+(.*?)(?:,\s*edited|$)/i.exec(noticeText)?.[1] ?? '', dates),
          by: text(one(notice, 'a')) || null,
          text: noticeText,
        }
      : null,
    bodyHash: hashBody(body),
    body,
  };
}
