import type { RoleRule } from '../rules/ruleset.js';
import type { GameState } from './state.js';

/** The ruleset's rule for a role, matched case-insensitively ("Hunter" = "hunter"). */
export function roleRule(state: GameState, role: string): RoleRule | undefined {
  const key = role.toLowerCase();
  return Object.entries(state.ruleset.roles).find(([name]) => name.toLowerCase() === key)?.[1];
}
