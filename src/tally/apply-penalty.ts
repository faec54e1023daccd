import type { GmEvent } from '../model/event.js';
import { registerMiss } from './close-day.js';
import { addPenalty } from './penalties.js';
import { findSlot } from './slot-names.js';
import type { GameState } from './state.js';
import { withFlag } from './state.js';

type PenaltyEvent = Extract<GmEvent, { kind: 'penalty' }>;
type MissedEvent = Extract<GmEvent, { kind: 'missed' }>;

/** A penalty vote the GM gives by hand; it counts like any other (mod-kill included). */
export function applyGmPenalty(state: GameState, event: PenaltyEvent, position: number): GameState {
  const slot = findSlot(state.slots, event.player);
  if (slot === undefined) {
    return withFlag(state, {
      post: position,
      player: event.player,
      kind: 'not-a-player',
      raw: `penalty: ${event.player}`,
    });
  }
  return addPenalty(state, slot, position, `GM: ${event.reason}`);
}

/** A phase the player sent the GM nothing in (a Night): one more miss for the inactivity rule. */
export function applyMissed(state: GameState, event: MissedEvent, position: number): GameState {
  const slot = findSlot(state.slots, event.player);
  if (slot === undefined) {
    return withFlag(state, {
      post: position,
      player: event.player,
      kind: 'not-a-player',
      raw: `missed: ${event.player}`,
    });
  }
  return registerMiss(state, slot, position, `a phase with nothing sent (after post ${position})`);
}
