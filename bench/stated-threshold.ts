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
import type { CheckDifference, CountCheck, DeathProposal } from '../src/model/gm-count.js';
import type { Body } from '../src/model/body.js';
import type { RuleProposal } from '../src/parse/opening-rules.js';
import { ownText } from '../src/parse/own-text.js';
import { type StatedThreshold, statedIn, statedRule } from '../src/parse/stated-threshold.js';
import type { ThresholdRule } from '../src/rules/ruleset.js';
import type { ArchiveGame, RawPost } from './donbot-games.js';

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

/**
 * A death a count's stated alive count implies (src/game/death-check.ts), beside the archive:
 * `agrees` when the archive's fate of each candidate's slot (of a proposal: the one player)
 * falls on that Day ("killed Day 2", "Suicided Day 1", the first of two lynches of Day 1:
 * the bench's Day starts with them alive, and only the notes' kills are placed in it);
 * `disagrees` when the slot lives through the Day (the moderator's alive count is the slip).
 */
export interface ImpliedDeath {
  text: string;
  proposal: boolean;
  archive: 'agrees' | 'disagrees';
}

export function scoreImpliedDeaths(found: readonly DeathProposal[], game: ArchiveGame, day: number): ImpliedDeath[] {
  const diedThatDay = (name: string): boolean => {
    const i = game.slots.findIndex((names) => names.some((n) => n.toLowerCase() === name.toLowerCase()));
    const fate = i < 0 ? undefined : /\bday\s*(\d+)/iu.exec(game.fateTexts[i] ?? '');
    return fate !== undefined && fate !== null && Number(fate[1]) === day;
  };
  return found.map((d) => {
    const who = d.player === null ? d.candidates : [d.player];
    return { text: d.text, proposal: d.player !== null, archive: who.some(diedThatDay) ? 'agrees' : 'disagrees' };
  });
}

/** The summary line: how often a count implies a death, and how often the archive agrees. */
export function impliedDeathsSummary(found: readonly ImpliedDeath[]): string {
  const proposals = found.filter((d) => d.proposal);
  const notes = found.filter((d) => !d.proposal);
  const agree = (ds: readonly ImpliedDeath[]) => ds.filter((d) => d.archive === 'agrees').length;
  return `implied deaths: ${proposals.length} proposed (one player left off; the archive has ${agree(proposals)} of them die that Day), ${notes.length} notes of several (the archive has one of the listed die that Day for ${agree(notes)})`;
}
