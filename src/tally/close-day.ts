import type { Explanation } from '../model/tally.js';
import { killSlot } from './apply-life.js';
import { liveBoard, voteBlockedBy } from './board.js';
import { dayOutcome } from './day-outcome.js';
import { addPenalty } from './penalties.js';
import type { GameState } from './state.js';
import { slotName, withFlag, withSlot } from './state.js';
import { holdForWaitingVotes } from './waiting-votes.js';

/**
 * Closes the Day at `position` (`why`: what ended it). First the consequences of a missed
 * vote, "effective immediately on that Day's final vote count" (penalty votes, mod-kills,
 * flags, blocked powers); then the board freezes and the outcome is fixed; then the
 * inactivity rule counts the Day (and may kill, or make a player inactive). `early`: a rule
 * ended the Day before its deadline (a wagon at the threshold), which unread votes may undo.
 */
export function closeDay(state: GameState, position: number, why: string, early = false): GameState {
  if (state.phase.kind === 'closed') return state;
  const missing = missingVoters(state);
  let s = missedVoteConsequences(state, missing, position);
  const board = liveBoard(s);
  const explain: Explanation[] = [{ post: position, text: `Day ${s.day} ends: ${why}` }];
  const outcome = holdForWaitingVotes(s, board, dayOutcome(s, board, position, explain), position, early);
  s = { ...s, phase: { kind: 'closed', board, outcome } };
  return countInactivity(s, missing, position);
}

/**
 * Living players without a vote when the Day ends: no lynch vote (player, No Lynch or
 * abstain) and no veto that counts as a vote. Players whose status forbids voting, and
 * inactive players (a token holder votes for them), are not to blame.
 */
function missingVoters(state: GameState): number[] {
  const vetoCounts = state.ruleset.sideRules.veto?.countsAsVote ?? false;
  return state.slots.flatMap((slot, i) => {
    if (!slot.alive || slot.inactive || voteBlockedBy(state.ruleset, slot)) return [];
    if (state.votes.has(i)) return [];
    if (vetoCounts && state.vetoes.some((v) => v.by === i)) return [];
    return [i];
  });
}

function missedVoteConsequences(state: GameState, missing: readonly number[], position: number): GameState {
  const rule = state.ruleset.missingVote;
  let s = state;
  for (const i of missing) {
    const raw = `no vote at the end of Day ${s.day}`;
    if (rule.flag) s = withFlag(s, { post: position, player: slotName(s, i), kind: 'missing-vote', raw });
    if (rule.penalty) s = addPenalty(s, i, position, raw);
    if (rule.blocksPowers && !s.powersBlocked.includes(i)) s = { ...s, powersBlocked: [...s.powersBlocked, i] };
  }
  return s;
}

/** The Day counts for the inactivity rule: a miss for those without a vote; a vote ends a streak. */
function countInactivity(state: GameState, missing: readonly number[], position: number): GameState {
  const rule = state.ruleset.inactivity;
  if (!rule) return state;
  let s = state;
  state.slots.forEach((slot, i) => {
    if (!slot.alive || slot.inactive || missing.includes(i)) return;
    if (rule.counting === 'consecutive' && slot.missed > 0) s = withSlot(s, i, { missed: 0 });
  });
  for (const i of missing) s = registerMiss(s, i, position, `Day ${s.day} without a vote`);
  return s;
}

/**
 * One missed phase (a Day without a vote, or a GM `missed` event for a Night). At the
 * ruleset's count the player dies (their spirit destroyed) or goes inactive.
 */
export function registerMiss(state: GameState, slot: number, position: number, what: string): GameState {
  const rule = state.ruleset.inactivity;
  const current = state.slots[slot];
  if (!rule || !current?.alive || current.inactive) return state;
  const missed = current.missed + 1;
  let s = withSlot(state, slot, { missed });
  if (missed < rule.after) return s;
  const name = slotName(s, slot);
  const streak = rule.counting === 'consecutive' ? `${missed} in a row` : `${missed} in all`;
  // Who went inactive is not announced: the GM view lists them (`inactive`), the public sees "Token".
  if (rule.becomes === 'inactive') return withSlot(s, slot, { inactive: true });
  s = killSlot(s, slot, position, 'inactivity');
  return {
    ...s,
    deaths: [
      ...s.deaths,
      {
        player: name,
        cause: 'inactivity',
        day: s.day,
        post: position,
        text: `missed phases: ${streak} (latest: ${what})`,
      },
    ],
  };
}
