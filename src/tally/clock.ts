import type { GmEvent } from '../model/event.js';
import type { Ruleset, Weekday } from '../rules/ruleset.js';

/**
 * Clock events for the fold. The fold reads no clock: the caller lists a Day's scheduled
 * checks and its deadline with `clockEvents` and adds them to the log. Local times are
 * turned into instants with Intl only (no time zone library).
 */
export interface DayWindow {
  /** The Day's number: its clock events do nothing on another Day. */
  day: number;
  /** When the Day started, or the previous deadline when it was extended (ISO 8601). */
  start: string;
  /** The Day's deadline (ISO 8601). */
  deadline: string;
}

type ClockEvent = Extract<GmEvent, { kind: 'check' | 'deadline' }>;

const WEEKDAYS: readonly Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const DAY_MS = 86_400_000;

/**
 * Every scheduled check after the Day's start and up to its deadline (a check at the
 * deadline itself comes first, so Hammer there ends the Day before Filibuster is looked
 * at), then the deadline; in time order.
 */
export function clockEvents(ruleset: Ruleset, day: DayWindow): ClockEvent[] {
  const start = Date.parse(day.start);
  const end = Date.parse(day.deadline);
  if (Number.isNaN(start) || Number.isNaN(end))
    throw new RangeError(`not ISO 8601 times: ${day.start}, ${day.deadline}`);
  const timeZone = ruleset.schedule?.timeZone ?? 'UTC';
  const checks: number[] = [];
  const first = localDate(start, timeZone);
  const last = localDate(end, timeZone);
  for (let d = first; d <= last; d += DAY_MS) {
    const { y, m, day: dd, weekday } = dateParts(d);
    for (const spec of ruleset.schedule?.checks ?? []) {
      if (!spec.days.includes(weekday)) continue;
      const [hh, mm] = spec.time.split(':').map(Number) as [number, number];
      const t = zonedInstant(y, m, dd, hh, mm, timeZone);
      if (t > start && t <= end) checks.push(t);
    }
  }
  const events: ClockEvent[] = [...new Set(checks)]
    .sort((a, b) => a - b)
    .map((t) => ({ kind: 'check', time: iso(t), day: day.day }));
  events.push({ kind: 'deadline', time: iso(end), day: day.day });
  return events;
}

/** Local dates looked at for the next check: checks name weekdays, so one comes within a week. */
const CHECK_HORIZON_DAYS = 8;
const nextChecks = new Map<string, number | null>();

/**
 * The first scheduled check strictly after `afterMs` (ms), null if the ruleset has none.
 * Weekday and local time are read in the ruleset's time zone, across DST changes.
 */
export function nextCheckAfter(ruleset: Ruleset, afterMs: number): number | null {
  const specs = ruleset.schedule?.checks ?? [];
  if (specs.length === 0 || !Number.isFinite(afterMs)) return null;
  const timeZone = ruleset.schedule?.timeZone ?? 'UTC';
  // The fold asks the same question before every post until a check fires: remember the answer.
  const key = `${timeZone}|${JSON.stringify(specs)}|${afterMs}`;
  const known = nextChecks.get(key);
  if (known !== undefined) return known;
  let best: number | null = null;
  const first = localDate(afterMs, timeZone);
  for (let i = 0; i < CHECK_HORIZON_DAYS && best === null; i++) {
    const { y, m, day, weekday } = dateParts(first + i * DAY_MS);
    for (const spec of specs) {
      if (!spec.days.includes(weekday)) continue;
      const [hh, mm] = spec.time.split(':').map(Number) as [number, number];
      const t = zonedInstant(y, m, day, hh, mm, timeZone);
      if (t > afterMs && (best === null || t < best)) best = t;
    }
  }
  if (nextChecks.size > 10_000) nextChecks.clear();
  nextChecks.set(key, best);
  return best;
}

/**
 * The same local time `weekdays` weekdays (Monday to Friday) later, in the time zone:
 * a Day extended "one more weekday" from Friday 17:00 ends Monday 17:00.
 */
export function addWeekdays(time: string, weekdays: number, timeZone: string): string {
  const ms = Date.parse(time);
  if (Number.isNaN(ms)) throw new RangeError(`not an ISO 8601 time: ${time}`);
  const wall = wallClock(ms, timeZone);
  let d = Date.UTC(wall.y, wall.m - 1, wall.d);
  let left = weekdays;
  while (left > 0) {
    d += DAY_MS;
    const wd = new Date(d).getUTCDay();
    if (wd !== 0 && wd !== 6) left--;
  }
  const { y, m, day } = dateParts(d);
  return iso(zonedInstant(y, m, day, wall.hh, wall.mm, timeZone, wall.ss));
}

/** The instant at which the wall clock in `timeZone` shows this local date and time. */
export function zonedInstant(
  y: number,
  m: number,
  d: number,
  hh: number,
  mm: number,
  timeZone: string,
  ss = 0,
): number {
  const guess = Date.UTC(y, m - 1, d, hh, mm, ss);
  const first = guess - offsetAt(guess, timeZone);
  // Near a DST change the offset at the result can differ from the guess's: use the result's.
  const second = guess - offsetAt(first, timeZone);
  return second;
}

/** How far the zone's wall clock is ahead of UTC at this instant, in ms. */
function offsetAt(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  return Date.UTC(w.y, w.m - 1, w.d, w.hh, w.mm, w.ss) - Math.floor(ms / 1000) * 1000;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClock(ms: number, timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const n = (k: string) => Number(parts[k]);
  return { y: n('year'), m: n('month'), d: n('day'), hh: n('hour') % 24, mm: n('minute'), ss: n('second') };
}

/** Midnight UTC of the local calendar date at this instant (a day counter, not an instant). */
function localDate(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  return Date.UTC(w.y, w.m - 1, w.d);
}

function dateParts(utcMidnight: number) {
  const date = new Date(utcMidnight);
  return {
    y: date.getUTCFullYear(),
    m: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    weekday: WEEKDAYS[date.getUTCDay()]!,
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
