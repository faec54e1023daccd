import { type AnyNode, type Document, Element } from 'domhandler';
import { appendChild, replaceElement } from 'domutils';
import { attr, isElement, matches, one } from './dom.js';

/**
 * The repeated structure of a thread page, found without knowing the engine: the blocks
 * that each hold one author (a link to a member profile, or a user-name element), found
 * as the children of the nearest common ancestor of authors that sit at the same tag
 * path. Harvest (fhgr/harvest) starts from the page's text and climbs from the element
 * that matches it; starting from authors instead means every block found has an author,
 * and a page without a repetition is refused rather than read as one post.
 */

/** Links to a member's profile, by the words forums put in those URLs (path and query, not host). */
const PROFILE_HREF =
  /(?:^|[/?&;.=_-])(?:members?|users?|u|profiles?|personal_pages|people|authors?|user_profile|user_info|viewprofile|member\.php|mitglieder|benutzer|user-dashboard|usuarios?|utilisateurs?|membres?)(?:[/?&;.=_-]|\d|$)/i;
/** A post's own link (its permalink, its number's link): never its author's, whatever words the thread's slug holds. */
export const PERMALINK_HREF =
  /(?:[?&](?:p|pid|post|postid|comment|reply|msg)=\d+|\/(?:post|posts|comment|comments|reply|p|entry|entries|message|msg)[-/]?\d+|#(?:p|post|msg|comment|reply|entry)?[-_]?\d+$|showpost|permalink|findpost|findComment)/i;
/** Links that are never an author: the board's own pages. */
const NOT_AUTHOR_HREF =
  /(?:login|logout|register|signup|search|lostpassword|mode=(?!viewprofile)|\/members\/?$|\/list\b|[?&]action=(?!profile))/i;
/** Elements that print a user name without a link (guests, boards without profiles). */
const NAME_CLASS =
  /(?:^|[\s_-])(?:user-?name|author|poster|nick(?:name)?|member-?name|postauthor|post-author|user)(?:$|\s|[_-](?!(?:ip|info|information|stats?|statistics|details|title|rank|avatar|group|extras?|pane)(?:$|[\s_-])))/i;
/** Classes that change from post to post (state, alternating colours): never part of a path. */
const VOLATILE_CLASS =
  /^(?:odd|even|alt\d*|bg\d|row\d|first|last|active|hover|new|unread|online|offline|selected|is-.*|has-.*|js-.*|.*\d.*)$/i;

/** Deeper than this the page is not walked (hostile markup). */
const MAX_DEPTH = 400;

export interface AuthorCandidate {
  el: Element;
  kind: 'link' | 'name';
}

export interface Repetition {
  /** The nearest common ancestor of the blocks. */
  container: Element;
  blocks: Element[];
  /** The author element of each block. */
  authors: Element[];
  kind: 'link' | 'name';
  /** How many author candidates of this path there were (more than blocks: several per block). */
  candidates: number;
}

/** `tag.class.class` of an element: its stable classes only. */
export function stepOf(el: Element): string {
  const classes = (attr(el, 'class') ?? '')
    .split(/\s+/)
    .filter((c) => c && /^[a-z_-][\w-]*$/i.test(c) && !VOLATILE_CLASS.test(c))
    .sort();
  return [el.name, ...classes.map((c) => `.${c}`)].join('');
}

/** The chain of steps from below `top` down to `el` ("div.body > p"), or null when `el` is not under `top`. */
export function chainFrom(top: Element, el: Element): string | null {
  const steps: string[] = [];
  let at: Element | null = el;
  while (at && at !== top) {
    steps.push(stepOf(at));
    at = parentElement(at);
    if (steps.length > MAX_DEPTH) return null;
  }
  return at === top ? steps.reverse().join(' > ') : null;
}

/** Elements under `top` that the chain reaches, each step a child of the one before. */
export function follow(top: Element | Document, chains: string): Element[] {
  for (const chain of chains.split(', ')) {
    const found = followOne(top, chain);
    if (found.length > 0) return found;
  }
  return [];
}

function followOne(top: Element | Document, chain: string): Element[] {
  let level: (Element | Document)[] = [top];
  for (const step of chain.split(' > ')) {
    const next: Element[] = [];
    for (const node of level) for (const c of node.children) if (isElement(c) && matches(c, step)) next.push(c);
    level = next;
    if (level.length === 0) return [];
  }
  return level as Element[];
}

export function parentElement(el: AnyNode): Element | null {
  const p = el.parent;
  return p && isElement(p) ? p : null;
}

/** Every element of the page in document order, iteratively, with its depth. */
export function elementsOf(root: Document | Element): Element[] {
  const out: Element[] = [];
  const stack: { nodes: readonly AnyNode[]; i: number }[] = [{ nodes: root.children, i: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.i >= top.nodes.length) {
      stack.pop();
      continue;
    }
    const node = top.nodes[top.i++]!;
    if (!isElement(node) || node.name === 'script' || node.name === 'style' || node.name === 'head') continue;
    out.push(node);
    if (node.children.length > 0 && stack.length < MAX_DEPTH) stack.push({ nodes: node.children, i: 0 });
  }
  return out;
}

/** Visible text of an element, white space folded (short elements only: names, dates). */
export function shortText(el: Element, limit = 200): string {
  let out = '';
  const stack: AnyNode[] = [...el.children].reverse();
  while (stack.length > 0 && out.length <= limit) {
    const n = stack.pop()!;
    if (n.type === 'text') out += n.data;
    else if (isElement(n) && n.name !== 'script' && n.name !== 'style') {
      out += ' ';
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    }
  }
  return out.replace(/\s+/g, ' ').trim();
}

function isProfileLink(el: Element): boolean {
  if (el.name !== 'a') return false;
  const href = attr(el, 'href');
  if (!href || href.startsWith('#')) return false;
  const local = href.replace(/^[a-z]+:\/\/[^/]+/i, '');
  if (/^javascript:/i.test(href)) return /profile|user|member/i.test(href);
  return PROFILE_HREF.test(local) && !NOT_AUTHOR_HREF.test(local) && !PERMALINK_HREF.test(local);
}

/** Author candidates: profile links with a name, and user-name elements holding none. */
export function authorCandidates(els: readonly Element[]): AuthorCandidate[] {
  const out: AuthorCandidate[] = [];
  for (const el of els) {
    // A quoted post's author (phpBB's cite links the member, the post and its time) is no post's.
    if ((el.name === 'a' || NAME_CLASS.test(attr(el, 'class') ?? '')) && insideBlockquote(el)) continue;
    if (isProfileLink(el)) {
      // An avatar drawn as the name's first letter ("T") links the profile but is not the name.
      if (/avatar/i.test(attr(el, 'class') ?? '')) continue;
      const name = shortText(el, 80);
      // A link whose text is a date or a count is the post's link or a statistic, not its author.
      if (name.length >= 1 && name.length <= 60 && !/\d{1,2}:\d\d|^\d+$/.test(name)) out.push({ el, kind: 'link' });
      continue;
    }
    if (el.name === 'a' || el.name === 'img') continue;
    const cls = `${attr(el, 'class') ?? ''} ${attr(el, 'itemprop') ?? ''}`;
    if (!NAME_CLASS.test(cls)) continue;
    const name = shortText(el, 80);
    // A label with its value ("Posts: 42 Threads: 3") is a statistic, not a name.
    if (name.length < 1 || name.length > 40 || /\d{1,2}:\d\d|^\d+$|\p{L}:\s+\S/u.test(name)) continue;
    // A name element holding a profile link, or inside one, is read through the link.
    if (el.children.some((c) => isElement(c) && (c.name === 'a' || blockish(c)))) continue;
    if (holdsProfileLink(el)) continue;
    if (insideLink(el)) continue;
    // Beside the name the element may show badges ("OP", a reputation count): schema.org's
    // name property marks the name itself.
    const named = one(el, '[itemprop="name"]');
    out.push({ el: named && shortText(named, 80).length > 0 ? named : el, kind: 'name' });
  }
  return out;
}

function insideBlockquote(el: Element): boolean {
  for (let at = el.parent; at && isElement(at); at = at.parent) if (at.name === 'blockquote') return true;
  return false;
}

/** A profile link anywhere inside (Invision's h3 > strong > a): the name is read through it. */
function holdsProfileLink(el: Element): boolean {
  const stack = [...el.children];
  for (let seen = 0; stack.length > 0 && seen < 200; seen++) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    if (isProfileLink(n)) return true;
    stack.push(...n.children);
  }
  return false;
}

function insideLink(el: Element): boolean {
  let at = parentElement(el);
  for (let i = 0; i < 4 && at; i++, at = parentElement(at)) if (at.name === 'a') return true;
  return false;
}

function blockish(el: Element): boolean {
  return /^(?:div|p|ul|ol|li|table|tr|td|dl|section|article|header|footer|h\d)$/.test(el.name);
}

/** The tag path from the root (names only: alternating classes must not split a thread's posts). */
function tagPath(el: Element): string {
  const names: string[] = [];
  let at: Element | null = el;
  while (at && names.length <= MAX_DEPTH) {
    names.push(at.name);
    at = parentElement(at);
  }
  // Tag names only: a member's rank or state adds classes to the link on some posts.
  return names.reverse().join('/');
}

function ancestors(el: Element): Element[] {
  const out: Element[] = [];
  let at = parentElement(el);
  while (at && out.length <= MAX_DEPTH) {
    out.push(at);
    at = parentElement(at);
  }
  return out;
}

/** The child of `top` on the way down to `el`. */
function childToward(top: Element, el: Element): Element | null {
  let at: Element | null = el;
  while (at) {
    const p = parentElement(at);
    if (p === top) return at;
    at = p;
  }
  return null;
}

/** Every repetition of authors on the page, one per tag path with at least two blocks. */
export function repetitions(candidates: readonly AuthorCandidate[]): Repetition[] {
  const groups = new Map<string, AuthorCandidate[]>();
  for (const c of candidates) {
    const key = `${c.kind}:${tagPath(c.el)}`;
    const g = groups.get(key);
    if (g) g.push(c);
    else groups.set(key, [c]);
  }
  const out: Repetition[] = [];
  // A group whose common ancestor has children holding several of its authors is two
  // structures (a first post's box beside the replies' list): each such child is split again.
  const work = [...groups.values()].filter((g) => g.length >= 2);
  while (work.length > 0) {
    const group = work.pop()!;
    const chain = ancestors(group[0]!.el);
    let lca = 0;
    for (const c of group.slice(1)) {
      const set = new Set(ancestors(c.el));
      while (lca < chain.length && !set.has(chain[lca]!)) lca++;
    }
    const container = chain[lca];
    if (!container) continue;
    const parts = new Map<Element, AuthorCandidate[]>();
    for (const c of group) {
      const block = childToward(container, c.el);
      if (!block) continue;
      const list = parts.get(block);
      if (list) list.push(c);
      else parts.set(block, [c]);
    }
    const crowded = [...parts.values()].filter((p) => p.length >= 2);
    if (crowded.length > 0 && crowded.length * 2 >= parts.size) {
      for (const p of crowded) work.push(p);
      continue;
    }
    const blocks: Element[] = [];
    const authors: Element[] = [];
    for (const [block, list] of parts) {
      blocks.push(block);
      authors.push(list[0]!.el);
    }
    if (blocks.length >= 2) out.push({ container, blocks, authors, kind: group[0]!.kind, candidates: group.length });
  }
  return out;
}

/** A CSS selector for the blocks from the document: the nearest ancestor with a stable id, then child steps. */
export function blockSelector(container: Element, blocks: readonly Element[]): string {
  const steps = new Map<string, number>();
  for (const b of blocks) steps.set(stepOf(b), (steps.get(stepOf(b)) ?? 0) + 1);
  const blockStep = commonStep(blocks);
  const path: string[] = [];
  let at: Element | null = container;
  while (at) {
    const id = attr(at, 'id');
    if (id && /^[a-z][\w-]*$/i.test(id) && !/\d{3,}/.test(id)) {
      path.push(`${at.name}#${id}`);
      break;
    }
    path.push(stepOf(at));
    if (at.name === 'body') break;
    at = parentElement(at);
  }
  return [...path.reverse(), blockStep].join(' > ');
}

/** The step every block shares: its tag and the classes all of them have. */
function commonStep(els: readonly Element[]): string {
  const first = els[0]!;
  const sets = els.map((e) => new Set(stepOf(e).split('.').slice(1)));
  const shared = [...sets[0]!].filter((c) => sets.every((s) => s.has(c)));
  return [first.name, ...shared.map((c) => `.${c}`)].join('');
}

/** A chain's tags alone ("div > div > a"): chains of the same shape whose classes differ. */
export function tagsOf(chain: string): string {
  return chain
    .split(', ')[0]!
    .split(' > ')
    .map((s) => s.split('.')[0])
    .join(' > ');
}

/**
 * Chains of one shape as one: at each step the tag and the classes most chains have there,
 * then (where that differs) the classes all of them have, as a second alternative
 * ("A, B": `follow` takes the first that leads somewhere). Most posts are read by their
 * own classes; a first post in a box of its own by what it shares with them.
 */
export function mergeChains(chains: readonly string[]): string {
  const steps = chains.map((c) => c.split(' > '));
  const merged = (quorum: number): string =>
    steps[0]!
      .map((step, i) => {
        const counts = new Map<string, number>();
        for (const s of steps)
          for (const c of new Set((s[i] ?? '').split('.').slice(1))) counts.set(c, (counts.get(c) ?? 0) + 1);
        const kept = [...counts]
          .filter(([, n]) => n >= quorum)
          .map(([c]) => c)
          .sort();
        return [step.split('.')[0], ...kept.map((c) => `.${c}`)].join('');
      })
      .join(' > ');
  const most = merged(Math.floor(chains.length / 2) + 1);
  const all = merged(chains.length);
  return most === all ? all : `${most}, ${all}`;
}

/** The most common shape among chains, merged; null when there are none. */
export function commonChain(chains: readonly (string | null)[]): string | null {
  const byShape = new Map<string, string[]>();
  for (const c of chains) {
    if (c === null) continue;
    const k = tagsOf(c);
    const list = byShape.get(k);
    if (list) list.push(c);
    else byShape.set(k, [c]);
  }
  let best: string[] | null = null;
  for (const list of byShape.values()) if (!best || list.length > best.length) best = list;
  return best ? mergeChains(best) : null;
}

/** Two elements of one kind: the same tag, and a stable class in common where either has one. */
export function sameKind(a: Element, b: Element): boolean {
  if (a.name !== b.name) return false;
  const x = stepOf(a).split('.').slice(1);
  const y = new Set(stepOf(b).split('.').slice(1));
  return (x.length === 0 && y.size === 0) || x.some((c) => y.has(c));
}

/**
 * How many rows one post spans when its author's row is followed by rows of its own (a
 * table whose post is a header row, a message row and a button row): the blocks share a
 * parent and between each two stand the same number of other elements, and as many follow
 * the last. Null when the blocks are posts of one element each.
 */
export function rowSpan(rep: Repetition, candidates: readonly AuthorCandidate[]): number | null {
  const parent = parentElement(rep.blocks[0]!);
  if (!parent || rep.blocks.some((b) => parentElement(b) !== parent)) return null;
  const siblings = parent.children.filter(isElement);
  const index = new Map(siblings.map((el, i) => [el, i]));
  const at = rep.blocks.map((b) => index.get(b)!);
  const gap = at.length >= 2 ? at[1]! - at[0]! : 0;
  if (gap < 2 || at.some((x, i) => i > 0 && x - at[i - 1]! !== gap)) return null;
  if (siblings.length - at[at.length - 1]! < gap) return null;
  // The rows between hold no author where a post's first row holds its own (a member's
  // post between guests' posts): else a group would be several posts read as one.
  const starts = new Set(rep.blocks);
  const shape = tagsOf(chainFrom(rep.blocks[0]!, rep.authors[0]!) ?? '').split(' > ');
  for (const c of candidates) {
    let row: Element | null = c.el;
    for (let up = 0; row && parentElement(row) !== parent && up < MAX_DEPTH; up++) row = parentElement(row);
    if (!row || parentElement(row) !== parent || starts.has(row)) continue;
    const chain = tagsOf(chainFrom(row, c.el) ?? '').split(' > ');
    if (chain.length === shape.length && chain.slice(0, -1).join(' > ') === shape.slice(0, -1).join(' > ')) return null;
  }
  return gap;
}

/**
 * Each first row with the rows after it, `span` in all, wrapped in one element of the first
 * row's tag: a post the chains can be read from like any block. Changes the document.
 */
export function groupRows(firsts: readonly Element[], span: number): Element[] {
  return firsts.map((first) => {
    const rows: Element[] = [first];
    for (let at = first.next; at && rows.length < span; at = at.next) if (isElement(at)) rows.push(at);
    const group = new Element(first.name, {});
    replaceElement(first, group);
    for (const row of rows) appendChild(group, row);
    return group;
  });
}

/** Whether a post's first row holds its author: the author chain read from the row itself. */
export function startsPost(row: Element, authorChain: string): boolean {
  return authorChain.split(', ').some((chain) => {
    const [first, ...rest] = chain.split(' > ');
    return matches(row, first) && (rest.length === 0 || follow(row, rest.join(' > ')).length > 0);
  });
}
