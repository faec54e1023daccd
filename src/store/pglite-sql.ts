import { AsyncLocalStorage } from 'node:async_hooks';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { PGlite, type Results } from '@electric-sql/pglite';
import lockfile from 'proper-lockfile';
import { StoreLockCompromisedError, StoreLockedError } from './errors.js';
import { assertChannel, parseInt8, txHandle, type Queryable, type QueryResult, type Sql } from './sql.js';

/** The PostgreSQL data directory inside the Votal data folder. */
export const PGLITE_DATA_SUBDIR = 'pgdata';
/** The lock (a directory, made atomically by proper-lockfile) inside the Votal data folder. */
export const LOCK_NAME = 'votal.lock';
/** In-memory database: no folder, no lock. */
const MEMORY = 'memory://';

export interface PgliteSqlOptions {
  /** The Votal data folder (the database lives in `<dataDir>/pgdata`), or `memory://`. */
  dataDir: string;
  /**
   * A lock not refreshed for this long belongs to a dead process and is taken over
   * (proper-lockfile refreshes it every `staleMs / 2`). Default 20 s.
   */
  lockStaleMs?: number;
  /**
   * Called when the folder lock is lost while open (the clock jumped, the lock directory was
   * removed, the event loop stalled longer than `lockStaleMs`). The database has already been
   * closed and every later call rejects with this error. Default: print it to stderr.
   */
  onLockCompromised?: (error: StoreLockCompromisedError) => void;
}

const INT8 = 20;
const DEFAULT_STALE_MS = 20_000;

/**
 * PostgreSQL's buffer cache inside PGlite's WebAssembly memory. The default (128MB) is held
 * by every process for the life of the store; a game's working set is a few pages of posts
 * and readings, and the files under it stay in the operating system's cache (BENCHMARKS.md).
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

/** Opens embedded PostgreSQL: locks the folder first, then starts PGlite in it. */
export async function openPgliteSql(options: PgliteSqlOptions): Promise<Sql> {
  const memory = options.dataDir === MEMORY;
  const folder = memory ? MEMORY : resolve(options.dataDir);
  const staleMs = Math.max(options.lockStaleMs ?? DEFAULT_STALE_MS, 2_000);
  let release: (() => Promise<void>) | null = null;
  let onCompromised: (error: Error) => void = () => {};

  if (!memory) {
    await mkdir(folder, { recursive: true });
    const lockPath = join(folder, LOCK_NAME);
    try {
      release = await lockfile.lock(folder, {
        lockfilePath: lockPath,
        stale: staleMs,
        retries: 0,
        realpath: false,
        onCompromised: (error) => onCompromised(error),
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOCKED')
        throw new StoreLockedError(folder, lockPath, staleMs, { cause: error });
      throw error;
    }
  }

  let db: PGlite;
  try {
    if (!memory) await createDatabaseApart(join(folder, PGLITE_DATA_SUBDIR));
    db = await PGlite.create(memory ? MEMORY : join(folder, PGLITE_DATA_SUBDIR), {
      parsers: { [INT8]: (text: string) => parseInt8(text) },
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    });
  } catch (error) {
    await release?.().catch(() => {});
    throw error;
  }

  const sql = new PgliteSql(db, folder, release);
  onCompromised = (cause) =>
    sql.compromise(new StoreLockCompromisedError(folder, { cause }), options.onLockCompromised);
  return sql;
}

/**
 * A new data folder's database is made (initdb) in a short-lived child process, then
 * opened here as any later start opens it: initdb grows PGlite's WebAssembly memory to
 * about 740 MiB, and WebAssembly memory is never given back, so a first `serve` that made
 * its database itself held three times the memory of every later start (BENCHMARKS.md).
 * The folder lock is held by this process meanwhile; the child takes no lock of its own.
 */
async function createDatabaseApart(pgdata: string): Promise<void> {
  if (existsSync(join(pgdata, 'PG_VERSION'))) return;
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script =
    'const { PGlite } = require(process.argv[1]);' +
    'PGlite.create(process.argv[2]).then((db) => db.close()).then(' +
    '() => process.exit(0), (e) => { process.stderr.write(String((e && e.stack) || e)); process.exit(1); });';
  await new Promise<void>((resolvePromise, reject) => {
    execFile(process.execPath, ['-e', script, pglite, pgdata], { maxBuffer: 1 << 20 }, (error, _out, stderr) => {
      if (!error) resolvePromise();
      else reject(new Error(`could not create the database in ${pgdata}: ${stderr.trim() || error.message}`));
    });
  });
}

function normalise<T>(result: Results<T>): QueryResult<T> {
  return { rows: result.rows, rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length };
}

/** Marks the async context of a running transaction, to catch the outer handle used inside it. */
const insideTransaction = new AsyncLocalStorage<{ sql: PgliteSql; active: boolean }>();

class PgliteSql implements Sql {
  readonly driver = 'pglite' as const;
  #db: PGlite;
  #release: (() => Promise<void>) | null;
  #failure: Error | null = null;
  #closing: Promise<void> | null = null;
  readonly #pending = new Set<Promise<unknown>>();

  constructor(
    db: PGlite,
    readonly location: string,
    release: (() => Promise<void>) | null,
  ) {
    this.#db = db;
    this.#release = release;
  }

  /** Every call goes through here: refuses work after close/compromise and tracks it for close(). */
  #run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#closing) return Promise.reject(new Error(`the database at ${this.location} is closed`));
    const context = insideTransaction.getStore();
    if (context?.sql === this && context.active) {
      // PGlite has one connection and serialises transactions: waiting here would deadlock.
      return Promise.reject(new Error('inside transaction(fn), use the handle passed to fn, not the outer Sql'));
    }
    const promise = work();
    this.#pending.add(promise);
    const forget = (): void => {
      this.#pending.delete(promise);
    };
    promise.then(forget, forget);
    return promise;
  }

  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
    return this.#run(async () => normalise(await this.#db.query<T>(text, params ? [...params] : undefined)));
  }

  exec(script: string): Promise<void> {
    return this.#run(async () => {
      await this.#db.exec(script);
    });
  }

  notify(channel: string, payload: string): Promise<void> {
    assertChannel(channel);
    return this.#run(async () => {
      await this.#db.query('SELECT pg_notify($1, $2)', [channel, payload]);
    });
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.#run(() =>
      this.#db.transaction(async (tx) => {
        const state = { open: true };
        const context = { sql: this, active: true };
        try {
          const handle = txHandle(
            {
              query: async <R>(text: string, params?: readonly unknown[]) =>
                normalise(await tx.query<R>(text, params ? [...params] : undefined)),
              exec: async (script: string) => {
                await tx.exec(script);
              },
            },
            state,
          );
          return await insideTransaction.run(context, () => fn(handle));
        } finally {
          state.open = false;
          context.active = false;
        }
      }),
    );
  }

  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    assertChannel(channel);
    const safe = (payload: string): void => {
      try {
        onPayload(payload);
      } catch (error) {
        console.error(`votal store: a listener on ${channel} threw`, error);
      }
    };
    const unlisten = await this.#run(() => this.#db.listen(channel, safe));
    let done = false;
    return async () => {
      if (done || this.#closing || this.#failure) return;
      done = true;
      await unlisten();
    };
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      await Promise.allSettled([...this.#pending]);
      if (!this.#db.closed) await this.#db.close();
      const release = this.#release;
      this.#release = null;
      if (release && !this.#failure) await release();
    })();
    return this.#closing;
  }

  /** The folder lock was lost: stop using the database at once. */
  compromise(error: StoreLockCompromisedError, handler?: (error: StoreLockCompromisedError) => void): void {
    if (this.#failure) return;
    this.#failure = error;
    this.#release = null;
    void (this.#db.closed ? Promise.resolve() : this.#db.close()).catch(() => {});
    if (handler) handler(error);
    else console.error(error.message);
  }
}
