import { liveBoard } from './board.js';
import type { GameState } from './state.js';
import { targetKey } from './vote-target.js';
import { standingsOf } from './wagons.js';

/**
 * The `last-to-lead` tie rule's memory: after each event of an open Day that moved the
 * board (a vote, a kill, a penalty vote, a veto, a weight), the target that now leads
 * alone (strictly more than every other, above 0) is stamped with the event's step. Only
 * under a ruleset that uses the rule, and only when the board changed: a post without a
 * vote costs nothing, one that moves a vote costs one standings pass (as `settle` does).
 */
export function trackSoleLead(before: GameState, after: GameState, position: number): GameState {
  if (after.phase.kind !== 'open' || !after.ruleset.ties.breakers.includes('last-to-lead')) return after;
  if (after.votes === before.votes && after.slots === before.slots && after.vetoes === before.vetoes) return after;
  const [first, second] = standingsOf(after, liveBoard(after));
  if (!first || first.total <= 0 || (second && second.total >= first.total)) return after;
  const key = targetKey(first.target);
  if (after.leads.get(key)?.step === after.step) return after;
  const leads = new Map(after.leads);
  leads.set(key, { step: after.step, post: position });
  return { ...after, leads };
}
