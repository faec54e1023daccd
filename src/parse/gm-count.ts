import type { Body, BodyNode } from '../model/body.js';
import type { GmCount, GmCountVoter, GmCountWagon, StatedThreshold } from '../model/gm-count.js';
import type { GmNameBook } from './gm-posts.js';
import { nameKey } from './name-form.js';
import { walkLines } from './own-text.js';
import { statedIn } from './stated-threshold.js';

/**
 * A GM's hand-written vote count, read from the engine-neutral body: one line per wagon in
 * the shapes GMs write ("Carol (3): Bob, Dave, Eve", "Carol - 3 (Bob, Dave, Eve)",
 * "(3) Carol - Bob, Dave", "Carol [3] Bob, Dave"), struck names as withdrawn votes, a
 * "Not voting" line, a No Lynch line, L-n notes and the count's own "as of post N".
 * Bold, lists, tables and spoilers are only markup around the lines; quotes are someone
 * else's words and are not read.
 *
 * A post is a count only with a structure: two wagon lines, or a wagon line and a "Not
 * voting" line, whose targets name players. One "Carol (3)" in prose is not a count. A line
 * with no number ("Timeater - DemonHybrid") is a wagon only in a count that has a numbered
 * line or one with an L-n or lynch note ("Mac (LYNCH) - ..."), before or after it.
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
/** The count out of the votes to lynch ("(3/7)", "- 3/7 (a, b)"); with no brackets by it, "1/7-3/7" is a date. */
const OUT_OF = String.raw`(?:\/\s*\d{1,3}\s*)?`;
/**
 * A wagon's target: no brackets but a bracketed part with no digit, as some players' names
 * are written ("[winger]", "[L]"); "[3]" is a count, never part of a name.
 */
const NAME = String.raw`(?<target>(?:[^()[\]:|]|\[[^()[\]:|\d]{1,30}\]){1,60}?)`;
/** The count in its brackets, a comma or semicolon after it being the GM's ("(5, L-2)" once the L-n is blanked). */
const COUNTED = String.raw`[([]\s*${NUM}\s*${OUT_OF}[,;]?\s*[)\]]`;
/** The wagon-line shapes, most specific first; `voters` is the rest of the line. */
const WAGON_SHAPES: RegExp[] = [
  // "Carol - 3 (Bob, Dave, Eve)", "Carol: 3 [Bob, Dave]", "Golden Mean - 3/7 (a, b, c)"
  new RegExp(String.raw`^${NAME}\s*${SEP}\s*${NUM}\s*${OUT_OF}[([](?<voters>[^)\]]*)[)\]]\s*$`, 'iud'),
  // "Monk - Empking, Friend (2)": the count after the voters (one bracket on the line, the dash spaced).
  new RegExp(String.raw`^${NAME}\s*(?:[:|=]|(?<=\s)[\-–—](?=\s))\s*(?<voters>[^()[\]]*?)\s*${COUNTED}\s*$`, 'iud'),
  // "Carol (3): Bob, Dave, Eve", "Carol [3] Bob, Dave", "Carol (3 votes) - Bob", "Carol: (1) Bob"
  new RegExp(String.raw`^${NAME}\s*(?:[:\-–—=]\s*)?${COUNTED}\s*(?:${SEP}\s*)*(?<voters>.*)$`, 'iud'),
  // "(3) Carol - Bob, Dave", "[3] Carol: Bob", "[0] Naomi-Tan -": a dash between words only
  // parts the target from its voters with a space before it (a hyphen joins a name).
  new RegExp(
    String.raw`^[([]\s*${NUM}\s*${OUT_OF}[)\]]\s*(?<target>[^:|]{1,60}?)\s*(?:[:|=]|(?<=\s)[\-–—](?=\s|$))\s*(?<voters>.*)$`,
    'iud',
  ),
  // "Carol - 3 - Bob, Dave", "Carol: 2: Bob, Dave"
  new RegExp(String.raw`^${NAME}\s*${SEP}\s*${NUM}\s*${SEP}\s*(?<voters>.*)$`, 'iud'),
  // "Nisani       1 votes: Oversoul": a count set in columns, the word "votes" after its number.
  new RegExp(String.raw`^${NAME}\s+(?<n>\d{1,3})\s+votes?\s*${SEP}\s*(?<voters>.*)$`, 'iud'),
  // "AzBlueM [2 - Ant_to_the_Max, Fusion": the count's bracket left open, its separator after it,
  // read only with voters after it ("Ciara24 (10- " alone is a typo no number can be read from).
  new RegExp(String.raw`^${NAME}\s*[([]\s*${NUM}\s*${SEP}\s*(?<voters>[^()[\]]*\p{L}[^()[\]]*)$`, 'iud'),
];
/**
 * A wagon line with no number ("rb: Robbnva", "[L-3] Creeps20 - TwoFace, copper223" and
 * "pandashnoo (L-7):" once the L-n note is blanked): read only inside a count whose other wagons are numbered, and only
 * when its target and every voter name players (a line of prose has the same shape).
 */
const NUMBERLESS = /^(?<target>[^()[\]:|=]{1,60}?)\s*(?:[:|=]|(?<=\s)[-–—](?=\s|$))\s*(?<voters>.*)$/du;
/**
 * The same with the dash spaced on one side only ("Hiraki -Zdenek", "T S O- Silverwolf"), read
 * when the shape above is not there: a hyphen inside a name ("Dry-Fit") has no space by it.
 */
const NUMBERLESS_LOOSE = /^(?<target>[^()[\]:|=]{1,60}?)\s*(?:(?<=\s)[-–—]|[-–—](?=\s))\s*(?<voters>.*)$/du;
/**
 * "Not voting: a, b", "Not Voting (2) - a, b", "No vote - a", "(3) Not Voting: a, b" (the
 * wagons' own shape), "(13) [NOT VOTING] — a, b" (the label bracketed), "Yet to vote (5): a",
 * "Players not voting: a", "Not Voting - 1 (a)".
 */
const NOT_VOTING = new RegExp(
  String.raw`^(?:[([]\s*\d{1,3}\s*[)\]]\s*)?[([]?\s*(?:players?\s+)?(?<label>not\s+voting|not\s+voted|yet\s+to\s+vote|no\s+votes?(?=\s*(?:[:\-–—=|([]|$))|non-?voters?|abstaining)\s*[)\]]?\s*(?:[([]\s*\d{1,3}\s*[)\]])?\s*(?:${SEP}\s*)*(?<voters>.*)$`,
  'iud',
);
/**
 * An L-n note ("L-1", "(L-2)", "[L - 7]", "(L-2!)", "(L-)" at the hammer): how many votes the
 * wagon is short; "(L+2)" is a wagon past the lynch (a note, no number short). Its brackets go with it only as a pair: in "( 6 L-1 )" they hold the count.
 */
const L_NOTE = /[([]\s*L\s*-\s*(\d{1,2})?\s*!*\s*[)\]]|\bL\s*-\s*(\d{1,2})\b|[([]\s*L\s*\+\s*\d{1,2}\s*!*\s*[)\]]/giu;
/** A change note before a wagon ("(+1/-2)Carol - 1 (...)", "(=0)"): what moved since the last count. */
const CHANGE_NOTE = /^\s*[([]\s*[+\-−=]\s*\d{1,3}(?:\s*\/\s*[+\-−=]\s*\d{1,3})*\s*[)\]]/u;
/** "as of post 337", "up to #337", "through post #337", "(to post 337)". */
const AS_OF = /\b(?:as\s+of|up\s+to|through|thru|until|till|to)\s+(?:post\s*#?\s*|#\s*)(\d{1,7})\b/iu;
/** A post reference after a voter's name: "Bob (#312)", "Bob [312]", "Bob #312", "Bob (post 312)". */
const POST_REF = /\s*(?:[([]\s*(?:post\s*)?#?\s*\d{1,7}\s*[)\]]|#\s*\d{1,7}|\bpost\s*\d{1,7})/giu;
/** Between a line's voters: commas, semicolons, "&", "+", "/", "|", a spaced "." ("and" only where no player's name holds it). */
const VOTER_SEP = /[,;&+/|]|(?<=\s)\.(?=\s)/gu;
const AND = /\s+and\s+/giu;
const HAS_AND = /\s+and\s+/iu;
/** Bullets and list marks before a line. */
const BULLET = /^[\s\-*•·>◦▪]+(?=\S)/u;
/** The forum's smiley codes at a line's ends (":right: Zdenek - ...", "... :dead:"): pictures, not names. */
const SMILEYS = /^\s*(?::[a-z!?]{1,12}:\s*)+|(?:\s*:[a-z!?]{1,12}:)+\s*$/giu;
/** A vote history ("LmkGuy ==> Unvote ==> Mulch", "Alice -> Bob"): a player's past votes, not a wagon's voters. */
const HISTORY = /=+>|-+>|→|>>/u;
/** "None", "No-one", "No one!", "( nobody )", "N/A": the line names no voter. */
const NONE =
  /^[([]?\s*[-–—]*\s*(?:none|no+bo+dy|no[\s-]?one|n\/a|not\s+a\s+single\s+(?:one|person|player|soul)|every(?:one|body)\s+(?:is\s+voting|has\s+voted)|-+)\s*[)\]!.;]*(?:(?<=[!;])\s[^,]*)?$/iu;
/** The whole not-voting list: "Not voting: everyone", "Everyone else": every player on no wagon. */
const EVERYONE = /^(?:every(?:one|body)|all)(?:\s+else)?\W*$/iu;
/** A number of players in place of their names ("Not voting - like 6 people"): the list is not written, as "everyone else". */
const SO_MANY = /^(?:like|about|around|roughly|~)?\s*\d{1,2}\s+(?:people|players|others)\W*$/iu;
/** A not-voting list written as a wagon: "Not Voting - 1 (Rhinox)", "Not voting: 0 ()", "Not Voting - 0", "- 0 - No-one". */
const COUNTED_LIST = new RegExp(
  String.raw`^\s*\d{1,3}\s*(?:[([](?<inner>[^)\]]*)[)\]]|${SEP}\s*(?<rest>.*?))?\s*$`,
  'du',
);
/** BBCode the forum left unrendered ("[/color]", "[area=Votes]"): markup, not names. */
const BBCODE = /\[\/?(?:b|i|u|s|color|size|font|area|center|url|quote|spoiler|post|list|\*)(?:=[^\]]{0,80})?\]/giu;
const LYNCH_WORD = String.raw`(?:lynch(?:ed)?|hammer(?:ed)?|eliminated)`;
const LYNCH_WORD_RE = new RegExp(LYNCH_WORD, 'iu');
/**
 * The GM's note that a wagon was lynched, in brackets: "(LYNCH)", "[Lynched]", "(Lynch!)", "(REACHED)",
 * "(L)" or "(NO LYNCH)" after a target ("SensFan (L) - ...", "No Lynch (NO LYNCH) - ..."; alone,
 * "[L]" is a name and "(1) (NO LYNCH) — a" the wagon), or in the count's own brackets ("( 7 Lynched )").
 */
const LYNCH_NOTE = new RegExp(
  String.raw`[([]\s*(?:${LYNCH_WORD}|(?:lynch\s+)?reached)\s*!*\s*[)\]]|(?<=\p{L}\s*)[([]\s*(?:L|no\s*lynch)\s*[)\]]|(?<=[([]\s*\d{1,3}\s*[,;]?\s*)${LYNCH_WORD}\s*!*(?=\s*[)\]])`,
  'giu',
);
/**
 * The note at a line's end: "--- LYNCH", "– Lynched!", "..., Saint. LYNCHED", "nn30 Lynch" ("No
 * Lynch" is a wagon, not a note), and anything after a back arrow ("neil1113 <-- LYNCH").
 */
const END_NOTE = new RegExp(
  String.raw`(?:-+|=+|[–—])\s*${LYNCH_WORD}\s*!*\s*$|(?<!\bno[\s.]*)(?<=\S)[\s.]+lynch(?:ed)?\s*!*\s*$|<[-=]+.*$`,
  'giu',
);
/** The note before a wagon: "LYNCHED Pine (7) - ...", "LYNCH (7) Kagesong - ...", "LYNCH* Alduskkel (6) - ...". */
const LEAD_NOTE = /^\s*lynch(?:ed)?[!*:]*\s+(?=\S)/iu;
/** The lynch word beside a target the line's start does not hold ("[7] Lynch Elleran: ..."). */
const LYNCH_BESIDE = /^lynch(?:ed)?[!*:]*\s+|\s+lynch(?:ed)?!*$/iu;
/** Brackets with nothing in them ("Titus (): RadiantCowbells"). */
const EMPTY_BRACKETS = /[([]\s*[)\]]/gu;
/** A numbered list's mark ("1. Carol (2): ..."). */
const ORDINAL = /^\s*\d{1,3}\.\s+(?=\S)/u;
/** A list's mark in a letter, for a line the numbers leave out ("x. No Lynch (2): ..."): read off only when the target with it names nobody. */
const LETTER_MARK = /^\p{L}\.\s+(?=\S)/u;
/**
 * A player's role and fate, as a player list writes them ("[10] Annarchy - Town - vanilla -
 * killed night 2"): a line so written is the list's, not a wagon with its voters.
 */
const FATE = /\b(?:lynched|killed|eliminated|executed|modkilled|died|replaced)\s+(?:on\s+)?(?:day|night)\s*\d/iu;

const blank = (s: string, re: RegExp): string => s.replace(re, (m) => ' '.repeat(m.length));

type Resolve = (written: string) => string | null;

/** What a line of a count is: a wagon, the not-voting line (null voters: "everyone else"), or neither. */
type LineRead =
  /** `marked`: a number or a note makes the wagon a count's line. */
  | { kind: 'wagon'; wagon: GmCountWagon; unread: string[]; marked: boolean }
  /** `open`: the label alone ("Not Voting"), its names on the lines after it. */
  | { kind: 'not-voting'; voters: GmCountVoter[] | null; unread: string[]; open?: boolean }
  | null;

/**
 * One count in a post. A post may hold more than one rendition of the count: the count and,
 * in a spoiler, the full count with every withdrawn vote, the changes since the last count,
 * each player's vote history; or the count, the Night's news and the count after the kill.
 * A count ends where a wagon's target comes again, or at a wagon after the not-voting line.
 */
interface Block {
  wagons: GmCountWagon[];
  notVoting: GmCountVoter[] | null;
  sawNotVoting: boolean;
  /** The not-voting line came after the wagons: the count is done. */
  closed: boolean;
  /** The wagons' targets read so far, and whether a wagon had a number or a note. */
  targets: Set<string>;
  numbered: boolean;
  /** Wagons with no number before the first numbered one: the count's if one comes. */
  pending: GmCountWagon[];
  unread: string[];
}
const newBlock = (): Block => ({
  wagons: [],
  notVoting: null,
  sawNotVoting: false,
  closed: false,
  targets: new Set(),
  numbered: false,
  pending: [],
  unread: [],
});
/** A count needs a structure: two wagon lines, or a wagon line and a "Not voting" line, whose targets name players. */
const isCount = (b: Block): boolean => {
  const named = b.wagons.filter((w) => w.target !== null).length;
  return named >= 2 || (named >= 1 && b.sawNotVoting);
};

export function readGmCount(
  post: { number: number; body: Body },
  book: GmNameBook,
  options: GmCountOptions = {},
): GmCount | null {
  const { lines, notRead } = linesOf(listedLinks(post.body, 0));
  let asOfPost: number | null = null;
  let ladder = 0;
  const resolve: Resolve = (written) => {
    const exact = book.exact(written);
    if (exact !== undefined) return exact;
    // The ladder compares with every slot: bounded per post like the news reader's.
    if (ladder++ > 200) return null;
    // A count's names stand in names' places: read as a vote's are.
    const r = book.ladder(written, true);
    return r && 'target' in r ? r.target : null;
  };
  const names: Names = { resolve, exact: (w) => book.exact(w) ?? null };
  const noLynch = options.noLynch ?? null;
  const noLynchKeys = noLynch ? new Set([noLynch.name, ...noLynch.keywords].map(nameKey)) : new Set<string>();
  const targetOf = (written: string): string | null =>
    noLynch && noLynchKeys.has(nameKey(written)) ? noLynch.name : targetNamed(written, names);

  // The first rendition that is a count stands: the later ones repeat it or come after it.
  const blocks: Block[] = [newBlock()];
  let openNotVoting = false;
  for (const line of lines) {
    const asOf = AS_OF.exec(line.text);
    if (asOf && asOfPost === null) asOfPost = Number(asOf[1]);
    const read = readLine(line, names, targetOf);
    // "Not Voting" alone, its names on the lines after it ("BulletNLynchproof, Expedience, Asphodel").
    const listed: GmCountVoter[] | null = read === null && openNotVoting ? namesLine(line, names) : null;
    if (listed) blocks.at(-1)!.notVoting = [...(blocks.at(-1)!.notVoting ?? []), ...listed];
    else if (read !== null) addLine(blocks, read);
    openNotVoting = listed !== null || (read?.kind === 'not-voting' && read.open === true);
  }
  const count = blocks.find(isCount);
  if (!count) return null;
  const { wagons, notVoting, unread } = count;
  const stated = statedIn(lines.map((l) => l.text)) ?? notedThreshold(wagons);
  return { post: post.number, asOfPost, wagons, notVoting, unread, linesNotRead: notRead, stated };
}

/**
 * The threshold a count's L-n notes state when it states none in words: "Bob (3) L-1" is 4
 * to lynch. Every noted wagon must give the same number (its votes, as written, and its
 * note); notes that disagree state nothing. No alive count: the notes say only the number.
 */
function notedThreshold(wagons: readonly GmCountWagon[]): StatedThreshold | null {
  const noted = wagons.filter((w) => w.toLynch !== null);
  const numbers = new Set(noted.map((w) => (w.stated ?? w.voters.filter((v) => !v.struck).length) + w.toLynch!));
  if (numbers.size !== 1) return null;
  const toLynch = [...numbers][0]!;
  return toLynch > 0 ? { alive: null, toLynch, sentence: noted[0]!.line } : null;
}

/** A line of players' names and nothing else (every name read), or null. */
function namesLine(line: Line, names: Names): GmCountVoter[] | null {
  const lead = line.text.length - line.text.trimStart().length;
  const unread: string[] = [];
  const voters = votersOf(line.text.trim(), line.struck, lead, names, unread);
  return voters.length > 0 && unread.length === 0 ? voters : null;
}

/** A count's line into the post's renditions of the count: the current one, or a new one where the count comes again. */
function addLine(blocks: Block[], read: NonNullable<LineRead>): void {
  let block = blocks.at(-1)!;
  if (read.kind === 'wagon' && !read.marked) {
    // A line with no number is a wagon only among numbered ones ("Timeater - DemonHybrid" may come before them).
    if (block.closed) return;
    if (!block.numbered) {
      const { target } = read.wagon;
      if (target !== null && !block.pending.some((w) => w.target === target)) block.pending.push(read.wagon);
      return;
    }
  }
  const again =
    read.kind === 'wagon'
      ? block.closed || (read.wagon.target !== null && block.targets.has(read.wagon.target))
      : block.sawNotVoting;
  if (again) {
    block = newBlock();
    blocks.push(block);
  }
  block.unread.push(...read.unread);
  if (read.kind === 'not-voting') {
    block.sawNotVoting = true;
    block.closed = block.wagons.length > 0;
    if (read.voters !== null) block.notVoting = [...(block.notVoting ?? []), ...read.voters];
    return;
  }
  const { wagon } = read;
  if (read.marked && !block.numbered) {
    for (const w of block.pending.filter((p) => p.target !== wagon.target)) {
      block.wagons.push(w);
      block.targets.add(w.target!);
    }
    block.pending = [];
    block.numbered = true;
  }
  block.wagons.push(wagon);
  if (wagon.target !== null) block.targets.add(wagon.target);
}

/** A line's text with its markup and notes blanked (same length: the strike marks stay in place), and what the notes said. */
interface Shaped {
  text: string;
  toLynch: number | null;
  /** The line has an L-n or a lynch note: a count's line, as a number makes it one. */
  noted: boolean;
  /** Where the line's first bracketed note is ("BlueBloodedToffee (L-6) All Alone"). */
  gap: [number, number] | null;
}

/** The markup, notes, bullets and list marks of a line, blanked. */
function shapeLine(raw: string, names: Names): Shaped {
  const out: Shaped = { text: '', toLynch: null, noted: false, gap: null };
  const noteAt = (m: string, at: number): string => {
    out.noted = true;
    if (/^\s*[([]/u.test(m) && (out.gap === null || at < out.gap[0])) out.gap = [at, at + m.length];
    return ' '.repeat(m.length);
  };
  // A lynch word at a line's edge that is a player's own name is the name ("Lynch (2): ...").
  const edgeNote = (m: string, at: number): string => (names.exact(m.replace(/[^\p{L}]/gu, '')) ? m : noteAt(m, at));
  let text = blank(blank(blank(raw, BBCODE), EMPTY_BRACKETS), SMILEYS);
  text = text.replace(L_NOTE, (m: string, inBrackets?: string, bare?: string, at?: number) => {
    const n = inBrackets ?? bare;
    if (n !== undefined) out.toLynch = Number(n);
    return noteAt(m, at ?? 0);
  });
  text = text.replace(LYNCH_NOTE, (m: string, at: number) => noteAt(m, at));
  text = text.replace(END_NOTE, (m: string, at: number) =>
    LYNCH_WORD_RE.test(m) ? edgeNote(m, at) : ' '.repeat(m.length),
  );
  for (const mark of [BULLET, ORDINAL, CHANGE_NOTE]) text = blank(text, mark);
  out.text = text.replace(LEAD_NOTE, (m: string, at: number) => edgeNote(m, at));
  return out;
}

/** One line of the post read as a count's line: a wagon in one of the shapes, the not-voting line, or null. */
function readLine(line: Line, names: Names, targetOf: (written: string) => string | null): LineRead {
  const shaped = shapeLine(line.text, names);
  const read = readShaped(line, shaped.text, shaped, names, targetOf);
  if (read !== null || shaped.gap === null) return read;
  // "RachMarie (LYNCHED)  GuyInFreezer, Mac": the note after the target parts it from the voters.
  const [from, to] = shaped.gap;
  const before = shaped.text.slice(0, from);
  if (!/\p{L}/u.test(before) || /[:|=,;]/u.test(before) || !/\S/u.test(shaped.text.slice(to))) return null;
  return readShaped(line, `${before}:${shaped.text.slice(from + 1)}`, shaped, names, targetOf);
}

/** A shaped line read: the not-voting line, a wagon in one of the shapes, or one with no number. */
function readShaped(
  line: Line,
  text: string,
  notes: Shaped,
  names: Names,
  targetOf: (written: string) => string | null,
): LineRead {
  const lead = text.length - text.trimStart().length;
  const shaped = text.trim();
  const nv = NOT_VOTING.exec(shaped);
  if (nv?.indices?.groups?.['voters']) {
    const [from] = nv.indices.groups['voters'];
    const part = shaped.slice(from);
    const counted = COUNTED_LIST.exec(part);
    const groups = counted?.indices?.groups;
    const [at, to] = counted ? (groups?.['inner'] ?? groups?.['rest'] ?? [0, 0]) : [0, part.length];
    // "Not voting: everyone", "Not voting - 9 - Everyone", "Not voting - like 6 people".
    const list = part.slice(at, to).trim();
    if ([part.trim(), list].some((t) => EVERYONE.test(t) || SO_MANY.test(t)))
      return { kind: 'not-voting', voters: null, unread: [] };
    const unread: string[] = [];
    const voters = votersOf(part.slice(at, to), line.struck, lead + from + at, names, unread);
    return { kind: 'not-voting', voters, unread, open: list === '' };
  }
  for (const shape of WAGON_SHAPES) {
    const m = shape.exec(shaped);
    const groups = m?.groups;
    if (!m || !groups || !m.indices?.groups) continue;
    const written = (groups['target'] ?? '').trim();
    if (written === '' || !/\p{L}/u.test(written)) continue;
    // "[01] Alice - town - lynched day 1": a zero-padded number is a list's index, not a count.
    if (/^0\d/u.test(groups['n'] ?? '')) return null;
    // A player's vote history is not a wagon.
    if (HISTORY.test(groups['voters'] ?? '')) return null;
    const [targetFrom, targetTo] = m.indices.groups['target']!;
    // "Z7-852 (L-7): a": the number joined to the target is the end of a player's name.
    const numberTo = m.indices.groups['n']?.[1];
    if (
      numberTo !== undefined &&
      numberTo > targetTo &&
      names.exact(shaped.slice(targetFrom, numberTo).trim()) !== null
    )
      continue;
    // A struck wagon is an old one the GM kept for the record.
    if (line.struck.slice(lead + targetFrom, lead + targetTo).every(Boolean)) return null;
    const target =
      markedTarget(written, targetOf) ??
      (LYNCH_BESIDE.test(written) ? targetOf(written.replace(LYNCH_BESIDE, '')) : null);
    const [from] = m.indices.groups['voters']!;
    const missing: string[] = [];
    const voters = votersOf(groups['voters'] ?? '', line.struck, lead + from, names, missing);
    // A line naming nobody is prose; one naming a fate and no voter is a player list's.
    if (!voters.some((v) => v.player !== null) && (target === null || FATE.test(groups['voters'] ?? ''))) return null;
    const unread = target === null ? [written, ...missing] : missing;
    const { toLynch } = notes;
    const wagon = { line: line.text.trim(), written, target, stated: Number(groups['n']), voters, toLynch };
    return { kind: 'wagon', wagon, unread, marked: true };
  }
  return numberless(line, shaped, lead, notes, names, targetOf);
}

/** A wagon line with no number (NUMBERLESS), when its target and every voter name players. */
function numberless(
  line: Line,
  shaped: string,
  lead: number,
  notes: Shaped,
  names: Names,
  targetOf: (written: string) => string | null,
): LineRead {
  const m = NUMBERLESS.exec(shaped) ?? NUMBERLESS_LOOSE.exec(shaped);
  const at = m?.indices?.groups;
  if (!m?.groups || !at) return null;
  const written = (m.groups['target'] ?? '').trim();
  // A number left at the target's end is a count in a place no shape reads ("Smudger L-7 0 —").
  if (HISTORY.test(m.groups['voters'] ?? '') || !/\p{L}/u.test(written) || /\s\d{1,3}$/u.test(written)) return null;
  const target = markedTarget(written, targetOf);
  if (target === null) return null;
  const missing: string[] = [];
  const voters = votersOf(m.groups['voters'] ?? '', line.struck, lead + at['voters']![0], names, missing);
  const marked = notes.noted || notes.toLynch !== null;
  // No voters: a wagon only with its note ("pandashnoo (L-7):").
  if (voters.length === 0 && !marked) return null;
  // A name that names nobody makes an unmarked line prose; a line with its L-n or lynch note is
  // the count's all the same, its unread names said to the GM ("Bacde - absta101, Dr. Z, IFM (L-2)").
  if (missing.length > 0 && !marked) return null;
  return {
    kind: 'wagon',
    wagon: { line: line.text.trim(), written, target, stated: null, voters, toLynch: notes.toLynch },
    unread: missing,
    marked,
  };
}

/** A wagon's target as written, or with a letter's list mark read off when the whole names nobody ("x. No Lynch"). */
function markedTarget(written: string, targetOf: (written: string) => string | null): string | null {
  const whole = targetOf(written);
  if (whole !== null || !LETTER_MARK.test(written)) return whole;
  return targetOf(written.replace(LETTER_MARK, ''));
}

/** How a count's names are read: `exact` a slot's own name as written, `resolve` by the name ladder. */
interface Names {
  resolve: Resolve;
  exact: (written: string) => string | null;
}

/**
 * A wagon's target; "old/new" (a replacement written with both names, "nydushermain/TheRealGin",
 * or with a space, "pisskop Jordarrian") is the slot when every name read names the same one.
 */
function targetNamed(written: string, names: Names): string | null {
  const whole = names.resolve(written);
  if (whole !== null) return whole;
  // "pisskop Jordarrian": a slot's old and new names side by side, with only a space.
  const spaced = spacedNames(written, names)?.map((w) => names.exact(w.raw));
  if (spaced && new Set(spaced).size === 1) return spaced[0]!;
  if (!written.includes('/')) return null;
  const parts = written.split('/').map((p) => p.trim());
  if (parts.length > 4 || parts.some((p) => p === '')) return null;
  const slots = new Set(parts.map((p) => names.resolve(p)));
  return slots.size === 1 ? [...slots][0]! : null;
}

/**
 * A wagon's or the not-voting line's names, each read by the name ladder, struck ones marked.
 * "and" parts two voters unless a player's name holds it ("Science and Magic"); names side
 * by side with "/" that read as one slot are that slot once ("Gamma Emerald/Bomberman", a
 * replacement).
 */
function votersOf(
  part: string,
  struck: readonly boolean[],
  offset: number,
  names: Names,
  unread: string[],
): GmCountVoter[] {
  const out: GmCountVoter[] = [];
  const cleaned = blank(part, POST_REF);
  if (NONE.test(cleaned.trim())) return out;
  // `cut`: the reader parted the piece out of names side by side; the GM wrote no separator there.
  const pieces: { raw: string; at: number; slash: boolean; cut: boolean }[] = [];
  const add = (raw: string, at: number, slash: boolean): void => {
    const spaced = names.exact(raw.trim()) === null ? spacedNames(raw, names) : null;
    if (spaced) {
      // Joined as "/" joins: an old and a new name of one slot side by side ("pisskop Jordarrian") are the slot once.
      pieces.push(...spaced.map((w, i) => ({ raw: w.raw, at: at + w.at, slash: i > 0, cut: true })));
      return;
    }
    if (names.exact(raw.trim()) !== null || !HAS_AND.test(raw)) {
      pieces.push({ raw, at, slash, cut: false });
      return;
    }
    let from = 0;
    for (const and of raw.matchAll(AND)) {
      pieces.push({ raw: raw.slice(from, and.index), at: at + from, slash: false, cut: false });
      from = (and.index ?? 0) + and[0].length;
    }
    pieces.push({ raw: raw.slice(from), at: at + from, slash: false, cut: false });
  };
  let at = 0;
  let slash = false;
  for (const sep of cleaned.matchAll(VOTER_SEP)) {
    add(cleaned.slice(at, sep.index), at, slash);
    slash = sep[0] === '/';
    at = (sep.index ?? 0) + sep[0].length;
  }
  add(cleaned.slice(at), at, slash);
  for (const piece of pieces) {
    if (out.length >= MAX_VOTERS) break;
    const raw = piece.raw;
    // An opening bracket left at the end is a note's the GM did not close ("Diabolik (L-2").
    const written = raw.replace(/[.\s([]+$/u, '').trim();
    // No letter, no name: "<3", "~0~" (unless a player's own name is so written).
    if (!/\p{L}/u.test(written) && names.exact(written) === null) continue;
    if (NONE.test(written)) continue;
    const start = offset + piece.at;
    // Struck when every letter of the name is.
    let letters = 0;
    let hit = 0;
    for (let k = 0; k < raw.length; k++) {
      if (!/[\p{L}\p{N}]/u.test(raw[k]!)) continue;
      letters++;
      if (struck[start + k]) hit++;
    }
    const player = names.resolve(written);
    const isStruck = letters > 0 && hit === letters;
    const before = out.at(-1);
    if (piece.slash && player !== null && before?.player === player && before.struck === isStruck) continue;
    if (player === null) unread.push(written);
    out.push({ written, player, struck: isStruck, exact: !piece.cut && names.exact(written) !== null });
  }
  return out;
}

/** Words in a run of names with only spaces between them, and the longest name in words. */
const MAX_SPACED_WORDS = 24;
const MAX_NAME_WORDS = 6;

/**
 * Players' names side by side with only spaces between ("Not voting: zoraster splitfarvle",
 * post links whose commas the text lost), when the words split into players' exact names
 * one way only; null otherwise (one name, a note, or two ways to read it: never guessed).
 */
function spacedNames(raw: string, names: Names): { raw: string; at: number }[] | null {
  const words = [...raw.matchAll(/\S+/gu)].map((m) => ({ text: m[0], at: m.index ?? 0 }));
  if (words.length < 2 || words.length > MAX_SPACED_WORDS) return null;
  // ways[i]: how many ways (0, 1, 2 = more) the first i words split into names; from[i]: where the last one starts.
  const ways: number[] = [1, ...words.map(() => 0)];
  const from: number[] = words.map(() => 0);
  for (let i = 0; i < words.length; i++) {
    if (ways[i] === 0) continue;
    for (let j = i + 1; j <= Math.min(words.length, i + MAX_NAME_WORDS); j++) {
      const name = words
        .slice(i, j)
        .map((w) => w.text)
        .join(' ');
      if (names.exact(name) === null) continue;
      ways[j] = Math.min(2, ways[j]! + ways[i]!);
      from[j - 1] = i;
    }
  }
  if (ways[words.length] !== 1) return null;
  const out: { raw: string; at: number }[] = [];
  for (let end = words.length; end > 0; end = from[end - 1]!) {
    const start = from[end - 1]!;
    const first = words[start]!;
    const last = words[end - 1]!;
    out.unshift({ raw: raw.slice(first.at, last.at + last.text.length), at: first.at });
  }
  return out.length >= 2 ? out : null;
}
