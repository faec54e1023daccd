import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { busyHosts, next, on, polling, startLanes, type LaneEvent, type Lanes } from '../../src/jobs/lanes.js';
import { runLanes, type LaneWork } from '../../src/jobs/lanes-runner.js';

/**
 * The poller's scheduling (issue #29): the pure machine (what to do now, what an event
 * changes) and its runner on a fake clock. The poller's own tests (contract.ts, hosts*.ts)
 * check the same rules against pg-boss and real polls.
 */
const IDLE = 2_000;
const fresh = (limit = 2, now = 0): Lanes => startLanes({ limit, idleMs: IDLE, now });
const play = (lanes: Lanes, ...events: LaneEvent[]) => events.reduce(on, lanes);
const taken = (job: string, host: string, at = 0): LaneEvent => ({ kind: 'taken', job, host, at });
const polled = (job: string, at: number, pauseMs: number): LaneEvent => ({ kind: 'polled', job, at, pauseMs });
/** The lanes once the queue is being asked (as the runner does before it takes). */
const asking = (lanes: Lanes, now: number) => next(lanes, now).lanes;

describe('the lanes: what to do now', () => {
  it.each<[string, Lanes, number, ReturnType<typeof next>['step']]>([
    ['a new poller asks the queue at once', fresh(), 0, { kind: 'take', busyHosts: [] }],
    [
      'a job taken: the next is asked for at once, on another host',
      play(fresh(), taken('j1', 'a')),
      0,
      { kind: 'take', busyHosts: ['a'] },
    ],
    [
      'every slot polling: nothing to ask until something happens',
      play(fresh(2), taken('j1', 'a'), taken('j2', 'b')),
      0,
      { kind: 'wait', until: Number.POSITIVE_INFINITY },
    ],
    [
      'the queue had nothing: asked again after the idle wait',
      play(fresh(), { kind: 'empty', at: 100 }),
      100,
      { kind: 'wait', until: 100 + IDLE },
    ],
    [
      'the idle wait over: asked again',
      play(fresh(), { kind: 'empty', at: 100 }),
      100 + IDLE,
      { kind: 'take', busyHosts: [] },
    ],
    [
      'woken (a host freed elsewhere, "poll now"): asked before the idle wait is over',
      play(fresh(), { kind: 'empty', at: 100 }, { kind: 'woken' }),
      101,
      { kind: 'take', busyHosts: [] },
    ],
    [
      'a job resting for its host pause takes no slot, and its host stays busy',
      play(fresh(1), taken('j1', 'a'), polled('j1', 50, 1_000)),
      60,
      { kind: 'take', busyHosts: ['a'] },
    ],
    [
      'a rest ends at its time: the job is released',
      play(asking(play(fresh(1), taken('j1', 'a'), polled('j1', 50, 1_000)), 60), { kind: 'empty', at: 60 }),
      1_050,
      { kind: 'release', job: 'j1' },
    ],
    [
      'a rest not over: waits for the sooner of the rest end and the next ask',
      play(asking(play(fresh(1), taken('j1', 'a'), polled('j1', 50, 1_000)), 60), { kind: 'empty', at: 60 }),
      70,
      { kind: 'wait', until: 1_050 },
    ],
    [
      'a poll that owes its host no pause is released at once',
      play(fresh(1), taken('j1', 'a'), polled('j1', 50, 0)),
      50,
      { kind: 'release', job: 'j1' },
    ],
    ['stopping: no more takes, and nothing held: halt', play(fresh(), { kind: 'stop' }), 0, { kind: 'halt' }],
    [
      'stopping: a running poll is waited for',
      play(fresh(), taken('j1', 'a'), { kind: 'stop' }),
      0,
      { kind: 'wait', until: Number.POSITIVE_INFINITY },
    ],
    [
      'stopping: a rest ends at once',
      play(fresh(), taken('j1', 'a'), polled('j1', 0, 60_000), { kind: 'stop' }),
      1,
      { kind: 'release', job: 'j1' },
    ],
    [
      'a poll that ends while stopping owes no rest',
      play(fresh(), taken('j1', 'a'), { kind: 'stop' }, polled('j1', 5, 60_000)),
      5,
      { kind: 'release', job: 'j1' },
    ],
    [
      'a lower limit: no take while the slots left are full',
      play(fresh(2), taken('j1', 'a'), { kind: 'limit', limit: 1 }),
      0,
      { kind: 'wait', until: Number.POSITIVE_INFINITY },
    ],
  ])('%s', (_rule, lanes, now, step) => {
    expect(next(lanes, now).step).toEqual(step);
  });

  it('asking clears the wake-up: one asked for after it began is news to the next ask', () => {
    const woken = play(fresh(), { kind: 'empty', at: 0 }, { kind: 'woken' });
    const asking = next(woken, 1).lanes;
    expect(asking.woken).toBe(false);
    expect(next(on(asking, { kind: 'empty', at: 2 }), 3).step).toEqual({ kind: 'wait', until: 2 + IDLE });
    expect(next(play(asking, { kind: 'woken' }, { kind: 'empty', at: 2 }), 3).step.kind).toBe('take');
  });

  it('a released job holds its host until it has ended; a failed poll frees its host at once', () => {
    const releasing = next(play(fresh(1), taken('j1', 'a'), polled('j1', 0, 0)), 0).lanes;
    expect(releasing.held.get('j1')?.phase).toBe('releasing');
    expect(busyHosts(releasing)).toEqual(['a']);
    expect(polling(releasing)).toBe(0);
    expect(busyHosts(on(releasing, { kind: 'ended', job: 'j1' }))).toEqual([]);
    expect(busyHosts(play(fresh(), taken('j2', 'b'), { kind: 'ended', job: 'j2' }))).toEqual([]);
  });

  it('a limit is at least 1', () => {
    expect(fresh(0).limit).toBe(1);
    expect(on(fresh(), { kind: 'limit', limit: 0 }).limit).toBe(1);
  });
});

/** A queue of due jobs, each on a host, and what the runner did with them, on the fake clock. */
function fakeQueue(jobs: { id: string; host: string }[], pollMs: number | ((id: string) => number), pauseMs: number) {
  const queue = [...jobs];
  const log: string[] = [];
  const asks: number[] = [];
  /** Hears of a freed host (the poller wakes its lanes: PGlite at once, PostgreSQL by NOTIFY). */
  const heard = { freed: () => {} };
  const say = (what: string) => log.push(`${Date.now()} ${what}`);
  const work: LaneWork<{ id: string; host: string }> = {
    async take(busy) {
      asks.push(Date.now());
      const i = queue.findIndex((j) => !busy.includes(j.host));
      if (i < 0) return null;
      say(`take ${queue[i]!.id}`);
      return queue.splice(i, 1)[0]!;
    },
    async poll(job) {
      await new Promise((r) => setTimeout(r, typeof pollMs === 'number' ? pollMs : pollMs(job.id)));
      say(`polled ${job.id}`);
      return pauseMs;
    },
    async resting(job, ms) {
      say(`rest ${job.id} ${ms}`);
    },
    async complete(job) {
      say(`complete ${job.id}`);
    },
    async fail(job, reason) {
      say(`fail ${job.id} ${reason}`);
    },
    async freed(host) {
      say(`free ${host}`);
      heard.freed();
    },
  };
  return { work, log, asks, queue, heard };
}

describe('the lanes runner on a fake clock', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('one poll per host at a time, its pause kept before the next; another host polled meanwhile', async () => {
    const q = fakeQueue(
      [
        { id: 'a1', host: 'a' },
        { id: 'a2', host: 'a' },
        { id: 'b1', host: 'b' },
      ],
      100,
      1_000,
    );
    const runner = runLanes({ limit: 2, idleMs: IDLE, work: q.work });
    q.heard.freed = () => runner.wake();
    await vi.advanceTimersByTimeAsync(3_000);
    await runner.stop();
    expect(q.log).toEqual([
      '0 take a1',
      '0 take b1',
      '100 polled a1',
      '100 rest a1 1000',
      '100 polled b1',
      '100 rest b1 1000',
      '1100 complete a1',
      '1100 complete b1',
      '1100 free a',
      '1100 free b',
      // Not before a1's rest is over, and never while it is held.
      '1100 take a2',
      '1200 polled a2',
      '1200 rest a2 1000',
      '2200 complete a2',
      '2200 free a',
    ]);
  });

  it('at most `limit` polls at once; a resting job frees its slot', async () => {
    const q = fakeQueue(
      [
        { id: 'a1', host: 'a' },
        { id: 'b1', host: 'b' },
      ],
      100,
      1_000,
    );
    const runner = runLanes({ limit: 1, idleMs: IDLE, work: q.work });
    await vi.advanceTimersByTimeAsync(500);
    await runner.stop();
    expect(q.log.slice(0, 4)).toEqual(['0 take a1', '100 polled a1', '100 rest a1 1000', '100 take b1']);
  });

  it('an idle runner asks every idle wait, and at once when woken', async () => {
    const q = fakeQueue([], 100, 0);
    const runner = runLanes({ limit: 1, idleMs: IDLE, work: q.work });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(q.asks).toEqual([0, 2_000, 4_000]);
    q.queue.push({ id: 'c1', host: 'c' });
    runner.wake();
    await vi.advanceTimersByTimeAsync(1);
    expect(q.asks.at(-1)).toBe(5_000);
    expect(q.log[0]).toBe('5000 take c1');
    await vi.advanceTimersByTimeAsync(100);
    await runner.stop();
    expect(q.log.slice(1)).toEqual(['5100 polled c1', '5100 complete c1', '5100 free c']);
  });

  it('stop ends a rest at once and waits for a running poll', async () => {
    const q = fakeQueue(
      [
        { id: 'a1', host: 'a' },
        { id: 'b1', host: 'b' },
      ],
      (id) => (id === 'a1' ? 100 : 400),
      60_000,
    );
    const runner = runLanes({ limit: 2, idleMs: IDLE, work: q.work });
    await vi.advanceTimersByTimeAsync(150);
    let stopped = false;
    const stopping = runner.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(1);
    expect(q.log.at(-1)).toBe('150 free a');
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(300);
    await stopping;
    expect(q.log.slice(-3)).toEqual(['400 polled b1', '400 complete b1', '400 free b']);
    expect(runner.holds('b1')).toBe(false);
  });

  it('a poll that fails fails its job, and its host is free', async () => {
    const failing = fakeQueue([{ id: 'x1', host: 'x' }], 100, 0);
    failing.work.poll = async () => {
      throw new Error('the store is down');
    };
    const second = runLanes({ limit: 1, idleMs: IDLE, work: failing.work });
    await vi.advanceTimersByTimeAsync(10);
    await second.stop();
    expect(failing.log).toEqual(['0 take x1', '0 fail x1 Error: the store is down', '0 free x']);
  });
});
