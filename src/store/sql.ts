/**
 * The storage port: the only SQL surface the rest of Votal sees. Two drivers implement it,
 * embedded PGlite (`pglite-sql.ts`) and PostgreSQL through `pg` (`pg-sql.ts`); the same SQL
 * and the same contract tests run on both.
 *
 * What the port guarantees on both drivers:
 * - `int8` values (ids, `count(*)`, `sum(int)`) come back as JS numbers, `int8[]` as number[]
 *   (exact up to 2^53; ids and counts never get near that);
 * - `rowCount` is always a number: rows changed by INSERT/UPDATE/DELETE, rows returned by a
 *   SELECT, 0 for DDL;
 * - `timestamptz` comes back as a `Date`, `json`/`jsonb` parsed. Pass jsonb parameters as
 *   `JSON.stringify(value)` with a `$n::jsonb` cast: `pg` would send a JS array as a
 *   PostgreSQL array literal, not JSON;
 * - `transaction(fn)` commits when `fn` resolves and rolls back when it throws; a
 *   `transaction` on the handle it gives is a SAVEPOINT, so repositories that wrap their own
 *   writes in a transaction compose inside a caller's transaction.
 */

/** A query's rows, with the driver differences ironed out (see the module comment). */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

/** What runs inside and outside a transaction: enough for every repository. */
export interface Queryable {
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /** Multi-statement text without parameters (migrations, scripts). */
  exec(script: string): Promise<void>;
  /** Runs `fn` in a transaction (a savepoint when already inside one). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** `pg_notify(channel, payload)`; inside a transaction it is delivered on commit. */
  notify(channel: string, payload: string): Promise<void>;
}

/** A handle on an open database. */
export interface Sql extends Queryable {
  readonly driver: 'pglite' | 'pg';
  /** Where the data lives, for messages: the folder, `memory://`, or the URL without its password. */
  readonly location: string;
  /** Calls `onPayload` for every NOTIFY on `channel` until the returned function is awaited. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** Closes the database (and, for PGlite, releases the folder lock). Safe to call twice. */
  close(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Channel names are plain lower-case identifiers on both drivers: PGlite sends `LISTEN name`
 * unquoted, so anything else would mean different channels (or a syntax error) per driver.
 */
export function assertChannel(channel: string): string {
  if (!CHANNEL.test(channel)) {
    throw new TypeError(`bad channel name ${JSON.stringify(channel)}: use lower-case letters, digits and _ (max 63)`);
  }
  return channel;
}

/** `int8` text -> number (both drivers' type parsers use this). */
export function parseInt8(text: string): number {
  return Number(text);
}

/** A first-come, first-served async mutex. */
class Mutex {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(fn, fn);
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

/** The two calls a driver's open transaction offers; `txHandle` builds the port on them. */
export interface TxConnection {
  query<T>(text: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  exec(script: string): Promise<void>;
  /** The channel a NOTIFY really goes to (a store in its own schema has its own channels). */
  channelOf?(channel: string): string;
}

/**
 * The `Queryable` handed to a transaction's callback. Calls are serialised (PGlite's
 * protocol must not interleave; `pg` queues anyway), nested `transaction` calls become
 * savepoints, and the handle refuses work once its transaction has ended.
 */
export function txHandle(conn: TxConnection, state: { open: boolean } = { open: true }, depth = 0): Queryable {
  const lock = new Mutex();
  const check = (): void => {
    if (!state.open) throw new Error('this transaction has already ended; use the handle only inside its callback');
  };
  const handle: Queryable = {
    query<T>(text: string, params?: readonly unknown[]) {
      check();
      return lock.run(() => conn.query<T>(text, params));
    },
    exec(script) {
      check();
      return lock.run(() => conn.exec(script));
    },
    async notify(channel, payload) {
      check();
      const name = assertChannel(channel);
      await lock.run(() => conn.query('SELECT pg_notify($1, $2)', [conn.channelOf?.(name) ?? name, payload]));
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      check();
      const name = `votal_sp_${depth + 1}`;
      // The nested handle talks to the connection directly: the outer lock would deadlock.
      await lock.run(() => conn.query(`SAVEPOINT ${name}`));
      const inner = { open: true };
      try {
        const value = await fn(txHandle(conn, inner, depth + 1));
        inner.open = false;
        await lock.run(() => conn.query(`RELEASE SAVEPOINT ${name}`));
        return value;
      } catch (error) {
        inner.open = false;
        await lock.run(() => conn.query(`ROLLBACK TO SAVEPOINT ${name}`));
        throw error;
      }
    },
  };
  return handle;
}

/** Hides the password in a database connection URL, keeping the user (for messages and `Sql.location`); forum URLs go through fetch/redact-url.ts, which drops session ids too. */
export function redactDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable database URL)';
  }
}
