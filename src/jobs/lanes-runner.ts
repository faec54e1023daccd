import { next, on, startLanes, type LaneEvent, type Lanes } from './lanes.js';

/**
 * Runs the lanes (lanes.ts): one loop does what `next` says (take, release, wait) and every
 * outcome goes back through `on`. The only timer is the loop's wait, cut short by any event.
 * The work is the poller's: the queue, the poll and the job's end.
 */
export interface LaneJob {
  readonly id: string;
  readonly host: string;
}

export interface LaneWork<J extends LaneJob> {
  /** The next due job on none of `busyHosts`, or null (errors are the caller's to log: null). */
  take(busyHosts: readonly string[]): Promise<J | null>;
  /** Polls the job's game; resolves with the pause its host is owed after it (ms). */
  poll(job: J): Promise<number>;
  /** The job now rests `ms` for its host's pause (a sign of life for other processes). */
  resting(job: J, ms: number): Promise<void>;
  /** Completes a job whose rest is over. */
  complete(job: J): Promise<void>;
  /** Fails a job (its poll or its completion threw, or it was taken while stopping). */
  fail(job: J, reason: string): Promise<void>;
  /** A job ended: its host is free (tell every process, this one included). */
  freed(host: string): Promise<void>;
}

export interface LaneRunner {
  /** Something may be takeable now (a host freed elsewhere, a poll made due). */
  wake(): void;
  setLimit(limit: number): void;
  /** Whether this process holds the job (polling, resting or releasing). */
  holds(jobId: string): boolean;
  /** Takes no more jobs, ends rests at once, and resolves when every held job has ended. */
  stop(): Promise<void>;
}

export function runLanes<J extends LaneJob>(o: {
  limit: number;
  idleMs: number;
  work: LaneWork<J>;
  /** The runner's clock (ms). Default Date.now. */
  now?: () => number;
}): LaneRunner {
  const now = o.now ?? Date.now;
  const jobs = new Map<string, J>();
  let lanes: Lanes = startLanes({ limit: o.limit, idleMs: o.idleMs, now: now() });
  const alarm = alarmOn(now);
  const dispatch = (event: LaneEvent) => {
    lanes = on(lanes, event);
    alarm.rouse();
  };

  const take = async (busyHosts: readonly string[]) => {
    const job = await o.work.take(busyHosts).catch(() => null);
    if (!job) return dispatch({ kind: 'empty', at: now() });
    if (lanes.stopping) return void o.work.fail(job, 'the poller stopped').catch(() => {});
    jobs.set(job.id, job);
    dispatch({ kind: 'taken', job: job.id, host: job.host, at: now() });
    void o.work.poll(job).then(
      (pauseMs) => polled(job, pauseMs),
      (error: unknown) => end(job, o.work.fail(job, String(error))),
    );
  };

  const polled = (job: J, pauseMs: number) => {
    dispatch({ kind: 'polled', job: job.id, at: now(), pauseMs });
    const held = lanes.held.get(job.id);
    const restMs = held?.phase === 'resting' ? held.until - now() : 0;
    // Best effort: without the mark another process may take this job for a dead worker's, no worse.
    if (restMs > 0) o.work.resting(job, restMs).catch(() => {});
  };

  const release = (job: J) =>
    end(
      job,
      o.work.complete(job).catch((error) => o.work.fail(job, String(error))),
    );

  /** After the job's completion or failure: its host is free. `stop` waits for every ending. */
  const endings = new Set<Promise<void>>();
  const end = (job: J, outcome: Promise<void>) => {
    const ended = outcome
      .catch(() => {})
      .then(() => {
        jobs.delete(job.id);
        dispatch({ kind: 'ended', job: job.id });
        return o.work.freed(job.host);
      })
      .catch(() => {})
      .finally(() => endings.delete(ended));
    endings.add(ended);
  };

  const loop = async () => {
    for (;;) {
      const { lanes: after, step } = next(lanes, now());
      lanes = after;
      if (step.kind === 'halt') return;
      if (step.kind === 'take') await take(step.busyHosts);
      else if (step.kind === 'release') release(jobs.get(step.job)!);
      else await alarm.wait(step.until);
    }
  };
  const running = loop();

  return {
    wake: () => dispatch({ kind: 'woken' }),
    setLimit: (limit) => dispatch({ kind: 'limit', limit }),
    holds: (jobId) => lanes.held.has(jobId),
    async stop() {
      dispatch({ kind: 'stop' });
      await running;
      await Promise.allSettled([...endings]);
    },
  };
}

/** The loop's one timer: `wait` sleeps until a time or until `rouse` (any event), whichever is first. */
function alarmOn(now: () => number): { wait(until: number): Promise<void>; rouse(): void } {
  let rouse: (() => void) | null = null;
  return {
    wait: (until) =>
      new Promise<void>((resolve) => {
        const timer = Number.isFinite(until) ? setTimeout(done, Math.max(0, until - now())) : null;
        function done() {
          if (timer) clearTimeout(timer);
          rouse = null;
          resolve();
        }
        rouse = done;
      }),
    rouse: () => rouse?.(),
  };
}
