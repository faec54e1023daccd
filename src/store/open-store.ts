import { z } from 'zod';
import { auditRepo, type AuditRepo } from './audit-repo.js';
import { makePrivate, privateDataFolder } from './data-folder.js';
import { draftsRepo, type DraftsRepo } from './drafts-repo.js';
import type { StoreLockCompromisedError } from './errors.js';
import { eventsRepo, type EventsRepo } from './events-repo.js';
import { gamesRepo, type GamesRepo } from './games-repo.js';
import { gmsRepo, type GmsRepo } from './gms-repo.js';
import { migrate, type MigrateResult } from './migrate.js';
import { nicknamesRepo, type NicknamesRepo } from './nicknames-repo.js';
import { openPgSql } from './pg-sql.js';
import { openPgliteSql } from './pglite-sql.js';
import { pollsRepo, type PollsRepo } from './polls-repo.js';
import { postsRepo, type PostsRepo } from './posts-repo.js';
import { readingsRepo, type ReadingsRepo } from './readings-repo.js';
import { siteProfilesRepo, type SiteProfilesRepo } from './site-profiles-repo.js';
import type { Queryable, Sql } from './sql.js';
import { talliesRepo, type TalliesRepo } from './tallies-repo.js';
import { threadPagesRepo, type ThreadPagesRepo } from './thread-pages-repo.js';

/** The default embedded data folder, relative to the working directory. */
const DEFAULT_DATA_DIR = '.votal';

const blankIsUnset = (v: unknown): unknown => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** The environment the store reads. Messages never echo DATABASE_URL (it may hold a password). */
export const StoreEnv = z.object({
  DATABASE_URL: z.preprocess(
    blankIsUnset,
    z
      .string()
      .refine((v) => /^postgres(ql)?:\/\/[^\s]+$/.test(v) && URL.canParse(v), {
        message: 'DATABASE_URL must be a postgres:// or postgresql:// URL',
      })
      .optional(),
  ),
  /** The embedded data folder (default `.votal`); `memory://` for a throwaway database. */
  VOTAL_DATA_DIR: z.preprocess(blankIsUnset, z.string().optional()),
});
export type StoreEnv = z.infer<typeof StoreEnv>;

export interface OpenSqlOptions {
  /** Use PostgreSQL at this URL. */
  databaseUrl?: string;
  /** Use embedded PGlite in this folder (or `memory://`). */
  dataDir?: string;
  /** PostgreSQL only: run in this (existing) schema. */
  schema?: string;
  /** Read DATABASE_URL / VOTAL_DATA_DIR from here when neither option is given. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** PGlite only: hears that an existing data folder was open to other users and was made private. Default: a process warning. */
  onWarning?: (message: string) => void;
  /** PGlite only: the folder lock was lost (see `PgliteSqlOptions.onLockCompromised`). */
  onLockCompromised?: (error: StoreLockCompromisedError) => void;
}

/**
 * Opens the database: an explicit `databaseUrl` or `dataDir` decides; otherwise DATABASE_URL
 * (PostgreSQL) when set, else embedded PGlite in VOTAL_DATA_DIR or `./.votal/`.
 */
export async function openSql(options: OpenSqlOptions = {}): Promise<Sql> {
  if (options.databaseUrl !== undefined && options.dataDir !== undefined) {
    throw new TypeError('openSql: give databaseUrl or dataDir, not both');
  }
  let { databaseUrl, dataDir } = options;
  if (databaseUrl === undefined && dataDir === undefined) {
    const parsed = StoreEnv.safeParse(options.env ?? process.env);
    if (!parsed.success) {
      throw new Error(
        `bad store environment: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    }
    databaseUrl = parsed.data.DATABASE_URL;
    dataDir = databaseUrl === undefined ? (parsed.data.VOTAL_DATA_DIR ?? DEFAULT_DATA_DIR) : undefined;
  }
  if (databaseUrl !== undefined) {
    return openPgSql({ connectionString: databaseUrl, ...(options.schema ? { schema: options.schema } : {}) });
  }
  const folder = dataDir ?? DEFAULT_DATA_DIR;
  const lock = options.onLockCompromised ? { onLockCompromised: options.onLockCompromised } : {};
  if (folder === 'memory://') return openPgliteSql({ dataDir: folder, ...lock });
  await privateDataFolder(
    folder,
    options.onWarning ?? ((m) => process.emitWarning(m, { code: 'VOTAL_DATA_DIR_MODE' })),
  );
  const sql = await openPgliteSql({ dataDir: folder, ...lock });
  await makePrivate(folder); // a new database's unpacked files
  return sql;
}

/** The repositories, on a database or inside a transaction (`storeOn(tx)`). */
export interface Repos {
  games: GamesRepo;
  posts: PostsRepo;
  events: EventsRepo;
  tallies: TalliesRepo;
  drafts: DraftsRepo;
  audit: AuditRepo;
  threadPages: ThreadPagesRepo;
  readings: ReadingsRepo;
  /** The poller's per-game state: lease, last error, thread shape (migration 002). */
  polls: PollsRepo;
  /** GM accounts, invites, sessions and who runs which game (migration 010). */
  gms: GmsRepo;
  /** The generic reader's checks of page 1 and the host profiles they taught (migration 013). */
  siteProfiles: SiteProfilesRepo;
  /** The forums' nickname books and the nicknames GMs dropped per game (migration 014). */
  nicknames: NicknamesRepo;
}

export function storeOn(db: Queryable): Repos {
  return {
    games: gamesRepo(db),
    posts: postsRepo(db),
    events: eventsRepo(db),
    tallies: talliesRepo(db),
    drafts: draftsRepo(db),
    audit: auditRepo(db),
    threadPages: threadPagesRepo(db),
    readings: readingsRepo(db),
    polls: pollsRepo(db),
    gms: gmsRepo(db),
    siteProfiles: siteProfilesRepo(db),
    nicknames: nicknamesRepo(db),
  };
}

export interface Store extends Repos {
  sql: Sql;
  migrations: MigrateResult;
  close(): Promise<void>;
}

/** `openSql` + migrations + repositories: what `votal serve` needs. Closes the database if migrating fails. */
export async function openStore(options: OpenSqlOptions = {}): Promise<Store> {
  const sql = await openSql(options);
  try {
    const migrations = await migrate(sql);
    return { sql, migrations, ...storeOn(sql), close: () => sql.close() };
  } catch (error) {
    await sql.close().catch(() => {});
    throw error;
  }
}

export interface CloseOnSignalsOptions {
  /** Default SIGINT and SIGTERM. */
  signals?: NodeJS.Signals[];
  /** Runs before the database closes: stop the HTTP server and the poller here. */
  before?: () => Promise<void>;
  /** Give up waiting after this long. Default 10 s. */
  timeoutMs?: number;
  /** Default `process.exit`. The code is 128 + the signal number (130 for SIGINT, 143 for SIGTERM). */
  exit?: (code: number) => void;
  /** Default: stderr. */
  onError?: (error: unknown) => void;
}

const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 };

/**
 * On the first SIGINT/SIGTERM: run `before`, close the database (PGlite checkpoints its WAL
 * and releases the folder lock), then exit. A second signal exits at once. Returns a
 * function that removes the handlers.
 */
export function closeOnSignals(sql: Pick<Sql, 'close'>, options: CloseOnSignalsOptions = {}): () => void {
  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const onError = options.onError ?? ((error: unknown) => console.error('votal: error while shutting down', error));
  const timeoutMs = options.timeoutMs ?? 10_000;
  let shuttingDown = false;

  const handler = (signal: NodeJS.Signals): void => {
    const code = 128 + (SIGNAL_NUMBERS[signal] ?? 15);
    if (shuttingDown) {
      exit(code);
      return;
    }
    shuttingDown = true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`shutdown took longer than ${timeoutMs} ms`)), timeoutMs);
      timer.unref();
    });
    const work = (async () => {
      try {
        await options.before?.();
      } finally {
        await sql.close();
      }
    })();
    Promise.race([work, timeout])
      .catch(onError)
      .finally(() => {
        clearTimeout(timer);
        dispose();
        exit(code);
      });
  };

  const dispose = (): void => {
    for (const signal of signals) process.off(signal, handler);
  };
  for (const signal of signals) process.on(signal, handler);
  return dispose;
}
