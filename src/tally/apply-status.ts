import type { GmEvent } from '../model/event.js';
import { findSlot } from './slot-names.js';
import type { GameState } from './state.js';
import { withFlag, withSlot } from './state.js';

type StatusEvent = Extract<GmEvent, { kind: 'status' }>;
type RoleEvent = Extract<GmEvent, { kind: 'role' }>;

/** Recorded for rules that react to them (arrested votes do not count, a Hunter shoots); v1 only keeps them. */
export function applyStatus(state: GameState, event: StatusEvent, position: number): GameState {
  const slot = findSlot(state.slots, event.player);
  if (slot === undefined) {
    return withFlag(state, { post: position, player: event.player, kind: 'not-a-player', raw: `status: ${event.player}` });
  }
  return withSlot(state, slot, { status: event.status === 'clear' ? null : event.status });
}

export function applyRole(state: GameState, event: RoleEvent, position: number): GameState {
  const slot = findSlot(state.slots, event.player);
  const current = slot === undefined ? undefined : state.slots[slot];
  if (slot === undefined || !current) {
    return withFlag(state, { post: position, player: event.player, kind: 'not-a-player', raw: `role: ${event.player}` });
  }
  return current.roles.includes(event.role) ? state : withSlot(state, slot, { roles: [...current.roles, event.role] });
}
