import type { VoteGrammar } from '../rules/ruleset.js';
import { targetAction } from './grammar-target.js';
import type { GrammarReading, KeywordTarget, RejectedAction, TextSpan, WrittenAction } from './grammar-types.js';
import { isTargetless, type Vocabulary, vocabularyOf } from './grammar-vocabulary.js';
import {
  afterColon,
  cleanArg,
  clip,
  hasInk,
  inkCount,
  keywordAt,
  keywordTargetOf,
  MAX_ARG,
  type Parsed,
  parseCandidate,
  QUOTE_CHAR,
  SEPARATORS,
  skipLead,
  spellsKeyword,
} from './grammar-words.js';
import { isWordChar } from './keyword.js';
import { stripDecorations } from './name-form.js';
import { lineText, type OwnLine } from './own-text.js';
import { lineQuotations, typedQuotations } from './typed-quotation.js';
import { maskSpans, strayClosers, type TagAction, tagActions } from './vote-tags.js';

export type {
  GrammarReading,
  KeywordTarget,
  RejectedAction,
  RejectReason,
  TextSpan,
  WrittenAction,
} from './grammar-types.js';

/**
 * The vote grammar: which of the poster's own words are actions under a ruleset. Each
 * line climbs `LINE_RULES` once, in order; each rule reads what it knows and leaves the
 * rest to the next:
 *
 * 1. typed tag: `[vote]Bob[/vote]`, `[unvote][/unvote]`, `[v]`/`[uv]`, `[hammer][/hammer]`,
 *    read whether the forum renders the tag or leaves it as text, no bold or colon needed;
 *    the rest of the line is read with the tags blanked.
 * 2. whole line: when bold is optional, a line that does not open in bold is a candidate.
 * 3. bold run: each bold run (runs split across adjacent bold elements joined).
 * 4. not bold: when bold is required, a plain line shaped like a vote is reported.
 * 5. written order: actions count in the order written, whichever rule found them.
 * 6. marker: the ruleset's explicit marker ("##vote", a tag), when it wants one.
 * 7. own line: the ruleset's own-line rule, when it has one.
 *
 * Spoilers: whatever rules 1 to 3 find inside one is refused unless the ruleset allows it.
 *
 * A candidate (rules 2 and 3) climbs its own ladder, `readCandidate`: an action keyword
 * opens it, after optional "##" or punctuation ("**I will vote for whoever claims**" is
 * chatter) → a keyword opens a later clause ("**FoS: Ann, Vote: Bob**") → in bold, a
 * keyword target alone on its line ("**No Lynch**") → in bold, any other vote keyword,
 * doubtful, for the GM when a player's name follows (unless negated: "**Don't vote
 * Bob**"). Long keywords survive one swapped pair of letters ("Unovte"). One candidate
 * may hold several actions in order ("Unvote; Vote: Bob", "unvote vote Bob", "##unvote
 * ##vote Bob"). Each action's target then climbs `targetAction` (grammar-target.ts).
 *
 * Names are not resolved here; the target is returned as written.
 */

/** A ruleset's vote grammar with its words looked up once, as every rule gets it. */
interface Grammar {
  votes: VoteGrammar;
  vocab: Vocabulary;
}

/** One line of the poster's own text, as the rules read it. */
interface Line {
  index: number;
  /** The line as written. */
  written: string;
  /** The line with its typed tags (and stray closing tags) blanked: what rules 2 to 4 read. */
  text: string;
  tags: TagAction[];
  boldRuns: Candidate[];
  /** Whether the line's words open in bold ("[s]**Vote: Bob**[/s]" opens bold). */
  startsBold: boolean;
  inSpoiler: boolean;
  /** Letters and digits on the line, counted on first use. */
  ink: () => number;
}

/** A piece of a line that may hold actions. Offsets are in the line's text. */
interface Candidate {
  text: string;
  start: number;
  end: number;
  bold: boolean;
  inSpoiler: boolean;
  /** The forum's own vote markup (MafiaScum's rendered `[vote]`): an official vote, never doubtful. */
  tag: boolean;
  /** Where plain text after a bold keyword stops: the next bold run, or the end of the line. */
  restEnd: number;
  /** Whether an action keyword is spelled in `text`, looked at once (`spellsKeyword`); null: not yet. */
  spells: boolean | null;
}

/** What the rules have found on a line so far, and what they refused. */
interface LineReading {
  found: WrittenAction[];
  rejected: RejectedAction[];
}

/**
 * A rule's example, run through the whole grammar by `test/parse/grammar-ladder.test.ts`,
 * so a new rule that changes another rule's reading fails there by the rule's name.
 * `line`: one line of the poster's own text, `**` opening and closing bold, `||` a spoiler.
 * `votes`: the grammar's settings that differ from the defaults (No Lynch / Sleep and a
 * Hammer side vote are known). `reads`: the actions in order ("vote Bob", "unvote", "vote
 * No Lynch = No Lynch", "vote Bob ?doubtful", "vote Bob #hash"), then the refusals in
 * order ("not-bold: Vote: Bob").
 */
export interface GrammarExample {
  line: string;
  votes?: Partial<VoteGrammar>;
  reads: string[];
}

interface LineRule {
  name: string;
  read: (line: Line, reading: LineReading, g: Grammar) => void;
  examples: readonly GrammarExample[];
}

/** The grammar's rules for a line, in the order they run (see the comment above). */
export const LINE_RULES: readonly LineRule[] = [
  {
    name: 'typed tag',
    read: typedTags,
    // Mafiascum's [vote] BBCode, typed; donbot's test_detect_vote_in_bbvote_tag.
    examples: [
      { line: '[vote]Bob[/vote]', reads: ['vote Bob #tag'] },
      { line: '||[vote]Bob[/vote]||', reads: ['in-spoiler: [vote]Bob[/vote]'] },
    ],
  },
  {
    name: 'whole line',
    read: wholeLine,
    examples: [
      { line: 'Vote: Bob', votes: { bold: 'optional' }, reads: ['vote Bob'] },
      { line: 'vote for Bob', votes: { bold: 'optional' }, reads: ['vote Bob'] },
    ],
  },
  {
    name: 'bold run',
    read: boldRuns,
    // Mafiascum, replayed Days of issue #12: "Unovte; Vote: Kison"; game 1892 post #743.
    examples: [
      { line: 'agreed, **Vote: Bob**', reads: ['vote Bob'] },
      { line: '**Unovte; Vote: Bob**', reads: ['unvote', 'vote Bob'] },
      { line: '**Vote:** **Bob**', reads: ['vote Bob'] },
      { line: '**VOTE: Ann** **VOTE: Bob**', reads: ['vote Ann', 'vote Bob'] },
      { line: '**vote Bob** would have my support.', reads: ['vote Bob ?doubtful'] },
      { line: '**Vote: Bob** would be my choice', reads: ['vote Bob'] },
      { line: '**vote Bob** because he lied', reads: ['vote Bob'] },
    ],
  },
  {
    name: 'not bold',
    read: notBold,
    examples: [
      { line: 'Vote: Bob', reads: ['not-bold: Vote: Bob'] },
      { line: '##vote Bob', reads: ['not-bold: ##vote Bob'] },
      { line: 'I will vote for Bob later', reads: [] },
      // Issue #24: "Hammer VOTE: vijay2vasandani" unbolded gave no word at all.
      { line: 'Hammer VOTE: Bob', reads: ['not-bold: VOTE: Bob'] },
      { line: 'Confirm vote: Bob', reads: ['not-bold: vote: Bob'] },
      { line: 'Template: [code]Vote: Bob[/code]', reads: [] },
      // Mafiascum game 1121 post #322, game 1351 post #276: the bold tags left as text.
      { line: '[b]vote: Bob[/b] not sure why', reads: ['vote Bob'] },
      { line: 'Vote: Bob[/b]', reads: ['vote Bob'] },
    ],
  },
  {
    // Mafiascum game 1553 post #1420 ('say "VOTE: he's scum because I said so."'), game 1747
    // post #532 ('Me: "k, VOTE: [v/]"'): words put in someone's mouth, official tag or not.
    name: 'quoted on the line',
    read: quotedOnLine,
    examples: [
      { line: 'you will say "**VOTE: Bob** because I said so."', reads: ['quoted: VOTE: Bob'] },
      { line: 'Me: "k, [vote]Bob[/vote]"', reads: ['quoted: [vote]Bob[/vote]'] },
      { line: '**Vote: "Bob"**', reads: ['vote "Bob"'] },
      { line: 'he is "scum" **Vote: Bob**', reads: ['vote Bob'] },
    ],
  },
  {
    name: 'written order',
    read: writtenOrder,
    examples: [{ line: '**Unvote** [vote]Bob[/vote]', reads: ['unvote', 'vote Bob #tag'] }],
  },
  {
    name: 'marker',
    read: markerRule,
    // TeamLiquid counts "##vote" only.
    examples: [
      { line: '**##vote Bob**', votes: { marker: 'hash' }, reads: ['vote Bob #hash'] },
      { line: '**Vote: Bob**', votes: { marker: 'hash' }, reads: ['no-marker: Vote: Bob'] },
    ],
  },
  {
    name: 'own line',
    read: ownLineRule,
    examples: [
      { line: '**Vote: Bob**', votes: { ownLine: true }, reads: ['vote Bob'] },
      { line: '**Vote: Bob** he lied', votes: { ownLine: true }, reads: ['not-own-line: Vote: Bob'] },
    ],
  },
];

/**
 * The actions in the poster's own lines (from `ownLines` with its defaults: struck text
 * already gone), in order, and the vote-shaped text the grammar refused.
 */
export function findActions(
  lines: readonly OwnLine[],
  grammar: VoteGrammar,
  keywordTargets: readonly KeywordTarget[] = [],
): GrammarReading {
  const g: Grammar = { votes: grammar, vocab: vocabularyOf(grammar, keywordTargets) };
  const actions: WrittenAction[] = [];
  const rejected: RejectedAction[] = [];
  const texts = lines.map(lineText);
  const quoted = typedQuotations(texts);
  lines.forEach((runs, index) => {
    const line = lineOf(runs, index, g, texts[index]!, quoted[index]!);
    const reading: LineReading = { found: [], rejected };
    for (const rule of LINE_RULES) rule.read(line, reading, g);
    for (const a of reading.found) actions.push(a);
  });
  return { actions, rejected };
}

function lineOf(runs: OwnLine, index: number, g: Grammar, written: string, quoted: readonly TextSpan[]): Line {
  const tags = tagActions(runs, written, index, g.votes, g.vocab);
  // The tags are read on their own; the rest of the line is read without them, and a
  // stray closing tag left as text ("VOTE: kondi[/unvote]") is a typo, not an action;
  // nor is another's words quoted over lines (`typedQuotations`).
  const masked = [...tags.map((t) => t.action.span), ...strayClosers(written, index, g.vocab, tags), ...quoted];
  const text = masked.length > 0 ? maskSpans(written, masked) : written;
  const bold = boldGroups(runs, text, g.vocab);
  let ink: number | null = null;
  return {
    index,
    written,
    text,
    tags,
    boldRuns: bold,
    startsBold: opensBold(text, bold),
    inSpoiler: runs.some((r) => r.inSpoiler),
    ink: () => (ink ??= inkCount(text)),
  };
}

/** Where the line's words start: after typed tags and "##" ("[s]**Vote: Bob**[/s]" starts bold). */
function opensBold(text: string, bold: readonly Candidate[]): boolean {
  const lead = skipLead(text).pos;
  const afterLead = text.slice(lead).search(/\S/u);
  const firstInk = afterLead >= 0 ? lead + afterLead : text.search(/\S/u);
  return bold.some((g) => g.start <= firstInk && g.end > firstInk);
}

/**
 * Bold runs of a line, joined across whitespace-only plain runs when the first still waits
 * for its name ("[b]Vote:[/b] [b]Bob[/b]"). Two bold elements side by side are otherwise
 * two: MafiaScum renders each `[vote]` as its own bold span, and in "VOTE: Bob VOTE: Carol"
 * or "VOTE: ciara" + "**ciara is now at L-1**" the second is not the first one's name.
 */
function boldGroups(line: OwnLine, text: string, vocab: Vocabulary): Candidate[] {
  const groups: Candidate[] = [];
  let open: Candidate | null = null;
  // A plain run of spaces stands between the open group and the next bold run.
  let spaced = false;
  let pos = 0;
  for (const run of line) {
    const end = pos + run.text.length;
    const counts = run.bold && !run.strike;
    const tag = run.vote === true;
    // A vote tag is never one with bold talk around it: "**Hammer [vote]Bob[/vote].**".
    const joins =
      counts &&
      open !== null &&
      open.inSpoiler === run.inSpoiler &&
      open.tag === tag &&
      (!spaced || waitsForName(text.slice(open.start, open.end), vocab));
    if (joins) {
      open!.end = end;
    } else if (counts) {
      open = {
        text: '',
        start: pos,
        end,
        bold: true,
        inSpoiler: run.inSpoiler,
        tag,
        restEnd: text.length,
        spells: null,
      };
      groups.push(open);
    } else if (run.strike || run.text.trim() !== '') {
      open = null;
    }
    spaced = !counts;
    pos = end;
  }
  groups.forEach((g, k) => {
    g.text = text.slice(g.start, g.end);
    g.restEnd = groups[k + 1]?.start ?? text.length;
  });
  return groups;
}

/**
 * Whether a bold run that opens with an action keyword ends without its name ("Vote:",
 * "Unvote, Vote"), so a bold run after a space may hold it. A run that opens with no
 * keyword is joined as before: the candidate's ladder reads the talk around a vote.
 */
function waitsForName(text: string, vocab: Vocabulary): boolean {
  const last = parseCandidate(text, vocab).at(-1);
  return last === undefined || (!isTargetless(last.kind) && !hasInk(text.slice(last.argStart, last.end)));
}

// ── The line's rules, in ladder order ──────────────────────────────────────────────

/** 1. Typed tags: "[vote]Bob[/vote]"; in a spoiler only where the ruleset allows. */
function typedTags(line: Line, reading: LineReading, g: Grammar): void {
  for (const t of line.tags) {
    if (t.inSpoiler && !g.votes.spoilers)
      reading.rejected.push({ reason: 'in-spoiler', raw: t.action.raw, span: t.action.span });
    else reading.found.push(t.action);
  }
}

/** 2. Bold optional: "Vote: Bob" as plain text is a vote, read as one candidate. */
function wholeLine(line: Line, reading: LineReading, g: Grammar): void {
  if (g.votes.bold === 'optional' && !line.startsBold) readInto(plainCandidate(line), line, reading, g);
}

/** 3. Every bold run: "**Vote: Bob**", "[b]Vote:[/b] [b]Bob[/b]". */
function boldRuns(line: Line, reading: LineReading, g: Grammar): void {
  for (const cand of line.boldRuns) readInto(cand, line, reading, g);
}

/** A candidate's actions, refused as a whole when it sits in a spoiler the ruleset does not read. */
function readInto(cand: Candidate, line: Line, reading: LineReading, g: Grammar): void {
  const read = cand.tag ? officialVote(cand, line, g) : readCandidate(cand, line, g);
  if (!cand.tag && cand.bold && SUPPOSED.test(line.text.slice(cand.end, cand.end + 12))) {
    for (const a of read.actions) if (isColonlessVote(a)) a.doubtful = true;
  }
  if (cand.inSpoiler && !g.votes.spoilers) {
    for (const a of read.actions) reading.rejected.push({ reason: 'in-spoiler', raw: a.raw, span: a.span });
    return;
  }
  for (const a of read.actions) reading.found.push(a);
  for (const r of read.rejected) reading.rejected.push(r);
}

/**
 * A modal right after a bold colonless vote makes the vote the sentence's subject, supposed
 * and not cast: "**vote eektor** would have my support." (mafiascum game 1651 post #858).
 * The vote is doubtful, as "**I would vote Bob**" is: the GM reads it.
 */
const SUPPOSED = /^\s*(?:would|could|might)\b/iu;

function isColonlessVote(a: WrittenAction): boolean {
  return a.kind === 'vote' && a.written !== null && a.keywordTarget === null && !a.raw.includes(':');
}

/**
 * The forum's own vote markup is a vote as the forum marks it ("VOTE: Vijay2vasadani",
 * "UNVOTE: "): the actions its keyword opens are the tag's, so a name Votal cannot read
 * goes to the GM like any vote's (mafiascum game 1318 post #416). Tag text its keyword
 * does not open (a tag left unclosed runs on over the post's talk: game 1379 post #53)
 * is read as bold talk.
 */
function officialVote(cand: Candidate, line: Line, g: Grammar): GrammarReading {
  const read = openingKeyword(cand, line, g);
  if (!read) return readCandidate(cand, line, g);
  for (const a of read.actions) a.marker = 'tag';
  return read;
}

/**
 * 4. Bold required: a plain line shaped like a vote ("Vote: Bob", "##vote Bob") is reported,
 * not counted. A typed "[/b]" after its keyword says the player wrote it bold and the forum
 * left the tags as text ("[b]vote: ICENinja[/b]", "Vote: mb[/b]"): read as bold up to it.
 */
function notBold(line: Line, reading: LineReading, g: Grammar): void {
  if (g.votes.bold !== 'required' || line.startsBold || (line.inSpoiler && !g.votes.spoilers)) return;
  const first = parseCandidate(line.text, g.vocab)[0];
  if (!first) {
    laterPlainVote(line, reading, g);
    return;
  }
  const typed = typedBoldEnd(line.text, first.argStart);
  if (typed > 0) {
    const end = typed;
    readInto(
      {
        text: line.text.slice(0, end),
        start: 0,
        end,
        bold: true,
        inSpoiler: line.inSpoiler,
        tag: false,
        restEnd: end,
        spells: null,
      },
      line,
      reading,
      g,
    );
    return;
  }
  if (first.kind !== 'vote') {
    laterPlainVote(line, reading, g);
    return;
  }
  if (!first.hashed && !(first.colon && hasInk(line.text.slice(first.argStart, first.end)))) return;
  reading.rejected.push({
    reason: 'not-bold',
    raw: rawOf(plainCandidate(line), first.start, first.end),
    span: { line: line.index, start: first.start, end: first.end },
  });
}

/**
 * A plain "vote:" right after a word ("Hammer VOTE: Bob", "Confirm vote: Bob") is vote-shaped
 * too: reported, so the GM hears of it, unless bold text there was read already. After
 * other marks it is talk about votes ("Template: [code]Vote: Frank[/code]").
 */
function laterPlainVote(line: Line, reading: LineReading, g: Grammar): void {
  const at = colonVote(line.text, g.vocab);
  if (!at || line.boldRuns.some((b) => b.start <= at.start && b.end > at.start)) return;
  reading.rejected.push({
    reason: 'not-bold',
    raw: rawOf(plainCandidate(line), at.start, line.text.length),
    span: { line: line.index, start: at.start, end: line.text.length },
  });
}

/** The first vote or unvote keyword on the line with its colon and words after it ("VOTE: Bob"), or null. */
function colonVote(text: string, vocab: Vocabulary): { start: number } | null {
  for (let i = 2; i < text.length; i++) {
    if (text[i - 1] !== ' ' || !isWordChar(text[i - 2]) || !isWordChar(text[i])) continue;
    const k = keywordAt(text, i, vocab);
    if (!k || (k.kind !== 'vote' && k.kind !== 'unvote')) continue;
    const after = afterColon(text, k.end);
    if (after.colon && hasInk(text.slice(after.pos, after.pos + MAX_ARG))) return { start: i };
    i = k.end;
  }
  return null;
}

/** Where a typed "[/b]" after `from` closes the player's bold, or -1. */
function typedBoldEnd(text: string, from: number): number {
  return text.includes('[/') ? text.toLowerCase().indexOf('[/b]', from) : -1;
}

/**
 * 5. An action whose keyword stands inside a quotation on its line is someone's words,
 * reported (the GM sees it) and not counted.
 */
function quotedOnLine(line: Line, reading: LineReading): void {
  if (reading.found.length === 0) return;
  const quotations = lineQuotations(line.written);
  if (quotations.length === 0) return;
  const inside = (a: WrittenAction): boolean =>
    a.span.line === line.index && quotations.some((q) => q.start < a.span.start && a.span.start < q.end);
  for (const a of reading.found) if (inside(a)) reading.rejected.push({ reason: 'quoted', raw: a.raw, span: a.span });
  reading.found = reading.found.filter((a) => !inside(a));
}

/** 6. "[vote]Bob[/vote] ... **Unvote**": the order written, whichever rule found each action. */
function writtenOrder(_line: Line, reading: LineReading): void {
  reading.found.sort((a, b) => a.span.start - b.span.start);
}

/** 7. A ruleset that wants "##vote" or a `[vote]` tag refuses an action without it. */
function markerRule(_line: Line, reading: LineReading, g: Grammar): void {
  const marker = g.votes.marker;
  if (marker === 'any') return;
  const carries = (a: WrittenAction): boolean =>
    a.marker !== undefined && (marker === 'hash-or-tag' || marker === a.marker);
  for (const a of reading.found)
    if (!carries(a)) reading.rejected.push({ reason: 'no-marker', raw: a.raw, span: a.span });
  reading.found = reading.found.filter(carries);
}

/** 8. Own line: "**Vote: Bob** because he lied" counts for nothing where votes stand alone. */
function ownLineRule(line: Line, reading: LineReading, g: Grammar): void {
  if (!g.votes.ownLine || reading.found.length === 0) return;
  const spans = reading.found.map((a) => a.span);
  if (!inkOutside(line.written, spans)) return;
  for (const a of reading.found) reading.rejected.push({ reason: 'not-own-line', raw: a.raw, span: a.span });
  reading.found = [];
}

/** Whether the line has letters or digits outside the given spans. */
function inkOutside(text: string, spans: readonly TextSpan[]): boolean {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let pos = 0;
  for (const s of sorted) {
    if (s.start > pos && hasInk(text.slice(pos, s.start))) return true;
    pos = Math.max(pos, s.end);
  }
  return hasInk(text.slice(pos));
}

function plainCandidate(line: Line): Candidate {
  const end = line.text.length;
  return {
    text: line.text,
    start: 0,
    end,
    bold: false,
    inSpoiler: line.inSpoiler,
    tag: false,
    restEnd: end,
    spells: null,
  };
}

// ── A candidate's ladder ───────────────────────────────────────────────────────────

interface CandidateRung {
  name: string;
  /** The candidate's reading, or null when the rung does not apply (the next one is tried). */
  read: (cand: Candidate, line: Line, g: Grammar) => GrammarReading | null;
  examples: readonly GrammarExample[];
}

/** How one candidate (a bold run, or a plain line where bold is optional) is read: the first rung that applies. */
export const CANDIDATE_RUNGS: readonly CandidateRung[] = [
  {
    name: 'opening keyword',
    read: openingKeyword,
    // donbot's test_ignore_nonvote_inside_bold: a bold sentence about votes is chatter.
    examples: [
      { line: '**Vote: Bob**', reads: ['vote Bob'] },
      { line: '**unvote vote Bob**', reads: ['unvote', 'vote Bob'] },
      { line: '**Vote:** Bob', reads: ['vote Bob'] },
      { line: '**vote count?**', reads: [] },
    ],
  },
  {
    name: 'later clause',
    read: laterClauseRung,
    // Mafiascum Mini 1805, D2, post 1426 and Game 1133, D5, post 489 (vca's archive).
    examples: [
      { line: '**FoS: Ann, Vote: Bob**', reads: ['vote Bob'] },
      { line: '**Cross fingers, vote Bob.**', reads: ['vote Bob. ?loose'] },
      { line: '**He will hammer. Unvote the heck up.**', reads: ['unvote the heck up. ?loose'] },
      { line: 'whatever ##vote Bob', votes: { bold: 'optional' }, reads: ['vote Bob ?loose #hash'] },
    ],
  },
  {
    name: 'keyword target alone',
    read: keywordTargetAlone,
    examples: [
      { line: '**No Lynch**', reads: ['vote No Lynch = No Lynch'] },
      { line: 'I say **no lynch** today', reads: [] },
    ],
  },
  {
    name: 'doubtful vote',
    read: doubtfulRung,
    // donbot's test_ignore_bolded_directive_not_to_vote.
    examples: [
      { line: '**I would vote Bob**', reads: ['vote Bob ?doubtful'] },
      { line: "**Don't vote Bob**", reads: [] },
      { line: '**intent to vote Bob**', reads: ['announced: intent to vote Bob'] },
      { line: '**Intent to vote: Bob**', reads: ['announced: Intent to vote: Bob'] },
      { line: '**pseudo vote Bob**', reads: ['announced: pseudo vote Bob'] },
    ],
  },
];

function readCandidate(cand: Candidate, line: Line, g: Grammar): GrammarReading {
  for (const rung of CANDIDATE_RUNGS) {
    const read = rung.read(cand, line, g);
    if (read) return read;
  }
  return { actions: [], rejected: [] };
}

/** An action keyword opens the candidate, after optional "##" or punctuation. */
function openingKeyword(cand: Candidate, line: Line, g: Grammar): GrammarReading | null {
  const parsed = parseCandidate(cand.text, g.vocab);
  return parsed.length > 0 ? readOpening(cand, parsed, line, g) : null;
}

/**
 * A vote or unvote keyword opens a later clause: read from there, its colonless votes for
 * a name marked loose. The clause starts at the keyword `laterClause` found, so it opens
 * with it: one step, no recursion.
 */
function laterClauseRung(cand: Candidate, line: Line, g: Grammar): GrammarReading | null {
  // Plain text is scanned for "#" alone, which costs less than a look for the keyword.
  if (cand.bold && !spells(cand, g)) return null;
  const at = laterClause(cand.text, g.vocab, cand.bold);
  if (at <= 0) return null;
  const clause = { ...cand, text: cand.text.slice(at), start: cand.start + at, spells: true };
  const read = openingKeyword(clause, line, g);
  if (read) for (const a of read.actions) if (isLoose(a)) a.loose = true;
  return read;
}

/**
 * A later clause's colonless vote or unvote for a name: counted only if the name is a
 * player's (`WrittenAction.loose`). "**EPM will hammer Varsoon. Unvote the fuck up.**"
 * tells others what to do (mafiascum game 1685 post #2802).
 */
function isLoose(a: WrittenAction): boolean {
  return (
    (a.kind === 'vote' || a.kind === 'unvote') && a.written !== null && a.keywordTarget === null && !a.raw.includes(':')
  );
}

/** Whether the candidate spells a keyword anywhere: the scans for a later or doubtful one need one. */
function spells(cand: Candidate, g: Grammar): boolean {
  cand.spells ??= spellsKeyword(cand.text, g.vocab);
  return cand.spells;
}

/** Characters that end a clause before a vote in bold talk ("FoS: Ann, Vote: Bob"). */
const CLAUSE_ENDS = new Set([...SEPARATORS, '?', ':', ')', '-']);

/**
 * Where a vote or unvote keyword opens a later clause, or -1: in bold, after a separator
 * ("FoS: Ann, Vote: Bob"); anywhere, when marked with "#" ("whatever ##vote Bob").
 */
function laterClause(text: string, vocab: Vocabulary, bold: boolean): number {
  for (let i = 1; i < text.length; i++) {
    const hashed = text[i] === '#' && text[i - 1] === ' ';
    if (!hashed && !(bold && CLAUSE_ENDS.has(text[i - 1]!) && text[i] === ' ')) continue;
    let j = i;
    while (text[j] === ' ') j++;
    const hashes = j;
    while (text[j] === '#' && j - hashes < 3) j++;
    if (!bold && j === hashes) continue;
    const k = keywordAt(text, j, vocab);
    if (k && (k.kind === 'vote' || k.kind === 'unvote')) return hashes;
  }
  return -1;
}

/** "**No Lynch**" or "**Sleep**" alone on its line is a vote for it; bold "no lynch" mid-sentence is talk. */
function keywordTargetAlone(cand: Candidate, line: Line, g: Grammar): GrammarReading | null {
  if (!cand.bold || g.vocab.targets.length === 0 || cand.text.length > MAX_ARG) return null;
  // Alone on its line first: the cheaper test, and most bold runs share their line.
  if (inkCount(cand.text) !== line.ink()) return null;
  const target = keywordTargetOf(stripDecorations(cand.text), g.vocab);
  if (target === null) return null;
  const span = spanOf(cand, line, 0, cand.text.length);
  const raw = rawOf(cand, 0, cand.text.length);
  return { actions: [{ kind: 'vote', raw, written: cand.text.trim(), keywordTarget: target, span }], rejected: [] };
}

/**
 * Any other vote keyword in bold talk, doubtful: "**I would vote Bob**" goes to the GM if
 * Bob is a player. A vote announced and not cast ("**intent to vote Bob**", "**pseudo vote
 * Bob**", mafiascum game 1725 post #874, game 1642 post #1062) is reported, not counted.
 */
function doubtfulRung(cand: Candidate, line: Line, g: Grammar): GrammarReading | null {
  if (!cand.bold || !spells(cand, g)) return null;
  const read: GrammarReading = { actions: [], rejected: [] };
  for (const d of doubtfulVotes(cand.text, g.vocab)) {
    const raw = rawOf(cand, d.announced ?? d.start, cand.text.length);
    const span = spanOf(cand, line, d.start, cand.text.length);
    if (d.announced !== null) read.rejected.push({ reason: 'announced', raw, span });
    else
      read.actions.push({
        kind: 'vote',
        raw,
        written: d.arg,
        keywordTarget: null,
        span,
        doubtful: true,
        ...(d.colon ? { colon: true as const } : {}),
      });
  }
  return read;
}

/**
 * Words before a vote keyword that announce it and do not cast it: the forum's "intent to
 * vote" (said before a hammer, for the others to react) and "pseudo vote".
 */
const ANNOUNCED = /(?:\bintent(?:ion)?\s+to|\bintend(?:s|ing)?\s+to|\bpseudo)[\s-]*$/iu;

/** Doubtful vote keywords looked at per bold run: talk repeats "vote" without limit. */
const MAX_DOUBTFUL = 3;
/**
 * A vote keyword after these words is a request not to vote ("**Do not vote Bob**"), never a
 * vote. "nt" alone is a contraction only in these words: "**Reluctant vote: Sub**" votes.
 */
const NEGATION =
  /(?:\bnot|n['’]t|\b(?:do|does|did|can|won|is|are|was|were|should|would|could|must)nt|\bnever|\bno)\s+$/iu;

/** A vote keyword in bold talk: where, its words, its colon, and where words announcing it start (or null). */
interface DoubtfulVote {
  start: number;
  arg: string;
  colon: boolean;
  announced: number | null;
}

/** Vote keywords inside bold talk, with the words after each (see `WrittenAction.doubtful`). */
function doubtfulVotes(text: string, vocab: Vocabulary): DoubtfulVote[] {
  const out: DoubtfulVote[] = [];
  for (let i = 0; i < text.length && out.length < MAX_DOUBTFUL; i++) {
    if (isWordChar(text[i - 1]) || !isWordChar(text[i])) continue;
    const k = keywordAt(text, i, vocab);
    if (!k || k.kind !== 'vote') continue;
    // A quoted keyword is talked about: 'a bolded "Vote: Playername" will count' (game 1873 post #1645).
    if (!NEGATION.test(text.slice(Math.max(0, i - 12), i)) && !QUOTE_CHAR.test(text[i - 1] ?? '')) {
      const after = afterColon(text, k.end);
      const arg = cleanArg(text.slice(after.pos));
      const before = ANNOUNCED.exec(text.slice(Math.max(0, i - 16), i));
      const announced = before ? Math.max(0, i - 16) + before.index : null;
      if (hasInk(arg)) out.push({ start: i, arg, colon: after.colon, announced });
    }
    i = k.end;
  }
  return out;
}

// ── One action of a candidate ──────────────────────────────────────────────────────

/** One action as written, before its target is read. Offsets in the candidate's text. */
interface Clause {
  kind: Parsed['kind'];
  colon: boolean;
  arg: string;
  raw: string;
  end: number;
}

/** The actions a keyword-opened candidate holds, in order ("Unvote; Vote: Bob"). */
function readOpening(cand: Candidate, parsed: readonly Parsed[], line: Line, g: Grammar): GrammarReading {
  const out: GrammarReading = { actions: [], rejected: [] };
  for (let k = 0; k < parsed.length; k++) {
    const p = parsed[k]!;
    const side = unvoteSideVote(cand, p, parsed[k + 1], line);
    if (side) {
      out.actions.push(side);
      k++;
      continue;
    }
    readAction(cand, p, k === parsed.length - 1, line, g, out);
  }
  return out;
}

/**
 * "Unvote: Hammer" withdraws the Hammer side vote: one unvote naming it, not an unvote
 * of the lynch vote followed by a new Hammer vote.
 */
function unvoteSideVote(cand: Candidate, p: Parsed, next: Parsed | undefined, line: Line): WrittenAction | null {
  if (p.kind !== 'unvote' || !next || !isTargetless(next.kind)) return null;
  if (cleanArg(cand.text.slice(p.argStart, p.end)) !== '') return null;
  if (cleanArg(cand.text.slice(next.argStart, next.end)) !== '') return null;
  return {
    kind: 'unvote',
    raw: rawOf(cand, p.start, next.end),
    written: cand.text
      .slice(next.start, next.argStart)
      .replace(/[#:\s]+/g, ' ')
      .trim(),
    keywordTarget: next.kind === 'hammer' ? 'Hammer' : 'Filibuster',
    span: spanOf(cand, line, p.start, next.end),
  };
}

/** One action: its name after the bold, the colonless forms, the colon rule, then its target. */
function readAction(cand: Candidate, p: Parsed, last: boolean, line: Line, g: Grammar, out: GrammarReading): void {
  const written: Clause = {
    kind: p.kind,
    colon: p.colon,
    arg: cleanArg(cand.text.slice(p.argStart, p.end)),
    raw: rawOf(cand, p.start, p.end),
    end: p.end,
  };
  const w = last ? withPlainName(written, cand, p, line) : written;
  const where = spanOf(cand, line, p.start, w.end);
  if (w.kind === 'vote' && !w.colon && w.arg !== '') {
    // "vote count?" asks for a count; "vote for Bob" votes Bob.
    if (/^counts?\b/iu.test(w.arg)) return;
    w.arg = w.arg.replace(/^for\s+/iu, '');
    if (g.votes.colon === 'required') {
      out.rejected.push({ reason: 'no-colon', raw: w.raw, span: where });
      return;
    }
  }
  const action = targetAction(w.kind, w.arg, w.raw, where, g.votes, g.vocab);
  if (action) out.actions.push(p.hashed ? { ...action, marker: 'hash' } : action);
}

/**
 * "**Vote:** Bob": the keyword is bold and the name follows on the same line, as plain
 * text up to the next bold run. In "**Vote**: Bob" the colon right after the bold keyword
 * is the vote's colon.
 */
function withPlainName(w: Clause, cand: Candidate, p: Parsed, line: Line): Clause {
  if (w.arg !== '' || !cand.bold || w.kind === 'unvote' || isTargetless(w.kind)) return w;
  const rest = line.text.slice(cand.end, Math.min(cand.restEnd, cand.end + MAX_ARG));
  if (!hasInk(rest)) return w;
  const mark = w.colon ? null : /^ ?[:：]/u.exec(rest);
  const name = mark ? rest.slice(mark[0].length) : rest;
  return {
    kind: w.kind,
    colon: w.colon || mark !== null,
    arg: cleanArg(name),
    end: cand.restEnd - cand.start,
    raw: clip(`${cand.text.slice(p.start).trim()}${mark ? mark[0].trim() : ''} ${name.trim()}`),
  };
}

function spanOf(cand: Candidate, line: Line, start: number, end: number): TextSpan {
  return { line: line.index, start: cand.start + start, end: cand.start + end };
}

function rawOf(cand: Candidate, start: number, end: number): string {
  return clip(
    cand.text
      .slice(start, end)
      .trim()
      .replace(/[\s;,/|&+]+$/u, ''),
  );
}
