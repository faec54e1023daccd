import type { EngineId } from '../model/engine.js';
import type { Roster } from '../model/roster.js';
import type { Tally } from '../model/tally.js';
import type { Ruleset } from '../rules/ruleset.js';
import { apply } from './apply.js';
import { orderLog, type TallyEvent } from './log.js';
import { initialState } from './state.js';
import { toTally } from './tally-view.js';

export interface CountInput {
  ruleset: Ruleset;
  roster: Roster;
  /** Posts and GM events in any order; they are put in thread order first. */
  events: readonly TallyEvent[];
  engine?: EngineId | null;
  /** Count this Day: the fold stops at the start of any later Day. Default: the Day the log reaches. */
  day?: number;
  /** Count as at this post: posts after it, and GM events placed after it, are left out. */
  toPost?: number;
}

/**
 * The vote count: a pure fold of the ordered log over the game state. No clock, no I/O;
 * the same input always gives the same Tally, so "the count as at post N" is a cut of the log.
 */
export function countVotes(input: CountInput): Tally {
  const { entries, corrections } = orderLog(input.events);
  let state = initialState(input.ruleset, input.roster, corrections);
  for (const entry of entries) {
    if (input.toPost !== undefined && entry.position > input.toPost) break;
    if (input.day !== undefined && entry.event.kind === 'day-start' && entry.event.day > input.day) break;
    state = apply(state, entry);
  }
  return toTally(state, input.engine ?? null);
}
