import type { GmEvent } from '../model/event.js';
import { liveBoard } from './board.js';
import { addWeekdays } from './clock.js';
import { closeDay } from './close-day.js';
import { describeStanding, keywordStandings } from './side-votes.js';
import type { GameState } from './state.js';
import { withNote } from './state.js';

type Deadline = Extract<GmEvent, { kind: 'deadline' }>;
type Check = Extract<GmEvent, { kind: 'check' }>;

/**
 * The deadline. A side vote that ends the Day and stands now takes precedence ("Hammer
 * takes precedence over Filibuster"); otherwise one that extends the Day and stands now
 * extends it (so many times a Day), and the caller supplies the later deadline; otherwise
 * the Day ends here.
 */
export function applyDeadline(state: GameState, event: Deadline, position: number): GameState {
  if (state.phase.kind === 'closed' || (event.day !== undefined && event.day !== state.day)) return state;
  const board = liveBoard(state);
  const standings = keywordStandings(state, board);
  const living = board.living.length;
  const ending = standings.find((k) => k.rule.effect === 'end-day' && k.met);
  if (ending)
    return closeDay(state, position, `the deadline; ${describeStanding(ending, living)}, so it is not extended`);

  const extending = standings.find(
    (k) =>
      k.rule.effect === 'extend-day' &&
      k.rule.when === 'deadline' &&
      k.met &&
      (state.extensions[k.kind] ?? 0) < k.rule.perDay,
  );
  if (extending) {
    const weekdays = extending.rule.extendBy?.weekdays ?? 1;
    const until = addWeekdays(event.time, weekdays, state.ruleset.schedule?.timeZone ?? 'UTC');
    // The new deadline is the Day's: the fold's clock ends the Day there (src/tally/day-clock.ts).
    const s = {
      ...state,
      extensions: { ...state.extensions, [extending.kind]: (state.extensions[extending.kind] ?? 0) + 1 },
      clock: { ...state.clock, deadline: until },
    };
    return withNote(
      s,
      `${describeStanding(extending, living)} at the deadline ${event.time}: the Day is extended ` +
        `by ${weekdays} weekday${weekdays === 1 ? '' : 's'}, to ${until}, and the Night as much`,
    );
  }
  return closeDay(state, position, `the deadline ${event.time}`);
}

/** A scheduled check (Hammer time): a side vote that ends the Day at checks and stands now ends it here. */
export function applyCheck(state: GameState, event: Check, position: number): GameState {
  if (state.phase.kind === 'closed' || (event.day !== undefined && event.day !== state.day)) return state;
  const board = liveBoard(state);
  const ending = keywordStandings(state, board).find(
    (k) => k.rule.effect === 'end-day' && k.rule.when === 'check' && k.met,
  );
  if (!ending) return state;
  return closeDay(state, position, `${describeStanding(ending, board.living.length)} at the check ${event.time}`);
}
