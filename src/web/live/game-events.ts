import { randomBytes } from 'node:crypto';
import type { Logger } from '../../log/logger.js';
import { GAME_CHANNEL, type GameChange } from '../../store/rows.js';
import type { Sql } from '../../store/sql.js';

/**
 * Live updates for the public game pages: one LISTEN on `votal_game` per process, fanned
 * out to the server-sent-event streams of each game.
 *
 * Every change gets an id `<boot>-<seq>`: `boot` names this process's run, `seq` counts
 * changes. The last changes of each game are kept, so a client that reconnects with
 * `Last-Event-ID` gets what it missed. When that cannot be told (another run of the
 * server, or more changes than are kept), the stream says `reset` and the page reloads
 * its state. Only ids and kinds travel (never a tally with GM-only details).
 *
 * A running read's progress (kind `progress`, "Reading page 12 of 60, about 50 s left")
 * travels as `progress` frames without an id: it changes no row, is not kept for replay,
 * and the game's latest one is sent to a stream that opens while the read runs.
 *
 * Fan-out is built for thousands of subscribers: each change is serialised once into one
 * frame (bytes) shared by every stream of the game, and one timer beats for every idle
 * stream, so a change costs one enqueue per subscriber.
 */

export interface LiveEvent {
  /** `<boot>-<seq>`: the SSE `id:`. */
  id: string;
  seq: number;
  gameId: number;
  kind: GameChange['kind'];
  /** The changed row (tally id, draft id...), when there is one. */
  rowId: number | null;
  at: string;
  /** The whole public SSE frame, encoded once and written to every stream as is. */
  frame: Uint8Array;
}

/** GM business: never on the public stream. */
const isPrivate = (kind: LiveEvent['kind']): boolean => kind === 'draft' || kind === 'event';

/** A read's latest progress is shown to a new stream no longer than this after it was told (a poll that died). */
const PROGRESS_FRESH_MS = 120_000;

const encoder = new TextEncoder();
const HEARTBEAT = encoder.encode(': heartbeat\n\n');

/** One server-sent event, as bytes. */
function sseFrame(event: string, id: string, data: unknown): Uint8Array {
  return encoder.encode(`event: ${event}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`);
}

export interface StreamOptions {
  gameId: number;
  /** The client's `Last-Event-ID` (a reconnect): replay what it missed, else `reset`. */
  lastEventId: string | null;
  /** The `hello` data of a first connection (read after subscribing, so nothing is missed). */
  hello: () => Promise<unknown>;
  /** The stream ended (client gone, server closing, client too slow). */
  onEnd?: () => void;
}

/** A stream that lets this many frames queue up unread is dropped: the client resumes with Last-Event-ID. */
const MAX_QUEUED = 64;

export interface Replay {
  events: LiveEvent[];
  /** False: some events after the client's last one are not known any more. */
  complete: boolean;
}

interface GameBuffer {
  events: LiveEvent[];
  /** Highest seq dropped from this buffer (0: none). */
  droppedUpTo: number;
}

export class GameEvents {
  readonly boot = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  readonly #sql: Pick<Sql, 'listen'>;
  readonly #bufferSize: number;
  readonly #log: Logger | undefined;
  readonly #buffers = new Map<number, GameBuffer>();
  /** Each game's running read: its latest progress frame and when it came. */
  readonly #reading = new Map<number, { frame: Uint8Array; at: number }>();
  readonly #subscribers = new Map<number, Set<(event: LiveEvent) => void>>();
  /** Open streams: their last write time (for heartbeats) and how to end them. */
  readonly #streams = new Map<ReadableStreamDefaultController<Uint8Array>, { wroteAt: number; end: () => void }>();
  readonly #heartbeatMs: number;
  readonly #now: () => number;
  #beat: ReturnType<typeof setInterval> | null = null;
  #seq = 0;
  #unlisten: (() => Promise<void>) | null = null;
  #starting: Promise<void> | null = null;

  constructor(opts: {
    sql: Pick<Sql, 'listen'>;
    bufferSize?: number;
    log?: Logger;
    heartbeatMs?: number;
    now?: () => number;
  }) {
    this.#sql = opts.sql;
    this.#heartbeatMs = opts.heartbeatMs ?? 20_000;
    this.#now = opts.now ?? Date.now;
    this.#bufferSize = opts.bufferSize ?? 100;
    this.#log = opts.log;
  }

  /** Starts listening (once; later calls wait for the first). */
  start(): Promise<void> {
    this.#starting ??= this.#sql
      .listen(GAME_CHANNEL, (payload) => this.#receive(payload))
      .then((unlisten) => {
        this.#unlisten = unlisten;
      });
    return this.#starting;
  }

  async stop(): Promise<void> {
    await this.#starting?.catch(() => {});
    const unlisten = this.#unlisten;
    this.#unlisten = null;
    this.#starting = null;
    await unlisten?.();
    for (const { end } of [...this.#streams.values()]) end();
    this.#subscribers.clear();
  }

  get streamCount(): number {
    return this.#streams.size;
  }

  /**
   * One subscriber's server-sent-event stream: `hello` (or, resuming, the missed changes,
   * with `reset` first when they cannot be told), then every public change of the game as
   * its shared frame, and `: heartbeat` while idle.
   */
  openStream(opts: StreamOptions): ReadableStream<Uint8Array> {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let ready = false;
    let ended = false;
    let sentSeq = 0;
    const early: LiveEvent[] = [];
    const write = (bytes: Uint8Array): void => {
      if (ended) return;
      // A client that reads nothing must not make the server hold every frame for it.
      if ((controller.desiredSize ?? 0) < -MAX_QUEUED) {
        end();
        return;
      }
      controller.enqueue(bytes);
      const s = this.#streams.get(controller);
      if (s) s.wroteAt = this.#now();
    };
    const send = (event: LiveEvent): void => {
      if (isPrivate(event.kind)) return;
      if (event.kind === 'progress') {
        // Not a change: never queued for replay; one missed is made up by the next.
        if (ready) write(event.frame);
        return;
      }
      if (!ready) {
        early.push(event);
        return;
      }
      if (event.seq <= sentSeq) return;
      sentSeq = event.seq;
      write(event.frame);
    };
    const unsubscribe = this.subscribe(opts.gameId, send);
    const end = (): void => {
      if (ended) return;
      ended = true;
      unsubscribe();
      this.#streams.delete(controller);
      if (this.#streams.size === 0 && this.#beat) {
        clearInterval(this.#beat);
        this.#beat = null;
      }
      try {
        controller.close();
      } catch {
        // already closed or cancelled by the client
      }
      opts.onEnd?.();
    };
    return new ReadableStream<Uint8Array>(
      {
        start: async (c) => {
          controller = c;
          this.#streams.set(c, { wroteAt: this.#now(), end });
          this.#beat ??= setInterval(() => this.#heartbeat(), Math.max(10, Math.floor(this.#heartbeatMs / 2)));
          try {
            if (opts.lastEventId) {
              const replay = this.since(opts.gameId, opts.lastEventId);
              if (!replay.complete) write(sseFrame('reset', this.currentId(), { reason: 'missed changes: reload' }));
              else sentSeq = Number(opts.lastEventId.split('-')[1]);
              early.unshift(...replay.events);
            } else {
              const hello = await opts.hello();
              sentSeq = this.#seq;
              write(sseFrame('hello', this.currentId(), hello));
            }
          } catch (error) {
            this.#log?.warn({ err: error }, 'live stream failed to start');
            end();
            return;
          }
          ready = true;
          early.sort((a, b) => a.seq - b.seq);
          for (const e of early.splice(0)) send(e);
          const reading = this.#reading.get(opts.gameId);
          if (reading && reading.at > this.#now() - PROGRESS_FRESH_MS) write(reading.frame);
        },
        cancel: () => end(),
      },
      { highWaterMark: 1 },
    );
  }

  /** `: heartbeat` on every stream that wrote nothing for `heartbeatMs` (proxies close silent connections). */
  #heartbeat(): void {
    const due = this.#now() - this.#heartbeatMs;
    for (const [controller, s] of this.#streams) {
      if (s.wroteAt > due) continue;
      if ((controller.desiredSize ?? 0) < -MAX_QUEUED) {
        s.end();
        continue;
      }
      controller.enqueue(HEARTBEAT);
      s.wroteAt = this.#now();
    }
  }

  /** The id of the latest change (for a first `hello`): resuming from it replays what follows. */
  currentId(): string {
    return `${this.boot}-${this.#seq}`;
  }

  get subscriberCount(): number {
    let n = 0;
    for (const set of this.#subscribers.values()) n += set.size;
    return n;
  }

  subscribe(gameId: number, listener: (event: LiveEvent) => void): () => void {
    let set = this.#subscribers.get(gameId);
    if (!set) this.#subscribers.set(gameId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#subscribers.delete(gameId);
    };
  }

  /** The game's events after `lastEventId`. */
  since(gameId: number, lastEventId: string): Replay {
    const m = /^([a-z0-9]+)-(\d+)$/.exec(lastEventId.trim());
    if (!m || m[1] !== this.boot) return { events: [], complete: false };
    const last = Number(m[2]);
    if (last > this.#seq) return { events: [], complete: false };
    const buffer = this.#buffers.get(gameId);
    if (!buffer) return { events: [], complete: true };
    return { events: buffer.events.filter((e) => e.seq > last), complete: last >= buffer.droppedUpTo };
  }

  /** A read's progress: to every stream of the game now, and kept as the game's latest. */
  #progress(change: GameChange): void {
    const r = change.reading;
    if (!r || typeof r.text !== 'string') return;
    const data = {
      kind: 'progress',
      page: r.page,
      pageCount: r.pageCount,
      pageCountKnown: r.pageCountKnown,
      phase: r.phase,
      leftMs: r.leftMs,
      text: r.text,
    };
    // No id: the stream's Last-Event-ID stays the last change's.
    const frame = encoder.encode(`event: progress\ndata: ${JSON.stringify(data)}\n\n`);
    this.#reading.set(change.gameId, { frame, at: this.#now() });
    const event: LiveEvent = {
      id: this.currentId(),
      seq: this.#seq,
      gameId: change.gameId,
      kind: 'progress',
      rowId: null,
      at: new Date(this.#now()).toISOString(),
      frame,
    };
    for (const listener of this.#subscribers.get(change.gameId) ?? []) {
      try {
        listener(event);
      } catch (error) {
        this.#log?.warn({ err: error }, 'live listener failed');
      }
    }
  }

  #receive(payload: string): void {
    let change: GameChange;
    try {
      change = JSON.parse(payload) as GameChange;
    } catch {
      this.#log?.warn({ payload: payload.slice(0, 200) }, 'unreadable game change');
      return;
    }
    if (typeof change.gameId !== 'number') return;
    if (change.kind === 'progress') {
      this.#progress(change);
      return;
    }
    // The read is over once its poll is told (or the count it made).
    if (change.kind === 'game' || change.kind === 'tally') this.#reading.delete(change.gameId);
    this.#seq += 1;
    const event: LiveEvent = {
      id: `${this.boot}-${this.#seq}`,
      seq: this.#seq,
      gameId: change.gameId,
      kind: change.kind,
      rowId: change.id ?? null,
      at: new Date().toISOString(),
      frame: new Uint8Array(0),
    };
    // Serialised once: every subscriber of the game gets these same bytes.
    event.frame = sseFrame(event.kind, event.id, { kind: event.kind, id: event.rowId, at: event.at });
    let buffer = this.#buffers.get(change.gameId);
    if (!buffer) this.#buffers.set(change.gameId, (buffer = { events: [], droppedUpTo: 0 }));
    buffer.events.push(event);
    while (buffer.events.length > this.#bufferSize) buffer.droppedUpTo = buffer.events.shift()!.seq;
    for (const listener of this.#subscribers.get(change.gameId) ?? []) {
      try {
        listener(event);
      } catch (error) {
        this.#log?.warn({ err: error }, 'live listener failed');
      }
    }
  }
}
