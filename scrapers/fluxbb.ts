import type { Document, Element } from 'domhandler';
import { BBCODE } from '../src/model/dialect.js';
import { hashBody, type Post } from '../src/model/post.js';
import { defineDescriptor, type EngineAdapter, type PageContext, type ThreadPage, type ThreadRef } from './adapter.js';
import { buildBody } from './body-builder.js';
import { all, attr, one, pageDocument, text } from './dom.js';
import { fromForumText } from './forum-time.js';
import { readEach, requirePosts } from './page-checks.js';
import { pageSizeFor, placeInThread, postNumber, shownPageSize } from './post-number.js';

/**
 * FluxBB 1.4/1.5 (and punBB 1.2, the parent it forked from, with the same topic view; punBB 1.3+
 * rewrote its templates and is not read here) topic pages as a
 * guest gets them, after fluxbb/fluxbb's `viewtopic.php`, `include/parser.php` and
 * `include/functions.php` (`paginate`, `generate_crumbs`): the page wrapper
 * `div#punviewtopic.pun`, each post `div.blockpost#pID` with `h2` holding "#N" (`span.conr`)
 * and the permalink `viewtopic.php?pid=ID#pID` whose text is the time (`format_time`:
 * "2026-03-02 18:04:00", "Today 18:04:00"; no machine time anywhere), the author in
 * `div.postleft dt strong`, the body `div.postmsg`, the edit note `p.postedit` "Last edited
 * by X (DATE)" inside it, pages `viewtopic.php?id=ID&p=N` (25 posts a page).
 */
export const descriptor = defineDescriptor({
  engine: 'fluxbb',
  name: 'FluxBB',
  // FluxBB's own BBCode (include/parser.php): [b] [i] [u] [s] [del] [ins] [em] [color] [url]
  // [email] [img] [quote] [code] [list] [*] [h]; no spoiler, no tag that stops parsing, HTML is
  // escaped; typed smilies (`:)`, `=)`, `:D`, `:cool:` …) become pictures.
  dialect: { ...BBCODE, id: 'bbcode-fluxbb' },
  // post.php's form: `form#post` (the quick post box on the topic is `form#quickpostform`).
  replyForm: {
    replyUrl: '{dir}post.php?tid={id}',
    form: 'form#post, form#quickpostform',
    messageField: 'req_message',
    fields: { submit: 'Submit' },
    skip: ['preview'],
    errorSelector: '#posterror',
  },
  browserReply: { editor: 'textarea[name="req_message"]', submit: 'form#post input[name="submit"]' },
  // `viewtopic.php` is phpBB's name too: only `id=`/`pid=` are FluxBB's, and the page decides.
  threadPaths: ['/viewtopic\\.php\\?(?:.*&)?(?:id|pid)=\\d+'],
  fingerprints: ['div#punviewtopic', 'div.pun div.blockpost div.postmsg'],
  postsPerPage: 25,
  // `div.linkst` holds punBB 1.2's crumbs, an unclassed `ul` (FluxBB's is `ul.crumbs`).
  regions: [
    { selector: 'div.blockpost', parts: ['h2', 'div.postleft', 'div.postmsg'] },
    'p.pagelink',
    'ul.crumbs',
    'div.linkst',
  ],
  body: {
    // The edit note is printed inside the message box; it is read apart.
    skip: 'script, style, noscript, iframe, object, embed, form, input, button, p.postedit',
    // `[quote=X]`: `div.quotebox` > `cite` "X wrote:" + `blockquote`; `[quote]` has no cite.
    // punBB 1.2 (include/parser.php): `blockquote` > `div.incqbox` > `h4` "X wrote:" + `p`, as a
    // real punBB 1.2 topic shows it (forum.textdrive.com, test/scrapers/fluxbb.test.ts).
    quote: [
      { selector: 'div.quotebox', authorSelector: 'cite', authorPattern: '^(.*?)\\s+wrote:\\s*$' },
      { selector: 'blockquote > div.incqbox', authorSelector: 'h4', authorPattern: '^(.*?)\\s+wrote:\\s*$' },
    ],
    code: 'div.codebox, code.code, pre',
    bold: 'strong, b',
    italic: 'em, i',
    underline: 'span.bbu, ins, u',
    strike: 'span.bbs, del, s',
    // The smilies folder (`get_base_url(true)/img/smilies/`).
    smilie: 'img[src*="img/smilies/"]',
    // FluxBB has no mentions: "@Name" is typed text.
    mention: 'a.mention',
  },
});

const POST = 'div.blockpost[id^="p"]';

export const fluxbb: EngineAdapter = {
  descriptor,

  threadRef(url: URL): ThreadRef {
    const id = url.searchParams.get('id');
    const path = url.pathname;
    if (id && /^\d+$/.test(id)) return { engine: 'fluxbb', url: `${url.origin}${path}?id=${id}`, id };
    // `viewtopic.php?pid=N#pN` names a post, not its topic: the page it redirects to says.
    return { engine: 'fluxbb', url: url.href.replace(/#.*$/, ''), id: null };
  },

  pageUrl(thread, page) {
    return page <= 1 ? thread.url : `${thread.url}&p=${page}`;
  },

  pageOf(url) {
    return Number(url.searchParams.get('p')) || 1;
  },

  parsePage(html: string, ctx: PageContext): ThreadPage {
    const doc = pageDocument(html, descriptor, ctx);
    const els = requirePosts(doc, POST, html, ctx.url);
    // `paginate`: the current page is `<strong>`, the others links ("Previous"/"Next" are words).
    const pagelink = one(doc, 'p.pagelink');
    const page = Number(text(pagelink ? one(pagelink, 'strong') : null)) || this.pageOf(new URL(ctx.url), null);
    const links = pagelink ? all(pagelink, 'a') : [];
    const pageCount = Math.max(page, ...links.map((a) => Number(text(a).replace(/[^\d]/g, '')) || 0));
    const title = text(one(doc, 'ul.crumbs li strong')) || lastCrumb(doc) || null;
    const size = { page, pageCount, postsOnPage: els.length };
    const perPage = pageSizeFor(size, ctx, descriptor.postsPerPage);
    const posts = readEach(els, (el, i) => readPost(el, placeInThread(page, i, perPage), page, ctx));
    return { title, page, pageCount, postsPerPage: shownPageSize(size), posts };
  },
};

function readPost(el: Element, place: number, page: number, ctx: PageContext): Post {
  const id = (attr(el, 'id') ?? '').replace(/^p/, '');
  const head = one(el, 'h2');
  const link = head ? one(head, 'a') : null;
  const nameBox = one(el, 'div.postleft dt');
  const nameEl = nameBox ? (one(nameBox, 'a') ?? one(nameBox, 'strong')) : null;
  const bodyEl = one(el, 'div.postmsg');
  const body = bodyEl
    ? buildBody(bodyEl, descriptor.body, { pageUrl: ctx.url, forumOrigins: ctx.profile.aliases })
    : [];
  const editEl = bodyEl ? one(bodyEl, 'p.postedit') : null;
  const dates = { timeZone: ctx.profile.timeZone, dateOrder: ctx.profile.dateOrder, now: ctx.now };
  const edit = editEl ? text(editEl) : null;
  // "Last edited by Dave (2026-03-03 10:05:00)": the editor, then the time in brackets.
  const editParts = edit ? /^.*?\bby\s+(.+?)\s+\(([^)]*)\)\s*$/.exec(edit) : null;
  return {
    id,
    number: postNumber(text(head ? one(head, 'span.conr') : null)) ?? place,
    page,
    author: text(nameEl),
    authorId: /[?&]id=(\d+)/.exec(attr(nameEl, 'href') ?? '')?.[1] ?? null,
    postedAt: link ? fromForumText(text(link), dates) : null,
    permalink: new URL(attr(link, 'href') ?? `viewtopic.php?pid=${id}#p${id}`, ctx.url).href,
    edit: edit
      ? {
          at: editParts ? fromForumText(editParts[2]!, dates) : null,
          by: editParts?.[1] ?? null,
          text: edit,
        }
      : null,
    bodyHash: hashBody(body),
    body,
  };
}

/** punBB 1.2's crumbs: `div.linkst ul`, the topic's name the last item after "»". */
function lastCrumb(doc: Document): string {
  const crumbs = one(doc, 'div.linkst ul');
  const items = crumbs ? all(crumbs, 'li') : [];
  return text(items.at(-1) ?? null).replace(/^[\s»]+/u, '');
}
