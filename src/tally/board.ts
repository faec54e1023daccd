import type { Ruleset } from '../rules/ruleset.js';
import type { Board, GameState, PenaltyVote, SlotState, Status } from './state.js';

/** Who counts right now: the living and their slots (frozen once the Day is closed). */
export function boardOf(state: GameState): Board {
  if (state.phase.kind === 'closed') return state.phase.board;
  return liveBoard(state);
}

export function liveBoard(state: GameState): Board {
  const living: number[] = [];
  state.slots.forEach((s, i) => {
    if (s.alive) living.push(i);
  });
  return { living, slots: state.slots };
}

/** The first status in force whose rule says the player's vote does not count (arrested, poisoned ...). */
export function voteBlockedBy(ruleset: Ruleset, slot: SlotState): Status | null {
  return slot.statuses.find((s) => ruleset.statuses[s]?.voteCounts === false) ?? null;
}

/** The first status in force that makes a lynch of this player fail. */
export function lynchShieldOf(ruleset: Ruleset, slot: SlotState): Status | null {
  return slot.statuses.find((s) => ruleset.statuses[s]?.shieldsFromLynch === true) ?? null;
}

/** Penalty votes that count now (forgiven ones do not). */
export function activePenalties(slot: SlotState): readonly PenaltyVote[] {
  return slot.penalties.filter((p) => p.forgivenAt === null);
}
