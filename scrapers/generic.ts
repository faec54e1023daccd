import { createHash } from 'node:crypto';
import type { AnyNode, Document, Element } from 'domhandler';
import { LayoutError, TruncatedPageError } from '../src/fetch/errors.js';
import { type Body, plainText } from '../src/model/body.js';
import { hashBody, type Post } from '../src/model/post.js';
import { defineDescriptor, type EngineAdapter, type PageContext, type ThreadPage, type ThreadRef } from './adapter.js';
import { buildBody } from './body-builder.js';
import { all, attr, documentBase, isElement, one, parseHtml } from './dom.js';
import { fromEpochMillis, fromEpochSeconds, fromForumText, fromIso, pageDateOrder } from './forum-time.js';
import { isTruncated } from './page-checks.js';
import { phpbb } from './phpbb.js';
import { pageSizeFor, placeInThread, postNumber, shownPageSize } from './post-number.js';
import { isSignature, signatureAfter } from './post-signature.js';
import {
  type AuthorCandidate,
  authorCandidates,
  blockSelector,
  chainFrom,
  elementsOf,
  follow,
  parentElement,
  type Repetition,
  repetitions,
  rowSpan,
  groupRows,
  startsPost,
  commonChain,
  mergeChains,
  PERMALINK_HREF,
  sameKind,
  shortText,
  tagsOf,
  stepOf,
} from './post-structure.js';
import type { PostSelectors, SiteProfile } from './site-profile.js';

/**
 * The generic reader: any thread page no descriptor claims, read by the repeated post
 * structure it shows (scrapers/post-structure.ts), scored, and refused below a threshold
 * with what it saw. Never chosen by identification: only `--engine generic`, a site
 * profile with engine `generic`, or the GM's explicit choice. With the profile's
 * `selectors` (what a confirmed reading stored) it reads with those plain selectors.
 */
const SIGNATURE = '.signature, .Signature, .UserSignature, .sig, .post-signature, .usersig';

export const descriptor = defineDescriptor({
  engine: 'generic',
  name: 'the generic reader',
  // An unknown board's BBCode: phpBB's table is the most careful one (no no-parse tag, plain lists).
  dialect: phpbb.descriptor.dialect,
  postsPerPage: 20,
  body: {
    skip: 'script, style, noscript, iframe, object, embed, form, input, button, textarea, select',
    quote: [
      {
        // A signature in a <blockquote> (vBulletin 4's blockquote.signature) is no quote.
        // (GOG's div.quot and its span.quot_user_name "Alice: ".)
        selector: `blockquote:not(${SIGNATURE}), div.quote, div.bbcode_quote, div.bbCodeQuote, div.quotebox, div.bbcode-quote, div.quot`,
        authorSelector:
          'cite, .quote-author, .quote_header, .bbcode_postedby, .attribution, .quotetitle, .quot_user_name',
        // The name, before "wrote" and what follows it (phpBB 3.2 prints the quoted post's link and time there).
        authorPattern:
          // (vBulletin 5: "Originally posted by X View Post".)
          '^(?:Originally [Pp]osted by|Quote from|Quote|Zitat von|Citation de|Cita de)?\\s*:?\\s*(.+?)\\s*(?:View Post\\s*)?(?:(?:said|wrote|schrieb|a écrit|escribió|ha scritto|schreef|napisał)(?!\\p{L}).*)?\\s*:?\\s*$',
        keepAuthorLine: true,
      },
    ],
    // A quote with no quote class, known by its caption (vBulletin 3: "Quote:" over a table whose
    // first line is "Originally Posted by X"); the caption alone on its line, as forums print it.
    quoteCaption:
      '^(?:(?:Quote|Zitat|Citation|Cita|Citazione|Cytat|Citaat|Citat)\\s*:\\s*)?' +
      '(?:(?:Originally [Pp]osted by|Original [Gg]eschrieben von|Zitat von|Citation de|Cita de|Citazione di|Messaggio originale di|Quote from|Quoting)\\s+(.{1,60}?)(?:\\s+View Post)?\\s*:?' +
      '|(.{1,40}?)\\s+(?:said|wrote|schrieb|a écrit|escribió|ha scritto|schreef|napisał)\\s*:)?\\s*$',
    spoiler: { selector: 'details, .spoiler, .bbcode_spoiler, .spoilerbox', titleSelector: 'summary, .spoiler-title' },
    code: 'pre, code',
    strike: 's, strike, del',
    smilie:
      'img.smilie, img.smiley, img.smilies, img.emoji, img.emoticon, img[src*="smil"], img[src*="emoji"], img[src*="emoticon"]',
    mention: 'a.username, a.mention, a.user-link, a.user-mention',
    signature: SIGNATURE,
  },
});

/** Below this the reading is refused (0..1; see `score`). */
const MIN_CONFIDENCE = 0.75;

export interface GenericMeasures {
  blocks: number;
  /** Blocks whose step (tag and classes) is the most common one. */
  regularity: number;
  withAuthor: number;
  withBody: number;
  withTime: number;
  /** Consecutive timed posts whose times do not go backwards. */
  timesInOrder: number;
  /** Distinct authors (a thread's authors repeat; all one name on many blocks is a label, not authors). */
  authors: number;
  /** Author links like the posts' outside every post found: posts the reading would miss. */
  strays: number;
  /** Distinct profile links of the authors (one member posting every post links one profile; a label links many). */
  authorLinks: number;
  /** Posts whose text is the text most of them share: a title or label repeated, not messages. */
  sameText: number;
}

export interface GenericFinding {
  /** Where the posts were found, for messages ("div#posts"). */
  container: string;
  selectors: PostSelectors;
  measures: GenericMeasures;
  score: number;
}

/** What the generic reader saw of one post beside the Post itself (for checks and the GM's look). */
export interface PostEvidence {
  authorHref: string | null;
  timeText: string | null;
  timeFrom: 'attribute' | 'text' | null;
}

export interface GenericReading {
  page: ThreadPage;
  finding: GenericFinding;
  evidence: PostEvidence[];
  /** Things the GM should know (posts without a time ...). */
  notes: string[];
}

/** The generic reader declined the page: what it saw, and why that is not enough. */
export class GenericRefusal extends LayoutError {
  constructor(
    url: string,
    readonly saw: string,
  ) {
    super(url, `the generic reader did not find a thread here: ${saw}`);
  }
}

const TIME_ATTRS = ['datetime', 'data-time', 'data-timestamp', 'data-datetime', 'data-date', 'data-unix', 'title'];
const NOT_POST_TIME =
  /\b(?:joined|registered|member since|dabei seit|registriert|mitglied seit|inscrit|inscription|registrado|iscritto|lid sinds)\b/i;
const EDIT_NOTE =
  /^(?:last )?(?:edited|modified)\b|\bedited by\b|\bzuletzt bearbeitet\b|\bbearbeitet\b|\bmodifié\b|\beditado\b|\bmodificato\b|\bbewerkt\b|\bedytowan/i;
const POST_ID =
  /^(?:msg|post|p|pid|postcount|post_message|comment|elComment|entry|reply|js-post|message|edit)[-_]?(\d+)$/i;

export const generic: EngineAdapter = {
  descriptor,

  threadRef(url: URL): ThreadRef {
    const u = new URL(url.href);
    u.hash = '';
    for (const p of PAGE_PARAMS) u.searchParams.delete(p);
    u.pathname = u.pathname.replace(/\/(?:page[-/]?|p)\d+\/?$/i, '').replace(/\/tp\d+\//i, '/tp1/');
    return { engine: 'generic', url: u.href, id: null };
  },

  pageUrl(thread, page) {
    if (page <= 1) return thread.url;
    const u = new URL(thread.url);
    if (/\/tp1\//i.test(u.pathname)) {
      u.pathname = u.pathname.replace(/\/tp1\//i, `/tp${page}/`);
      return u.href;
    }
    u.searchParams.set('page', String(page));
    return u.href;
  },

  pageOf(url, postsPerPage) {
    return pageFromUrl(url, postsPerPage);
  },

  parsePage(html: string, ctx: PageContext): ThreadPage {
    return readGeneric(html, ctx).page;
  },
};

const PAGE_PARAMS = ['page', 'pg', 'pagenum', 'seite', 'start', 'offset'];

function pageFromUrl(url: URL, postsPerPage: number | null): number {
  for (const p of ['page', 'pg', 'pagenum', 'seite']) {
    const n = Number(url.searchParams.get(p));
    if (Number.isInteger(n) && n >= 1) return n;
  }
  const start = Number(url.searchParams.get('start') ?? url.searchParams.get('offset'));
  if (start > 0 && postsPerPage) return Math.floor(start / postsPerPage) + 1;
  const m = /\/(?:page[-/]?|tp|p)(\d+)(?:\/|$)/i.exec(url.pathname);
  return m ? Number(m[1]) : 1;
}

/**
 * Read one page generically: with the profile's selectors where it has them, else by
 * finding the repeated post structure. Throws a GenericRefusal (a LayoutError) naming
 * the URL and what it saw when the finding is not good enough, never a short page.
 */
export function readGeneric(html: string, ctx: PageContext): GenericReading {
  const doc = parseHtml(html);
  if (isTruncated(html))
    throw new TruncatedPageError(ctx.url, 'the page ends before </html>; the download was cut off');
  const stored = ctx.profile.selectors;
  const layout = stored ? storedLayout(doc, stored, ctx.url) : findLayout(doc, ctx, html);
  const reading = readLayout(doc, layout, ctx);
  if (!stored && reading.finding.score < MIN_CONFIDENCE) throw new GenericRefusal(ctx.url, describe(reading.finding));
  if (stored && reading.finding.measures.withAuthor < reading.finding.measures.blocks) {
    throw new LayoutError(
      ctx.url,
      `the site profile's selectors found ${reading.finding.measures.blocks} posts (${stored.post}) but only ${reading.finding.measures.withAuthor} with an author (${stored.author}): the forum's layout changed`,
    );
  }
  return reading;
}

interface Layout {
  strays: number;
  container: string;
  blocks: Element[];
  selectors: PostSelectors;
}

function storedLayout(doc: Document, s: PostSelectors, url: string): Layout {
  const matched = all(doc, s.post);
  // A post of several rows: each row that holds an author starts one, with the rows after it.
  const blocks = s.rows ? groupRows(firstRows(matched, s), s.rows) : matched;
  if (blocks.length === 0) {
    throw new LayoutError(
      url,
      `no posts where the site profile says they are (${s.post}): the forum's layout changed; read the page generically again to store a new profile`,
    );
  }
  return { container: s.post, blocks, selectors: s, strays: 0 };
}

/** The rows that start a post of `s.rows` rows: each holding an author, none inside the one before. */
function firstRows(rows: readonly Element[], s: PostSelectors): Element[] {
  const out: Element[] = [];
  let taken = new Set<Element>();
  for (const row of rows) {
    if (taken.has(row) || !startsPost(row, s.author)) continue;
    out.push(row);
    taken = new Set();
    for (let at = row.next, n = 1; at && n < s.rows!; at = at.next) {
      if (!isElement(at)) continue;
      taken.add(at);
      n++;
    }
  }
  return out;
}

/**
 * Find the post structure; where the page's repetition is rows that each hold only part of
 * a post (its author, its title) and no reading is sure enough, read it again with each
 * post's rows grouped (a fresh parse: the grouping changes the document).
 */
function findLayout(doc: Document, ctx: PageContext, html: string): Layout {
  let plain: Layout | null = null;
  let refusal: unknown = null;
  try {
    plain = layoutIn(doc, ctx);
    if (readLayout(doc, plain, ctx).finding.score >= MIN_CONFIDENCE) return plain;
  } catch (error) {
    if (!(error instanceof GenericRefusal)) throw error;
    refusal = error;
  }
  const grouped = parseHtml(html);
  const cands = authorCandidates(elementsOf(grouped));
  const reps = ranked(repetitions(cands));
  const rep = reps.slice(0, 12).find((r) => rowSpan(r, cands) !== null);
  if (rep) {
    const rows = rowSpan(rep, cands)!;
    groupRows(rep.blocks, rows);
    try {
      const layout = layoutIn(grouped, ctx);
      if (readLayout(grouped, layout, ctx).finding.score >= MIN_CONFIDENCE)
        return { ...layout, selectors: { ...layout.selectors, rows } };
    } catch (error) {
      if (!(error instanceof GenericRefusal)) throw error;
    }
  }
  if (plain) return plain;
  throw refusal;
}

/** The repetitions most likely to be posts first (a page's menus repeat links too): those with the most blocks holding more than their author's name. */
function ranked(reps: Repetition[]): Repetition[] {
  const worded = new Map(reps.map((r) => [r, wordedBlocks(r)]));
  return reps.sort((a, b) => worded.get(b)! - worded.get(a)! || b.blocks.length - a.blocks.length);
}

/** Every repetition of authors, each read and scored; the best one wins. */
function layoutIn(doc: Document, ctx: PageContext): Layout {
  const els = elementsOf(doc);
  const cands = authorCandidates(els);
  const reps = repetitions(cands);
  if (reps.length === 0) {
    const single = authorCandidates(els).length;
    throw new GenericRefusal(
      ctx.url,
      single === 0
        ? 'no author links to member profiles and no user-name elements on the page'
        : `${single} author link(s), none repeated at the same place in the page: a page with one post shows no repetition to trust`,
    );
  }
  let best: { layout: Layout; score: number; reading: GenericReading | null } | null = null;
  const readings: { layout: Layout; reading: GenericReading }[] = [];
  for (const rep of ranked(reps).slice(0, 12)) {
    const layout = layoutOf(rep, ctx, cands);
    if (!layout) continue;
    let reading: GenericReading;
    try {
      reading = readLayout(doc, layout, ctx);
    } catch {
      continue;
    }
    // Of two readings of the same posts, the one through profile links (they name the member).
    const score = reading.finding.score + Math.min(0.1, totalText(reading) / 1e5) + (rep.kind === 'link' ? 0.05 : 0);
    // A clearly surer reading wins whatever its length (times in order against a member's
    // "Founded" dates); between readings about as sure, the one with more text and links.
    const surer = best?.reading ? reading.finding.score - best.reading.finding.score : 0;
    if (!best || surer >= 0.05 || (surer > -0.05 && score > best.score)) best = { layout, score, reading };
    readings.push({ layout, reading });
  }
  if (!best) throw new GenericRefusal(ctx.url, `${reps.length} repeated author paths, none with a body of text`);
  // A finding whose posts are all inside another, larger finding's posts saw only part of
  // the thread (avatars with a letter, say): the larger one is the thread, or nothing is.
  const chosen = best;
  const larger = readings.find(
    (r) =>
      r.layout.blocks.length > chosen.layout.blocks.length &&
      chosen.layout.blocks.every((b) => r.layout.blocks.some((o) => contains(o, b))),
  );
  if (larger) {
    if (larger.reading.finding.score >= MIN_CONFIDENCE) return larger.layout;
    throw new GenericRefusal(ctx.url, describe(larger.reading.finding));
  }
  return best.layout;
}

/** Blocks whose text runs past their author's name (a menu's item is its link alone); bounded per block. */
function wordedBlocks(rep: Repetition): number {
  return rep.blocks.filter((b, i) => shortText(b, 200).length > shortText(rep.authors[i]!, 80).length + 20).length;
}

function totalText(r: GenericReading): number {
  let n = 0;
  for (const p of r.page.posts) n += JSON.stringify(p.body).length;
  return n;
}

/** Chains from each block to its author, body, time and permalink, chosen by what most blocks share. */
function layoutOf(rep: Repetition, ctx: PageContext, candidates: readonly AuthorCandidate[]): Layout | null {
  const first = commonChain(rep.blocks.map((b, i) => chainFrom(b, rep.authors[i]!)));
  if (!first) return null;
  const { blocks, authors } = withStrays(rep, first, candidates);
  const shared = commonChain(blocks.map((b, i) => chainFrom(b, authors[i]!)));
  if (!shared) return null;
  // A block the shared chain does not reach (an opening post laid out otherwise) adds its own.
  const author = withOwnChains(shared, blocks, (b, i) => chainFrom(b, authors[i]!));
  const authorEls = blocks.map((b) => follow(b, author).find((e) => shortText(e).length > 0) ?? null);
  const joinLabels = joinRows(blocks);
  const stamps = postStamps(blocks, authorEls, ctx).map((s, i) => [...s, ...(joinLabels[i] ?? [])]);
  // (Where nothing is left beside the time lines, the reading without them: scored, it is refused.)
  const sharedBody = bodyChain(blocks, authorEls, stamps) ?? bodyChain(blocks, authorEls);
  if (!sharedBody) return null;
  // A message the chain reaches empty (a picture alone) is reached: follow() would read it first anyway.
  const body = withOwnChains(
    sharedBody,
    blocks,
    (b, i) => {
      const own = bodyChain([b], [authorEls[i] ?? null], [stamps[i] ?? []]);
      return own ? own.split(', ')[0]! : null;
    },
    () => true,
  );
  const bodyEls = blocks.map((b, i) => bodyOf(b, body, authorEls[i] ?? null));
  const time = timeChain(blocks, authorEls, bodyEls, ctx);
  const permalink = permalinkChain(blocks, bodyEls);
  // Blocks under one parent share a selector; a first post in a box of its own adds its own.
  const parents = [...new Set(blocks.map((b) => parentElement(b)))];
  const post = [
    ...new Set(
      parents.map((p) =>
        blockSelector(
          p ?? rep.container,
          blocks.filter((b) => parentElement(b) === p),
        ),
      ),
    ),
  ].join(', ');
  return {
    strays: straysOf(blocks, authorEls, candidates, author, time, ctx) + anchorsOutside(blocks, rep.container),
    container: blockSelector(rep.container, rep.blocks).split(' > ').slice(0, -1).join(' > ') || 'the page',
    blocks,
    selectors: {
      post,
      author,
      body,
      ...(time ? { time } : {}),
      ...(permalink ? { permalink } : {}),
    },
  };
}

/** `chain`, and for each block it leads nowhere in, that block's own chain as a further alternative. */
function withOwnChains(
  chain: string,
  blocks: readonly Element[],
  own: (block: Element, i: number) => string | null,
  reached: (el: Element) => boolean = (e) => shortText(e).length > 0,
): string {
  const alternatives = chain.split(', ');
  blocks.forEach((b, i) => {
    if (follow(b, alternatives.join(', ')).some(reached)) return;
    const mine = own(b, i);
    if (mine && !alternatives.includes(mine)) alternatives.push(mine);
  });
  return alternatives.join(', ');
}

/**
 * Posts the repetition missed: the first post is often in a container of its own (Vanilla's
 * discussion, a "topic starter" box). An author of the same kind outside every block, with an
 * ancestor from which the author chain leads to it, makes that ancestor a post too.
 */
function withStrays(
  rep: Repetition,
  authorChain: string,
  candidates: readonly AuthorCandidate[],
): { blocks: Element[]; authors: Element[] } {
  const blocks = [...rep.blocks];
  const authorOf = new Map(rep.blocks.map((b, i) => [b, rep.authors[i]!]));
  const inBlock = (el: Element): boolean => blocks.some((b) => contains(b, el) || contains(el, b));
  const depth = tagsOf(authorChain).split(' > ').length;
  const shape = tagsOf(authorChain);
  const like = rep.authors[0]!;
  let opened = false;
  for (const c of candidates) {
    if (c.kind !== rep.kind || !sameKind(c.el, like) || inBlock(c.el) || inChrome(c.el)) continue;
    let at: Element | null = c.el;
    for (let i = 0; i < depth && at; i++) at = parentElement(at);
    if (!at || inBlock(at) || contains(at, rep.container) || tagsOf(chainFrom(at, c.el) ?? '') !== shape) {
      // The opening post in a box of the posts' kind but laid out otherwise (bbPress's topic
      // above its replies): once, above the posts, beside them.
      const box = opened ? null : openingBox(c.el, rep);
      if (box && !inBlock(box)) {
        opened = true;
        blocks.push(box);
        authorOf.set(box, c.el);
      }
      continue;
    }
    // Beside the posts found (a first post's box next to the replies' list), not elsewhere on the page.
    if (!near(at, rep.container)) continue;
    // And a box of the posts' kind: a stable class in common with them (Vanilla's "Item"),
    // or, above them, the author where the posts hold theirs (a question's box above its
    // answers: the same name element around the same link).
    const opening = precedes(at, rep.container) && sameAuthorPlace(chainFrom(at, c.el), authorChain);
    if (!sharesClass(at, rep.blocks[0]!) && !opening) continue;
    blocks.push(at);
    authorOf.set(at, c.el);
  }
  if (rep.kind === 'link')
    for (const [box, name] of [
      ...guestBlocks(rep, shape, candidates, inBlock),
      ...unlinkedNames(rep, authorChain, inBlock),
    ]) {
      if (inBlock(box)) continue;
      blocks.push(box);
      authorOf.set(box, name);
    }
  const sorted = blocks.length === rep.blocks.length ? blocks : sortByDocument(blocks);
  return { blocks: sorted, authors: sorted.map((b) => authorOf.get(b)!) };
}

/**
 * Posts by guests (or deleted members) among members' posts: a box of the posts' kind beside
 * them whose author is a printed name where the others' is a profile link, at the link's
 * place (the name element holds no link: "h4 > span.username" for "h4 > a.username") or
 * around it (the name element itself, "div.user" for "div.user > a").
 */
function guestBlocks(
  rep: Repetition,
  shape: string,
  candidates: readonly AuthorCandidate[],
  inBlock: (el: Element) => boolean,
): [Element, Element][] {
  const steps = shape.split(' > ');
  const around = steps.slice(0, -1).join(' > ');
  const parents = new Set(rep.blocks.map((b) => parentElement(b)));
  const out: [Element, Element][] = [];
  const taken = new Set<Element>();
  // Cheap tests first (a walk up of the chain's length): a page of many names stays linear.
  for (const c of candidates) {
    if (c.kind !== 'name') continue;
    for (const depth of [steps.length, steps.length - 1]) {
      let at: Element | null = c.el;
      for (let i = 0; i < depth && at; i++) at = parentElement(at);
      if (!at || taken.has(at) || !parents.has(parentElement(at)) || !sameKind(at, rep.blocks[0]!)) continue;
      const chain = tagsOf(chainFrom(at, c.el) ?? '').split(' > ');
      const place = depth === steps.length ? chain.slice(0, -1).join(' > ') : chain.join(' > ');
      if (place !== around || inBlock(at) || inChrome(c.el)) continue;
      out.push([at, c.el]);
      taken.add(at);
      break;
    }
  }
  return out;
}

/**
 * Posts by guests whose name is printed with no class to know it by (MyBB's guest:
 * "strong > span.largetext" holding "Passerby" where members' hold a profile link): a box
 * of the posts' kind beside them, with text and no link where the posts hold the link.
 */
function unlinkedNames(rep: Repetition, authorChain: string, inBlock: (el: Element) => boolean): [Element, Element][] {
  const steps = authorChain.split(', ')[0]!.split(' > ');
  if (steps.length < 2) return [];
  const place = steps.slice(0, -1).join(' > ');
  const out: [Element, Element][] = [];
  for (const parent of new Set(rep.blocks.map((b) => parentElement(b)))) {
    for (const c of parent?.children ?? []) {
      if (!isElement(c) || !sameKind(c, rep.blocks[0]!) || inBlock(c)) continue;
      const name = follow(c, place).find((e) => {
        const t = shortText(e, 60);
        return t.length >= 1 && t.length <= 40 && all(e, 'a').length === 0 && !/\d{1,2}:\d\d|\p{L}:\s+\S/u.test(t);
      });
      if (name && !inChrome(name)) out.push([c, name]);
    }
  }
  return out;
}

/**
 * Post anchors (an element id like post-123, p123, msg123) beside the posts found but in
 * none of them: posts the reading would miss. Only where the posts found carry such ids.
 */
function anchorsOutside(blocks: readonly Element[], container: Element): number {
  const isAnchor = (el: Element): boolean => POST_ID.test(attr(el, 'id') ?? '');
  const carry = blocks.filter((b) => isAnchor(b) || all(b, '[id]').some(isAnchor)).length;
  if (carry * 2 < blocks.length) return 0;
  let scope: Element = container;
  for (let i = 0; i < 3; i++) scope = parentElement(scope) ?? scope;
  // An anchor beside a post with that post's number (Invision's <a id="comment-158145"> before
  // its article#elComment_158145) names a post found, not a missed one.
  const found = new Set<string>();
  for (const b of blocks)
    for (const el of [b, ...all(b, '[id]')]) {
      const m = POST_ID.exec(attr(el, 'id') ?? '');
      if (m) found.add(m[1]!);
    }
  return all(scope, '[id]').filter(
    (el) =>
      isAnchor(el) &&
      !found.has(POST_ID.exec(attr(el, 'id')!)![1]!) &&
      !blocks.some((b) => contains(b, el) || contains(el, b)),
  ).length;
}

/** An ancestor of `author` of the blocks' tag and a class of theirs, above and beside their container. */
function openingBox(author: Element, rep: Repetition): Element | null {
  const first = rep.blocks[0]!;
  let at = parentElement(author);
  for (let i = 0; i < 12 && at; i++, at = parentElement(at)) {
    if (contains(at, rep.container)) return null;
    if (at.name === first.name && sharesClass(at, first))
      return precedes(at, rep.container) && near(at, rep.container) ? at : null;
  }
  return null;
}

/** Whether `a` comes before `b` in the document (neither inside the other). */
function precedes(a: Element, b: Element): boolean {
  const up = (el: Element): Element[] => {
    const path = [el];
    for (let p = parentElement(el); p; p = parentElement(p)) path.push(p);
    return path.reverse();
  };
  const [pa, pb] = [up(a), up(b)];
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  if (i === 0 || i >= pa.length || i >= pb.length) return false;
  const siblings = pa[i - 1]!.children;
  return siblings.indexOf(pa[i]!) < siblings.indexOf(pb[i]!);
}

/** Whether two author chains end in the same two steps, classes and all ("div.username > a"). */
function sameAuthorPlace(chain: string | null, authorChain: string): boolean {
  const tail = (c: string): string => c.split(' > ').slice(-2).join(' > ');
  return chain !== null && authorChain.split(', ').some((c) => tail(c) === tail(chain) && tail(c).includes('.'));
}

function sharesClass(a: Element, b: Element): boolean {
  const mine = stepOf(a).split('.').slice(1);
  const theirs = new Set(stepOf(b).split('.').slice(1));
  return mine.some((c) => theirs.has(c));
}

/** Whether `block` and `container` meet within three levels above the container. */
function near(block: Element, container: Element): boolean {
  let top: Element | null = container;
  for (let i = 0; i < 3 && top; i++) {
    top = parentElement(top);
    if (top && contains(top, block)) return true;
  }
  return false;
}

/** Author candidates of the posts' own step outside every block (not in quotes of a post: those are inside). */
function straysOf(
  blocks: readonly Element[],
  authorEls: readonly (Element | null)[],
  candidates: readonly AuthorCandidate[],
  authorChain: string,
  timeChain: string | null,
  ctx: PageContext,
): number {
  const like = authorEls.find((a) => a !== null);
  if (!like) return 0;
  const depth = tagsOf(authorChain).split(' > ').length;
  const order = dateOrderOf(blocks, ctx);
  const timeIn = (els: readonly Element[]): string | null => {
    for (const e of els) {
      const t = timeOf(e, ctx, order).at;
      if (t) return t;
    }
    return null;
  };
  // The thread's header ("By RobMan, July 25, 2007" above the posts) names the opening post:
  // its author and time are the first post's.
  const opener = attr(like, 'href');
  const openedAt = timeChain ? timeIn(follow(blocks[0]!, timeChain)) : null;
  const header = (el: Element, at: string): boolean =>
    opener !== undefined &&
    attr(el, 'href') === opener &&
    openedAt !== null &&
    Math.abs(Date.parse(at) - Date.parse(openedAt)) < 60_000 &&
    precedes(el, blocks[0]!);
  return candidates.filter((c) => {
    if (!sameKind(c.el, like) || blocks.some((b) => contains(b, c.el)) || inChrome(c.el)) return false;
    // A missed post shows its time where the posts found show theirs; a list of who is
    // reading the thread shows none.
    if (!timeChain) return true;
    let at: Element | null = c.el;
    for (let i = 0; i < depth && at; i++) at = parentElement(at);
    if (at === null) return false;
    const box = at;
    const where = timeIn(follow(box, timeChain));
    if (where) return !header(c.el, where);
    // A post in a box of another shape (a topic starter's header) shows its time elsewhere in
    // that box; a box that holds posts found is the page around them, not a missed post.
    if (blocks.some((b) => contains(box, b))) return false;
    const elsewhere = timeIn(elementsOf(box));
    return elsewhere !== null && !header(c.el, elsewhere);
  }).length;
}

/** Page chrome: navigation, header, footer, side columns (who is online, latest posters). */
function inChrome(el: Element): boolean {
  for (let at = parentElement(el); at; at = parentElement(at)) {
    if (/^(?:nav|aside)$/.test(at.name)) return true;
    // A post's own <header> holds its author; the page's header is the body's child.
    if (/^(?:header|footer)$/.test(at.name) && parentElement(at)?.name === 'body') return true;
    if (/\b(?:sidebar|widget|navigation|online|who-?is-?online)\b/i.test(attr(at, 'class') ?? '')) return true;
  }
  return false;
}

function sortByDocument(els: Element[]): Element[] {
  const order = new Map<Element, number>();
  const root = rootOf(els[0]!);
  for (const [i, e] of elementsOf((root.parent as Document | null) ?? root).entries()) order.set(e, i);
  return els.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
}

/**
 * A value for every element under `top` from its text and its children's values,
 * bottom-up in one pass (text folded: white space runs as one space, trimmed). An element
 * in `none` (and so what it holds) has the value 0.
 */
function foldUp(
  top: Element,
  text: (acc: number, t: string) => number,
  child: (acc: number, v: number) => number,
  none: ReadonlySet<Element> = new Set(),
): Map<Element, number> {
  const els = elementsOf(top);
  const values = new Map<Element, number>();
  for (let i = els.length - 1; i >= 0; i--) {
    const el = els[i]!;
    let v = 0;
    if (none.has(el)) {
      values.set(el, 0);
      continue;
    }
    for (const c of el.children) {
      if (c.type === 'text') v = text(v, c.data.replace(/\s+/g, ' ').trim());
      else v = child(v, values.get(c as Element) ?? 0);
    }
    values.set(el, v);
  }
  return values;
}

/** The text length of every element under `top`; a signature's text counts for nothing. */
function textLengths(top: Element): Map<Element, number> {
  const signed = new Set<Element>();
  for (const el of elementsOf(top)) {
    const p = parentElement(el);
    if ((p && signed.has(p)) || isSignature(el, descriptor.body.signature)) signed.add(el);
  }
  return foldUp(
    top,
    (n, t) => n + t.length,
    (n, c) => n + c,
    signed,
  );
}

/** A fingerprint of every element's text under `top` (0 for none): equal text in two posts gives equal prints. */
function textPrints(top: Element): Map<Element, number> {
  return foldUp(
    top,
    (h, t) => {
      let x = h;
      for (let k = 0; k < t.length; k++) x = (Math.imul(x, 31) + t.charCodeAt(k)) | 0;
      return x;
    },
    (h, c) => (c === 0 ? h : (Math.imul(h, 1_000_003) + c) | 0),
  );
}

function contains(outer: Element, inner: Element | null): boolean {
  let at: Element | null = inner;
  while (at) {
    if (at === outer) return true;
    at = parentElement(at);
  }
  return false;
}

/** What a block's element may hold of the message: its text length, its chain, whether it is the author's own box. */
type Held = { n: number; chain: string; own: boolean };

/**
 * Text that is the same, at the same place, in most posts is the board's (a share menu, a
 * "Report" box): never the message, however long beside short posts.
 */
function boilerplateOf(blocks: readonly Element[]): (el: Element, i: number) => boolean {
  const prints = blocks.map((b) => textPrints(b));
  const repeated = new Map<string, number>();
  prints.forEach((p) => {
    const seen = new Set<string>();
    for (const [el, h] of p) {
      if (h === 0) continue;
      const key = `${stepOf(el)}#${h}`;
      if (!seen.has(key)) repeated.set(key, (repeated.get(key) ?? 0) + 1);
      seen.add(key);
    }
  });
  return (el, i) => {
    const n = repeated.get(`${stepOf(el)}#${prints[i]!.get(el)}`) ?? 0;
    return blocks.length >= 3 && n >= 3 && n * 2 > blocks.length;
  };
}

/**
 * The elements of one block that may be its message, by shape (tags only: a first post's
 * body has other classes than the replies'); the chains of those without text go to `empties`.
 */
function heldIn(
  b: Element,
  a: Element | null,
  timeLines: readonly Element[],
  boilerplate: (el: Element) => boolean,
  empties: Set<string>,
): Map<string, Held[]> {
  const lens = textLengths(b);
  const found = new Map<string, Held[]>();
  // Of elements of one shape, the message before the author's box (name again, rank, post
  // count: XenForo 1's user block), which links to the author's own profile as a message rarely does.
  const href = a ? attr(a, 'href') : undefined;
  const ownLinks = href ? all(b, 'a[href]').filter((l) => l !== a && attr(l, 'href') === href) : [];
  const named = ownLinks.filter((l) => shortText(l, 20) !== '');
  // The post's own machine time (outside quotes) is in its header, never in its message.
  const stamps = [...all(b, 'time[datetime]').filter((t) => !insideQuote(t, b)), ...timeLines];
  const unseen = hiddenIn(b);
  for (const [el, n] of lens) {
    if (/^(?:a|img|h\d|span|b|strong|em|i|small|time|abbr|label|button)$/.test(el.name)) continue;
    // A hidden box (vBulletin 3's div.vbmenu_popup, "Find More Posts by X") is no message shown.
    if (unseen.has(el)) continue;
    if (n === 0) {
      const chain = chainFrom(b, el);
      if (chain) empties.add(chain);
      continue;
    }
    if (a && (contains(el, a) || contains(a, el))) continue;
    if (stamps.some((t) => contains(el, t))) continue;
    if (boilerplate(el)) continue;
    const chain = chainFrom(b, el);
    if (!chain) continue;
    const key = tagsOf(chain);
    const list = found.get(key) ?? [];
    list.push({
      n,
      chain,
      own: ownLinks.some((l) => contains(el, l)) || rowBesideName(el, a ? [a, ...named] : named),
    });
    found.set(key, list);
  }
  return found;
}

/** Of the elements of one shape, the longest not in the author's box (else the longest). */
function longest(list: readonly Held[]): Held {
  let pick = list[0]!;
  for (const h of list) if ((pick.own && !h.own) || (pick.own === h.own && pick.n < h.n)) pick = h;
  return pick;
}

/**
 * The chain (classes and all) that is the longest at a shape in most blocks is the message
 * there; a block whose longest element of that shape is something else (replies nested in
 * a post, a comment box) still reads its message. Of two chains longest in as many blocks,
 * the one holding more text (a message, not the "Re: <thread title>" line that outgrows a
 * one-word reply).
 */
function usualChains(perBlock: readonly Map<string, Held[]>[]): Map<string, string> {
  const usual = new Map<string, string>();
  const tally = new Map<string, Map<string, { blocks: number; text: number }>>();
  for (const found of perBlock)
    for (const [key, list] of found) {
      const t = tally.get(key) ?? new Map<string, { blocks: number; text: number }>();
      const { chain, n } = longest(list);
      const c = t.get(chain) ?? { blocks: 0, text: 0 };
      t.set(chain, { blocks: c.blocks + 1, text: c.text + n });
      tally.set(key, t);
    }
  for (const [key, t] of tally) {
    const [first, second] = [...t].sort((x, y) => y[1].blocks - x[1].blocks || y[1].text - x[1].text);
    const [chain, c] = first!;
    if (c.blocks >= 2 && (!second || second[1].blocks < c.blocks || second[1].text < c.text)) usual.set(key, chain);
  }
  return usual;
}

/**
 * The body: the chain whose elements hold the most text across the blocks without
 * holding the author, then the tightest chain that still holds nearly all of it (the
 * message, not the message with its signature and buttons).
 */
function bodyChain(
  blocks: readonly Element[],
  authorEls: readonly (Element | null)[],
  timeLines: readonly (readonly Element[])[] = [],
): string | null {
  const boilerplate = boilerplateOf(blocks);
  // Per block, the chains of elements without text (a message of a picture or a video alone).
  const empties: Set<string>[] = blocks.map(() => new Set<string>());
  const perBlock = blocks.map((b, i) =>
    heldIn(b, authorEls[i] ?? null, timeLines[i] ?? [], (el) => boilerplate(el, i), empties[i]!),
  );
  const usual = usualChains(perBlock);
  type Sum = {
    sum: number;
    covered: number;
    /** Of the blocks covered, those with text there (the others' message is empty). */
    filled: number;
    depth: number;
    chains: string[];
    several: boolean;
    own: number;
  };
  const sums = new Map<string, Sum>();
  perBlock.forEach((found, i) => {
    const keys = new Set(found.keys());
    for (const [key, chain] of usual) if (empties[i]!.has(chain)) keys.add(key);
    for (const key of keys) {
      const list = found.get(key) ?? [];
      const mine = list.filter((h) => h.chain === usual.get(key) && !h.own).sort((x, y) => y.n - x.n)[0];
      // The message's usual place empty in this post: its message is a picture or a video, not the text beside it.
      const empty = !mine && empties[i]!.has(usual.get(key) ?? '');
      const pick = mine ?? (empty ? { n: 0, chain: usual.get(key)!, own: false } : longest(list));
      // Only the author's own box at this shape: the message is empty or elsewhere in this post.
      if (pick.own) continue;
      const { n, chain } = pick;
      const s = sums.get(key) ?? {
        sum: 0,
        covered: 0,
        filled: 0,
        depth: key.split(' > ').length,
        chains: [],
        several: false,
        own: 0,
      };
      s.sum += n;
      s.covered++;
      s.filled += n > 0 ? 1 : 0;
      s.own += pick.own ? 1 : 0;
      s.chains.push(chain);
      s.several ||= list.filter((h) => h.chain === chain).length > 1;
      sums.set(key, s);
    }
  });
  // Elements that in most posts link to the post's own author are the author's box (a
  // profile column beside the message: name, post count, join date), however long it is
  // against short messages; a message links to its own author only now and then (a self-quote).
  const authorsBox = (s: Sum): boolean => s.own * 2 > s.covered;
  let top: { chain: string; value: number; filled: number; sum: number } | null = null;
  for (const [chain, s] of sums) {
    if (authorsBox(s)) continue;
    const value = s.sum * (s.covered / blocks.length) ** 2;
    if (!top || value > top.value) top = { chain, value, filled: s.filled, sum: s.sum };
  }
  if (!top) return null;
  let tight = top;
  for (const [chain, s] of sums) {
    // Tighter where it holds nearly all of the posts' text (the message without its signature
    // and buttons), and is one element in each post: one of several is a paragraph of it.
    if (s.covered < top.filled || s.sum < 0.85 * top.sum || s.several || authorsBox(s)) continue;
    if (s.depth > tight.chain.split(' > ').length || (s.depth === tight.chain.split(' > ').length && s.sum > tight.sum))
      tight = { chain, value: 0, filled: s.filled, sum: s.sum };
  }
  return mergeChains(sums.get(tight.chain)!.chains);
}

/** Elements hidden by their own markup (style="display:none", the hidden attribute), and all they hold. */
function hiddenIn(top: Element): Set<Element> {
  const out = new Set<Element>();
  for (const el of elementsOf(top)) {
    const p = parentElement(el);
    if ((p && out.has(p)) || attr(el, 'hidden') !== null || /display\s*:\s*none/i.test(attr(el, 'style') ?? ''))
      out.add(el);
  }
  return out;
}

/**
 * A row of the author's box: beside a sibling of its own classed shape that names the
 * author ("Username lemmiwinx", then "Posts 7416", "Location ..."), as a message never is.
 */
function rowBesideName(el: Element, named: readonly Element[]): boolean {
  const parent = parentElement(el);
  const step = stepOf(el);
  if (!parent || named.length === 0 || !step.includes('.')) return false;
  return parent.children.some(
    (c) =>
      c !== el && c.type === 'tag' && stepOf(c as Element) === step && named.some((l) => contains(c as Element, l)),
  );
}

function insideQuote(el: Element, top: Element): boolean {
  for (let at = parentElement(el); at && at !== top; at = parentElement(at)) if (at.name === 'blockquote') return true;
  return false;
}

/** The body element of a block: the chain's element with the most text. */
function bodyOf(block: Element, chain: string, authorEl: Element | null = null): Element | null {
  let best: Element | null = null;
  let n = -1;
  // The author's cell is never the message, however long its rank and counts; nor, where
  // another is there, a box holding the join date (vBulletin 3's div.smallfont beside
  // div#post_message_N, both "td > div").
  const els = follow(block, chain).filter((el) => !(authorEl && contains(el, authorEl)));
  const unjoined = els.filter((el) => !holdsJoinRow(el));
  for (const el of unjoined.length > 0 ? unjoined : els) {
    const len = shortText(el, 100_000).length;
    if (len > n) [best, n] = [el, len];
  }
  return best;
}

interface TimeRead {
  at: string | null;
  text: string | null;
  from: 'attribute' | 'text' | null;
  /** An instant (epoch, or ISO with its offset), not a wall time read in the profile's zone. */
  exact?: true;
  /** The machine attribute's value it was read from. */
  raw?: string;
}

/**
 * A date shown without its clock, the clock printed beside it (MyBB: `<span title="03-03-2026">
 * Today</span>, 08:00 AM`): the time of the line around it, where that reads as the same day.
 */
function withClockBeside(
  shown: TimeRead,
  el: Element | null,
  ctx: PageContext,
  order: SiteProfile['dateOrder'],
): TimeRead {
  const clock = /\d{1,2}[:h]\d\d(?::\d\d)?(?:\s*[ap]\.?m\.?)?/i;
  const line = el ? parentElement(el) : null;
  if (!shown.at || shown.exact || !line || clock.test(`${shown.text ?? ''} ${shown.raw ?? ''}`)) return shown;
  const text = shortText(line, 200);
  const beside = text.length <= 100 ? clock.exec(text)?.[0] : undefined;
  if (!beside) return shown;
  // The date as the attribute names it (the text may be "Today"), with the clock beside it.
  const at = textTime(`${shown.raw ?? shown.text} ${beside}`, ctx, order);
  // The same day: from its midnight (what the date alone reads as) to the next.
  const after = at ? Date.parse(at) - Date.parse(shown.at) : -1;
  return at && after >= 0 && after < 86_400_000 ? { ...shown, at, text } : shown;
}

/** A machine attribute's value that names an instant whatever the zone. */
const INSTANT = /^(?:\d{9,10}|\d{12,13}|\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d))$/;
/** Block attributes naming a time that is not the post's own (its last edit, its last reply). */
const NOT_POSTED_ATTR = /edit|updat|modif|last|reply|seen|expire/i;

/**
 * The instant the post block itself carries (vBulletin 5's li[data-node-publishdate], NodeBB's
 * li[data-timestamp]), for a post whose shown time is a wall time: the page prints it in the
 * board's or the reader's zone, which the profile's default may not be (vBulletin 5 prints
 * "10:37 AM" beside datetime="2019-04-09T08:37:23" with no offset; the epoch says 15:37 UTC).
 */
function blockInstant(block: Element, shown: TimeRead): TimeRead | null {
  for (const [name, raw] of Object.entries(block.attribs)) {
    if (!/time|date/i.test(name) || NOT_POSTED_ATTR.test(name)) continue;
    const v = raw.trim();
    if (!INSTANT.test(v)) continue;
    const at = /^\d{9,10}$/.test(v) ? fromEpochSeconds(v) : /^\d{12,13}$/.test(v) ? fromEpochMillis(v) : fromIso(v);
    if (at) return { at, text: shown.text ?? v, from: 'attribute', exact: true };
  }
  return null;
}

/** A time from an element: its machine attributes first, then its text. */
function timeOf(el: Element, ctx: PageContext, order: SiteProfile['dateOrder']): TimeRead {
  if (joinDate(el)) return { at: null, text: null, from: null };
  // Machine attributes wherever they sit: on the element, or on one inside it (<a><time datetime>).
  // (Only inside a small element: a whole post holds its time, and other times too.)
  const small = shortText(el, 400).length <= 100;
  const inner = small
    ? all(el, '[datetime], [data-time], [data-timestamp], [data-datetime], [data-unix]').slice(0, 3)
    : [];
  for (const holder of [el, ...inner])
    for (const name of TIME_ATTRS) {
      const v = attr(holder, name)?.trim();
      if (!v) continue;
      const at = /^\d{9,10}$/.test(v)
        ? fromEpochSeconds(v)
        : /^\d{12,13}$/.test(v)
          ? fromEpochMillis(v)
          : (fromIso(/^\d{4}-\d\d-\d\d$/.test(v) ? `${v}T00:00` : v, ctx.profile.timeZone) ??
            (name === 'title' || name === 'data-date' || name === 'data-datetime' ? textTime(v, ctx, order) : null));
      // The text shown is the holder's own (an empty <time> shows the attribute), not its box's.
      if (at)
        return {
          at,
          text: shortText(holder, 120) || v,
          from: 'attribute',
          raw: v,
          ...(INSTANT.test(v) ? { exact: true } : {}),
        };
    }
  // Collapsed text of at most 100 characters: a long element holding a date is not the date.
  const t = shortText(el, 400);
  if (t.length >= 6 && t.length <= 100 && !NOT_POST_TIME.test(t)) {
    const at = textTime(t, ctx, order);
    if (at) return { at, text: t, from: 'text' };
  }
  return { at: null, text: null, from: null };
}

/**
 * The time of a post the time chain does not reach: an opening post laid out otherwise
 * shows it elsewhere in its block, outside its message; one in a box of its own (a topic
 * header above it holds the date), in that box outside the post. Machine times first; the
 * box only for a block alone in it (a shared box is the thread's).
 */
function ownTime(
  block: Element,
  bodyEl: Element | null,
  blocks: readonly Element[],
  ctx: PageContext,
  order: SiteProfile['dateOrder'],
): TimeRead {
  const none: TimeRead = { at: null, text: null, from: null };
  const first = (els: readonly Element[]): TimeRead => {
    let byText: TimeRead = none;
    for (const el of els) {
      if (bodyEl && contains(bodyEl, el)) continue;
      const t = timeOf(el, ctx, order);
      if (t.at && inEditNote(el)) continue;
      if (t.from === 'attribute') return t;
      if (t.at && !byText.at) byText = t;
    }
    return byText;
  };
  const inside = first(elementsOf(block).filter((el) => !NOT_POST_TIME.test(shortText(el, 120))));
  if (inside.at) return inside;
  const box = parentElement(block);
  if (!box || blocks.some((b) => b !== block && contains(box, b))) return none;
  return first(elementsOf(box).filter((el) => !contains(block, el)));
}

/**
 * A member's join date, not the post's: labelled so by its class or by the short row around
 * it ("Joined: <span>Thu Feb 05, 2015</span>", "<div>Joined</div><div>Thu Sep 21, 2017</div>").
 */
function joinDate(el: Element): boolean {
  let at: Element | null = el;
  for (let i = 0; i < 3 && at; i++, at = parentElement(at)) {
    if (/joined|regdate|registered|member-?since/i.test(attr(at, 'class') ?? '')) return true;
    if (i === 0) continue;
    const row = shortText(at, 160);
    if (row.length <= 120 && NOT_POST_TIME.test(row)) return true;
  }
  return false;
}

function textTime(t: string, ctx: PageContext, order: SiteProfile['dateOrder']): string | null {
  return fromForumText(t, { timeZone: ctx.profile.timeZone, dateOrder: order, now: ctx.now });
}

/** The chain to the post's time: the one most blocks have, outside the body, times in order. */
function timeChain(
  blocks: readonly Element[],
  authorEls: readonly (Element | null)[],
  bodyEls: readonly (Element | null)[],
  ctx: PageContext,
): string | null {
  const order = dateOrderOf(blocks, ctx);
  const byChain = new Map<string, (string | null)[]>();
  const machine = new Set<string>();
  const fulls = new Map<string, string[]>();
  blocks.forEach((b, i) => {
    const seen = new Set<string>();
    for (const el of elementsOf(b)) {
      const body = bodyEls[i];
      if (body && contains(body, el)) continue;
      const a = authorEls[i];
      if (a && contains(a, el)) continue;
      const full = chainFrom(b, el);
      if (!full) continue;
      const chain = tagsOf(full);
      if (seen.has(chain)) continue;
      const t = timeOf(el, ctx, order);
      if (!t.at || inEditNote(el)) continue;
      seen.add(chain);
      const list = byChain.get(chain) ?? Array<string | null>(blocks.length).fill(null);
      list[i] = t.at;
      byChain.set(chain, list);
      fulls.set(chain, [...(fulls.get(chain) ?? []), full]);
      if (t.from === 'attribute') machine.add(chain);
    }
  });
  let best: string | null = null;
  let value = 0;
  for (const [chain, times] of byChain) {
    const present = times.filter((t): t is string => t !== null);
    // Machine times first (exact), then the chain whose times run forward and differ.
    const v =
      present.length * (machine.has(chain) ? 1.5 : 1) +
      0.5 * inOrder(present) * present.length +
      0.1 * new Set(present).size;
    if (v > value) [best, value] = [chain, v];
  }
  return best ? mergeChains(fulls.get(best)!) : null;
}

/**
 * Each block's own time line where most blocks show one at the same place, found before the
 * message: the message is never a box holding it (phpBB's div.postbody holds the subject, the
 * time line and the message; with short messages the box outweighs the message in text).
 */
function postStamps(blocks: readonly Element[], authorEls: readonly (Element | null)[], ctx: PageContext): Element[][] {
  const chain = timeChain(
    blocks,
    authorEls,
    blocks.map(() => null),
    ctx,
  );
  if (!chain) return blocks.map(() => []);
  const order = dateOrderOf(blocks, ctx);
  // The tightest element showing that time (the chain may name a short post's whole box,
  // or a header holding more than the time: ProBoards' div.info also says "Post by X").
  const tightest = (el: Element): Element | null => {
    const at = shortText(el, 200).length <= 100 ? timeOf(el, ctx, order).at : null;
    if (!at) return null;
    let tight = el;
    for (const inner of elementsOf(el)) if (timeOf(inner, ctx, order).at === at) tight = inner;
    return tight;
  };
  const stamps = blocks.map((b) => follow(b, chain).flatMap((el) => tightest(el) ?? []));
  return stamps.filter((s) => s.length > 0).length * 2 > blocks.length ? stamps : blocks.map(() => []);
}

/** A join date's label, alone in its element ("Joined", "Join Date:") or before the date in its row. */
const JOIN_WORDS =
  'joined|join date|registered|member since|dabei seit|registriert(?: seit)?|mitglied seit|inscrit(?: le)?|inscription|registrado|iscritto|lid sinds|do(?:ł|l)ączył';
/** Alone or first in its element, or last with its value after the other counts ("Posts: 42 Threads: 3 Joined: Jan 2026", MyBB). */
const JOIN_LABEL = new RegExp(
  `^(?:${JOIN_WORDS})\\s*:?(?:\\s+\\S.{0,40})?$|\\s(?:${JOIN_WORDS})\\s*:\\s*\\S.{0,40}$`,
  'i',
);

/**
 * The author's box in each block where most blocks show one: its join date row ("Joined Jan
 * 14, 2026", "Join Date: Jan 2026"). A message is never a box holding it, however short the
 * messages beside it (XenForo 2's message-userExtras, vBulletin's userinfo_extra).
 */
function joinRows(blocks: readonly Element[]): Element[][] {
  const rows = blocks.map((b) => joinRowsIn(b));
  return rows.filter((r) => r.length > 0).length * 2 > blocks.length ? rows : blocks.map(() => []);
}

const JOIN_ROW = 'dt, dd, div, span, li, strong, b, td, label';

function joinRowsIn(top: Element): Element[] {
  return [top, ...all(top, JOIN_ROW)].filter((el) => {
    if (insideQuote(el, top)) return false;
    const t = shortText(el, 100);
    return t.length <= 80 && JOIN_LABEL.test(t);
  });
}

/** Whether an element is or holds a join date's row (outside quotes). */
function holdsJoinRow(el: Element): boolean {
  return joinRowsIn(el).length > 0;
}

/** Whether a time is an edit note's ("Last edited by a moderator: Aug 28, 2019"), not the post's. */
function inEditNote(el: Element): boolean {
  let at: Element | null = el;
  for (let i = 0; i < 3 && at; i++, at = parentElement(at)) {
    const t = shortText(at, 300);
    if (t.length <= 250 && EDIT_NOTE.test(t)) return true;
  }
  return false;
}

/** How much of the page's times run one way (oldest first, or newest first as some boards show them). */
function inOrder(times: readonly string[]): number {
  if (times.length < 2) return 1;
  let up = 0;
  let down = 0;
  for (let i = 1; i < times.length; i++) {
    if (times[i]! >= times[i - 1]!) up++;
    if (times[i]! <= times[i - 1]!) down++;
  }
  return Math.max(up, down) / (times.length - 1);
}

/**
 * The order of numeric dates, learned from the page: a date whose first part is over 12
 * is day-first, one whose second part is, month-first; else the page's language (only
 * American English writes month first), else the profile.
 */
function dateOrderOf(blocks: readonly Element[], ctx: PageContext): SiteProfile['dateOrder'] {
  let dmy = 0;
  let mdy = 0;
  for (const b of blocks) {
    for (const m of shortText(b, 3000).matchAll(/\b(\d{1,2})[./-](\d{1,2})[./-](\d{2,4})\b/g)) {
      if (Number(m[1]) > 12 && Number(m[1]) <= 31) dmy++;
      else if (Number(m[2]) > 12 && Number(m[2]) <= 31) mdy++;
    }
  }
  if (dmy > mdy) return 'dmy';
  if (mdy > dmy) return 'mdy';
  const root = blocks[0] ? rootOf(blocks[0]) : null;
  const lang = (root ? attr(root, 'lang') : null)?.toLowerCase() ?? '';
  if (lang && !lang.startsWith('en')) return 'dmy';
  if (lang && lang !== 'en' && lang !== 'en-us') return 'dmy';
  // Else the page's own word (dotted dates are day first), then the profile: forum-time's rule.
  return pageOrder(blocks, ctx);
}

function pageOrder(blocks: readonly Element[], ctx: PageContext): SiteProfile['dateOrder'] {
  return pageDateOrder(blocks.map((b) => shortText(b, 3000)).join('\n'), ctx.profile.dateOrder);
}

function rootOf(el: Element): Element {
  let at = el;
  for (let p = parentElement(at); p; p = parentElement(p)) at = p;
  return at;
}

/** The chain to the post's own link, where most blocks have one outside the body. */
function permalinkChain(blocks: readonly Element[], bodyEls: readonly (Element | null)[]): string | null {
  const chains = blocks.map((b, i) => {
    for (const a of all(b, 'a[href]')) {
      const body = bodyEls[i];
      if (body && contains(body, a)) continue;
      if (PERMALINK_HREF.test(attr(a, 'href') ?? '')) return chainFrom(b, a);
    }
    return null;
  });
  const best = commonChain(chains);
  return best && chains.filter((c) => c !== null && tagsOf(c) === tagsOf(best)).length * 2 > blocks.length
    ? best
    : null;
}

/** Read every block by the layout's chains, and score the reading. */
function readLayout(doc: Document, layout: Layout, ctx: PageContext): GenericReading {
  const s = layout.selectors;
  const base = documentBase(doc, ctx.url);
  const url = new URL(ctx.url);
  const order = dateOrderOf(layout.blocks, ctx);
  const pager = pagination(doc, base, url, ctx);
  const pageNo = pager.page;
  const size = { page: pageNo, pageCount: pager.pageCount, postsOnPage: layout.blocks.length };
  const perPage = pageSizeFor(size, ctx, descriptor.postsPerPage);
  const evidence: PostEvidence[] = [];
  const notes: string[] = [];
  const numbers = layout.blocks.map((b) => shownNumber(b, s.body));
  // Of blocks that show a post number, one that does not and has no text is an ad slot.
  const mostNumbered = numbers.filter((n) => n !== null).length * 2 > numbers.length;
  const numbered = numbers.every((n, i) => n !== null || (mostNumbered && emptyBlock(layout.blocks[i]!, s, ctx)));
  const posts: Post[] = [];
  const kept: Element[] = [];
  const mostMarked = mostMarkedAsPosts(layout.blocks, s, ctx, order);
  // Where each post's message sits (the chain from its block), to tell an empty message from a missing one.
  const places: (string | null)[] = [];
  layout.blocks.forEach((block, i) => {
    const authorEl = follow(block, s.author).find((e) => shortText(e).length > 0) ?? null;
    const bodyEl = bodyOf(block, s.body, authorEl);
    const t = postTime(block, bodyEl, layout, ctx, order);
    const linkEl = s.permalink ? (follow(block, s.permalink)[0] ?? null) : null;
    const href = linkEl ? attr(linkEl, 'href') : null;
    const permalink = href ? resolve(href, base) : anchorOf(block, url);
    const id = postIdOf(block, permalink);
    const body = postBody(block, bodyEl, { pageUrl: base, forumOrigins: ctx.profile.aliases });
    const author = authorEl ? nameOf(authorEl) : '';
    const out = leftOut(body, t, id, { numbered: mostNumbered && numbers[i] === null, marked: mostMarked });
    if (out) {
      notes.push(`a block by "${author}" with ${out}`);
      return;
    }
    kept.push(block);
    places.push(bodyEl ? chainFrom(block, bodyEl) : null);
    const authorHref = authorEl ? attr(authorEl, 'href') : null;
    const place = placeInThread(pageNo, kept.length - 1, perPage);
    const number = numbered ? numbers[i]! : place;
    if (!t.at)
      notes.push(`post ${number} by ${author || '(no author)'}: no time found; clock rules cannot apply to it`);
    evidence.push({ authorHref, timeText: t.text, timeFrom: t.from });
    const editNote = editOf(block);
    posts.push({
      // A post without an id of its own: one from its author and time (or place).
      id:
        id ??
        `g${createHash('sha256')
          .update(`${author}\u0000${t.at ?? place}`)
          .digest('hex')
          .slice(0, 16)}`,
      number,
      page: pageNo,
      author,
      authorId: authorHref ? memberIdOf(authorHref) : null,
      postedAt: t.at,
      permalink,
      edit: editNote ? { at: null, by: null, text: editNote } : null,
      bodyHash: hashBody(body),
      body,
    });
  });
  const title = shortText(one(doc, 'h1') ?? one(doc, 'title') ?? (doc.children[0]! as Element), 300) || null;
  const measures = measure(
    kept.length > 0 ? kept : layout.blocks,
    posts,
    layout.strays,
    evidence,
    emptyMessages(posts, places),
  );
  return {
    page: threadPage(title, pager, shownPageSize(size), posts),
    finding: {
      container: layout.container,
      selectors: { ...s, ...(pager.selector && !s.pager ? { pager: pager.selector } : {}) },
      measures,
      score: score(measures),
    },
    evidence,
    notes,
  };
}

function threadPage(title: string | null, pager: Pagination, postsPerPage: number | null, posts: Post[]): ThreadPage {
  return {
    title,
    page: pager.page,
    pageCount: pager.pageCount,
    postsPerPage,
    posts,
    ...(Object.keys(pager.urls).length > 0 ? { pageUrls: pager.urls } : {}),
  };
}

/** The message as the shared builder reads it, and the signature beside it (measured without it), marked. */
function postBody(block: Element, bodyEl: Element | null, bodyCtx: Parameters<typeof buildBody>[2]): Body {
  const markup = descriptor.body;
  const body: Body = bodyEl ? buildBody(bodyEl, markup, bodyCtx) : [];
  const signature = bodyEl ? signatureAfter(block, bodyEl, markup.signature) : null;
  if (signature) body.push({ t: 'signature', children: buildBody(signature, markup, bodyCtx) });
  return body;
}

/**
 * Why a block is no post, or null: one with neither text nor a time is an ad slot or a stub
 * ("Publicité"); so is one without text or the post number the others show (`numbered`); one
 * with neither the time nor the post id the others show (`marked`) is an advertisement.
 */
function leftOut(
  body: Body,
  t: TimeRead,
  id: string | null,
  others: { numbered: boolean; marked: boolean },
): string | null {
  if (plainText(body).trim() === '' && (!t.at || others.numbered)) {
    const lacking = t.at ? 'no text and no post number' : 'neither text nor a time';
    return `${lacking} was left out (an ad slot or a stub)`;
  }
  if (others.marked && !t.at && id === null)
    return 'neither the time nor the post id the others show was left out (an advertisement or a notice)';
  return null;
}

/**
 * A post's time: by the layout's time chain (else where the block shows it), the clock
 * beside a date shown without one, and the instant the block carries before a wall time.
 */
function postTime(
  block: Element,
  bodyEl: Element | null,
  layout: Layout,
  ctx: PageContext,
  order: SiteProfile['dateOrder'],
): TimeRead {
  const chain = layout.selectors.time;
  const timeEl = chain ? (follow(block, chain).find((e) => timeOf(e, ctx, order).at !== null) ?? null) : null;
  const shown = withClockBeside(
    timeEl ? timeOf(timeEl, ctx, order) : ownTime(block, bodyEl, layout.blocks, ctx, order),
    timeEl,
    ctx,
    order,
  );
  return shown.exact ? shown : (blockInstant(block, shown) ?? shown);
}

/**
 * The name an author element shows, without the badges beside it: a button ("OP"), an
 * element with a tooltip (a reputation count) or an element of no letter or digit (a
 * member group's "<b>+</b>" before the name: neowin's Invision) is the board's, not the
 * name; the whole text where nothing else is left.
 */
function nameOf(el: Element): string {
  let out = '';
  const stack: AnyNode[] = [...el.children].reverse();
  const badge = (n: Element): boolean =>
    /^(?:button|script|style)$/.test(n.name) || attr(n, 'title') !== null || !/[\p{L}\p{N}]/u.test(shortText(n, 40));
  while (stack.length > 0 && out.length <= 120) {
    const n = stack.pop()!;
    if (n.type === 'text') out += n.data;
    else if (isElement(n) && !badge(n)) {
      out += ' ';
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    }
  }
  return out.replace(/\s+/g, ' ').trim() || shortText(el, 120);
}

/**
 * The member's id in a profile link: the query's member key (phpBB's u=, SMF's ";u=", MyBB's
 * uid=) before any number elsewhere (a session id's digits), else the path's number, else its
 * last segment.
 */
function memberIdOf(href: string): string | null {
  const keyed = /[?&;](?:u|uid|user|userid|user_id|member|memberid|mid|id)=(\d+)/i.exec(href);
  if (keyed) return keyed[1]!;
  const number = /(\d+)(?:[/.-]?$|&|#)/;
  return number.exec(href.replace(/[?#].*$/, ''))?.[1] ?? number.exec(href)?.[1] ?? lastSegment(href);
}

function lastSegment(href: string): string | null {
  const seg = href
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '')
    .split('/')
    .pop();
  return seg || null;
}

function resolve(href: string, base: string): string {
  try {
    return new URL(href, base).href;
  } catch {
    return base;
  }
}

function anchorOf(block: Element, url: URL): string {
  const u = new URL(url.href);
  const id = attr(block, 'id') ?? attr(one(block, '[id]'), 'id') ?? attr(one(block, 'a[name]'), 'name');
  u.hash = id && POST_ID.test(id) ? id : '';
  return u.href;
}

function postIdOf(block: Element, permalink: string): string | null {
  for (const el of [block, ...all(block, '[id], a[name]').slice(0, 20)]) {
    const m = POST_ID.exec(attr(el, 'id') ?? attr(el, 'name') ?? '');
    if (m) return m[1]!;
  }
  const m =
    /(?:[?&](?:p|pid|post|postid|comment|reply|msg)=|\/(?:post|posts|comment|comments|reply)[-/]?|#(?:p|post|msg|comment|reply|entry)?[-_]?)(\d+)/i.exec(
      permalink,
    );
  return m ? m[1]! : null;
}

/**
 * Whether most blocks (two at least) show a post's time and id: then one showing neither is
 * the board's (an advertisement dressed as a post, "Our Sponsors"), not a member's post.
 */
function mostMarkedAsPosts(
  blocks: readonly Element[],
  s: PostSelectors,
  ctx: PageContext,
  order: SiteProfile['dateOrder'],
): boolean {
  const marked = blocks.filter((b) => markedAsPost(b, s, ctx, order)).length;
  return marked * 2 > blocks.length && marked >= 2;
}

/** Whether a block shows both a time (by the layout's time chain) and a post id. */
function markedAsPost(block: Element, s: PostSelectors, ctx: PageContext, order: SiteProfile['dateOrder']): boolean {
  if (!s.time || !follow(block, s.time).some((e) => timeOf(e, ctx, order).at !== null)) return false;
  const link = s.permalink ? attr(follow(block, s.permalink)[0] ?? null, 'href') : undefined;
  return postIdOf(block, link ?? '') !== null;
}

/** Whether a block's message holds no text (or it has no message element). */
function emptyBlock(block: Element, s: PostSelectors, ctx: PageContext): boolean {
  const authorEl = follow(block, s.author).find((e) => shortText(e).length > 0) ?? null;
  const bodyEl = bodyOf(block, s.body, authorEl);
  if (!bodyEl) return true;
  return plainText(buildBody(bodyEl, descriptor.body, { pageUrl: ctx.url })).trim() === '';
}

/** The number the post shows ("#12"), outside its body. */
function shownNumber(block: Element, bodyChain: string): number | null {
  const body = bodyOf(block, bodyChain);
  for (const el of all(block, 'a, span, strong, div')) {
    if (body && contains(body, el)) continue;
    const t = shortText(el, 20);
    if (/^#\s?\d[\d,.]*$/.test(t)) return postNumber(t);
  }
  return null;
}

function editOf(block: Element): string | null {
  for (const el of all(block, '[class*="edit"], [class*="Edit"]')) {
    const t = shortText(el, 300);
    if (t.length > 0 && t.length <= 250 && EDIT_NOTE.test(t)) return t;
  }
  return null;
}

/**
 * Posts without text whose message element sits where most posts hold their text: a
 * picture or a video alone (which the body does not keep as text), not a message missed.
 */
function emptyMessages(posts: readonly Post[], places: readonly (string | null)[]): number {
  const texty = new Set<string>();
  let withText = 0;
  posts.forEach((p, i) => {
    if (plainText(p.body).trim() === '') return;
    withText++;
    if (places[i]) texty.add(places[i]);
  });
  if (withText * 2 < posts.length) return 0;
  return posts.filter((p, i) => plainText(p.body).trim() === '' && texty.has(places[i] ?? '')).length;
}

function measure(
  blocks: readonly Element[],
  posts: readonly Post[],
  strays: number,
  evidence: readonly PostEvidence[],
  emptyMessages = 0,
): GenericMeasures {
  // A "body" that is the post's own date line is its header read as its message.
  const fold = (t: string): string => t.replace(/\s+/g, ' ').trim();
  const worded = (p: Post, i: number): boolean => {
    const text = fold(plainText(p.body));
    return text !== '' && !fold(evidence[i]?.timeText ?? '').includes(text);
  };
  // One shape: the most blocks sharing a tag, or a stable class (a first post's box is often another tag).
  const counts = new Map<string, number>();
  for (const b of blocks) {
    for (const k of new Set([`<${b.name}>`, ...stepOf(b).split('.').slice(1)])) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const steps = new Map([['', Math.max(...counts.values())]]);
  const times = posts.map((p) => p.postedAt).filter((t): t is string => t !== null);
  const texts = new Map<string, number>();
  for (const p of posts) {
    const t = plainText(p.body).replace(/\s+/g, ' ').trim();
    if (t) texts.set(t, (texts.get(t) ?? 0) + 1);
  }
  return {
    sameText: Math.max(0, ...texts.values()),
    blocks: blocks.length,
    regularity: Math.max(...steps.values()) / blocks.length,
    withAuthor: posts.filter((p) => p.author.length > 0).length,
    withBody: posts.filter(worded).length + emptyMessages,
    withTime: times.length,
    timesInOrder: inOrder(times),
    authors: new Set(posts.map((p) => p.author)).size,
    authorLinks: new Set(evidence.map((e) => e.authorHref).filter((h) => h !== null)).size,
    strays,
  };
}

/**
 * How far the finding can be trusted (0..1): every block with an author and a body is
 * required; then how regular the blocks are, how many have a time, and whether the times
 * run forward. Many blocks all by one "author" are a label ("Profile"), not posts.
 */
function score(m: GenericMeasures): number {
  if (m.blocks < 2) return 0;
  const authors = m.withAuthor / m.blocks;
  const bodies = m.withBody / m.blocks;
  if (authors < 1 || bodies < 0.9) return Math.min(authors, bodies) * 0.5;
  const times = m.withTime / m.blocks;
  // (One name linking one profile on every post is one member writing them all.)
  const oneLabel = m.blocks >= 4 && m.authors === 1 && m.authorLinks !== 1 ? 0.3 : 0;
  // Most "bodies" one text: the thread's title beside each author (the message is elsewhere).
  if (m.blocks >= 3 && m.sameText * 2 > m.blocks) return 0.4;
  // Some blocks without the time the others show are not posts like them (an "Our
  // sponsors" box among the posts) or posts read wrong: refused, not guessed.
  if (m.withTime > 0 && m.withTime < m.blocks) return Math.min(0.6, 0.35 * m.regularity + 0.35 * times);
  // Posts outside the blocks found: a reading that would miss them is refused.
  if (m.strays > 0) return Math.min(0.5, 0.35 * m.regularity + 0.35 * times);
  return Math.max(0, 0.35 * m.regularity + 0.35 * times + 0.3 * (m.withTime >= 2 ? m.timesInOrder : 0.5) - oneLabel);
}

/** What the reader saw, for the GM and for refusals. */
export function describe(f: GenericFinding): string {
  const m = f.measures;
  const strays =
    m.strays > 0 ? `, ${m.strays} more mark(s) of a post outside them (an author link with a time, a post anchor)` : '';
  const untimed =
    m.withTime > 0 && m.withTime < m.blocks ? `, ${m.blocks - m.withTime} without the time the others show` : '';
  const same =
    m.blocks >= 3 && m.sameText * 2 > m.blocks
      ? `, ${m.sameText} of them with the same text (a title or label, not messages)`
      : '';
  return `found ${m.blocks} candidate blocks under ${f.container}${strays}${same}${untimed}: ${m.withAuthor} with an author, ${m.withBody} with a body, ${m.withTime} with a time (${Math.round(m.timesInOrder * 100)}% in order), ${m.authors} distinct authors, ${Math.round(m.regularity * 100)}% of one shape; confidence ${f.score.toFixed(2)} (needs ${MIN_CONFIDENCE})`;
}

interface Pagination {
  page: number;
  pageCount: number;
  urls: Record<number, string>;
  selector: string | null;
}

/** Page numbers from rel=next and page-number links whose URL names a page (?page=, /page-N, start=). */
function pagination(doc: Document, base: string, url: URL, ctx: PageContext): Pagination {
  const page = pageFromUrl(url, ctx.postsPerPage ?? ctx.profile.postsPerPage ?? null);
  const urls: Record<number, string> = {};
  let pageCount = page;
  let selector: string | null = null;
  const scope = ctx.profile.selectors?.pager ? all(doc, ctx.profile.selectors.pager) : [doc];
  for (const root of scope) {
    for (const a of all(root as Element, 'a[href]')) {
      const t = shortText(a, 12);
      if (!/^\d{1,5}$/.test(t)) continue;
      const target = new URL(resolve(attr(a, 'href')!, base));
      if (target.origin !== url.origin) continue;
      const n = Number(t);
      const named = pageFromUrl(target, null);
      const offset = target.searchParams.get('start') ?? target.searchParams.get('offset');
      if (named !== n && !(offset !== null && n > 1) && !(n === 1 && named === 1)) continue;
      if (!sameThread(target, url)) continue;
      urls[n] = target.href;
      pageCount = Math.max(pageCount, n);
      if (!selector) {
        const holder = parentElement(a);
        const cls = holder ? (attr(holder, 'class') ?? '').split(/\s+/).find((c) => /pag|nav/i.test(c)) : null;
        if (holder && cls) selector = `${holder.name}.${cls}`;
      }
    }
  }
  const next = attr(one(doc, 'link[rel="next"], a[rel="next"]'), 'href');
  if (next) {
    urls[page + 1] = resolve(next, base);
    pageCount = Math.max(pageCount, page + 1);
  }
  delete urls[page];
  return { page, pageCount, urls, selector };
}

/** A link into the same thread: the same path (up to its page part), or the same query but the page. */
function sameThread(a: URL, b: URL): boolean {
  const strip = (u: URL): string => {
    const c = new URL(u.href);
    c.hash = '';
    for (const p of [...PAGE_PARAMS, 'sid', 's']) c.searchParams.delete(p);
    c.pathname = c.pathname.replace(/\/(?:page[-/]?|tp|p)\d+(?=\/|$)/i, '/').replace(/\/+$/, '');
    return c.pathname + c.search;
  };
  return strip(a) === strip(b);
}
