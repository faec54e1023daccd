import { activePenalties } from './board.js';
import { killSlot } from './apply-life.js';
import type { GameState } from './state.js';
import { livingCount, slotName, withSlot } from './state.js';

/**
 * A permanent penalty vote on a player (a violating post, a missed vote, the GM's word).
 * It counts on the player's wagon from now on. Under `modkill: more-than-living`, gaining
 * one while holding more penalty votes than there are living players mod-kills at once.
 */
export function addPenalty(state: GameState, slot: number, position: number, reason: string): GameState {
  const current = state.slots[slot];
  if (!current?.alive) return state;
  const vote = {
    step: state.step,
    day: state.day,
    duringDay: state.phase.kind === 'open',
    post: position,
    reason,
    forgivenAt: null,
  };
  const s = withSlot(state, slot, { penalties: [...current.penalties, vote] });
  return modkillCheck(s, slot, position);
}

function modkillCheck(state: GameState, slot: number, position: number): GameState {
  if (state.ruleset.penalties.modkill !== 'more-than-living') return state;
  const count = activePenalties(state.slots[slot]!).length;
  const living = livingCount(state);
  if (count <= living) return state;
  const s = killSlot(state, slot, position, 'penalty mod-kill');
  return {
    ...s,
    deaths: [
      ...s.deaths,
      {
        player: slotName(s, slot),
        cause: 'penalty-modkill',
        day: s.day,
        post: position,
        text: `${count} penalty votes, more than the ${living} living players: mod-killed`,
      },
    ],
  };
}

/** Forgiveness: the player's oldest penalty vote that still counts is removed (kept, marked forgiven). */
export function forgiveOldest(state: GameState, slot: number, position: number): GameState {
  const current = state.slots[slot];
  const oldest = current?.penalties.findIndex((p) => p.forgivenAt === null) ?? -1;
  if (!current || oldest < 0) return state;
  return withSlot(state, slot, {
    penalties: current.penalties.map((p, i) => (i === oldest ? { ...p, forgivenAt: position } : p)),
  });
}
