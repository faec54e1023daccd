import { liveBoard } from './board.js';
import { closeDay } from './close-day.js';
import { describeStanding, keywordStandings } from './side-votes.js';
import type { GameState } from './state.js';
import { thresholdOf } from './threshold.js';
import { standingsOf, wagonAtThreshold } from './wagons.js';

/**
 * Rules that end the Day before the deadline, checked after every event while the Day
 * is open (a kill lowers the threshold, so it can complete a wagon too): a wagon at the
 * threshold (`endsAtThreshold`), unanimous-minus-N (`earlyEnd`), and side votes whose
 * rule applies `always`.
 */
export function settle(state: GameState, position: number): GameState {
  if (state.phase.kind !== 'open') return state;
  const { ruleset } = state;
  const keywordRules = ruleset.sideRules.hammer?.when === 'always' || ruleset.sideRules.filibuster?.when === 'always';
  if (!ruleset.endsAtThreshold && !ruleset.earlyEnd && !keywordRules) return state;
  const board = liveBoard(state);

  if (keywordRules) {
    const ending = keywordStandings(state, board).find(
      (k) => k.rule.when === 'always' && k.rule.effect === 'end-day' && k.met,
    );
    if (ending) return closeDay(state, position, describeStanding(ending, board.living.length));
  }
  if (!ruleset.endsAtThreshold && !ruleset.earlyEnd) return state;
  const standings = standingsOf(state, board);
  const top = standings[0];
  const total = top?.total ?? 0;
  if (ruleset.endsAtThreshold) {
    const at = wagonAtThreshold(state, board);
    if (at) {
      const needs = thresholdOf(ruleset, board.living.length, at.target.kind === 'no-lynch').votes;
      return closeDay(state, position, `${at.name} reached ${needs}`, true);
    }
  }
  if (ruleset.earlyEnd !== undefined && total >= Math.max(1, board.living.length - ruleset.earlyEnd.allBut)) {
    return closeDay(
      state,
      position,
      `${top!.name} has ${total} of ${board.living.length} living: all but ${ruleset.earlyEnd.allBut}`,
    );
  }
  return state;
}
