import type { KeywordRule } from '../rules/ruleset.js';
import type { Board, GameState, KeywordKind } from './state.js';

export interface KeywordStanding {
  readonly kind: KeywordKind;
  readonly rule: KeywordRule;
  /** Living slots standing on it, in the order of their side vote. */
  readonly voters: readonly number[];
  /** At least this many of the living: ceil(living * numerator / denominator), never below 1. */
  readonly needs: number;
  readonly met: boolean;
}

const KINDS: readonly KeywordKind[] = ['hammer', 'filibuster'];

/**
 * The Hammer / Filibuster counts on the board: heads, not vote weights ("at least half
 * the living players are voting for Hammer").
 */
export function keywordStandings(state: GameState, board: Board): KeywordStanding[] {
  return KINDS.flatMap((kind) => {
    const rule = state.ruleset.sideRules[kind];
    if (!rule) return [];
    const cast = state.sideVotes[kind];
    const voters = board.living.filter((i) => cast.has(i)).sort((a, b) => cast.get(a)!.post - cast.get(b)!.post);
    const needs = Math.max(1, Math.ceil((board.living.length * rule.atLeast.numerator) / rule.atLeast.denominator));
    return [{ kind, rule, voters, needs, met: voters.length >= needs }];
  });
}

export function describeStanding(k: KeywordStanding, living: number): string {
  const label = k.kind === 'hammer' ? 'Hammer' : 'Filibuster';
  return `${label}: ${k.voters.length} of ${living} living (needs ${k.needs})`;
}
