import type { Body } from '../model/body.js';
import type { Ruleset, ThresholdRule, TieBreaker } from '../rules/ruleset.js';
import { ownText } from './own-text.js';
import { readStatedThreshold, statedRule } from './stated-threshold.js';

/**
 * The deadline and tie rules a GM wrote in the game's rules post, as proposals for the
 * new-game form: each the ruleset fields it would set and the sentence it came from, so
 * the GM sees why and accepts or not. Nothing here changes a game by itself.
 *
 *   "If no majority is reached by deadline, no lynch will occur."       -> nobody goes
 *   "If the deadline is reached without a majority, the player with the
 *    most votes will be lynched."                                        -> the leader goes
 *   "... I will roll a die ..." at the deadline                          -> the GM decides
 *   "If there is a tie, the one reaching the tied number first dies."    -> first to reach
 *   "If there's a tie, whoever most recently led is lynched."            -> last to lead
 *   "If there is a tie, no lynch will take place."                       -> a tie: nobody
 *   "With 8 alive, it takes 4 to lynch." (majority would be 5)           -> half, rounded up
 *
 * A stated threshold is proposed only when the ruleset's own rule (`OpeningOptions`) does not
 * give it from the stated alive count (or the game's living, when none is stated) and exactly
 * one rule Votal has does (src/parse/stated-threshold.ts).
 *
 * A sentence must name the deadline (or a tie) and the outcome together; one that names
 * two outcomes proposes nothing (never guess). The first sentence of each kind wins.
 * Bounded: 400 lines of 600 characters; quotes and signatures are someone else's words.
 */
export type RuleOverrides = Pick<Partial<Ruleset>, 'shortOfThreshold' | 'threshold'> & {
  ties?: Partial<Ruleset['ties']>;
};

/** What a stated threshold is compared with: the ruleset's rule (default majority) and the game's living. */
export interface OpeningOptions {
  threshold?: ThresholdRule;
  living?: number;
}

export interface RuleProposal {
  /** Which rule: what happens at the deadline short of majority, or to a tie. */
  rule: 'deadline' | 'tie' | 'threshold';
  /** The ruleset fields (a game's ruleset overrides) the sentence asks for. */
  overrides: RuleOverrides;
  /** The GM's sentence, as written. */
  sentence: string;
}

const MAX_LINES = 400;
const MAX_LINE = 600;

const DEADLINE = /\bdead-?lines?\b|\bend of (?:the )?day\b|\bday'?s end\b/iu;
/** The Day ran out without a majority: the condition of a deadline rule. */
const SHORT = new RegExp(
  [
    String.raw`\bno\b[^.,;]{0,30}\b(?:majority|enough votes|lynch (?:is|has been) (?:reached|decided))`,
    String.raw`\bwithout\b[^.,;]{0,30}\b(?:majority|lynch)`,
    String.raw`(?:\bnot|n't|\bnever)\b[^.,;]{0,30}\b(?:majority|reached|achieved|decided|met|lynch)`,
    String.raw`\bbefore (?:a |the )?(?:lynch|majority)`,
    String.raw`\bfail(?:s|ed|ure)?\b`,
    String.raw`\bdeadlines? (?:is |are )?(?:reached|hit|hits|passes|expires|runs out)`,
  ].join('|'),
  'iu',
);
const NOBODY =
  /\bno[- ]?lynch\b|\bno[- ]?elimination\b|\bno(?: one|body) (?:shall |will |is |dies|gets)|\bnobody dies\b|\bwill not be a lynch\b|\bwithout (?:a )?lynch\b|\bno lynch(?:ing)? (?:will|shall)\b/iu;
const LEADER =
  /\b(?:most|highest number of|greatest number of|highest|greatest)\s+votes?\b.*\b(?:lynched|eliminated|dies|die|killed|executed)\b|\bplurality\b/iu;
const DRAW =
  /\b(?:roll|rolls|rolled|role an?)\b.*\b(?:die|dice|d\d+)\b|\brandom(?:ly)?\b|\bthe gm decides\b|\bmod(?:erator)?'?s? (?:choice|decision)\b/iu;

const TIE = /\bties?\b|\btied\b|\b(?:players?|people) (?:have|has|with) the same (?:number|amount) of votes\b/iu;
const FIRST =
  /\b(?:first|earliest|up longer|longer|sooner)\b.*\b(?:lynched|eliminated|dies|die|goes|served)\b|\b(?:reach|reached|reaching|arrived at|hit|hits|got|gets) (?:that|the|it|this)?\s*(?:tied )?(?:number|total|count|amount)?\s*(?:of votes )?first\b|\bfirst (?:one )?(?:to reach|in the lead|come)\b/iu;
const LAST = /\b(?:last|most recent(?:ly)?)\b.*\b(?:lead|led|leader|ahead|more votes)\b/iu;

/** At most this many of the GM's posts open a thread (a roster post, a rules post, a role list ...). */
const MAX_OPENING_POSTS = 5;

/**
 * The rules of the GM's opening posts: the posts the GM made before anyone else posted (the
 * GM often reserves the first few for the roster and the rules). The first post that states
 * a rule wins it.
 */
export function readOpeningPostsRules(
  posts: readonly { author: string; body: Body }[],
  gm: (author: string) => boolean,
  options: OpeningOptions = {},
): RuleProposal[] {
  const opening: Body[] = [];
  for (const post of posts) {
    if (!gm(post.author) || opening.length >= MAX_OPENING_POSTS) break;
    opening.push(post.body);
  }
  const out: RuleProposal[] = [];
  for (const body of opening)
    for (const found of readOpeningRules(body, options)) if (!out.some((p) => p.rule === found.rule)) out.push(found);
  return out;
}

export function readOpeningRules(body: Body, options: OpeningOptions = {}): RuleProposal[] {
  const out: RuleProposal[] = [];
  for (const sentence of sentencesOf(body)) {
    if (out.length === 3) break;
    const found = TIE.test(sentence) ? tieRule(sentence) : deadlineRule(sentence);
    if (found && !out.some((p) => p.rule === found.rule)) out.push(found);
    const stated = out.some((p) => p.rule === 'threshold') ? null : thresholdRule(sentence, options);
    if (stated) out.push(stated);
  }
  return out;
}

/** A threshold the rules post states that the ruleset's rule does not give (stated once: the rules are said once). */
function thresholdRule(sentence: string, options: OpeningOptions): RuleProposal | null {
  // "At deadline, majority is cut in half" is a deadline rule, not the game's threshold.
  if (DEADLINE.test(sentence)) return null;
  const stated = readStatedThreshold(sentence);
  if (!stated) return null;
  // "votes in play" are not the living: a double voter counts twice.
  const alive = stated.alive ?? (/\bvotes?\s+in\s+play/iu.test(sentence) ? null : (options.living ?? null));
  if (alive === null) return null;
  const rule = statedRule([{ ...stated, alive }], options.threshold ?? { kind: 'majority' }, 1);
  return rule ? { rule: 'threshold', overrides: { threshold: rule }, sentence } : null;
}

function deadlineRule(sentence: string): RuleProposal | null {
  if (!DEADLINE.test(sentence) || !SHORT.test(sentence)) return null;
  const outcomes: Ruleset['shortOfThreshold'][] = [];
  if (DRAW.test(sentence)) outcomes.push('gm');
  else {
    if (LEADER.test(sentence)) outcomes.push('plurality');
    if (NOBODY.test(sentence)) outcomes.push('no-elimination');
  }
  if (outcomes.length !== 1) return null;
  return { rule: 'deadline', overrides: { shortOfThreshold: outcomes[0]! }, sentence };
}

function tieRule(sentence: string): RuleProposal | null {
  const breakers: TieBreaker[] = [];
  if (FIRST.test(sentence)) breakers.push('first-to-reach');
  if (LAST.test(sentence)) breakers.push('last-to-lead');
  const nobody = NOBODY.test(sentence);
  if (breakers.length + (nobody ? 1 : 0) !== 1) return null;
  const ties: Partial<Ruleset['ties']> = nobody ? { breakers: [], then: 'none' } : { breakers };
  return { rule: 'tie', overrides: { ties }, sentence };
}

/** The post's own text as sentences: lines split after ".", "!" or "?"; bounded. */
function sentencesOf(body: Body): string[] {
  const lines = ownText(body).split('\n').slice(0, MAX_LINES);
  return lines.flatMap((line) =>
    line
      .slice(0, MAX_LINE)
      .split(/(?<=[.!?])\s+/u)
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
}
