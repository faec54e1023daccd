import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { VotalEnv } from '../../config/env.js';
import { startFakeForum, type FakeForum } from '../../fake-forum/server.js';
import { mountThreadFolder } from '../../fake-forum/thread-folder.js';
import { PageFetcher } from '../../fetch/page-fetcher.js';
import { createPoller, type Poller } from '../../jobs/poller.js';
import { packageRoot } from '../../config/package-root.js';
import { openStore, type Store } from '../../store/open-store.js';
import { createGame } from '../../app/games.js';
import { createApp, type VotalApp } from '../app.js';
import { commandDepsOf } from '../deps.js';

/**
 * `votal demo`: a stand-in forum serving the standard fixture game (every engine's
 * markup), and a running Votal (embedded database, poller, dashboard, live page) already
 * watching its XenForo 2 thread. Everything listens on 127.0.0.1 only.
 */
export interface DemoService {
  forum: FakeForum;
  /** The standard game's thread URL on each engine the stand-in forum serves. */
  threads: Record<string, string>;
  /** The watched thread. */
  threadUrl: string;
  /** Votal's address, `http://127.0.0.1:<port>`. */
  origin: string;
  dashboardUrl: string;
  liveUrl: string;
  /** Signs in to the dashboard (printed for the user; a new one each run). */
  adminToken: string;
  gameId: number;
  store: Store;
  /** Stops Votal, the poller and the forum, and closes the database. */
  close(): Promise<void>;
}

export interface DemoOptions {
  /** Votal's port on 127.0.0.1 (0: any free one). */
  port?: number;
  /** The stand-in forum's port (0: any free one). */
  forumPort?: number;
  /** Where the demo keeps its database; default in memory (gone when it stops). */
  dataDir?: string;
  /** Wait at most this long for the first count before returning. Default 20 s. */
  firstCountMs?: number;
}

/** A port the demo cannot listen on, named with the option that chooses it. */
export class DemoPortError extends Error {
  constructor(
    readonly port: number,
    readonly option: '--port' | '--forum-port',
    readonly code: string,
  ) {
    const why =
      code === 'EADDRINUSE' ? 'is in use' : code === 'EACCES' ? 'needs privileges' : `cannot be used (${code})`;
    super(
      `cannot listen on 127.0.0.1:${port}: it ${why}; choose another with ${option} (or leave it out for any free port)`,
    );
    this.name = 'DemoPortError';
  }
}

/** Listens on `port` for a moment: a taken port is known before the database takes its seconds to start. */
async function checkPort(port: number, option: DemoPortError['option']): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (e: NodeJS.ErrnoException) => reject(new DemoPortError(port, option, e.code ?? 'error')));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

/** What `votal demo` prints: every address, the thread on each engine, the token. */
export function demoAddresses(
  demo: Pick<DemoService, 'threads' | 'threadUrl' | 'liveUrl' | 'dashboardUrl' | 'adminToken'>,
): string {
  const engines = Object.entries(demo.threads).sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max(...engines.map(([e]) => e.length));
  return (
    `Stand-in forum thread: ${demo.threadUrl} (watched)\n` +
    `The same game on each engine the stand-in forum serves:\n` +
    engines.map(([engine, url]) => `  ${engine.padEnd(width)}  ${url}\n`).join('') +
    `Live tally page:       ${demo.liveUrl}\n` +
    `GM dashboard:          ${demo.dashboardUrl}\nSign in with the admin token: ${demo.adminToken}\n`
  );
}

/** The standard game's players (fixtures/games/standard-game.yaml). */
const DEMO_PLAYERS = ['Alice', 'Bob', 'Carol', 'Dave', 'Davina', 'Eve', 'Frank'];
const DEMO_RULESET = 'mafiascum-majority';

export async function startDemoService(options: DemoOptions = {}): Promise<DemoService> {
  const fixtures = join(packageRoot(import.meta.url), 'fixtures');
  await checkPort(options.port ?? 0, '--port');
  await checkPort(options.forumPort ?? 0, '--forum-port');
  const forum = await startFakeForum({ port: options.forumPort ?? 0 });
  const cleanup: (() => Promise<void>)[] = [() => forum.close()];
  const close = async (): Promise<void> => {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  };
  try {
    const threads: Record<string, string> = {};
    for (const engine of readdirSync(fixtures)) {
      const dir = join(fixtures, engine, 'standard-game');
      // The watched thread is served at the root, where its pages' own links point; the
      // others under a folder each, as boards often are.
      if (existsSync(join(dir, 'thread.json')))
        threads[engine] = mountThreadFolder(forum, dir, engine === 'xenforo2' ? '' : `/${engine}`).url;
    }
    const threadUrl = threads.xenforo2;
    if (!threadUrl) throw new Error('the XenForo 2 standard game is missing from fixtures/');

    const adminToken = randomBytes(24).toString('base64url');
    const dataDir = options.dataDir ?? 'memory://';
    const env: VotalEnv = {
      databaseUrl: undefined,
      dataDir,
      adminToken,
      secretKey: undefined,
      port: options.port ?? 0,
      host: '127.0.0.1',
      allowPrivateHosts: true,
      logLevel: 'silent',
    };
    const store = await openStore({ dataDir });
    cleanup.push(() => store.close());
    const source = new PageFetcher({ allowPrivateHosts: true, minIntervalMs: 200, retries: 1 });
    const poller: Poller = createPoller({ store, source, pollingIntervalSeconds: 1 });
    await poller.start();
    cleanup.push(() => poller.stop());
    const app: VotalApp = createApp({ store, poller, env });
    cleanup.push(() => app.shutdown());
    const server: ServerType = await new Promise((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: '127.0.0.1' }, () => resolve(s));
      s.once('error', reject);
    });
    cleanup.push(
      () =>
        new Promise<void>((resolve) => {
          if ('closeAllConnections' in server) server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    // The sample game, added the way a GM would (the same command the API and the dashboard run), with a Day clock.
    const now = Date.now();
    const { id, slug } = await createGame(commandDepsOf({ store, poller, env }), 'gm', {
      url: threadUrl,
      ruleset: DEMO_RULESET,
      players: DEMO_PLAYERS,
      engine: 'xenforo2',
      pollIntervalSeconds: 60,
      day: {
        number: 1,
        start: new Date(now - 3_600_000).toISOString(),
        deadline: new Date(now + 2 * 86_400_000).toISOString(),
      },
      timeZone: 'Europe/Berlin',
      votalTitle: 'Standard Game — vote count',
    });
    const until = Date.now() + (options.firstCountMs ?? 20_000);
    while (!(await store.tallies.latest(id)) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));

    return {
      forum,
      threads,
      threadUrl,
      origin,
      dashboardUrl: `${origin}/gm`,
      liveUrl: `${origin}/g/${slug}`,
      adminToken,
      gameId: id,
      store,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
