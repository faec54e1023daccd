import type { ActionKind } from '../model/action.js';

/** What the vote grammar returns (see `vote-grammar.ts`); its own file so every rung's file can name them. */

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
  /**
   * A doubtful vote written in the vote's own form, its colon after the keyword ("**Confirm
   * vote: gandy**", "**Vig-vote: Elsa**"): whatever the name, the GM hears of it.
   */
  colon?: true;
  /** The explicit marker the action was written with: "##vote" (`hash`) or a typed `[vote]` tag. */
  marker?: 'hash' | 'tag';
  /**
   * A colonless vote or unvote opening a later clause of bold talk ("**Cross fingers, vote
   * Bob.**"): counted when its target names someone, dropped when it names nobody ("**Day
   * 2. Vote counts follow.**" is not a vote for "counts follow", "**Unvote the heck up.**"
   * no unvote).
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
export type RejectReason =
  | 'not-bold'
  | 'no-colon'
  | 'not-own-line'
  | 'in-spoiler'
  | 'no-marker'
  | 'quoted'
  | 'announced';

export interface RejectedAction {
  reason: RejectReason;
  raw: string;
  span: TextSpan;
}

export interface GrammarReading {
  actions: WrittenAction[];
  rejected: RejectedAction[];
}
