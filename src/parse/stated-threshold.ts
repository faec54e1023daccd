import type { StatedThreshold } from '../model/gm-count.js';
import type { ThresholdRule } from '../rules/ruleset.js';
import { NUMBER_WORDS } from './number-words.js';

/**
 * The lynch threshold a GM states in a vote count or a rules post: "With 7 alive, it takes 4
 * to lynch", "With 12 players living, 7/12 votes are required to lynch", "6 Alive == 4 to
 * Lynch", "It takes 3 to lynch". The alive count tells how many the GM thinks are alive (a
 * missed death or replacement shows there); the number, the threshold the GM applies.
 *
 * "With 9 votes in play, it's 5 to lynch" states the votes, not the living (a double voter
 * counts twice): its alive is null. A bare number before "to lynch" is read only after a
 * lead that makes it the threshold ("it takes", "it's", "votes are required") or after the
 * alive count: "I doubt 3 people want to lynch me" is not a rule. A number is whole: in
 * "7 players / 2 = 3.5 players = 4 to lynch" no "5 players" are alive. A line that is only
 * the number ("5 to lynch", "Votes to Lynch: 7") states it too; a wagon's note ("Carol (2)
 * - 3 to lynch", "L-1") is no statement: it has a wagon before it.
 */
export type { StatedThreshold };

const NUM = String.raw`(?:\d{1,3}|${NUMBER_WORDS.join('|')})`;
/** "7 alive", "8 players alive", "12 players living", "12 living players", "10 people alive", "9 of ye alive", "7 votes in play". */
const ALIVE = String.raw`(?<![\d.,/])\b(?<alive>${NUM})\s+(?:of\s+ye\s+|(?<noun>players?|people|votes?)\s+)?(?<what>alive|living|remaining|left|in\s+play|eligible\s+to\s+vote|players|people)\b(?:\s+(?:players|people)\b)?`;
/** What makes a number the threshold: "it takes", "it's", "its", "it will take", "it requires", "takes". */
const LEAD = String.raw`(?<lead>\bit(?:\s*['’]\s*|\s+)?(?:s|is|takes|took|will\s+take|ll\s+take|would\s+take|requires)\s*,?\s+|\btakes\s*,?\s+)`;
/** "to lynch", "for a lynch", "to reach a lynch", "to obtain a lynch", "for the lynch". */
const TO_LYNCH = String.raw`(?:to|for)\s+(?:(?:reach|obtain|achieve|get|force)\s+)?(?:a\s+|the\s+)?lynch\b`;
const ALIVE_LEAD = String.raw`(?:${ALIVE}[\s,;:=!.\-–—&]{0,6}(?:and\s+|so\s+)?)?`;
const STATEMENT = new RegExp(
  String.raw`${ALIVE_LEAD}${LEAD}?(?<![\d.,/])\b(?<toLynch>${NUM})(?:\s*\/\s*\d{1,3})?\s+(?:votes?\s+|players\s+)?(?<req>(?:(?:are|is|were)\s+)?(?:needed|required|enough)\s+)?${TO_LYNCH}`,
  'iu',
);
/**
 * "With 13 alive, the majority is 7", "Absolute majority is 7", "majority is 7 today", "a
 * majority of 7 is needed to achieve a lynch", "a majority consists of 7 votes": the word
 * majority leads the number; a share ("a majority of 51%", "majority of votes") is no number.
 */
const MAJORITY = new RegExp(
  String.raw`${ALIVE_LEAD}(?<lead>\b(?:the\s+|an?\s+|absolute\s+|simple\s+)*majority\s+(?:is|of|consists\s+of|will\s+be)\s+(?:now\s+)?)(?<![\d.,/])\b(?<toLynch>${NUM})\b(?!\s*(?:%|\/|percent|\.\d|,\d))`,
  'iu',
);
/** A line that is the number alone: "5 to lynch", "Five to lynch.", "7/13 votes to lynch". */
const BARE = new RegExp(
  String.raw`^\s*(?<toLynch>${NUM})(?:\s*\/\s*\d{1,3})?\s+(?:votes?\s+|players\s+)?(?:(?:needed|required)\s+)?${TO_LYNCH}[\s.!]*$`,
  'iu',
);
/** A label and the number: "Votes to Lynch: 7", "Players needed to lynch: 5", "Needed to Lynch [ 7 ]". */
const LABEL = new RegExp(
  String.raw`^\s*(?:(?:players|votes)\s+)?(?:(?:needed|required)\s+)?to\s+lynch\s*(?::|=|-|\[)\s*(?<toLynch>${NUM})\s*\]?[\s.!]*$`,
  'iu',
);
/** BBCode the forum left unrendered ("it takes 7[/i] votes"): not the GM's words. */
const STRAY_TAG = /\[\/?[a-z]{1,6}(?:=[^\]]{0,40})?\]/giu;

const numberOf = (s: string): number => (/^\d+$/u.test(s) ? Number(s) : NUMBER_WORDS.indexOf(s.toLowerCase()));

/** The first threshold stated in a line of the GM's own text, or null. */
export function readStatedThreshold(given: string): StatedThreshold | null {
  const line = given.slice(0, 600).replace(STRAY_TAG, '');
  const found = [STATEMENT, MAJORITY].map((re) => statementIn(re.exec(line))).filter((s) => s !== null);
  // "With 13 players alive, a majority of 7 is needed to achieve a lynch": the reading with the alive count.
  return found.find((s) => s.alive !== null) ?? found[0] ?? wholeLine(line);
}

function statementIn(m: RegExpExecArray | null): StatedThreshold | null {
  const g = m?.groups;
  if (!m || !g) return null;
  const alive = g['alive'] === undefined ? null : numberOf(g['alive']);
  if (alive === null && g['lead'] === undefined && g['req'] === undefined) return null;
  const toLynch = numberOf(g['toLynch']!);
  if (toLynch <= 0) return null;
  // "13 votes in play" counts votes; "13 players in play" counts the living.
  const votesInPlay = /^votes?$/iu.test(g['noun'] ?? '');
  return { alive: votesInPlay ? null : alive, toLynch, sentence: m[0].trim() };
}

/** A line that states the number alone or under a label (no alive count): the threshold. */
function wholeLine(line: string): StatedThreshold | null {
  const m = BARE.exec(line) ?? LABEL.exec(line);
  if (!m?.groups) return null;
  const toLynch = numberOf(m.groups['toLynch']!);
  return toLynch > 0 ? { alive: null, toLynch, sentence: m[0].trim() } : null;
}

/** The first threshold stated among lines (a count's, a rules post's). */
export function statedIn(lines: readonly string[]): StatedThreshold | null {
  for (const line of lines) {
    const found = readStatedThreshold(line);
    if (found) return found;
  }
  return null;
}

/**
 * The threshold rules a GM's stated numbers are tried against, beside the ruleset's own: a
 * true majority (7 of 12), half rounded up (6 of 12: "half the living"), two thirds.
 */
export const STATED_RULES: readonly ThresholdRule[] = [
  { kind: 'majority' },
  { kind: 'fraction', numerator: 1, denominator: 2 },
  { kind: 'fraction', numerator: 2, denominator: 3 },
];

/**
 * What a rule asks of `alive` players, as src/tally/threshold.ts computes it (a test keeps
 * the two equal: parse may not import the tally). Null: plurality has no number.
 */
export function votesUnder(rule: ThresholdRule, alive: number): number | null {
  if (rule.kind === 'majority') return Math.floor(alive / 2) + 1;
  if (rule.kind === 'fraction') return Math.ceil((alive * rule.numerator) / rule.denominator);
  return null;
}

/**
 * The one rule that gives every stated number from its alive count, when the ruleset's own
 * does not give at least `repeated` of them: a threshold the GM states repeatedly that the
 * ruleset cannot produce. Null when the ruleset fits, when the statements are too few, or
 * when they disagree with themselves (no rule, or two, fit them all: never guessed).
 */
export function statedRule(
  statements: readonly StatedThreshold[],
  own: ThresholdRule,
  repeated = 2,
): ThresholdRule | null {
  const withAlive = statements.filter((s) => s.alive !== null);
  const misfits = withAlive.filter((s) => votesUnder(own, s.alive!) !== s.toLynch);
  if (misfits.length < repeated) return null;
  const fits = STATED_RULES.filter((r) => withAlive.every((s) => votesUnder(r, s.alive!) === s.toLynch));
  return fits.length === 1 ? fits[0]! : null;
}

/** The rule in the GM's words ("half the living, rounded up"). */
export function ruleText(rule: ThresholdRule): string {
  if (rule.kind === 'majority') return 'more than half of the living';
  if (rule.kind === 'plurality') return 'the most votes';
  if (rule.numerator * 2 === rule.denominator) return 'half of the living, rounded up';
  return `${rule.numerator}/${rule.denominator} of the living, rounded up`;
}
