import type { Body, BodyNode } from '../model/body.js';
import type { GmCount, GmCountVoter, GmCountWagon } from '../model/gm-count.js';
import type { GmNameBook } from './gm-posts.js';
import { nameKey } from './name-form.js';
import { walkLines } from './own-text.js';

/**
 * A GM's hand-written vote count, read from the engine-neutral body: one line per wagon in
 * the shapes GMs write ("Carol (3): Bob, Dave, Eve", "Carol - 3 (Bob, Dave, Eve)",
 * "(3) Carol - Bob, Dave", "Carol [3] Bob, Dave"), struck names as withdrawn votes, a
 * "Not voting" line, a No Lynch line, L-n notes and the count's own "as of post N".
 * Bold, lists, tables and spoilers are only markup around the lines; quotes are someone
 * else's words and are not read.
 *
 * A post is a count only with a structure: two wagon lines, or a wagon line and a "Not
 * voting" line, whose targets name players. One "Carol (3)" in prose is not a count.
 */
export interface GmCountOptions {
  /** The ruleset's No Lynch name and keywords ("No Lynch", "No Elimination", "sleep"). */
  noLynch?: { name: string; keywords: readonly string[] } | null;
}

/** What a post's lines may be: more are not read (a count is a few dozen lines), and the GM is told. */
export const MAX_COUNT_LINES = 400;
const MAX_LINE = 600;
const MAX_VOTERS = 100;

interface Line {
  text: string;
  /** Per character of `text`: inside a strike. */
  struck: boolean[];
}

/**
 * The body's own lines (quotes and signatures left out), each with what is struck, and how
 * many lines past the bound were not read (said to the GM: a cut count is never silent).
 */
function linesOf(body: Body): { lines: Line[]; notRead: number } {
  const lines: Line[] = [];
  let notRead = 0;
  let text = '';
  let struck: boolean[] = [];
  const end = (): void => {
    if (text.trim() !== '') {
      if (lines.length < MAX_COUNT_LINES)
        lines.push({ text: text.slice(0, MAX_LINE), struck: struck.slice(0, MAX_LINE) });
      else notRead++;
    }
    text = '';
    struck = [];
  };
  const put = (s: string, strike: boolean): void => {
    for (const ch of s) {
      if (ch === '\n') {
        end();
        continue;
      }
      text += ch;
      for (let k = 0; k < ch.length; k++) struck.push(strike);
    }
  };
  // Struck names are withdrawn votes: kept, marked. Code is read: GMs set counts in code for the columns.
  walkLines(body, { text: (t, style) => put(t, style.strike), end }, { keepStruck: true, readCode: true });
  end();
  return { lines, notRead };
}

/** How deep a list of links is looked for (the body builder reads no deeper). */
const LINK_LIST_DEPTH = 200;

/**
 * Links side by side with only spaces between them are a list: MafiaScum moderators link
 * each vote's post ("Tierce (2): [post]Nero Cain[/post] [post]triangle123[/post]"), so a
 * comma goes between them as the count's reader would see two names.
 */
function listedLinks(nodes: readonly BodyNode[], depth: number): BodyNode[] {
  // Bounded: past the body builder's own depth a list's nodes are kept as they are (no comma added).
  if (depth > LINK_LIST_DEPTH) return [...nodes];
  const out: BodyNode[] = [];
  let afterLink = false;
  for (const n of nodes) {
    const blank = n.t === 'text' && n.text.trim() === '';
    if (n.t === 'link' && afterLink) out.push({ t: 'text', text: ', ' });
    if (!blank) afterLink = n.t === 'link';
    out.push('children' in n ? ({ ...n, children: listedLinks(n.children, depth + 1) } as BodyNode) : n);
  }
  return out;
}

const SEP = String.raw`[:\-–—=|]`;
const NUM = String.raw`(?<n>\d{1,3})\s*(?:votes?)?`;
const NAME = String.raw`(?<target>[^()[\]:|]{1,60}?)`;
/** The wagon-line shapes, most specific first; `voters` is the rest of the line. */
const WAGON_SHAPES: RegExp[] = [
  // "Carol - 3 (Bob, Dave, Eve)", "Carol: 3 [Bob, Dave]"
  new RegExp(String.raw`^${NAME}\s*${SEP}\s*${NUM}\s*[([](?<voters>[^)\]]*)[)\]]\s*$`, 'iud'),
  // "Carol (3): Bob, Dave, Eve", "Carol [3] Bob, Dave", "Carol (3 votes) - Bob"
  new RegExp(String.raw`^${NAME}\s*[([]\s*${NUM}\s*[)\]]\s*(?:${SEP}\s*)*(?<voters>.*)$`, 'iud'),
  // "(3) Carol - Bob, Dave", "[3] Carol: Bob", "[0] Naomi-Tan -": a dash between words only
  // parts the target from its voters with a space before it (a hyphen joins a name).
  new RegExp(
    String.raw`^[([]\s*${NUM}\s*[)\]]\s*(?<target>[^:|]{1,60}?)\s*(?:[:|=]|(?<=\s)[\-–—](?=\s|$))\s*(?<voters>.*)$`,
    'iud',
  ),
  // "Carol - 3 - Bob, Dave", "Carol: 2: Bob, Dave"
  new RegExp(String.raw`^${NAME}\s*${SEP}\s*${NUM}\s*${SEP}\s*(?<voters>.*)$`, 'iud'),
];
/**
 * "Not voting: a, b", "Not Voting (2) - a, b", "No vote - a", "(3) Not Voting: a, b" (the
 * wagons' own shape), "(13) [NOT VOTING] — a, b" (the label bracketed), "Yet to vote (5): a".
 */
const NOT_VOTING = new RegExp(
  String.raw`^(?:[([]\s*\d{1,3}\s*[)\]]\s*)?[([]?\s*(?<label>not\s+voting|not\s+voted|yet\s+to\s+vote|no\s+votes?|non-?voters?|abstaining)\s*[)\]]?\s*(?:[([]\s*\d{1,3}\s*[)\]])?\s*${SEP}?\s*(?<voters>.*)$`,
  'iud',
);
/** An L-n note ("L-1", "(L-2)", "[L-0]"): how many votes the wagon is short. */
const L_NOTE = /[([]?\s*\bL\s*-\s*(\d{1,2})\b\s*[)\]]?/giu;
/** "as of post 337", "up to #337", "through post #337", "(to post 337)". */
const AS_OF = /\b(?:as\s+of|up\s+to|through|thru|until|till|to)\s+(?:post\s*#?\s*|#\s*)(\d{1,7})\b/iu;
/** A post reference after a voter's name: "Bob (#312)", "Bob [312]", "Bob #312", "Bob (post 312)". */
const POST_REF = /\s*(?:[([]\s*(?:post\s*)?#?\s*\d{1,7}\s*[)\]]|#\s*\d{1,7}|\bpost\s*\d{1,7})/giu;
/** Between a line's voters: commas, semicolons, "&", "+", "and". */
const VOTER_SEP = /\s+and\s+|[,;&+/]/giu;
/** Bullets and list marks before a line. */
const BULLET = /^[\s\-*•·>◦▪]+(?=\S)/u;

const blank = (s: string, re: RegExp): string => s.replace(re, (m) => ' '.repeat(m.length));

export function readGmCount(
  post: { number: number; body: Body },
  book: GmNameBook,
  options: GmCountOptions = {},
): GmCount | null {
  const { lines, notRead } = linesOf(listedLinks(post.body, 0));
  const wagons: GmCountWagon[] = [];
  let notVoting: GmCountVoter[] | null = null;
  let asOfPost: number | null = null;
  const unread: string[] = [];
  let ladder = 0;

  const resolve = (written: string): string | null => {
    const exact = book.exact(written);
    if (exact !== undefined) return exact;
    // The ladder compares with every slot: bounded per post like the news reader's.
    if (ladder++ > 200) return null;
    const r = book.ladder(written);
    return r && 'target' in r ? r.target : null;
  };
  const noLynch = options.noLynch ?? null;
  const noLynchKeys = noLynch ? new Set([noLynch.name, ...noLynch.keywords].map(nameKey)) : new Set<string>();

  for (const line of lines) {
    const asOf = AS_OF.exec(line.text);
    if (asOf && asOfPost === null) asOfPost = Number(asOf[1]);
    // Bullets and L-n notes are blanked, not cut, so the strike marks stay in place.
    const bullet = BULLET.exec(line.text);
    let text = bullet ? ' '.repeat(bullet[0].length) + line.text.slice(bullet[0].length) : line.text;
    let toLynch: number | null = null;
    text = text.replace(L_NOTE, (m, n: string) => {
      toLynch = Number(n);
      return ' '.repeat(m.length);
    });
    const lead = text.length - text.trimStart().length;
    const shaped = text.trim();
    const nv = NOT_VOTING.exec(shaped);
    if (nv?.indices?.groups?.['voters']) {
      const [from] = nv.indices.groups['voters'];
      notVoting = [...(notVoting ?? []), ...votersOf(shaped.slice(from), line.struck, lead + from, resolve, unread)];
      continue;
    }
    for (const shape of WAGON_SHAPES) {
      const m = shape.exec(shaped);
      const groups = m?.groups;
      if (!m || !groups || !m.indices?.groups) continue;
      const written = (groups['target'] ?? '').trim();
      if (written === '' || !/\p{L}/u.test(written)) continue;
      const [targetFrom, targetTo] = m.indices.groups['target']!;
      const targetStruck = line.struck.slice(lead + targetFrom, lead + targetTo).every(Boolean);
      const target = noLynchKeys.has(nameKey(written)) && noLynch ? noLynch.name : resolve(written);
      const [from] = m.indices.groups['voters']!;
      const missing: string[] = [];
      const voters = votersOf(groups['voters'] ?? '', line.struck, lead + from, resolve, missing);
      // A struck wagon is an old one the GM kept for the record; a line naming nobody is prose.
      if (targetStruck) break;
      if (target === null && !voters.some((v) => v.player !== null)) break;
      if (target === null) unread.push(written);
      unread.push(...missing);
      wagons.push({ line: line.text.trim(), written, target, stated: Number(groups['n']), voters, toLynch });
      break;
    }
  }
  const named = wagons.filter((w) => w.target !== null);
  if (named.length < 2 && !(named.length >= 1 && notVoting !== null)) return null;
  return { post: post.number, asOfPost, wagons, notVoting, unread, linesNotRead: notRead };
}

/** A wagon's or the not-voting line's names, each read by the name ladder, struck ones marked. */
function votersOf(
  part: string,
  struck: readonly boolean[],
  offset: number,
  resolve: (written: string) => string | null,
  unread: string[],
): GmCountVoter[] {
  const out: GmCountVoter[] = [];
  const cleaned = blank(part, POST_REF);
  const pieces: { raw: string; at: number }[] = [];
  let at = 0;
  for (const sep of cleaned.matchAll(VOTER_SEP)) {
    pieces.push({ raw: cleaned.slice(at, sep.index), at });
    at = (sep.index ?? 0) + sep[0].length;
  }
  pieces.push({ raw: cleaned.slice(at), at });
  for (const piece of pieces) {
    if (out.length >= MAX_VOTERS) break;
    const raw = piece.raw;
    const written = raw.replace(/[.\s]+$/u, '').trim();
    if (!/\p{L}|\p{N}/u.test(written)) continue;
    // "None", "No-one", "No one!", "( nobody )": the wagon has no voters.
    if (/^[([]?\s*(?:none|nobody|no[\s-]?one|-+)\s*[)\]!.]*$/iu.test(written)) continue;
    const start = offset + piece.at;
    // Struck when every letter of the name is.
    let letters = 0;
    let hit = 0;
    for (let k = 0; k < raw.length; k++) {
      if (!/[\p{L}\p{N}]/u.test(raw[k]!)) continue;
      letters++;
      if (struck[start + k]) hit++;
    }
    const player = resolve(written);
    if (player === null) unread.push(written);
    out.push({ written, player, struck: letters > 0 && hit === letters });
  }
  return out;
}
