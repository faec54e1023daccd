import type { Outcome, Wagon } from '../model/tally.js';
import { liveBoard } from './board.js';
import type { Board, GameState } from './state.js';
import { thresholdFor } from './threshold.js';
import { leadersOf, wagonsOf } from './wagons.js';

/**
 * How the Day ends on this board, as decided at `position` (the threshold, an early end
 * or the deadline). `decidedAt` stays null while the GM still has to decide (a tie, or
 * a ruleset that defers to the GM or a Judge).
 */
export function dayOutcome(state: GameState, board: Board, position: number): Outcome {
  const { ruleset } = state;
  const threshold = thresholdFor(ruleset.threshold, board.living.length);
  const wagons = wagonsOf(state, board, threshold);
  const leaders = leadersOf(wagons);
  const reached = threshold.votes !== null && (wagons[0]?.total ?? 0) >= threshold.votes;

  const pending: Outcome = { status: 'ended', eliminated: [], decidedAt: null, leaders };
  const nobody: Outcome = { status: 'no-lynch', eliminated: [], decidedAt: position, leaders };

  const mode = reached || threshold.kind === 'plurality' ? 'plurality' : ruleset.shortOfThreshold;
  if (mode === 'gm') return pending;
  if (mode === 'no-elimination' || leaders.length === 0) return nobody;
  if (leaders.length > 1) return { status: 'tie', eliminated: [], decidedAt: null, leaders };

  const winner = wagons[0] as Wagon;
  if (ruleset.noLynch && winner.target === ruleset.noLynch.name) {
    return ruleset.noLynch.wins === 'gm' ? pending : nobody;
  }
  return { status: reached ? 'majority' : 'ended', eliminated: [winner.target], decidedAt: position, leaders };
}

/** Closes the Day at `position`: the board freezes and the outcome is fixed. */
export function closeDay(state: GameState, position: number): GameState {
  if (state.phase.kind === 'closed') return state;
  const board = liveBoard(state);
  return { ...state, phase: { kind: 'closed', board, outcome: dayOutcome(state, board, position) } };
}

/**
 * Rules that end the Day before the deadline, checked after every event while the Day
 * is open (a kill lowers the threshold, so it can complete a wagon too).
 */
export function settle(state: GameState, position: number): GameState {
  if (state.phase.kind !== 'open') return state;
  const { ruleset } = state;
  if (!ruleset.endsAtThreshold && !ruleset.earlyEnd) return state;
  const board = liveBoard(state);
  const threshold = thresholdFor(ruleset.threshold, board.living.length);
  const top = wagonsOf(state, board, threshold)[0]?.total ?? 0;
  const atThreshold = ruleset.endsAtThreshold && threshold.votes !== null && top >= threshold.votes;
  const early = ruleset.earlyEnd !== undefined && top >= Math.max(1, board.living.length - ruleset.earlyEnd.allBut);
  return atThreshold || early ? closeDay(state, position) : state;
}
