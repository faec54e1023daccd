import type { GmEvent } from '../model/event.js';
import { findSlot } from './slot-names.js';
import type { GameState } from './state.js';
import { slotName, withFlag, withSideVote, withSlot, withVote } from './state.js';

type LifeEvent = Extract<GmEvent, { kind: 'kill' | 'revive' | 'modkill' }>;

/** Kill, modkill, revive, as the GM records them. */
export function applyLife(state: GameState, event: LifeEvent, position: number): GameState {
  const slot = findSlot(state.slots, event.player);
  if (slot === undefined) {
    return withFlag(state, {
      post: position,
      player: event.player,
      kind: 'not-a-player',
      raw: `${event.kind}: ${event.player}`,
    });
  }
  if (event.kind === 'revive') {
    // Revived after the Day was decided: the Day's elimination does not bury them at day-start.
    const s = withSlot(state, slot, { alive: true });
    return state.phase.kind === 'closed' ? { ...s, revivedAtNight: [...s.revivedAtNight, slot] } : s;
  }
  return killSlot(state, slot, position, event.kind);
}

/**
 * A death (a GM kill, or one the rules cause). During an open Day the dead player's vote
 * leaves the board and votes on them are dropped, each with a `vote-for-dead` flag so the
 * voters (and the GM) see why their vote vanished; their side votes go too. On a closed
 * Day only the alive mark changes: the Day's count is frozen.
 */
export function killSlot(state: GameState, slot: number, position: number, cause: string): GameState {
  if (!state.slots[slot]?.alive) return state;
  let s = withSlot(state, slot, { alive: false });
  if (s.phase.kind !== 'open') return s;
  s = withVote(s, slot, null);
  s = withSideVote(withSideVote(s, 'hammer', slot, null), 'filibuster', slot, null);
  for (const [voter, vote] of s.votes) {
    if (vote.target.kind !== 'slot' || vote.target.slot !== slot) continue;
    s = withVote(s, voter, null);
    s = withFlag(s, {
      post: vote.post,
      player: slotName(s, voter),
      kind: 'vote-for-dead',
      raw: `vote for ${slotName(s, slot)} dropped: ${cause} after post ${position}`,
    });
  }
  return s;
}
