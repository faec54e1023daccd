import type { ActionKind } from '../model/action.js';
import type { VoteGrammar } from '../rules/ruleset.js';
import type { TextSpan, WrittenAction } from './grammar-types.js';
import { isTargetless, type Vocabulary } from './grammar-vocabulary.js';
import { afterColon, cleanArg, hasInk, keywordAt, keywordTargetOf, skipLead } from './grammar-words.js';
import { isKeywordPhrase } from './keyword.js';
import { stripDecorations } from './name-form.js';

/**
 * What an action's target is, climbing from the kind of action to the words written:
 * a targetless side action ("**Hammer**") takes none → an empty target is the ruleset's
 * `emptyVote` call ("**Vote:**") → a repeated keyword is dropped ("VOTE: vote Bob") →
 * a keyword target led in by "to" ("Vote to No Lynch") → a keyword target ("Vote: No
 * Lynch") → an unvote written as a target ("Vote: unvote") → a targetless side action
 * written as one ("Vote: Hammer") → an unvote opening the target ("VOTE: UNVOTE Misa")
 * → the name as written, for `names.ts` to resolve. A target of punctuation alone is empty.
 */
export function targetAction(
  kind: ActionKind,
  written: string,
  raw: string,
  where: TextSpan,
  grammar: VoteGrammar,
  vocab: Vocabulary,
): WrittenAction | null {
  const as = (k: ActionKind, target: string | null = null, keyword: string | null = null): WrittenAction => ({
    kind: k,
    raw,
    written: target,
    keywordTarget: keyword,
    span: where,
  });
  if (isTargetless(kind)) return as(kind);
  const arg = kind === 'vote' ? withoutRepeatedKeyword(written, vocab) : written;
  // "Unvote." or "Vote: ???": punctuation is no name.
  if (!hasInk(arg)) return emptyTarget(kind, grammar, as);
  if (kind !== 'vote') return as(kind, arg);
  const name = stripDecorations(arg);
  const keyword = toKeywordTarget(name, vocab) ?? keywordTargetOf(name, vocab);
  if (keyword !== null) return as(kind, arg, keyword);
  return wordAsAction(name, vocab, as) ?? unvoteAsTarget(name, vocab, as) ?? as(kind, arg);
}

/** "**Vote:**" with nothing after it: an unvote, a vote for the GM to review, or nothing, as the ruleset says. */
function emptyTarget(
  kind: ActionKind,
  grammar: VoteGrammar,
  as: (k: ActionKind) => WrittenAction,
): WrittenAction | null {
  if (kind !== 'vote') return as(kind);
  if (grammar.emptyVote === 'unvote') return as('unvote');
  if (grammar.emptyVote === 'review') return as(kind);
  return null;
}

/** Words before the target that lead into a keyword target ("Vote to No Lynch"). */
const TO_WORD = /^to\s+/iu;

function toKeywordTarget(name: string, vocab: Vocabulary): string | null {
  return TO_WORD.test(name) ? keywordTargetOf(name.replace(TO_WORD, ''), vocab) : null;
}

/** "Vote: unvote" is an unvote; "Vote: Hammer" is the Hammer side vote. */
function wordAsAction(name: string, vocab: Vocabulary, as: (k: ActionKind) => WrittenAction): WrittenAction | null {
  if (isKeywordPhrase(name, vocab.unvote)) return as('unvote');
  const side = vocab.targetless.find((t) => isKeywordPhrase(name, t.letters));
  return side ? as(side.kind) : null;
}

/**
 * "[vote]UNVOTE Misa[/vote]", "VOTE: unvote: Katsuki": a vote tag around a typed unvote is
 * the unvote, of the name after it (mafiascum game 1848 post #727).
 */
function unvoteAsTarget(
  name: string,
  vocab: Vocabulary,
  as: (k: ActionKind, target?: string | null) => WrittenAction,
): WrittenAction | null {
  const k = keywordAt(name, 0, vocab);
  if (!k || k.kind !== 'unvote') return null;
  const rest = cleanArg(name.slice(afterColon(name, k.end).pos));
  return as('unvote', hasInk(rest) ? rest : null);
}

/** "VOTE: vote Bob" (a vote tag around a typed vote): the repeated keyword is not the name. */
function withoutRepeatedKeyword(arg: string, vocab: Vocabulary): string {
  const lead = skipLead(arg).pos;
  const k = keywordAt(arg, lead, vocab);
  if (!k || k.kind !== 'vote') return arg;
  return cleanArg(arg.slice(afterColon(arg, k.end).pos));
}
