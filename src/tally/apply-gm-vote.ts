import type { GmEvent } from '../model/event.js';
import type { FlagKind } from '../model/tally.js';
import { castVote } from './cast-vote.js';
import { findSlot } from './slot-names.js';
import type { GameState } from './state.js';
import { slotName, withFlag, withVote, withWaiting } from './state.js';

type GmVoteEvent = Extract<GmEvent, { kind: 'vote' }>;

/**
 * A vote the GM enters by hand (hidden-vote games, votes sent by PM, a token holder's
 * vote for an inactive player). It obeys the same rules as a posted vote; target null is
 * an unvote; `hidden` keeps the voter's name out of the public view.
 */
export function applyGmVote(state: GameState, event: GmVoteEvent, position: number): GameState {
  const raw = `GM vote: ${event.player} -> ${event.target ?? '(unvote)'}`;
  const voter = findSlot(state.slots, event.player);
  if (voter === undefined) return withFlag(state, { post: position, player: event.player, kind: 'not-a-player', raw });
  const refuse = (s: GameState, kind: FlagKind) =>
    withFlag(s, { post: position, player: slotName(s, voter), kind, raw });
  if (!state.slots[voter]?.alive) return refuse(state, 'vote-by-dead');
  if (state.phase.kind === 'closed') return refuse(state, 'vote-after-decision');
  // The GM's vote for the player answers any vote of theirs still waiting to be read.
  const answered = withWaiting(state, voter, null);
  if (event.target === null) return withVote(answered, voter, null);
  const cast = { post: position, permalink: null, source: 'gm' as const, ...(event.hidden ? { hidden: true } : {}) };
  return castVote(answered, voter, event.target, cast, refuse);
}
