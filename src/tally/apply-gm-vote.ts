import type { GmEvent } from '../model/event.js';
import type { FlagKind } from '../model/tally.js';
import { findSlot } from './slot-names.js';
import type { GameState } from './state.js';
import { slotName, withFlag, withVote } from './state.js';
import { resolveTarget, sameTarget } from './vote-target.js';

type GmVoteEvent = Extract<GmEvent, { kind: 'vote' }>;

/**
 * A vote the GM enters by hand (hidden-vote games, votes sent by PM). It obeys the same
 * rules as a posted vote; target null is an unvote.
 */
export function applyGmVote(state: GameState, event: GmVoteEvent, position: number): GameState {
  const raw = `GM vote: ${event.player} -> ${event.target ?? '(unvote)'}`;
  const voter = findSlot(state.slots, event.player);
  if (voter === undefined) return withFlag(state, { post: position, player: event.player, kind: 'not-a-player', raw });
  const flag = (kind: FlagKind) =>
    withFlag(state, { post: position, player: slotName(state, voter), kind, raw });
  if (!state.slots[voter]?.alive) return flag('vote-by-dead');
  if (state.phase.kind === 'closed') return flag('vote-after-decision');
  if (event.target === null) return withVote(state, voter, null);

  const target = resolveTarget(state, event.target);
  if (!target) return flag('unknown-target');
  if (target.kind === 'slot' && !state.slots[target.slot]?.alive) return flag('vote-for-dead');
  const standing = state.votes.get(voter);
  if (standing && sameTarget(standing.target, target)) return state;
  return withVote(state, voter, { target, post: position, permalink: null, source: 'gm' });
}
