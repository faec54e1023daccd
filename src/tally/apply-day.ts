import type { GmEvent } from '../model/event.js';
import { killSlot } from './apply-life.js';
import { closeDay } from './close-day.js';
import { resolveForgiveness } from './forgiveness.js';
import type { GameState } from './state.js';
import { freshDay, withFlag } from './state.js';
import { findSlot } from './slot-names.js';
import { resolveTarget, targetName } from './vote-target.js';

type DayStart = Extract<GmEvent, { kind: 'day-start' }>;
type DayEnd = Extract<GmEvent, { kind: 'day-end' }>;
type Decide = Extract<GmEvent, { kind: 'decide' }>;

/**
 * A new Day. The Night that ends resolves its forgiveness votes first. Then votes, side
 * votes, vetoes, flags, violations and notes start over; slots (alive, weights, names,
 * penalty votes, statuses, vetoes used) carry on.
 */
export function applyDayStart(state: GameState, event: DayStart, position: number): GameState {
  // The Night's forgiveness resolves on the Night's board (the Day's eliminated still on it).
  const { state: forgiven, note } = resolveForgiveness(state, position);
  const s = buryEliminated(forgiven, position);
  return { ...s, ...freshDay(event.day, event.seed ?? null), notes: note ? [note] : [] };
}

/**
 * The Day that ends its Night: the players it eliminated are dead from the next Day on, so
 * the next Day's board and living list leave them out whether or not the GM also records a
 * kill (a kill of the dead is a no-op). A player the GM revived after the decision stays.
 */
function buryEliminated(state: GameState, position: number): GameState {
  if (state.phase.kind !== 'closed' || state.phase.outcome.decidedAt === null) return state;
  let s = state;
  for (const name of state.phase.outcome.eliminated) {
    const slot = findSlot(s.slots, name);
    if (slot !== undefined && !state.revivedAtNight.includes(slot)) s = killSlot(s, slot, position, 'eliminated');
  }
  return s;
}

/** The GM ends the Day: the outcome is decided on the board as it stands (no-op if already closed). */
export function applyDayEnd(state: GameState, event: DayEnd, position: number): GameState {
  const s = event.seed === undefined ? state : { ...state, seed: event.seed };
  return closeDay(s, position, 'the GM ends the Day');
}

/**
 * The GM's or a Judge's decision (a tie, a Sleep majority, a day without majority). It
 * closes the Day if still open and replaces the outcome; nobody named = nobody eliminated.
 */
export function applyDecide(state: GameState, event: Decide, position: number): GameState {
  let s = closeDay(state, position, 'the GM decides');
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
  const explain = [
    ...(s.phase.outcome.explain ?? []),
    {
      post: position,
      text: eliminated.length ? `the GM (Judge) decides: ${eliminated.join(', ')}` : 'the GM (Judge) decides: nobody',
    },
  ];
  // The GM's word replaces whatever the rules decided, a random draw included.
  const { draw: _replaced, held: _answered, ...decided } = s.phase.outcome;
  const outcome = {
    ...decided,
    status: eliminated.length ? ('ended' as const) : ('no-lynch' as const),
    eliminated,
    decidedAt: position,
    explain,
  };
  return { ...s, phase: { ...s.phase, outcome } };
}
