import type { GmEvent } from '../model/event.js';
import { roleRule } from './role-rule.js';
import { findSlot } from './slot-names.js';
import type { GameState } from './state.js';
import { withFlag, withSlot } from './state.js';

type StatusEvent = Extract<GmEvent, { kind: 'status' }>;
type RoleEvent = Extract<GmEvent, { kind: 'role' }>;

/**
 * A status holds until the GM clears it (`clear` lifts every status). What it does is the
 * ruleset's `statuses` rule: the player's vote may stop counting, a lynch of them may fail.
 */
export function applyStatus(state: GameState, event: StatusEvent, position: number): GameState {
  const slot = findSlot(state.slots, event.player);
  const current = slot === undefined ? undefined : state.slots[slot];
  if (slot === undefined || !current) {
    return withFlag(state, {
      post: position,
      player: event.player,
      kind: 'not-a-player',
      raw: `status: ${event.player}`,
    });
  }
  if (event.status === 'clear') return withSlot(state, slot, { statuses: [] });
  if (current.statuses.includes(event.status)) return state;
  return withSlot(state, slot, { statuses: [...current.statuses, event.status] });
}

/** A role the rules react to: its ruleset weight applies at once (a Mayor's two votes); a Hunter's shot waits for a lynch. */
export function applyRole(state: GameState, event: RoleEvent, position: number): GameState {
  const slot = findSlot(state.slots, event.player);
  const current = slot === undefined ? undefined : state.slots[slot];
  if (slot === undefined || !current) {
    return withFlag(state, {
      post: position,
      player: event.player,
      kind: 'not-a-player',
      raw: `role: ${event.player}`,
    });
  }
  const rule = roleRule(state, event.role);
  const weight = rule?.weight === undefined ? {} : { weight: rule.weight, hiddenWeight: rule.hiddenWeight };
  const roles = current.roles.includes(event.role) ? current.roles : [...current.roles, event.role];
  return withSlot(state, slot, { roles, ...weight });
}
