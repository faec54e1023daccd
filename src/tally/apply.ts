import { applyCheck, applyDeadline } from './apply-clock.js';
import { applyDayEnd, applyDayStart, applyDecide } from './apply-day.js';
import { applyGmVote } from './apply-gm-vote.js';
import { applyLife } from './apply-life.js';
import { applyGmPenalty, applyMissed } from './apply-penalty.js';
import { applyPost } from './apply-post.js';
import { applyReplace } from './apply-replace.js';
import { applyRole, applyStatus } from './apply-status.js';
import { applyWeight } from './apply-weight.js';
import { applyForgiven } from './forgiveness.js';
import type { LogEntry } from './log.js';
import { settle } from './settle.js';
import { trackSoleLead } from './sole-lead.js';
import type { GameState } from './state.js';

/**
 * One step of the fold: apply the event, note who now leads alone (the `last-to-lead` tie
 * rule), then let the rules that end a Day early look at the board.
 */
export function apply(state: GameState, entry: LogEntry): GameState {
  const stepped = { ...state, step: state.step + 1 };
  return settle(trackSoleLead(stepped, applyEvent(stepped, entry), entry.position), entry.position);
}

/**
 * A switch, not a kind-to-applier table: the compiler narrows each case's event, so a wrong
 * applier does not compile (a mapped table typed by `Extract` sees kill/modkill/revive, one
 * schema, as `never` and takes any applier for them).
 */
function applyEvent(state: GameState, { event, position }: LogEntry): GameState {
  switch (event.kind) {
    case 'post':
      return applyPost(state, event);
    case 'day-start':
      return applyDayStart(state, event, position);
    case 'day-end':
      return applyDayEnd(state, event, position);
    case 'deadline':
      return applyDeadline(state, event, position);
    case 'check':
      return applyCheck(state, event, position);
    case 'decide':
      return applyDecide(state, event, position);
    case 'kill':
    case 'modkill':
    case 'revive':
      return applyLife(state, event, position);
    case 'replace':
      return applyReplace(state, event, position);
    case 'weight':
      return applyWeight(state, event, position);
    case 'vote':
      return applyGmVote(state, event, position);
    case 'status':
      return applyStatus(state, event, position);
    case 'role':
      return applyRole(state, event, position);
    case 'penalty':
      return applyGmPenalty(state, event, position);
    case 'forgiven':
      return applyForgiven(state, event, position);
    case 'missed':
      return applyMissed(state, event, position);
  }
}
