import type { GmEvent } from '../model/event.js';
import { activePenalties } from './board.js';
import { forgiveOldest } from './penalties.js';
import { findSlot } from './slot-names.js';
import type { GameState } from './state.js';
import { slotName, withFlag } from './state.js';

type ForgivenEvent = Extract<GmEvent, { kind: 'forgiven' }>;

/** A forgive count of the current Night: target slot -> voters (living, in vote order). */
export function forgiveCounts(state: GameState): Map<number, number[]> {
  const counts = new Map<number, number[]>();
  const votes = [...state.forgiveVotes]
    .filter(([voter]) => state.slots[voter]?.alive)
    .sort((a, b) => a[1].post - b[1].post);
  for (const [voter, vote] of votes) {
    if (!state.slots[vote.target]?.alive || activePenalties(state.slots[vote.target]!).length === 0) continue;
    counts.set(vote.target, [...(counts.get(vote.target) ?? []), voter]);
  }
  return counts;
}

/**
 * The Night ends (a `day-start`): the player with the most forgive votes loses their
 * oldest penalty vote; a tie forgives no one. A GM `forgiven` ruling recorded during the
 * Night replaces the count. Returns the new state and what to tell the new Day.
 */
export function resolveForgiveness(state: GameState, position: number): { state: GameState; note: string | null } {
  if (state.forgivenRuling !== null) return { state, note: state.forgivenRuling };
  if (!state.ruleset.sideRules.forgive) return { state, note: null };
  const counts = [...forgiveCounts(state)].sort((a, b) => b[1].length - a[1].length);
  const [first, second] = counts;
  if (!first) return { state, note: null };
  const night = `Night ${state.day} forgiveness`;
  const tally = counts.map(([slot, voters]) => `${slotName(state, slot)} ${voters.length}`).join(', ');
  if (second && second[1].length === first[1].length)
    return { state, note: `${night} (${tally}): a tie, no one is forgiven` };
  const oldest = activePenalties(state.slots[first[0]]!)[0]!;
  return {
    state: forgiveOldest(state, first[0], position),
    note: `${night} (${tally}): ${slotName(state, first[0])} loses their oldest penalty vote (${oldest.reason})`,
  };
}

/** The GM's forgiveness result for the Night: it applies now, and the Night's count is not used. */
export function applyForgiven(state: GameState, event: ForgivenEvent, position: number): GameState {
  if (event.player === null)
    return { ...state, forgivenRuling: `Night ${state.day} forgiveness (GM): no one is forgiven` };
  const slot = findSlot(state.slots, event.player);
  if (slot === undefined) {
    return withFlag(state, {
      post: position,
      player: event.player,
      kind: 'not-a-player',
      raw: `forgiven: ${event.player}`,
    });
  }
  const oldest = activePenalties(state.slots[slot]!)[0];
  const note = oldest
    ? `Night ${state.day} forgiveness (GM): ${slotName(state, slot)} loses their oldest penalty vote (${oldest.reason})`
    : `Night ${state.day} forgiveness (GM): ${slotName(state, slot)} has no penalty vote to lose`;
  return { ...forgiveOldest(state, slot, position), forgivenRuling: note };
}
