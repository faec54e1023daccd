/**
 * The poller's scheduling as a pure state machine: per-host lanes (one poll per forum host
 * at a time), slots (at most `limit` polls at once), the host's pause after a poll (the job
 * rests, holding its host but not a slot), wake-ups and when to ask the queue next. No
 * clock, timer or queue here: `next` says what to do now, `on` takes what happened, and
 * the runner (lanes-runner.ts) does the I/O. Times are ms since the epoch.
 *
 *   polling --polled--> resting --(pause over, or stop)--> releasing --ended--> (gone)
 *   polling --ended (the poll failed)--> (gone)
 */

/** A poll job this process holds, and where it is in its life. Every phase holds the job's host. */
export type Held =
  | { readonly host: string; readonly phase: 'polling' }
  | { readonly host: string; readonly phase: 'resting'; readonly until: number }
  | { readonly host: string; readonly phase: 'releasing' };

export interface Lanes {
  /** The jobs held, by job id. */
  readonly held: ReadonlyMap<string, Held>;
  /** Polls at once (resting and releasing jobs take no slot). */
  readonly limit: number;
  /** How long an idle process waits before asking the queue again. */
  readonly idleMs: number;
  /** When the queue is asked next, woken or not. */
  readonly askAt: number;
  /** Something may have become takeable since the last ask began (a host freed, a poll made due now). */
  readonly woken: boolean;
  readonly stopping: boolean;
}

export type LaneEvent =
  /** The queue handed this process a job. */
  | { readonly kind: 'taken'; readonly job: string; readonly host: string; readonly at: number }
  /** The queue had nothing takeable (or could not be asked). */
  | { readonly kind: 'empty'; readonly at: number }
  /** A job's poll is done; its host is owed `pauseMs` before its next request. */
  | { readonly kind: 'polled'; readonly job: string; readonly at: number; readonly pauseMs: number }
  /** The job is completed or failed: its host is free. */
  | { readonly kind: 'ended'; readonly job: string }
  /** A host may be free or a poll due now (another process's job ended, "poll now"). */
  | { readonly kind: 'woken' }
  | { readonly kind: 'limit'; readonly limit: number }
  | { readonly kind: 'stop' };

export type LaneStep =
  /** Ask the queue for a due job on none of these hosts. */
  | { readonly kind: 'take'; readonly busyHosts: readonly string[] }
  /** The job's rest is over: complete it. */
  | { readonly kind: 'release'; readonly job: string }
  /** Nothing to do before `until` (Infinity: before the next event). */
  | { readonly kind: 'wait'; readonly until: number }
  /** Stopped, and nothing held. */
  | { readonly kind: 'halt' };

export function startLanes(o: { limit: number; idleMs: number; now: number }): Lanes {
  return {
    held: new Map(),
    limit: Math.max(1, o.limit),
    idleMs: o.idleMs,
    askAt: o.now,
    woken: false,
    stopping: false,
  };
}

/** What to do now, and the lanes once it is under way. */
export function next(lanes: Lanes, now: number): { lanes: Lanes; step: LaneStep } {
  const rested = restOver(lanes, now);
  if (rested !== undefined) {
    const host = lanes.held.get(rested)!.host;
    return { lanes: holding(lanes, rested, { host, phase: 'releasing' }), step: { kind: 'release', job: rested } };
  }
  if (lanes.stopping) return { lanes, step: lanes.held.size === 0 ? { kind: 'halt' } : WAIT_FOR_EVENT };
  const slotFree = polling(lanes) < lanes.limit;
  if (slotFree && (lanes.woken || now >= lanes.askAt))
    return { lanes: { ...lanes, woken: false }, step: { kind: 'take', busyHosts: busyHosts(lanes) } };
  return { lanes, step: { kind: 'wait', until: Math.min(slotFree ? lanes.askAt : Infinity, ...restEnds(lanes)) } };
}

/** The lanes after `event`. */
export function on(lanes: Lanes, event: LaneEvent): Lanes {
  switch (event.kind) {
    case 'taken':
      // The next due job is taken at once: no idle wait while the queue has some.
      return { ...holding(lanes, event.job, { host: event.host, phase: 'polling' }), askAt: event.at };
    case 'empty':
      return { ...lanes, askAt: event.at + lanes.idleMs };
    case 'polled':
      return applyPolled(lanes, event);
    case 'ended':
      return dropping(lanes, event.job);
    case 'woken':
      return { ...lanes, woken: true };
    case 'limit':
      return { ...lanes, limit: Math.max(1, event.limit) };
    case 'stop':
      return { ...lanes, stopping: true };
  }
}

/** The job rests for its host's pause (none when stopping): its slot is free, so the queue is asked again. */
function applyPolled(lanes: Lanes, event: Extract<LaneEvent, { kind: 'polled' }>): Lanes {
  const held = lanes.held.get(event.job);
  if (held?.phase !== 'polling') return lanes;
  const until = lanes.stopping ? event.at : event.at + Math.max(0, event.pauseMs);
  return { ...holding(lanes, event.job, { host: held.host, phase: 'resting', until }), woken: true };
}

/** The hosts this process holds: no other poll of them is taken meanwhile. */
export function busyHosts(lanes: Lanes): string[] {
  return [...new Set([...lanes.held.values()].map((h) => h.host))];
}

export function polling(lanes: Lanes): number {
  let n = 0;
  for (const h of lanes.held.values()) if (h.phase === 'polling') n += 1;
  return n;
}

const WAIT_FOR_EVENT: LaneStep = { kind: 'wait', until: Number.POSITIVE_INFINITY };

/** A resting job whose pause is over (every resting one once stopping). */
function restOver(lanes: Lanes, now: number): string | undefined {
  for (const [job, h] of lanes.held) if (h.phase === 'resting' && (lanes.stopping || h.until <= now)) return job;
  return undefined;
}

function restEnds(lanes: Lanes): number[] {
  return [...lanes.held.values()].flatMap((h) => (h.phase === 'resting' ? [h.until] : []));
}

function holding(lanes: Lanes, job: string, held: Held): Lanes {
  return { ...lanes, held: new Map(lanes.held).set(job, held) };
}

function dropping(lanes: Lanes, job: string): Lanes {
  if (!lanes.held.has(job)) return lanes;
  const held = new Map(lanes.held);
  held.delete(job);
  return { ...lanes, held };
}
