import { randomBytes } from 'node:crypto';
import type { Logger } from '../log/logger.js';
import { GAME_CHANNEL, type GameChange } from '../store/rows.js';
import type { Sql } from '../store/sql.js';

/**
 * Live updates for the public game pages: one LISTEN on `votal_game` per process, fanned
 * out to the server-sent-event streams of each game.
 *
 * Every change gets an id `<boot>-<seq>`: `boot` names this process's run, `seq` counts
 * changes. The last changes of each game are kept, so a client that reconnects with
 * `Last-Event-ID` gets what it missed. When that cannot be told (another run of the
 * server, or more changes than are kept), the stream says `reset` and the page reloads
 * its state. Only ids and kinds travel (never a tally with GM-only details).
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
}

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
  readonly #subscribers = new Map<number, Set<(event: LiveEvent) => void>>();
  #seq = 0;
  #unlisten: (() => Promise<void>) | null = null;
  #starting: Promise<void> | null = null;

  constructor(opts: { sql: Pick<Sql, 'listen'>; bufferSize?: number; log?: Logger }) {
    this.#sql = opts.sql;
    this.#bufferSize = opts.bufferSize ?? 100;
    this.#log = opts.log;
  }

  /** Starts listening (once; later calls wait for the first). */
  start(): Promise<void> {
    this.#starting ??= this.#sql.listen(GAME_CHANNEL, (payload) => this.#receive(payload)).then((unlisten) => {
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
    this.#subscribers.clear();
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

  #receive(payload: string): void {
    let change: GameChange;
    try {
      change = JSON.parse(payload) as GameChange;
    } catch {
      this.#log?.warn({ payload: payload.slice(0, 200) }, 'unreadable game change');
      return;
    }
    if (typeof change.gameId !== 'number') return;
    this.#seq += 1;
    const event: LiveEvent = {
      id: `${this.boot}-${this.#seq}`,
      seq: this.#seq,
      gameId: change.gameId,
      kind: change.kind,
      rowId: change.id ?? null,
      at: new Date().toISOString(),
    };
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
