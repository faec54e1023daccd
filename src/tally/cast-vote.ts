import type { FlagKind } from '../model/tally.js';
import type { CastVote, GameState } from './state.js';
import { withVote } from './state.js';
import { resolveTarget, sameTarget } from './vote-target.js';

/** Turns a rule that refuses a vote into a flag at the vote's post. */
export type Refuse = (state: GameState, kind: FlagKind) => GameState;

/**
 * A lynch vote by a living player on an open Day, posted or entered by the GM: the same
 * rules for both. A vote that cannot count leaves the standing vote as it was, with a
 * flag saying why (unknown name, dead target, a refused self-vote, No Lynch on a Day it is
 * not allowed). Voting again for the same target keeps the earlier vote (and its place).
 */
export function castVote(
  state: GameState,
  voter: number,
  written: string | null,
  cast: Omit<CastVote, 'target'>,
  refuse: Refuse,
): GameState {
  const target = written === null ? undefined : resolveTarget(state, written);
  if (!target) return refuse(state, written === null ? 'malformed-vote' : 'unknown-target');
  const { ruleset } = state;
  if (target.kind === 'slot') {
    if (!state.slots[target.slot]?.alive) return refuse(state, 'vote-for-dead');
    if (target.slot === voter && ruleset.selfVote === 'refused') return refuse(state, 'self-vote');
  }
  if (target.kind === 'no-lynch' && ruleset.noLynch?.days && !ruleset.noLynch.days.includes(state.day)) {
    return refuse(state, 'no-lynch-not-allowed');
  }
  const standing = state.votes.get(voter);
  if (standing && sameTarget(standing.target, target)) return state;
  return withVote(state, voter, { target, ...cast });
}
