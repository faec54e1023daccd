/**
 * The real-games bench's GM and the thresholds the moderators state (issue #24): "With 7
 * alive, it takes 4 to lynch" in their vote counts. A threshold stated repeatedly that the
 * ruleset cannot produce from the stated alive counts is proposed (src/parse/stated-threshold.ts
 * `statedRule`, as src/game/threshold-check.ts proposes it from the counts Votal reads) and
 * the GM accepts it for the game, as the opening posts' rules proposals are accepted. The
 * statements are read from every moderator post of the game (their counts and rules posts):
 * the GM would accept the proposal once the counts show it, the bench sets it from Day 1.
 *
 * The checks' `threshold` differences (the stated alive count or threshold differs from
 * Votal's) are kept apart from the vote differences: they say nothing of the votes, and the
 * counts-matched figure stays about the votes.
 */
import type { CheckDifference, CountCheck } from '../src/model/gm-count.js';
import type { Body } from '../src/model/body.js';
import type { RuleProposal } from '../src/parse/opening-rules.js';
import { ownText } from '../src/parse/own-text.js';
import { type StatedThreshold, statedIn, statedRule } from '../src/parse/stated-threshold.js';
import type { ThresholdRule } from '../src/rules/ruleset.js';
import type { RawPost } from './donbot-games.js';

/** The game's stated-threshold proposal, or null (the statements fit the ruleset, are too few, or disagree). */
export function statedThresholdProposal(
  posts: readonly RawPost[],
  isHost: (author: string) => boolean,
  bodyOf: (p: RawPost) => Body,
  own: ThresholdRule,
): RuleProposal | null {
  const statements: StatedThreshold[] = [];
  for (const p of posts) {
    // A cheap look before the body is built: most posts state nothing.
    if (!isHost(p.user) || !/lynch/iu.test(p.content)) continue;
    const found = statedIn(ownText(bodyOf(p)).split('\n'));
    if (found) statements.push(found);
  }
  const rule = statedRule(statements, own);
  if (rule === null) return null;
  const first = statements.find((s) => s.alive !== null)!;
  return { rule: 'threshold', overrides: { threshold: rule }, sentence: first.sentence };
}

/** A count's vote differences, its `threshold` ones set apart. */
export function apartStated(counts: readonly CountCheck[]): { counts: CountCheck[]; stated: CheckDifference[] } {
  return {
    counts: counts.map((c) => ({ ...c, differences: c.differences.filter((d) => d.kind !== 'threshold') })),
    stated: counts.flatMap((c) => c.differences.filter((d) => d.kind === 'threshold')),
  };
}

/** The summary line: how many counts' stated numbers differ from Votal's, and how. */
export function statedSummary(stated: readonly CheckDifference[], games: number): string {
  const alive = stated.filter((d) => / alive and .*; Votal has /u.test(d.text)).length;
  const needs = stated.filter((d) => /needs \d+$/u.test(d.text)).length;
  return `stated thresholds: ${stated.length} counts state an alive count or threshold that differs from Votal's (${alive} the alive count, ${needs} the threshold); ${games} games' stated threshold accepted as the game's`;
}
