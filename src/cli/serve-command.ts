import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { EnvError, loadEnv, type VotalEnv } from '../config/env.js';
import { publishAad } from '../config/publish-settings.js';
import { SecretBox } from '../config/secrets.js';
import type { PageFetcherOptions } from '../fetch/fetcher-options.js';
import { createClock, type Clock } from '../jobs/clock.js';
import { createPoller, type Poller, type PollerOptions } from '../jobs/poller.js';
import { siteReadings, type GameSession, type SiteReadings } from '../jobs/site-readings.js';
import { jarFromJson } from '../publish/cookie-jar.js';
import { loadSiteProfiles, SiteProfileError, type SiteProfiles } from '../site/load-site-profiles.js';
import type { Game } from '../model/game.js';
import { createLogger, type Logger, type VotalLogger } from '../log/logger.js';
import { watchGames, type GameWatch } from '../notify/watch.js';
import { createNotifier } from '../notify/webhook.js';
import { StoreLockedError } from '../store/errors.js';
import { closeOnSignals, openStore, type Store } from '../store/open-store.js';
import { redactDatabaseUrl } from '../store/sql.js';
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
  /** Page fetcher tuning (tests: no pause between requests); a site profile's pause still applies to its site. */
  fetcher?: PageFetcherOptions;
  /**
   * Site profile files or folders (`--site-profile`), after `./sites/` (loaded when it
   * exists): engine, time zone, pause, browser fallback, cookies and login per site.
   */
  siteProfiles?: string[];
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

const TOKEN_FILE = 'admin-token';

/** The admin token: VOTAL_ADMIN_TOKEN, else the one kept in `<data dir>/admin-token` (made 0600 on first run). */
export async function adminTokenFor(
  env: VotalEnv,
): Promise<{ token: string; source: 'env' | 'file' | 'new'; file: string | null }> {
  if (env.adminToken) return { token: env.adminToken, source: 'env', file: null };
  if (env.dataDir.startsWith('memory://'))
    return { token: randomBytes(24).toString('base64url'), source: 'new', file: null };
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

/** The folder of site profiles `votal serve` and `votal worker` load by default (README: "put a YAML file in sites/"). */
const DEFAULT_SITES_DIR = 'sites';

/** `./sites/` when it exists, then the `--site-profile` files and folders (a later file wins a tie on a host). */
function serviceSiteProfiles(paths: readonly string[] = []): SiteProfiles {
  const defaults = isFolder(DEFAULT_SITES_DIR) ? [resolve(DEFAULT_SITES_DIR)] : [];
  try {
    return loadSiteProfiles([...defaults, ...paths]);
  } catch (error) {
    if (error instanceof SiteProfileError) throw new CliError(error.message, EXIT.input);
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw new CliError(`site profile not found: ${e.path ?? e.message}`, EXIT.input);
    throw error;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * How the poller reads threads: each game's site profile and session (as `votal count
 * --site-profile/--cookies` does). A game's stored session is the logged-in jar the GM
 * gave for publishing with the board's form (`settings.publish`, sealed with
 * VOTAL_SECRET_KEY): the same login reads a private thread. Its cookie values are kept
 * out of the logs.
 */
function readingsFor(
  env: VotalEnv,
  options: Pick<ServeOptions, 'fetcher' | 'siteProfiles'>,
  logger: VotalLogger,
): SiteReadings {
  const { log, scrubber } = logger;
  const box = env.secretKey ? new SecretBox(env.secretKey) : null;
  const sessionOf = (game: Game): GameSession | null => {
    const stored = game.settings.publish;
    if (stored?.method !== 'form') return null;
    if (!box) {
      log.warn(
        { gameId: game.id },
        "the game's stored forum session needs VOTAL_SECRET_KEY; reading its thread without it",
      );
      return null;
    }
    try {
      const jar = jarFromJson(box.open(stored.jar, publishAad(game.threadUrl, 'form')));
      for (const cookie of jar.serializeSync()?.cookies ?? []) scrubber.add(String(cookie.value ?? ''));
      return { key: stored.jar, jar };
    } catch (error) {
      log.warn(
        { gameId: game.id, err: (error as Error).message },
        "the game's stored forum session cannot be opened; reading its thread without it",
      );
      return null;
    }
  };
  return siteReadings({
    profiles: serviceSiteProfiles(options.siteProfiles),
    fetcher: { allowPrivateHosts: env.allowPrivateHosts, ...options.fetcher },
    sessionOf,
  });
}

/** The poller's options from the environment: polls at once (VOTAL_POLL_CONCURRENCY), the queue's schema. */
function pollerEnv(env: VotalEnv): Partial<PollerOptions> {
  return {
    ...(env.pollConcurrency !== undefined ? { concurrency: env.pollConcurrency } : {}),
    ...(env.queueSchema ? { schema: env.queueSchema } : {}),
  };
}

/** What `votal serve` runs besides the store, each once it has started. */
interface ServeParts {
  poller?: Poller;
  clock?: Clock;
  app?: VotalApp;
  server?: RunningServer;
  watch?: GameWatch;
  sites?: SiteReadings;
}

/** Stops everything but the store, in order, once: no new requests, no streams, no notifications, no polls. */
function partsStopper(parts: ServeParts, log: VotalLogger['log']): () => Promise<void> {
  let stopped: Promise<void> | null = null;
  return () => {
    stopped ??= (async () => {
      await parts.server?.close().catch((e: unknown) => log.warn({ err: e }, 'closing the web server'));
      await parts.app?.shutdown().catch((e: unknown) => log.warn({ err: e }, 'closing live updates'));
      await parts.watch?.stop().catch((e: unknown) => log.warn({ err: e }, 'closing notifications'));
      await parts.clock?.stop().catch((e: unknown) => log.warn({ err: e }, 'stopping the clock'));
      await parts.poller?.stop().catch((e: unknown) => log.warn({ err: e }, 'stopping the poller'));
      await parts.sites?.close().catch((e: unknown) => log.warn({ err: e }, 'closing the site readings'));
    })();
    return stopped;
  };
}

/** The site readings, the poller and the clock, started (each noted in `parts` as it starts, for the stop). */
async function startPolling(
  parts: ServeParts,
  store: Store,
  env: VotalEnv,
  options: ServeOptions,
  logger: VotalLogger,
): Promise<Poller> {
  const { log } = logger;
  parts.sites = readingsFor(env, options, logger);
  const poller = createPoller({
    store,
    siteFor: parts.sites.siteFor,
    log: pollerLog(log),
    ...pollerEnv(env),
    ...options.poller,
    ...(env.databaseUrl ? { databaseUrl: env.databaseUrl } : {}),
  });
  parts.poller = poller;
  await poller.start();
  // Deadlines, Hammer checks and hourly drafts: polls the games whose clock rule is due.
  parts.clock = createClock({ store, poller, log: pollerLog(log) });
  await parts.clock.start();
  return poller;
}

/** The lines `votal serve` starts with: where the dashboard is, the admin token (a new one shown once), the data. */
function startedLines(
  url: string,
  token: Awaited<ReturnType<typeof adminTokenFor>>,
  sql: { driver: string; location?: string },
  env: VotalEnv,
): string[] {
  const shownToken =
    token.source === 'new' ? token.token : token.source === 'env' ? 'from VOTAL_ADMIN_TOKEN' : `in ${token.file}`;
  const data =
    sql.driver === 'pg' ? `PostgreSQL ${redactDatabaseUrl(env.databaseUrl ?? '')}` : `PGlite in ${sql.location}`;
  return [
    `Votal is running: dashboard ${url}/gm (admin token: ${shownToken}); players follow ${url}/g/<game>\n`,
    ...(token.source === 'new' && token.file
      ? [`The admin token is kept in ${token.file} (readable by you only); it is shown this once.\n`]
      : []),
    `Data: ${data}. Stop with Ctrl-C.\n`,
  ];
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

  const store = await openStore(env.databaseUrl ? { databaseUrl: env.databaseUrl } : { dataDir: env.dataDir }).catch(
    (error: unknown) => {
      throw userError(error);
    },
  );
  const parts: ServeParts = {};
  const stopParts = partsStopper(parts, log);
  let closed: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closed ??= stopParts().then(() => store.close());
    return closed;
  };

  try {
    const poller = await startPolling(parts, store, env, options, logger);
    parts.app = createApp({
      store,
      poller,
      env: { ...env, adminToken: token.token },
      log,
      scrubber,
      ...options.app,
    });
    const server = await startHttpServer(parts.app, { host: env.host, port: env.port });
    parts.server = server;
    const notifier = createNotifier({
      audit: store.audit,
      log,
      allowPrivateHosts: env.allowPrivateHosts,
      publicBaseUrl: env.publicUrl ?? server.url,
    });
    parts.watch = await watchGames({ sql: store.sql, store, notifier, log });

    for (const line of startedLines(server.url, token, store.sql, env)) stdout(line);
    log.info(
      { url: server.url, driver: store.sql.driver, migrations: store.migrations.applied },
      'votal serve started',
    );

    if (options.handleSignals !== false) {
      closeOnSignals(store.sql, {
        before: async () => {
          stdout('Votal is stopping...\n');
          await stopParts();
        },
      });
    }
    return {
      url: server.url,
      adminToken: token.token,
      env,
      store,
      poller,
      app: parts.app,
      server,
      close,
    };
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
    const why =
      e.code === 'EADDRINUSE'
        ? 'is in use'
        : e.code === 'EACCES'
          ? 'needs privileges'
          : 'is not an address of this machine';
    return new CliError(
      `cannot listen on ${env.host}:${env.port}: it ${why}; choose another with --port/--host or PORT/HOST`,
      EXIT.input,
    );
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
  const logger = options.logger ?? createLogger({ level: env.logLevel });
  const { log, scrubber } = logger;
  scrubber.add(new URL(env.databaseUrl).password || null);
  const sites = readingsFor(env, options, logger);
  const store = await openStore({ databaseUrl: env.databaseUrl }).catch((error: unknown) => {
    throw userError(error);
  });
  const poller = createPoller({
    store,
    siteFor: sites.siteFor,
    log: pollerLog(log),
    databaseUrl: env.databaseUrl,
    ...pollerEnv(env),
    ...options.poller,
  });
  try {
    await poller.start();
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
  let closed: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closed ??= poller.stop().finally(() => Promise.all([store.close(), sites.close()]).then(() => {}));
    return closed;
  };
  stdout(`Votal worker is polling (PostgreSQL ${redactDatabaseUrl(env.databaseUrl)}). Stop with Ctrl-C.\n`);
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
