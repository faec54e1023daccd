import type { GmEvent } from '../model/event.js';
import { closeDay } from './day-outcome.js';
import type { GameState } from './state.js';
import { withFlag } from './state.js';
import { resolveTarget, targetName } from './vote-target.js';

type DayStart = Extract<GmEvent, { kind: 'day-start' }>;
type Decide = Extract<GmEvent, { kind: 'decide' }>;

/** A new Day: votes, flags and violations start over; slots (alive, weights, names) carry on. */
export function applyDayStart(state: GameState, event: DayStart): GameState {
  return { ...state, day: event.day, phase: { kind: 'open' }, votes: new Map(), flags: [], violations: [] };
}

/** The deadline: the outcome is decided on the board as it stands (no-op if already closed). */
export function applyDayEnd(state: GameState, position: number): GameState {
  return closeDay(state, position);
}

/**
 * The GM's or a Judge's decision (a tie, a Sleep majority, a day without majority). It
 * closes the Day if still open and replaces the outcome; nobody named = nobody eliminated.
 */
export function applyDecide(state: GameState, event: Decide, position: number): GameState {
  let s = closeDay(state, position);
  const eliminated: string[] = [];
  for (const name of event.eliminated) {
    const target = resolveTarget(s, name);
    if (target?.kind === 'slot') eliminated.push(targetName(s, target));
    else if (target?.kind !== 'no-lynch') {
      // Keep the GM's word, but show that it names nobody on the roster.
      eliminated.push(name);
      s = withFlag(s, { post: position, player: name, kind: 'not-a-player', raw: `decide: ${name}` });
    }
  }
  if (s.phase.kind !== 'closed') return s;
  const outcome = {
    ...s.phase.outcome,
    status: eliminated.length ? ('ended' as const) : ('no-lynch' as const),
    eliminated,
    decidedAt: position,
  };
  return { ...s, phase: { ...s.phase, outcome } };
}
