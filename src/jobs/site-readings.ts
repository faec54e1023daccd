import type { CookieJar } from 'tough-cookie';
import type { PageFetcherOptions } from '../fetch/fetcher-options.js';
import type { GameSite } from '../game/poll-game.js';
import type { SiteProfiles } from '../site/load-site-profiles.js';
import { openSiteReading, type SiteReading } from '../site/site-reading.js';
import type { Game } from '../model/game.js';

/** A game's stored forum session; `key` changes when the GM stores a new one. */
export interface GameSession {
  key: string;
  jar: CookieJar;
}

export interface SiteReadingsOptions {
  /** The site profiles in force (`sites/`, `--site-profile`). */
  profiles: SiteProfiles;
  /** Base fetcher options (private hosts, tests' shorter pauses); each site's profile sets its own pause. */
  fetcher?: PageFetcherOptions;
  /** The game's stored forum session, opened by the caller (it is sealed at rest); null: none. */
  sessionOf?: (game: Game) => GameSession | null;
}

export interface SiteReadings {
  /** How the poller reads a game's thread (PollDeps.siteFor). */
  siteFor(game: Game): Promise<GameSite>;
  close(): Promise<void>;
}

/**
 * The service's side of `votal count --site-profile/--cookies`: each game's thread is read
 * through `openSiteReading` (its site profile's engine, time zone, pause and browser
 * fallback; the profile's cookies or form login; the game's own stored session over
 * them). One reading per site, kept for the life of the process, so a site's pause holds
 * across all its games; a game with its own session gets its own reading (its cookies
 * never go to another game's thread), replaced when the GM stores a new session.
 */
export function siteReadings(o: SiteReadingsOptions): SiteReadings {
  const open = new Map<string, Promise<SiteReading>>();
  /** The reading key each game with its own session uses now (an old session's reading is closed). */
  const sessionKeys = new Map<number, string>();

  const readingFor = (game: Game): Promise<SiteReading> => {
    const entry = o.profiles.profileFor(game.threadUrl);
    const site = entry ? `profile:${entry.source ?? entry.name}` : `host:${new URL(game.threadUrl).host}`;
    const session = o.sessionOf?.(game) ?? null;
    const key = session ? `${site}|game:${game.id}:${session.key}` : site;
    if (session) {
      const before = sessionKeys.get(game.id);
      if (before !== undefined && before !== key) {
        void open.get(before)?.then(
          (r) => r.close(),
          () => {},
        );
        open.delete(before);
      }
      sessionKeys.set(game.id, key);
    }
    let reading = open.get(key);
    if (!reading) {
      reading = openSiteReading({
        threadUrl: game.threadUrl,
        profiles: o.profiles,
        ...(session ? { sessionJar: session.jar } : {}),
        ...(o.fetcher ? { fetcher: o.fetcher } : {}),
      });
      open.set(key, reading);
      // A failed login is tried again on the next poll.
      reading.catch(() => {
        if (open.get(key) === reading) open.delete(key);
      });
    }
    return reading;
  };

  return {
    async siteFor(game) {
      const reading = await readingFor(game);
      return {
        source: reading.source,
        profile: reading.profile,
        ...(reading.renderer ? { renderer: reading.renderer } : {}),
      };
    },
    async close() {
      const all = [...open.values()];
      open.clear();
      for (const r of await Promise.allSettled(all))
        if (r.status === 'fulfilled') await r.value.close().catch(() => {});
    },
  };
}
