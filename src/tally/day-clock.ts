import type { GmEvent } from '../model/event.js';
import { apply } from './apply.js';
import { nextCheckAfter } from './clock.js';
import type { GameState } from './state.js';

/**
 * The Day's clock inside the fold. The fold reads no clock: it knows a Day's start (the
 * `day-start` event's time, the post it follows, the game's clock setting, or the first
 * post), its deadline (the clock setting, moved by extensions) and how far time is known
 * to have run (the time of the next entry, or the caller's `now`). Scheduled checks
 * (Hammer at weekday noon) and the deadline fire as those instants pass, so the rules run
 * from the ruleset alone: no listed clock events needed, and an extended deadline ends the
 * Day like the first one.
 */
export interface ClockDay {
  day: number;
  /** When the Day started (ISO 8601), when no `day-start` event says so. */
  start?: string | undefined;
  /** The Day's deadline (ISO 8601). */
  deadline?: string | undefined;
}

export interface ClockInput {
  /** Time known to have passed: clock instants up to here fire at the end of the fold (ISO 8601). */
  now?: string | undefined;
  /** What the GM set for each Day's clock. */
  days?: readonly ClockDay[] | undefined;
}

/** Most clock instants fired in one Day: a Day left open for years stops here. */
const MAX_FIRED = 5000;

/** A Day starts: its clock runs from `start` (the event's time or the post it follows) to the GM's deadline. */
export function startClock(state: GameState, day: number, start: number | null, input: ClockInput): GameState {
  const set = input.days?.find((d) => d.day === day);
  const setStart = set?.start === undefined ? null : Date.parse(set.start);
  const begin = start ?? (setStart !== null && !Number.isNaN(setStart) ? setStart : null);
  const deadline = set?.deadline === undefined ? Number.NaN : Date.parse(set.deadline);
  return {
    ...state,
    clock: {
      start: begin,
      deadline: Number.isNaN(deadline) ? null : iso(deadline),
      firedTo: begin ?? Number.NEGATIVE_INFINITY,
    },
  };
}

/**
 * Fires the Day's checks and deadline that fall before `until` (or at it, when
 * `inclusive`), in time order, at `position` (after the last post made before them). A
 * check at the deadline's instant comes first, so Hammer there ends the Day before
 * Filibuster is looked at. A deadline that an extension moves fires again when due.
 */
export function runClock(state: GameState, until: number, inclusive: boolean, position: number): GameState {
  let s = state;
  for (let fired = 0; fired < MAX_FIRED; fired++) {
    const { clock } = s;
    if (s.phase.kind !== 'open') return s;
    // Checks count from the Day's start; a deadline needs none.
    const check = clock.start === null ? null : nextCheckAfter(s.ruleset, Math.max(clock.firedTo, clock.start));
    // The deadline is pending until it fires: then the Day closes, or an extension moves it.
    const parsed = clock.deadline === null ? Number.NaN : Date.parse(clock.deadline);
    const deadline = Number.isNaN(parsed) ? null : parsed;
    const isCheck = check !== null && (deadline === null || check <= deadline);
    const at = isCheck ? check : deadline;
    if (at === null || at > until || (at === until && !inclusive)) return s;
    const event: Extract<GmEvent, { kind: 'check' | 'deadline' }> = {
      kind: isCheck ? 'check' : 'deadline',
      time: iso(at),
      day: s.day,
    };
    const marked = isCheck ? { ...s, clock: { ...s.clock, firedTo: at } } : s;
    const after = apply(marked, { position, event });
    // A deadline that neither closed the Day nor moved (no extension left to it) is spent.
    s =
      !isCheck && after.phase.kind === 'open' && after.clock.deadline === clock.deadline
        ? { ...after, clock: { ...after.clock, deadline: null } }
        : after;
  }
  return s;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
