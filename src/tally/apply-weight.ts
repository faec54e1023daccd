import type { GmEvent } from '../model/event.js';
import { findSlot } from './slot-names.js';
import type { GameState } from './state.js';
import { withFlag, withSlot } from './state.js';

type WeightEvent = Extract<GmEvent, { kind: 'weight' }>;

/** A slot's vote weight (a Mayor's vote counts twice); it applies to the standing vote too. */
export function applyWeight(state: GameState, event: WeightEvent, position: number): GameState {
  const slot = findSlot(state.slots, event.player);
  if (slot === undefined) {
    return withFlag(state, {
      post: position,
      player: event.player,
      kind: 'not-a-player',
      raw: `weight: ${event.player} ${event.weight}`,
    });
  }
  return withSlot(state, slot, { weight: event.weight, hiddenWeight: event.hidden });
}
