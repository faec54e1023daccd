import type { ActionKind } from '../model/action.js';
import type { VoteGrammar } from '../rules/ruleset.js';
import type { KeywordTarget } from './grammar-types.js';
import { keywordLetters } from './keyword.js';

/** The words of a ruleset's vote grammar, in the forms the rules look them up by. */

interface Keyword {
  kind: ActionKind;
  letters: string;
  /** A short keyword's swapped spelling ("vtoe"): a keyword only with its colon after it ("vtoe: flp"). */
  colon?: true;
}

export interface Vocabulary {
  /** Action keywords, longest first so "unvote" is tried before "vote"-like prefixes. */
  actions: Keyword[];
  /** The same keywords by their first letter: most words start none, and are passed over at once. */
  byFirst: Map<string, Keyword[]>;
  /** Per ASCII code: 1 where the character, lower-cased, is a keyword's first letter. */
  firstAscii: Uint8Array;
  /** Tag names ("vote", "v", "unvote", "uv", one-word side keywords) and their action. */
  tags: Map<string, ActionKind>;
  targets: { name: string; letters: string[] }[];
  unvote: string[];
  /** Side actions that take no target: "Vote: Hammer" means the Hammer side vote. */
  targetless: { kind: ActionKind; letters: string[] }[];
}

/** Side actions that take no target ("**Hammer**"); after one, any keyword starts the next action. */
const TARGETLESS: readonly ActionKind[] = ['hammer', 'filibuster'];

export function isTargetless(kind: ActionKind): boolean {
  return TARGETLESS.includes(kind);
}

/** A thread's posts share one ruleset: its vocabulary is worked out once, not per post. */
const vocabularies = new WeakMap<VoteGrammar, { targets: readonly KeywordTarget[]; vocab: Vocabulary }>();

export function vocabularyOf(grammar: VoteGrammar, targets: readonly KeywordTarget[]): Vocabulary {
  const hit = vocabularies.get(grammar);
  if (hit && hit.targets.length === targets.length && hit.targets.every((t, i) => t === targets[i])) return hit.vocab;
  const vocab = vocabulary(grammar, targets);
  vocabularies.set(grammar, { targets: [...targets], vocab });
  return vocab;
}

function vocabulary(grammar: VoteGrammar, keywordTargets: readonly KeywordTarget[]): Vocabulary {
  const actions = actionKeywords(grammar);
  const tags = tagNames(grammar, actions);
  const spelled = new Set(actions.map((k) => k.letters));
  for (const k of [...actions]) {
    for (const typo of swaps(k.letters)) {
      if (!spelled.has(typo)) {
        spelled.add(typo);
        actions.push(
          k.letters.length < MIN_TYPO_KEYWORD
            ? { kind: k.kind, letters: typo, colon: true }
            : { kind: k.kind, letters: typo },
        );
      }
    }
  }
  actions.sort((a, b) => b.letters.length - a.letters.length);
  return {
    actions,
    byFirst: byFirstLetter(actions),
    firstAscii: firstAscii(actions),
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

function actionKeywords(grammar: VoteGrammar): Keyword[] {
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
  return actions;
}

/** Any one-word keyword is a tag (`[hammer]`); `[v]` and `[uv]` stand for vote and unvote. */
function tagNames(grammar: VoteGrammar, actions: readonly Keyword[]): Map<string, ActionKind> {
  const tags = new Map<string, ActionKind>();
  for (const k of [...actions].sort((a, b) => a.letters.length - b.letters.length))
    if (/^\p{L}+$/u.test(k.letters)) tags.set(k.letters, k.kind);
  if (grammar.keywords.vote.some((w) => keywordLetters(w) === 'vote')) tags.set('v', 'vote');
  if (grammar.keywords.unvote.some((w) => keywordLetters(w) === 'unvote')) tags.set('uv', 'unvote');
  return tags;
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

function firstAscii(actions: readonly Keyword[]): Uint8Array {
  const table = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const lower = String.fromCharCode(c).toLowerCase();
    if (actions.some((k) => k.letters[0] === lower)) table[c] = 1;
  }
  return table;
}

/** Keywords this long or longer also match with two neighbouring letters swapped ("unovte"). */
const MIN_TYPO_KEYWORD = 6;
/**
 * Shorter keywords from this length match swapped only with their colon ("unvote, vtoe: flp",
 * mafiascum game 1365 post #891): a short swapped word alone is too near other words.
 */
const MIN_COLON_TYPO_KEYWORD = 4;

/** A keyword with two neighbouring letters swapped: what fast typing makes of it. */
function swaps(letters: string): string[] {
  if (letters.length < MIN_COLON_TYPO_KEYWORD || !/^\p{L}+$/u.test(letters)) return [];
  const out: string[] = [];
  for (let i = 0; i + 1 < letters.length; i++) {
    if (letters[i] === letters[i + 1]) continue;
    out.push(letters.slice(0, i) + letters[i + 1] + letters[i] + letters.slice(i + 2));
  }
  return out;
}
