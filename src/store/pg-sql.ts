import { createHash } from 'node:crypto';
import pg from 'pg';
import {
  assertChannel,
  parseInt8,
  redactDatabaseUrl,
  txHandle,
  type Queryable,
  type QueryResult,
  type Sql,
} from './sql.js';

export interface PgSqlOptions {
  /** `postgres://user:password@host:port/database` */
  connectionString: string;
  /**
   * Run every connection with `search_path` set to this schema (tests use a fresh schema per
   * run). It must already exist. Default: the server's search_path.
   */
  schema?: string;
  /** Pool size. Default 10. */
  max?: number;
  /** Errors on idle pool clients (a restarted server, a dropped connection). Default: stderr. */
  onError?: (error: Error) => void;
}

const INT8 = 20;
const INT8_ARRAY = 1016;
const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

/** int8 as number, int8[] as number[]: the same values PGlite returns. Scoped to our pools, not global. */
function typeOverrides(): pg.TypeOverrides {
  const overrides = new pg.TypeOverrides();
  overrides.setTypeParser(INT8, 'text', parseInt8);
  // pg's own int8[] parser gives strings (and nulls); TypeId does not list array oids.
  const getParser = pg.types.getTypeParser as (oid: number, format: 'text') => (text: string) => (string | null)[];
  const parseInt8Strings = getParser(INT8_ARRAY, 'text');
  overrides.setTypeParser(INT8_ARRAY, 'text', (text: string) =>
    parseInt8Strings(text).map((v) => (v === null ? null : parseInt8(v))),
  );
  return overrides;
}

/** Opens a pool on PostgreSQL and checks that it answers. */
export async function openPgSql(options: PgSqlOptions): Promise<Sql> {
  if (options.schema !== undefined && !SCHEMA.test(options.schema)) {
    throw new TypeError(`bad schema name ${JSON.stringify(options.schema)}: use lower-case letters, digits and _`);
  }
  const config: pg.ClientConfig = {
    connectionString: options.connectionString,
    types: typeOverrides(),
    application_name: 'votal',
    // Votal's queries are small and many: JIT compiling one costs more than running it (a
    // posts query on a table the planner had no statistics for took 1.1 s, 4.5 ms without).
    options: `-c jit=off${options.schema ? ` -c search_path=${options.schema}` : ''}`,
  };
  const onError = options.onError ?? ((error: Error) => console.error(`votal store: PostgreSQL: ${error.message}`));
  const pool = new pg.Pool({ ...config, max: options.max ?? 10 });
  pool.on('error', onError);
  const location = redactDatabaseUrl(options.connectionString) + (options.schema ? ` (schema ${options.schema})` : '');
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Error(`cannot connect to PostgreSQL at ${location}: ${(error as Error).message}`, { cause: error });
  }
  return new PgSql(pool, config, location, onError, schemaChannels(options.schema));
}

/**
 * NOTIFY reaches every session of the database, whatever its search_path: stores in
 * different schemas of one database (tests side by side, several Votal instances) would
 * hear each other's game ids. So a store in its own schema notifies and listens on channels
 * named after that schema too.
 */
function schemaChannels(schema: string | undefined): (channel: string) => string {
  if (schema === undefined) return (channel) => channel;
  return (channel) => {
    const named = `${channel}__${schema}`;
    return named.length <= 63 ? named : `${channel}__${createHash('sha256').update(schema).digest('hex').slice(0, 16)}`;
  };
}

function normalise<T>(result: pg.QueryResult): QueryResult<T> {
  return {
    rows: result.rows as T[],
    rowCount: result.rowCount ?? (result.command === 'SELECT' ? result.rows.length : 0),
  };
}

interface Channel {
  callbacks: Set<(payload: string) => void>;
  ready: Promise<void>;
}

class PgSql implements Sql {
  readonly driver = 'pg' as const;
  #closed = false;
  #listener: Promise<pg.Client> | null = null;
  #reconnectDelay = 500;
  readonly #channels = new Map<string, Channel>();

  constructor(
    readonly pool: pg.Pool,
    private readonly config: pg.ClientConfig,
    readonly location: string,
    private readonly onError: (error: Error) => void,
    private readonly channelOf: (channel: string) => string,
  ) {}

  #check(): void {
    if (this.#closed) throw new Error(`the database at ${this.location} is closed`);
  }

  async query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
    this.#check();
    return normalise<T>(await this.pool.query(text, params ? [...params] : undefined));
  }

  async exec(script: string): Promise<void> {
    this.#check();
    await this.pool.query(script); // no parameters: the simple protocol runs several statements
  }

  async notify(channel: string, payload: string): Promise<void> {
    await this.query('SELECT pg_notify($1, $2)', [this.channelOf(assertChannel(channel)), payload]);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    this.#check();
    const client = await this.pool.connect();
    let broken: Error | undefined;
    const state = { open: true };
    try {
      try {
        await client.query('BEGIN');
      } catch (error) {
        broken = error as Error;
        throw error;
      }
      try {
        const value = await fn(
          txHandle(
            {
              query: async <R>(text: string, params?: readonly unknown[]) =>
                normalise<R>(await client.query(text, params ? [...params] : undefined)),
              exec: async (script: string) => {
                await client.query(script);
              },
              channelOf: this.channelOf,
            },
            state,
          ),
        );
        state.open = false;
        await client.query('COMMIT');
        return value;
      } catch (error) {
        state.open = false;
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError; // the connection is unusable: destroy it rather than pool it
        });
        throw error;
      }
    } finally {
      client.release(broken);
    }
  }

  async listen(name: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    this.#check();
    const channel = this.channelOf(assertChannel(name));
    let entry = this.#channels.get(channel);
    if (!entry) {
      entry = {
        callbacks: new Set(),
        ready: this.#listenClient().then(async (client) => {
          await client.query(`LISTEN ${channel}`);
        }),
      };
      this.#channels.set(channel, entry);
    }
    const current = entry;
    const callback = (payload: string): void => onPayload(payload); // one Set entry per listen() call
    current.callbacks.add(callback);
    try {
      await current.ready;
    } catch (error) {
      current.callbacks.delete(callback);
      if (current.callbacks.size === 0 && this.#channels.get(channel) === current) this.#channels.delete(channel);
      throw error;
    }
    return async () => {
      if (!current.callbacks.delete(callback) || current.callbacks.size > 0) return;
      if (this.#channels.get(channel) !== current) return;
      this.#channels.delete(channel);
      const listener = this.#listener;
      if (this.#closed || !listener) return;
      const client = await listener.catch(() => null);
      await client?.query(`UNLISTEN ${channel}`).catch(() => {});
    };
  }

  /** One dedicated connection for LISTEN; re-made (and every channel re-LISTENed) if it drops. */
  #listenClient(): Promise<pg.Client> {
    if (this.#listener) return this.#listener;
    const client = new pg.Client(this.config);
    const current = (async () => {
      await client.connect();
      this.#reconnectDelay = 500;
      return client;
    })();
    this.#listener = current;
    let dead = false;
    const lost = (error?: Error): void => {
      if (dead) return;
      dead = true;
      if (this.#listener === current) this.#listener = null;
      if (this.#closed) return;
      if (error) this.onError(error);
      client.end().catch(() => {});
      this.#scheduleRelisten();
    };
    client.on('notification', (message) => {
      for (const callback of this.#channels.get(message.channel)?.callbacks ?? []) {
        try {
          callback(message.payload ?? '');
        } catch (error) {
          console.error(`votal store: a listener on ${message.channel} threw`, error);
        }
      }
    });
    client.on('error', lost);
    client.on('end', () => lost());
    current.catch(() => {
      dead = true;
      if (this.#listener === current) this.#listener = null;
    });
    return current;
  }

  #scheduleRelisten(): void {
    if (this.#closed || this.#channels.size === 0) return;
    const delay = this.#reconnectDelay;
    this.#reconnectDelay = Math.min(delay * 2, 30_000);
    setTimeout(() => {
      if (this.#closed || this.#channels.size === 0) return;
      this.#listenClient()
        .then(async (client) => {
          for (const channel of this.#channels.keys()) await client.query(`LISTEN ${channel}`);
        })
        .catch((error: Error) => {
          this.onError(error);
          this.#scheduleRelisten();
        });
    }, delay).unref();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const listener = this.#listener;
    this.#listener = null;
    this.#channels.clear();
    const client = listener ? await listener.catch(() => null) : null;
    await client?.end().catch(() => {});
    await this.pool.end();
  }
}
