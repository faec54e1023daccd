import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { EnvError, loadEnv, type VotalEnv } from '../config/env.js';
import { PageFetcher } from '../fetch/page-fetcher.js';
import type { PageFetcherOptions } from '../fetch/fetcher-options.js';
import { createClock, type Clock } from '../jobs/clock.js';
import { createPoller, type Poller, type PollerOptions } from '../jobs/poller.js';
import { createLogger, type Logger, type VotalLogger } from '../log/logger.js';
import { watchGames, type GameWatch } from '../notify/watch.js';
import { createNotifier } from '../notify/webhook.js';
import { StoreLockedError } from '../store/errors.js';
import { closeOnSignals, openStore, type Store } from '../store/open-store.js';
import { redactUrl } from '../store/sql.js';
import { createApp, type AppDeps, type VotalApp } from '../web/app.js';
import { startHttpServer, type RunningServer } from '../web/server.js';
import { CliError, EXIT } from './exit-codes.js';

/**
 * `votal serve`: the store (PGlite in ./.votal/, or PostgreSQL with DATABASE_URL), its
 * migrations, the poller, the GM notifications and the web server, in one process.
 * `votal worker`: the poller alone, for more polling processes on a shared PostgreSQL.
 */

export interface ServeOptions {
  /** Default: `process.env`, validated. */
  env?: VotalEnv;
  /** Override the environment's PORT / HOST (command-line options). */
  port?: number;
  host?: string;
  stdout?: (s: string) => void;
  stderr?: (s: string) => void;
  /** Close on SIGINT/SIGTERM (and exit). Default true; in-process tests pass false. */
  handleSignals?: boolean;
  /** Logger (default: pino on stdout at the environment's level). */
  logger?: VotalLogger;
  /** Poller tuning (tests poll faster). */
  poller?: Partial<Pick<PollerOptions, 'pollingIntervalSeconds' | 'minDelayMs' | 'reconcileEveryMs' | 'concurrency'>>;
  /** Page fetcher tuning (tests: no pause between requests). */
  fetcher?: PageFetcherOptions;
  /** App tuning: publishing timeouts, SSE heartbeat, rate limits. */
  app?: Pick<AppDeps, 'publish' | 'live' | 'rateLimit' | 'pollWaitMs'>;
}

export interface RunningVotal {
  url: string;
  adminToken: string;
  env: VotalEnv;
  store: Store;
  poller: Poller;
  app: VotalApp;
  server: RunningServer;
  /** Stops the server, the notifications and the poller, then closes the store. Safe to call twice. */
  close(): Promise<void>;
}

export const TOKEN_FILE = 'admin-token';

/** The admin token: VOTAL_ADMIN_TOKEN, else the one kept in `<data dir>/admin-token` (made 0600 on first run). */
export async function adminTokenFor(env: VotalEnv): Promise<{ token: string; source: 'env' | 'file' | 'new'; file: string | null }> {
  if (env.adminToken) return { token: env.adminToken, source: 'env', file: null };
  if (env.dataDir.startsWith('memory://')) return { token: randomBytes(24).toString('base64url'), source: 'new', file: null };
  const dir = resolve(env.dataDir);
  const file = join(dir, TOKEN_FILE);
  try {
    const token = (await readFile(file, 'utf8')).trim();
    if (token.length >= 16) return { token, source: 'file', file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const token = randomBytes(24).toString('base64url');
  await writeFile(file, `${token}\n`, { mode: 0o600, flag: 'w' });
  await chmod(file, 0o600);
  return { token, source: 'new', file };
}

function envOrFail(env: VotalEnv | undefined): VotalEnv {
  if (env) return env;
  try {
    return loadEnv(process.env);
  } catch (error) {
    if (error instanceof EnvError) throw new CliError(error.message, EXIT.input);
    throw error;
  }
}

function fetcherFor(env: VotalEnv, overrides: PageFetcherOptions = {}): PageFetcher {
  return new PageFetcher({ allowPrivateHosts: env.allowPrivateHosts, ...overrides });
}

export async function startServe(options: ServeOptions = {}): Promise<RunningVotal> {
  const base = envOrFail(options.env);
  const env: VotalEnv = { ...base, port: options.port ?? base.port, host: options.host ?? base.host };
  const stdout = options.stdout ?? ((s: string) => void process.stdout.write(s));
  const logger = options.logger ?? createLogger({ level: env.logLevel });
  const { log, scrubber } = logger;
  const token = await adminTokenFor(env);
  scrubber.add(token.token);
  if (env.databaseUrl) scrubber.add(new URL(env.databaseUrl).password || null);

  const store = await openStore(env.databaseUrl ? { databaseUrl: env.databaseUrl } : { dataDir: env.dataDir }).catch((error: unknown) => {
    throw userError(error);
  });
  const parts: { poller?: Poller; clock?: Clock; app?: VotalApp; server?: RunningServer; watch?: GameWatch } = {};
  let stopped: Promise<void> | null = null;
  /** Everything but the store, in order: no new requests, no streams, no notifications, no polls. */
  const stopParts = (): Promise<void> => {
    stopped ??= (async () => {
      await parts.server?.close().catch((e: unknown) => log.warn({ err: e }, 'closing the web server'));
      await parts.app?.shutdown().catch((e: unknown) => log.warn({ err: e }, 'closing live updates'));
      await parts.watch?.stop().catch((e: unknown) => log.warn({ err: e }, 'closing notifications'));
      await parts.clock?.stop().catch((e: unknown) => log.warn({ err: e }, 'stopping the clock'));
      await parts.poller?.stop().catch((e: unknown) => log.warn({ err: e }, 'stopping the poller'));
    })();
    return stopped;
  };
  let closed: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closed ??= stopParts().then(() => store.close());
    return closed;
  };

  try {
    parts.poller = createPoller({
      store, source: fetcherFor(env, options.fetcher), log: pollerLog(log), ...options.poller,
      ...(env.databaseUrl ? { databaseUrl: env.databaseUrl } : {}),
      ...(env.queueSchema ? { schema: env.queueSchema } : {}),
    });
    await parts.poller.start();
    // Deadlines, Hammer checks and hourly drafts: polls the games whose clock rule is due.
    parts.clock = createClock({ store, poller: parts.poller, log: pollerLog(log) });
    await parts.clock.start();
    parts.app = createApp({
      store, poller: parts.poller, env: { ...env, adminToken: token.token }, log, scrubber, ...options.app,
    });
    const server = await startHttpServer(parts.app, { host: env.host, port: env.port });
    parts.server = server;
    const notifier = createNotifier({ audit: store.audit, log, allowPrivateHosts: env.allowPrivateHosts, publicBaseUrl: env.publicUrl ?? server.url });
    parts.watch = await watchGames({ sql: store.sql, store, notifier, log });

    const shownToken = token.source === 'new' ? token.token : token.source === 'env' ? 'from VOTAL_ADMIN_TOKEN' : `in ${token.file}`;
    stdout(`Votal is running: dashboard ${server.url}/ (admin token: ${shownToken})\n`);
    if (token.source === 'new' && token.file) stdout(`The admin token is kept in ${token.file} (readable by you only); it is shown this once.\n`);
    stdout(`Data: ${store.sql.driver === 'pg' ? `PostgreSQL ${redactUrl(env.databaseUrl ?? '')}` : `PGlite in ${store.sql.location}`}. Stop with Ctrl-C.\n`);
    log.info({ url: server.url, driver: store.sql.driver, migrations: store.migrations.applied }, 'votal serve started');

    if (options.handleSignals !== false) {
      closeOnSignals(store.sql, {
        before: async () => {
          stdout('Votal is stopping...\n');
          await stopParts();
        },
      });
    }
    return { url: server.url, adminToken: token.token, env, store, poller: parts.poller, app: parts.app, server, close };
  } catch (error) {
    await close().catch(() => {});
    throw userError(error, env);
  }
}

/** Errors the user can fix, as CliErrors with a plain message (the rest stay bugs with a stack). */
function userError(error: unknown, env?: VotalEnv): unknown {
  if (error instanceof StoreLockedError) return new CliError(error.message, EXIT.input);
  const e = error as NodeJS.ErrnoException;
  if (env && (e?.code === 'EADDRINUSE' || e?.code === 'EACCES' || e?.code === 'EADDRNOTAVAIL')) {
    const why = e.code === 'EADDRINUSE' ? 'is in use' : e.code === 'EACCES' ? 'needs privileges' : 'is not an address of this machine';
    return new CliError(`cannot listen on ${env.host}:${env.port}: it ${why}; choose another with --port/--host or PORT/HOST`, EXIT.input);
  }
  if (e?.code === 'ECONNREFUSED' || e?.code === 'ENOTFOUND' || e?.code === '28P01' || e?.code === '3D000') {
    return new CliError(`cannot open the database: ${e.message}`, EXIT.input);
  }
  return error;
}

export interface RunningWorker {
  store: Store;
  poller: Poller;
  close(): Promise<void>;
}

/** `votal worker`: polling only, on PostgreSQL (several processes share its job queue). */
export async function startWorker(options: Omit<ServeOptions, 'port' | 'host' | 'app'> = {}): Promise<RunningWorker> {
  const env = envOrFail(options.env);
  if (!env.databaseUrl) {
    throw new CliError(
      'votal worker needs PostgreSQL: set DATABASE_URL=postgres://... . The embedded database (PGlite) can be opened by ' +
        'one process only, and `votal serve` already polls with it.',
      EXIT.input,
    );
  }
  const stdout = options.stdout ?? ((s: string) => void process.stdout.write(s));
  const { log, scrubber } = options.logger ?? createLogger({ level: env.logLevel });
  scrubber.add(new URL(env.databaseUrl).password || null);
  const store = await openStore({ databaseUrl: env.databaseUrl }).catch((error: unknown) => {
    throw userError(error);
  });
  const poller = createPoller({
    store, source: fetcherFor(env, options.fetcher), log: pollerLog(log), databaseUrl: env.databaseUrl, ...options.poller,
    ...(env.queueSchema ? { schema: env.queueSchema } : {}),
  });
  try {
    await poller.start();
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
  let closed: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closed ??= poller.stop().finally(() => store.close());
    return closed;
  };
  stdout(`Votal worker is polling (PostgreSQL ${redactUrl(env.databaseUrl)}). Stop with Ctrl-C.\n`);
  if (options.handleSignals !== false) closeOnSignals(store.sql, { before: () => poller.stop() });
  return { store, poller, close };
}

/** The poller logs through pino (its call shape is pino's). */
function pollerLog(log: Logger): PollerOptions['log'] {
  const child = log.child({ part: 'poller' });
  return {
    debug: (fields, message) => child.debug(fields, message),
    info: (fields, message) => child.info(fields, message),
    warn: (fields, message) => child.warn(fields, message),
    error: (fields, message) => child.error(fields, message),
  };
}
