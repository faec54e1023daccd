import type { Document, Element } from 'domhandler';
import { hashBody, type Post } from '../src/model/post.js';
import { BBCODE } from '../src/model/dialect.js';
import { defineDescriptor, type EngineAdapter, type PageContext, type ThreadPage, type ThreadRef } from './adapter.js';
import { buildBody } from './body-builder.js';
import { all, attr, one, text, pageDocument } from './dom.js';
import { fromForumText, fromIso, withPageDateOrder } from './forum-time.js';
import { readEach, requireContainers } from './page-checks.js';
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
    voteTag: 'span.bbvote',
    smilie: 'img.smilies',
    mention: 'a.mention',
    internalLink: 'a.postlink-local',
  },
});

const POST = 'div.post[id^="p"]';

/**
 * What makes a phpBB post whatever the theme: an element holding the post id (`p123`) and,
 * around it, the nearest box with the post's body. prosilver puts the id on div.post;
 * other themes on a div.clearfix (ebaumsworld.com) or on an inner a.st-anchor
 * (airliners.net), whose box is the div.post around it.
 */
const POST_MARK = { selector: '[id^="p"]', id: /^p(\d+)$/, body: 'div.content' };

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

  parsePage(html: string, given: PageContext): ThreadPage {
    // Numeric dates in the order the page shows, before the profile's.
    const ctx = withPageDateOrder(html, given);
    let doc = pageDocument(html, descriptor, ctx);
    let found = postBoxes(doc);
    // A theme whose posts are not div.post: the page's regions miss them, the whole page has them.
    if (found.length === 0 && !ctx.wholePage) {
      doc = pageDocument(html, descriptor, { ...ctx, wholePage: true });
      found = postBoxes(doc);
    }
    const ids = new Map(found.map((f) => [f.el, f.id]));
    const els = requireContainers(
      found.map((f) => f.el),
      POST,
      html,
      ctx.url,
    );
    const { page, pageCount, postsPerPage } = pagination(doc);
    const size = { stated: postsPerPage, page, pageCount, postsOnPage: els.length };
    const perPage = pageSizeFor(size, ctx, descriptor.postsPerPage);
    const title = text(one(doc, 'h2.topic-title, #page-body > h2, h2')) || null;
    const posts = readEach(els, (el, i) => readPost(el, ids.get(el)!, placeInThread(page, i, perPage), page, ctx));
    return { title, page, pageCount, postsPerPage: shownPageSize(size), posts };
  },
};

/** Each post's box and id, in page order (POST_MARK). */
function postBoxes(doc: Document): { el: Element; id: string }[] {
  const out: { el: Element; id: string }[] = [];
  const seen = new Set<Element>();
  for (const mark of all(doc, POST_MARK.selector)) {
    const id = POST_MARK.id.exec(attr(mark, 'id') ?? '')?.[1];
    if (!id) continue;
    let box: Element | null = mark;
    while (box && !one(box, POST_MARK.body)) box = box.parent?.type === 'tag' ? (box.parent as Element) : null;
    // A box holding another post's mark is the list of posts, not this post.
    if (
      !box ||
      seen.has(box) ||
      all(box, POST_MARK.selector).some((m) => m !== mark && POST_MARK.id.test(attr(m, 'id') ?? ''))
    )
      continue;
    seen.add(box);
    out.push({ el: box, id });
  }
  return out;
}

/**
 * The post's author line (name, permalink, time): prosilver's p.author, or the box of the
 * post's permalink beside the author's name (ebaumsworld.com's div.timepost).
 */
function authorLine(el: Element, id: string): Element | null {
  const p = one(el, 'p.author');
  if (p) return p;
  const anchor = `#p${id}`;
  for (const a of all(el, 'a[href]').filter((l) => l.attribs.href!.endsWith(anchor))) {
    const box = a.parent?.type === 'tag' ? (a.parent as Element) : null;
    if (box && one(box, 'a.username, a.username-coloured')) return box;
  }
  return null;
}

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

function readPost(el: Element, id: string, position: number, page: number, ctx: PageContext): Post {
  const authorBox = authorLine(el, id);
  const number = postNumber(text(one(el, SHOWN_NUMBER)), 0) ?? position;
  const nameEl =
    one(
      el,
      'p.author a.username, p.author a.username-coloured, dl.postprofile a.username, dl.postprofile a.username-coloured',
    ) ??
    one(el, 'p.author strong a') ??
    all(el, 'dl.postprofile dt a').pop() ??
    (authorBox ? one(authorBox, 'a.username, a.username-coloured') : null) ??
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
