import type { GmEvent } from '../model/event.js';
import { findSlot, nameKey } from './slot-names.js';
import type { GameState } from './state.js';
import { withFlag, withSlot } from './state.js';

type ReplaceEvent = Extract<GmEvent, { kind: 'replace' }>;

/**
 * A replacement renames the slot: `by` becomes the canonical name and the old name joins
 * formerNames, so votes by or for either name keep counting for the same slot.
 */
export function applyReplace(state: GameState, event: ReplaceEvent, position: number): GameState {
  const slot = findSlot(state.slots, event.player);
  const current = slot === undefined ? undefined : state.slots[slot];
  if (slot === undefined || !current) {
    return withFlag(state, {
      post: position,
      player: event.player,
      kind: 'not-a-player',
      raw: `replace: ${event.player} by ${event.by}`,
    });
  }
  if (nameKey(current.name) === nameKey(event.by)) return state;
  return withSlot(state, slot, {
    name: event.by,
    formerNames: [...current.formerNames.filter((n) => nameKey(n) !== nameKey(event.by)), current.name],
  });
}
