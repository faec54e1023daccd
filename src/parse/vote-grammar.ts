import type { ActionKind } from '../model/action.js';
import type { VoteGrammar } from '../rules/ruleset.js';
import { isKeywordPhrase, isWordChar, keywordEnd, keywordLetters } from './keyword.js';
import { stripDecorations } from './name-form.js';
import { lineText, type OwnLine } from './own-text.js';

/**
 * The vote grammar: which of the poster's own words are actions under a ruleset.
 *
 * A candidate is a bold run (runs split across adjacent bold elements joined), or, when
 * bold is optional, a whole line. An action keyword must open the candidate, after
 * optional "##" or punctuation: "**I will vote for whoever claims**" is chatter, not a
 * vote. In a bold run a keyword may also open a later clause, after a separator
 * ("**FoS: Ann, Vote: Bob**", "**Cross fingers, vote Bob**"); any other bold vote keyword
 * is returned as doubtful, for the reader to send to the GM when a player's name follows
 * (unless negated: "**Don't vote Bob**"). Long keywords survive one swapped pair of letters
 * ("Unovte"). One candidate may hold several actions in order ("Unvote; Vote: Bob",
 * "unvote vote Bob", "##unvote ##vote Bob"). A bold keyword with the name in plain text
 * right after it ("**Vote:** Bob") is read as one vote, the way a moderator reads it.
 *
 * A typed vote tag (`[vote]Bob[/vote]`, `[unvote][/unvote]`, `[v]`/`[uv]`, or any one-word
 * keyword of the grammar as a tag: `[hammer][/hammer]`) is an explicit vote marker, read
 * whether the forum renders the tag or leaves it as text: it needs no bold and no colon.
 * The spoiler and own-line rules still apply to it.
 *
 * Names are not resolved here; the target is returned as written.
 */

/** Where an action sits in the poster's own text (line index, offsets in `lineText`). */
export interface TextSpan {
  line: number;
  start: number;
  end: number;
}

export interface WrittenAction {
  kind: ActionKind;
  /** The action as written (the bold run, or its part for this action). */
  raw: string;
  /** The target as written, or null (plain unvote, targetless side action, empty vote). */
  written: string | null;
  /** The keyword target (No Lynch, Abstain) whose keyword was written, by its name. */
  keywordTarget: string | null;
  span: TextSpan;
  /**
   * A vote keyword inside bold talk, not opening it ("**Do not vote Bob**"): it counts for
   * nothing unless the words after it are a player's exact name, and then it goes to the
   * GM, never silently dropped and never counted.
   */
  doubtful?: true;
  /** The explicit marker the action was written with: "##vote" (`hash`) or a typed `[vote]` tag. */
  marker?: 'hash' | 'tag';
  /**
   * A colonless vote opening a later clause of bold talk ("**Cross fingers, vote Bob.**"):
   * counted when its target names someone, dropped when it names nobody ("**Day 2. Vote
   * counts follow.**" is not a vote for "counts follow").
   */
  loose?: true;
}

/**
 * A vote target that is not a player but a word: the ruleset's No Lynch / Sleep, or
 * Abstain. Its keywords match case-, space- and hyphen-insensitively.
 */
export interface KeywordTarget {
  name: string;
  keywords: readonly string[];
}

/** Why something that looks like an action does not count under the grammar. */
export type RejectReason = 'not-bold' | 'no-colon' | 'not-own-line' | 'in-spoiler' | 'no-marker';

export interface RejectedAction {
  reason: RejectReason;
  raw: string;
  span: TextSpan;
}

export interface GrammarReading {
  actions: WrittenAction[];
  rejected: RejectedAction[];
}

interface Keyword {
  kind: ActionKind;
  letters: string;
}

interface Vocabulary {
  /** Action keywords, longest first so "unvote" is tried before "vote"-like prefixes. */
  actions: Keyword[];
  /** The same keywords by their first letter: most words start none, and are passed over at once. */
  byFirst: Map<string, Keyword[]>;
  /** Tag names ("vote", "v", "unvote", "uv", one-word side keywords) and their action. */
  tags: Map<string, ActionKind>;
  targets: { name: string; letters: string[] }[];
  unvote: string[];
  /** Side actions that take no target: "Vote: Hammer" means the Hammer side vote. */
  targetless: { kind: ActionKind; letters: string[] }[];
}

/** A piece of a line that may hold actions. Offsets are in the line's text. */
interface Candidate {
  text: string;
  start: number;
  end: number;
  bold: boolean;
  inSpoiler: boolean;
  /** Where plain text after a bold keyword stops: the next bold run, or the end of the line. */
  restEnd: number;
}

interface Parsed {
  kind: ActionKind;
  colon: boolean;
  hashed: boolean;
  /** Offsets in the candidate's text. */
  start: number;
  argStart: number;
  end: number;
}

const TARGETLESS: readonly ActionKind[] = ['hammer', 'filibuster'];
/** Leading "##", "- ", "> ", "(" ... before a keyword; quotation marks mean the word is being talked about. */
const MAX_LEAD = 12;
const LEAD_CHAR = /[\s\p{P}\p{S}]/u;
const QUOTE_CHAR = /["'`“”‘’«»„‚‹›]/u;
/** A typed BBCode tag before the keyword: "[size=5]", "[color=#ff0000]", "[b]". */
const LEAD_TAG = /^\[\/?[a-z*]{1,12}(?:=[^\]\n]{0,40})?\]/iu;
const MAX_LEAD_TAGS = 3;
/** Characters that separate two actions in one run ("Unvote; Vote: Bob"). */
const SEPARATORS = new Set([';', ',', '/', '|', '&', '+', '.', '!']);
/** Separators that only count with a space after them ("unvote -> vote Bob", not "Jean-Vote"). */
const SPACED_SEPARATORS = new Set(['-', '>', '=', '~']);
const JOIN_WORDS = ['and', 'then'];
/** Longest target kept as written; the name matcher caps it further. */
const MAX_ARG = 200;
const MAX_RAW = 200;
/** A typed tag, opening or closing: `[vote]`, `[/vote]`, `[UV]`. */
const TAG = /\[(\/?)(\p{L}{1,20})\]/gu;
/** Characters that end a clause before a vote in bold talk ("FoS: Ann, Vote: Bob"). */
const CLAUSE_ENDS = new Set([...SEPARATORS, '?', ':', ')', '-']);
/** Doubtful vote keywords looked at per bold run: talk repeats "vote" without limit. */
const MAX_DOUBTFUL = 3;
/** A vote keyword after these words is a request not to vote ("**Do not vote Bob**"), never a vote. */
const NEGATION = /(?:\bnot|n['’]?t|\bnever|\bno)\s+$/iu;
/** Keywords this long or longer also match with two neighbouring letters swapped ("unovte"). */
const MIN_TYPO_KEYWORD = 6;
/** Words before the target that repeat the keyword or lead into a keyword target ("VOTE: vote Bob", "Vote to No Lynch"). */
const TO_WORD = /^to\s+/iu;

/**
 * The actions in the poster's own lines (from `ownLines` with its defaults: struck text
 * already gone), in order, and the vote-shaped text the grammar refused.
 */
export function findActions(
  lines: readonly OwnLine[],
  grammar: VoteGrammar,
  keywordTargets: readonly KeywordTarget[] = [],
): GrammarReading {
  const vocab = vocabularyOf(grammar, keywordTargets);
  const actions: WrittenAction[] = [];
  const rejected: RejectedAction[] = [];

  lines.forEach((line, index) => {
    const written = lineText(line);
    const tags = tagActions(line, written, index, grammar, vocab);
    // The tags are read on their own; the rest of the line is read without them, and a
    // stray closing tag left as text ("VOTE: kondi[/unvote]") is a typo, not an action.
    const masked = [...tags.map((t) => t.action.span), ...strayClosers(written, index, vocab, tags)];
    const text = masked.length > 0 ? maskSpans(written, masked) : written;
    const groups = boldGroups(line, text);
    const found: WrittenAction[] = [];
    for (const t of tags) {
      if (t.inSpoiler && !grammar.spoilers)
        rejected.push({ reason: 'in-spoiler', raw: t.action.raw, span: t.action.span });
      else found.push(t.action);
    }
    let ink: number | null = null;
    const lineInk = (): number => (ink ??= inkCount(text));

    // Where the line's words start: after typed tags and "##" ("[s]**Vote: Bob**[/s]" starts bold).
    const lead = skipLead(text).pos;
    const afterLead = text.slice(lead).search(/\S/u);
    const firstInk = afterLead >= 0 ? lead + afterLead : text.search(/\S/u);
    const startsBold = groups.some((g) => g.start <= firstInk && g.end > firstInk);
    const lineSpoiler = line.some((r) => r.inSpoiler);
    const candidates: Candidate[] = [...groups];
    if (grammar.bold === 'optional' && !startsBold) {
      candidates.unshift({
        text,
        start: 0,
        end: text.length,
        bold: false,
        inSpoiler: lineSpoiler,
        restEnd: text.length,
      });
    }

    for (const cand of candidates) {
      const read = readCandidate(cand, text, lineInk, index, grammar, vocab);
      if (cand.inSpoiler && !grammar.spoilers) {
        for (const a of read.actions) rejected.push({ reason: 'in-spoiler', raw: a.raw, span: a.span });
        continue;
      }
      for (const a of read.actions) found.push(a);
      for (const r of read.rejected) rejected.push(r);
    }

    // Bold required: a plain line shaped like a vote ("Vote: Bob", "##vote Bob") is reported, not counted.
    if (grammar.bold === 'required' && !startsBold && !(lineSpoiler && !grammar.spoilers)) {
      const plain = { text, start: 0, end: text.length, bold: false, inSpoiler: lineSpoiler, restEnd: text.length };
      const first = parseCandidate(text, vocab)[0];
      if (
        first &&
        first.kind === 'vote' &&
        (first.hashed || (first.colon && hasInk(text.slice(first.argStart, first.end))))
      ) {
        rejected.push({
          reason: 'not-bold',
          raw: rawOf(plain, first.start, first.end),
          span: { line: index, start: first.start, end: first.end },
        });
      }
    }

    found.sort((a, b) => a.span.start - b.span.start);
    if (grammar.marker !== 'any') {
      const unmarked = found.filter((a) => !carriesMarker(a, grammar.marker));
      for (const a of unmarked) rejected.push({ reason: 'no-marker', raw: a.raw, span: a.span });
      if (unmarked.length > 0) found.splice(0, found.length, ...found.filter((a) => !unmarked.includes(a)));
    }
    if (
      grammar.ownLine &&
      found.length > 0 &&
      inkOutside(
        written,
        found.map((a) => a.span),
      )
    ) {
      for (const a of found) rejected.push({ reason: 'not-own-line', raw: a.raw, span: a.span });
      return;
    }
    for (const a of found) actions.push(a);
  });

  return { actions, rejected };
}

/** Whether an action carries the marker the ruleset requires ("##vote", a `[vote]` tag). */
function carriesMarker(a: WrittenAction, marker: VoteGrammar['marker']): boolean {
  if (a.marker === undefined) return false;
  return marker === 'hash-or-tag' || marker === a.marker;
}

/** A thread's posts share one ruleset: its vocabulary is worked out once, not per post. */
const vocabularies = new WeakMap<VoteGrammar, { targets: readonly KeywordTarget[]; vocab: Vocabulary }>();
function vocabularyOf(grammar: VoteGrammar, targets: readonly KeywordTarget[]): Vocabulary {
  const hit = vocabularies.get(grammar);
  if (hit && hit.targets.length === targets.length && hit.targets.every((t, i) => t === targets[i])) return hit.vocab;
  const vocab = vocabulary(grammar, targets);
  vocabularies.set(grammar, { targets: [...targets], vocab });
  return vocab;
}

function vocabulary(grammar: VoteGrammar, keywordTargets: readonly KeywordTarget[]): Vocabulary {
  const actions: Keyword[] = [];
  const add = (kind: ActionKind, words: readonly string[] | undefined): void => {
    for (const w of words ?? []) {
      const letters = keywordLetters(w);
      if (letters !== '') actions.push({ kind, letters });
    }
  };
  add('vote', grammar.keywords.vote);
  add('unvote', grammar.keywords.unvote);
  add('hammer', grammar.side.hammer);
  add('filibuster', grammar.side.filibuster);
  add('veto', grammar.side.veto);
  add('forgive', grammar.side.forgive);
  const tags = new Map<string, ActionKind>();
  for (const k of [...actions].sort((a, b) => a.letters.length - b.letters.length))
    if (/^\p{L}+$/u.test(k.letters)) tags.set(k.letters, k.kind);
  const spelled = new Set(actions.map((k) => k.letters));
  for (const k of [...actions]) {
    for (const typo of swaps(k.letters)) {
      if (!spelled.has(typo)) {
        spelled.add(typo);
        actions.push({ kind: k.kind, letters: typo });
      }
    }
  }
  actions.sort((a, b) => b.letters.length - a.letters.length);
  if (grammar.keywords.vote.some((w) => keywordLetters(w) === 'vote')) tags.set('v', 'vote');
  if (grammar.keywords.unvote.some((w) => keywordLetters(w) === 'unvote')) tags.set('uv', 'unvote');
  return {
    actions,
    byFirst: byFirstLetter(actions),
    tags,
    targets: keywordTargets
      .map((t) => ({ name: t.name, letters: t.keywords.map(keywordLetters).filter((l) => l !== '') }))
      .filter((t) => t.letters.length > 0),
    unvote: grammar.keywords.unvote.map(keywordLetters),
    targetless: TARGETLESS.map((kind) => ({
      kind,
      letters: (grammar.side[kind as 'hammer' | 'filibuster'] ?? []).map(keywordLetters),
    })).filter((t) => t.letters.length > 0),
  };
}

function byFirstLetter(actions: readonly Keyword[]): Map<string, Keyword[]> {
  const out = new Map<string, Keyword[]>();
  for (const k of actions) {
    const first = k.letters[0]!;
    const list = out.get(first);
    if (list) list.push(k);
    else out.set(first, [k]);
  }
  return out;
}

/** A long keyword with two neighbouring letters swapped: what fast typing makes of it. */
function swaps(letters: string): string[] {
  if (letters.length < MIN_TYPO_KEYWORD || !/^\p{L}+$/u.test(letters)) return [];
  const out: string[] = [];
  for (let i = 0; i + 1 < letters.length; i++) {
    if (letters[i] === letters[i + 1]) continue;
    out.push(letters.slice(0, i) + letters[i + 1] + letters[i] + letters.slice(i + 2));
  }
  return out;
}

/** Bold runs of a line, joined across whitespace-only plain runs ("[b]Vote:[/b] [b]Bob[/b]"). */
function boldGroups(line: OwnLine, text: string): Candidate[] {
  const groups: Candidate[] = [];
  let open: Candidate | null = null;
  let pos = 0;
  for (const run of line) {
    const end = pos + run.text.length;
    const counts = run.bold && !run.strike;
    if (counts && open && open.inSpoiler === run.inSpoiler) {
      open.end = end;
    } else if (counts) {
      open = { text: '', start: pos, end, bold: true, inSpoiler: run.inSpoiler, restEnd: text.length };
      groups.push(open);
    } else if (run.strike || run.text.trim() !== '') {
      open = null;
    }
    pos = end;
  }
  groups.forEach((g, k) => {
    g.text = text.slice(g.start, g.end);
    g.restEnd = groups[k + 1]?.start ?? text.length;
  });
  return groups;
}

/** The actions of one candidate, with the grammar's rules applied. */
function readCandidate(
  cand: Candidate,
  line: string,
  lineInk: () => number,
  lineIndex: number,
  grammar: VoteGrammar,
  vocab: Vocabulary,
): GrammarReading {
  const actions: WrittenAction[] = [];
  const rejected: RejectedAction[] = [];
  const parsed = parseCandidate(cand.text, vocab);
  const span = (start: number, end: number): TextSpan => ({
    line: lineIndex,
    start: cand.start + start,
    end: cand.start + end,
  });

  if (parsed.length === 0) {
    // "**FoS: Ann, Vote: Bob**", "whatever ##vote Bob": a keyword opening a later clause.
    const clause = laterClause(cand.text, vocab, cand.bold);
    if (clause > 0) {
      const rest: Candidate = { ...cand, text: cand.text.slice(clause), start: cand.start + clause };
      const read = readCandidate(rest, line, lineInk, lineIndex, grammar, vocab);
      for (const a of read.actions)
        if (a.kind === 'vote' && a.written !== null && a.keywordTarget === null && !a.raw.includes(':')) a.loose = true;
      return read;
    }
    if (!cand.bold) return { actions, rejected };
    // "**No Lynch**" or "**Sleep**" alone on its line is a vote for it; bold "no lynch" mid-sentence is talk.
    if (vocab.targets.length > 0 && cand.text.length <= MAX_ARG) {
      const target = keywordTargetOf(stripDecorations(cand.text), vocab);
      if (target !== null && inkCount(cand.text) === lineInk()) {
        const raw = rawOf(cand, 0, cand.text.length);
        actions.push({
          kind: 'vote',
          raw,
          written: cand.text.trim(),
          keywordTarget: target,
          span: span(0, cand.text.length),
        });
        return { actions, rejected };
      }
    }
    for (const d of doubtfulVotes(cand.text, vocab)) {
      actions.push({
        kind: 'vote',
        raw: rawOf(cand, d.start, cand.text.length),
        written: d.arg,
        keywordTarget: null,
        span: span(d.start, cand.text.length),
        doubtful: true,
      });
    }
    return { actions, rejected };
  }

  const merged = new Set<number>();
  parsed.forEach((p, k) => {
    if (merged.has(k)) return;
    const kind = p.kind;
    let end = p.end;
    let raw = rawOf(cand, p.start, p.end);
    let arg = cleanArg(cand.text.slice(p.argStart, p.end));

    // "Unvote: Hammer" withdraws the Hammer side vote: one unvote naming it, not an unvote
    // of the lynch vote followed by a new Hammer vote.
    const next = parsed[k + 1];
    if (
      kind === 'unvote' &&
      arg === '' &&
      next &&
      TARGETLESS.includes(next.kind) &&
      cleanArg(cand.text.slice(next.argStart, next.end)) === ''
    ) {
      merged.add(k + 1);
      actions.push({
        kind: 'unvote',
        raw: rawOf(cand, p.start, next.end),
        written: cand.text
          .slice(next.start, next.argStart)
          .replace(/[#:\s]+/g, ' ')
          .trim(),
        keywordTarget: next.kind === 'hammer' ? 'Hammer' : 'Filibuster',
        span: span(p.start, next.end),
      });
      return;
    }

    // "**Vote:** Bob": the keyword is bold and the name follows on the same line. In
    // "**Vote**: Bob" the colon right after the bold keyword is the vote's colon.
    const last = k === parsed.length - 1;
    let colon = p.colon;
    if (arg === '' && last && cand.bold && kind !== 'unvote' && !TARGETLESS.includes(kind)) {
      const rest = line.slice(cand.end, Math.min(cand.restEnd, cand.end + MAX_ARG));
      if (hasInk(rest)) {
        const mark = colon ? null : /^ ?[:：]/u.exec(rest);
        const name = mark ? rest.slice(mark[0].length) : rest;
        colon ||= mark !== null;
        arg = cleanArg(name);
        end = cand.restEnd - cand.start;
        raw = clip(`${cand.text.slice(p.start).trim()}${mark ? mark[0].trim() : ''} ${name.trim()}`);
      }
    }
    const where = span(p.start, end);

    if (kind === 'vote' && !colon && arg !== '') {
      // "vote count?" asks for a count; "vote for Bob" votes Bob.
      if (/^counts?\b/iu.test(arg)) return;
      arg = arg.replace(/^for\s+/iu, '');
    }

    if (kind === 'vote' && grammar.colon === 'required' && !colon && arg !== '') {
      rejected.push({ reason: 'no-colon', raw, span: where });
      return;
    }
    const action = argAction(kind, arg, raw, where, grammar, vocab);
    if (action) actions.push(p.hashed ? { ...action, marker: 'hash' } : action);
  });
  return { actions, rejected };
}

/** One action with its target as written: keyword targets, "Vote: unvote", "Vote: Hammer", empty votes. */
function argAction(
  kind: ActionKind,
  arg: string,
  raw: string,
  where: TextSpan,
  grammar: VoteGrammar,
  vocab: Vocabulary,
): WrittenAction | null {
  if (TARGETLESS.includes(kind)) return { kind, raw, written: null, keywordTarget: null, span: where };
  if (arg === '') {
    if (kind !== 'vote') return { kind, raw, written: null, keywordTarget: null, span: where };
    if (grammar.emptyVote === 'unvote') return { kind: 'unvote', raw, written: null, keywordTarget: null, span: where };
    if (grammar.emptyVote === 'review') return { kind, raw, written: null, keywordTarget: null, span: where };
    return null;
  }
  if (kind === 'vote') {
    arg = withoutRepeatedKeyword(arg, vocab);
    if (arg === '') return argAction(kind, arg, raw, where, grammar, vocab);
    const name = stripDecorations(arg);
    const toTarget = TO_WORD.test(name) ? keywordTargetOf(name.replace(TO_WORD, ''), vocab) : null;
    if (toTarget !== null) return { kind, raw, written: arg, keywordTarget: toTarget, span: where };
    const target = keywordTargetOf(name, vocab);
    if (target !== null) return { kind, raw, written: arg, keywordTarget: target, span: where };
    // "Vote: unvote" is an unvote; "Vote: Hammer" is the Hammer side vote.
    if (isKeywordPhrase(name, vocab.unvote))
      return { kind: 'unvote', raw, written: null, keywordTarget: null, span: where };
    const side = vocab.targetless.find((t) => isKeywordPhrase(name, t.letters));
    if (side) return { kind: side.kind, raw, written: null, keywordTarget: null, span: where };
  }
  return { kind, raw, written: arg, keywordTarget: null, span: where };
}

interface TagAction {
  action: WrittenAction;
  inSpoiler: boolean;
}

/**
 * Typed vote tags on a line: `[vote]Bob[/vote]`, `[unvote][/unvote]`, a lone `[unvote]`.
 * An opening tag with no closing tag on the line is text, except a targetless one.
 */
function tagActions(
  line: OwnLine,
  text: string,
  lineIndex: number,
  grammar: VoteGrammar,
  vocab: Vocabulary,
): TagAction[] {
  if (!text.includes('[')) return [];
  const out: TagAction[] = [];
  // Only the grammar's tags; a tag's closing tag must be the next of them ("[vote]Bob[/vote]").
  const tokens = [...text.matchAll(TAG)].filter((t) => vocab.tags.has(t[2]!.toLowerCase()));
  for (let k = 0; k < tokens.length; k++) {
    const open = tokens[k]!;
    if (open[1] === '/') continue;
    const name = open[2]!.toLowerCase();
    const kind = vocab.tags.get(name)!;
    const next = tokens[k + 1];
    const close = next && next[1] === '/' && next[2]!.toLowerCase() === name ? next : undefined;
    if (!close && kind !== 'unvote' && !TARGETLESS.includes(kind)) continue;
    const start = open.index;
    const end = close ? close.index + close[0].length : open.index + open[0].length;
    const inner = close ? cleanArg(text.slice(open.index + open[0].length, close.index)) : '';
    const raw = clip(text.slice(start, end));
    const action = argAction(kind, inner.slice(0, MAX_ARG), raw, { line: lineIndex, start, end }, grammar, vocab);
    if (action) out.push({ action: { ...action, marker: 'tag' }, inSpoiler: runAt(line, start)?.inSpoiler ?? false });
    if (close) k++;
  }
  return out;
}

/** "VOTE: vote Bob" (a vote tag around a typed vote): the repeated keyword is not the name. */
function withoutRepeatedKeyword(arg: string, vocab: Vocabulary): string {
  const lead = skipLead(arg).pos;
  const k = keywordAt(arg, lead, vocab);
  if (!k || k.kind !== 'vote') return arg;
  let q = k.end;
  while (arg[q] === ' ') q++;
  if (arg[q] === ':' || arg[q] === '：') q++;
  return cleanArg(arg.slice(q));
}

/**
 * Typed closing tags of the grammar's vote tags that close nothing ("VOTE: kondi[/unvote]",
 * a mistyped `[/vote]`): blanked, so the closer reads as neither an action nor a name.
 */
function strayClosers(text: string, lineIndex: number, vocab: Vocabulary, tags: readonly TagAction[]): TextSpan[] {
  if (!text.includes('[/')) return [];
  const out: TextSpan[] = [];
  for (const m of text.matchAll(TAG)) {
    if (m[1] !== '/' || !vocab.tags.has(m[2]!.toLowerCase())) continue;
    const start = m.index;
    const end = start + m[0].length;
    if (tags.some((t) => t.action.span.start <= start && t.action.span.end >= end)) continue;
    out.push({ line: lineIndex, start, end });
  }
  return out;
}

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

/** Vote keywords inside bold talk, with the words after each (see `WrittenAction.doubtful`). */
function doubtfulVotes(text: string, vocab: Vocabulary): { start: number; arg: string }[] {
  const out: { start: number; arg: string }[] = [];
  for (let i = 0; i < text.length && out.length < MAX_DOUBTFUL; i++) {
    if (isWordChar(text[i - 1]) || !isWordChar(text[i])) continue;
    const k = keywordAt(text, i, vocab);
    if (!k || k.kind !== 'vote') continue;
    if (NEGATION.test(text.slice(Math.max(0, i - 12), i))) {
      i = k.end;
      continue;
    }
    let q = k.end;
    while (text[q] === ' ') q++;
    if (text[q] === ':' || text[q] === '：') q++;
    const arg = cleanArg(text.slice(q));
    if (hasInk(arg)) out.push({ start: i, arg });
    i = k.end;
  }
  return out;
}

/** The run holding offset `pos` of the line's text. */
function runAt(line: OwnLine, pos: number): OwnLine[number] | undefined {
  let at = 0;
  for (const run of line) {
    at += run.text.length;
    if (pos < at) return run;
  }
  return undefined;
}

/** The text with the spans blanked out (same length, so offsets still hold). */
function maskSpans(text: string, spans: readonly TextSpan[]): string {
  const parts: string[] = [];
  let pos = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.start < pos) continue;
    parts.push(text.slice(pos, s.start), ' '.repeat(s.end - s.start));
    pos = s.end;
  }
  parts.push(text.slice(pos));
  return parts.join('');
}

/**
 * Split a candidate into actions. Nothing if no action keyword opens it. A vote's target
 * runs to the next action keyword that follows a separator (";", ",", "and", "##");
 * after an unvote or a targetless side action any action keyword starts the next one
 * ("unvote vote Bob", "unvote Bob vote Alice").
 */
function parseCandidate(text: string, vocab: Vocabulary): Parsed[] {
  const lead = skipLead(text);
  let keyword = keywordAt(text, lead.pos, vocab);
  if (!keyword) return [];
  const out: Parsed[] = [];
  let start = 0;
  let hashed = lead.hashed;
  while (keyword) {
    let q = keyword.end;
    while (text[q] === ' ') q++;
    let colon = false;
    if (text[q] === ':' || text[q] === '：') {
      colon = true;
      q++;
    }
    const next = nextAction(text, q, keyword.kind, vocab);
    out.push({ kind: keyword.kind, colon, hashed, start, argStart: q, end: next ? next.at : text.length });
    if (!next) break;
    start = next.at;
    hashed = next.hashed;
    keyword = next.keyword;
  }
  return out;
}

function skipLead(text: string): { pos: number; hashed: boolean } {
  let pos = 0;
  let hashed = false;
  let tags = 0;
  let lead = 0;
  while (pos < text.length && lead < MAX_LEAD) {
    const ch = text[pos]!;
    // BBCode the forum left as text ("[size=5]Vote: Bob[/size]" on GOG) is decoration.
    const tag = ch === '[' && tags < MAX_LEAD_TAGS ? LEAD_TAG.exec(text.slice(pos, pos + 60)) : null;
    if (tag) {
      pos += tag[0].length;
      tags++;
      continue;
    }
    if (QUOTE_CHAR.test(ch) || !LEAD_CHAR.test(ch)) break;
    if (ch === '#') hashed = true;
    pos++;
    lead++;
  }
  return { pos, hashed };
}

function keywordTargetOf(name: string, vocab: Vocabulary): string | null {
  return vocab.targets.find((t) => isKeywordPhrase(name, t.letters))?.name ?? null;
}

function keywordAt(
  text: string,
  pos: number,
  vocab: Vocabulary,
  glued = false,
): { kind: ActionKind; end: number } | null {
  if (isWordChar(text[pos - 1]) && !glued) return null;
  let best: { kind: ActionKind; end: number } | null = null;
  const first = text[pos];
  const keywords = first === undefined ? undefined : vocab.byFirst.get(first.toLowerCase());
  if (!keywords) return null;
  for (const k of keywords) {
    const end = keywordEnd(text, pos, k.letters);
    if (end > 0 && (!best || end > best.end)) best = { kind: k.kind, end };
  }
  return best;
}

function nextAction(
  text: string,
  from: number,
  kind: ActionKind,
  vocab: Vocabulary,
): { at: number; hashed: boolean; keyword: { kind: ActionKind; end: number } } | null {
  const targetless = kind === 'unvote' || TARGETLESS.includes(kind);
  let inkEnd = from; // just after the last non-space character of this action's target so far
  for (let i = from; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === ' ') continue;
    const glued = gluedKeyword(text, i, vocab);
    if (glued) return { at: i, hashed: false, keyword: glued };
    if ((ch === '#' || isWordChar(ch)) && !isWordChar(text[i - 1]) && text[i - 1] !== '#') {
      let j = i;
      while (text[j] === '#' && j - i < 3) j++;
      const hashed = j > i;
      const keyword = keywordAt(text, j, vocab);
      if (keyword) {
        const prev = text[inkEnd - 1];
        const separated =
          hashed ||
          // After an unvote (named or not) or a targetless side action, the next keyword starts
          // a new action even without a separator: "unvote Bob vote Alice".
          targetless ||
          (prev !== undefined && inkEnd > from && SEPARATORS.has(prev)) ||
          (prev !== undefined && inkEnd > from && SPACED_SEPARATORS.has(prev) && text[inkEnd] === ' ') ||
          endsWithJoinWord(text, from, inkEnd);
        if (separated) return { at: i, hashed, keyword };
      }
    }
    inkEnd = i + 1;
  }
  return null;
}

/**
 * "UNVOTE: AmorVOTE: TMHS": two `[vote]` tags side by side render with nothing between
 * them, so the next keyword is glued to the last name. A keyword in capitals with its
 * colon, right after a lower-case letter, starts a new action; a name never ends that way.
 */
function gluedKeyword(text: string, i: number, vocab: Vocabulary): { kind: ActionKind; end: number } | null {
  const prev = text[i - 1];
  const ch = text[i];
  if (prev === undefined || ch === undefined || !/\p{Ll}/u.test(prev) || !/\p{Lu}/u.test(ch)) return null;
  const keyword = keywordAt(text, i, vocab, true);
  if (!keyword) return null;
  const word = text.slice(i, keyword.end).trimEnd();
  const capitals = word === word.toUpperCase() && /\p{Lu}{2}/u.test(word);
  return capitals && /^\s*:/u.test(text.slice(keyword.end)) ? keyword : null;
}

function endsWithJoinWord(text: string, from: number, end: number): boolean {
  return JOIN_WORDS.some((w) => {
    const start = end - w.length;
    return start >= from && text.slice(start, end).toLowerCase() === w && !isWordChar(text[start - 1]);
  });
}

/** The target text: trimmed, without the separators and joining words that led to the next action. */
function cleanArg(slice: string): string {
  let s = slice.trimStart().slice(0, MAX_ARG).trimEnd();
  for (let round = 0; round < 4; round++) {
    const before = s;
    s = s.replace(/[\s;,/|&+>=~-]+$/u, '').replace(/\s+(?:and|then)$/iu, '');
    if (s === before) break;
  }
  return s;
}

function rawOf(cand: Candidate, start: number, end: number): string {
  return clip(
    cand.text
      .slice(start, end)
      .trim()
      .replace(/[\s;,/|&+]+$/u, ''),
  );
}

function clip(s: string): string {
  return s.length > MAX_RAW ? `${s.slice(0, MAX_RAW)}…` : s;
}

function inkCount(s: string): number {
  return s.replace(/[^\p{L}\p{N}]+/gu, '').length;
}

function hasInk(s: string): boolean {
  return /[\p{L}\p{N}]/u.test(s);
}

/** Whether the line has letters or digits outside the given spans (the own-line rule). */
function inkOutside(text: string, spans: readonly TextSpan[]): boolean {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let pos = 0;
  for (const s of sorted) {
    if (s.start > pos && hasInk(text.slice(pos, s.start))) return true;
    pos = Math.max(pos, s.end);
  }
  return hasInk(text.slice(pos));
}
