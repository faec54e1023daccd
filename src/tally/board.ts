import type { Board, GameState } from './state.js';

/** Who counts right now: the living and their weights (frozen once the Day is closed). */
export function boardOf(state: GameState): Board {
  if (state.phase.kind === 'closed') return state.phase.board;
  return liveBoard(state);
}

export function liveBoard(state: GameState): Board {
  const living: number[] = [];
  state.slots.forEach((s, i) => { if (s.alive) living.push(i); });
  return { living, weights: state.slots.map((s) => s.weight) };
}
