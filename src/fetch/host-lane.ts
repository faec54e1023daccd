import PQueue from 'p-queue';

export type Sleep = (ms: number) => Promise<void>;
/** A monotonic clock in ms (default `performance.now`); tests pass a fake one with a fake sleep. */
export type Now = () => number;

export interface LaneLimits {
  maxPauseMs: number;
  sleep: Sleep;
  now?: Now;
}

/**
 * One host's polite lane: one request at a time, and a pause between the end of one
 * request and the start of the next. The pause only grows (Crawl-delay, throttling),
 * and a throttled host is held until its Retry-After has passed for every caller,
 * not only the one that got the 429.
 *
 * p-queue gives the one-at-a-time ordering; the pause is kept here rather than in
 * p-queue's `interval` because it must change at run time and be measured from the end
 * of the previous request (a slow page should not shorten the next pause).
 */
export class HostLane {
  private readonly queue = new PQueue({ concurrency: 1 });
  private lastDoneAt = Number.NEGATIVE_INFINITY;
  private notBefore = Number.NEGATIVE_INFINITY;
  private readonly now: Now;

  constructor(
    private pause: number,
    private readonly limits: LaneLimits,
  ) {
    this.now = limits.now ?? (() => performance.now());
  }

  /** The current pause between two requests to this host, in ms. */
  get pauseMs(): number {
    return this.pause;
  }

  /** How long this host is still held by a Retry-After, in ms (0 when not held). */
  get heldForMs(): number {
    return Math.max(0, Math.ceil(this.notBefore - this.now()));
  }

  /** Raises the pause to at least `ms` (never above the cap, never lowers it). */
  raisePause(ms: number): void {
    this.pause = Math.max(this.pause, Math.min(ms, this.limits.maxPauseMs));
  }

  /** The host throttled us: slow down for good, and hold everyone for `retryAfterMs`. */
  throttled(retryAfterMs: number | null): void {
    this.raisePause(Math.max(this.pause * 2, 1000));
    if (retryAfterMs !== null) this.notBefore = Math.max(this.notBefore, this.now() + retryAfterMs);
  }

  /** Runs `task` when it is this host's turn and the pause has passed. */
  run<T>(task: () => Promise<T>): Promise<T> {
    return this.queue.add(async () => {
      const wait = Math.max(this.lastDoneAt + this.pause, this.notBefore) - this.now();
      if (wait > 0) await this.limits.sleep(Math.ceil(wait));
      try {
        return await task();
      } finally {
        this.lastDoneAt = this.now();
      }
    });
  }
}

/** The lanes by host (`hostname:port`), created on first use. */
export class HostLanes {
  private readonly lanes = new Map<string, HostLane>();

  constructor(
    private readonly initialPauseMs: number,
    private readonly limits: LaneLimits,
    /** A site's own pause (its site profile), when it has one; else `initialPauseMs`. */
    private readonly pauseOf: (url: URL) => number | undefined = () => undefined,
  ) {}

  for(url: URL): HostLane {
    let lane = this.lanes.get(url.host);
    if (!lane) {
      lane = new HostLane(this.pauseOf(url) ?? this.initialPauseMs, this.limits);
      this.lanes.set(url.host, lane);
    }
    return lane;
  }
}
