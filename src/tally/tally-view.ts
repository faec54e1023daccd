import type { EngineId } from '../model/engine.js';
import type { Tally } from '../model/tally.js';
import { boardOf } from './board.js';
import type { GameState } from './state.js';
import { slotName } from './state.js';
import { thresholdFor } from './threshold.js';
import { leadersOf, wagonsOf } from './wagons.js';

/** The state as the `Tally` contract shows it (`votal count --format json`). */
export function toTally(state: GameState, engine: EngineId | null): Tally {
  const board = boardOf(state);
  const threshold = thresholdFor(state.ruleset.threshold, board.living.length);
  const wagons = wagonsOf(state, board, threshold);
  const outcome = state.phase.kind === 'closed'
    ? state.phase.outcome
    : { status: 'open' as const, eliminated: [], decidedAt: null, leaders: leadersOf(wagons) };
  return {
    engine,
    ruleset: state.ruleset.name,
    day: state.day,
    postsRead: state.postsRead,
    asOfPost: state.asOfPost,
    living: board.living.length,
    players: board.living.map((i) => slotName(state, i)),
    threshold,
    wagons,
    notVoting: board.living.filter((i) => !state.votes.has(i)).map((i) => slotName(state, i)),
    violations: [...state.violations],
    flags: [...state.flags],
    outcome,
  };
}
