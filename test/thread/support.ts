import { join } from 'node:path';
import type { FakeForum, LoggedRequest, RouteOptions } from '../../src/fake-forum/server.js';
import type { EngineId } from '../../src/model/engine.js';
import { PageFetcher } from '../../src/fetch/page-fetcher.js';
import type { PageFetcherOptions } from '../../src/fetch/fetcher-options.js';
import { loadGameScript, type GameScript, type ScriptPost } from '../support/game-script.js';
import { rendererFor } from '../support/render/index.js';

export const root = join(import.meta.dirname, '../..');
export const standardGame = (): GameScript => loadGameScript(join(root, 'fixtures/games/standard-game.yaml'));

/** The game with `count` more chatter posts by the players, an hour apart, after the last. */
export function withMorePosts(script: GameScript, count: number): GameScript {
  const last = script.posts.at(-1)!;
  const authors = ['Alice', 'Bob', 'Carol', 'Eve'];
  const more: ScriptPost[] = Array.from({ length: count }, (_, i) => ({
    n: last.n + i + 1,
    id: last.id + i + 1,
    author: authors[i % authors.length]!,
    time: new Date(Date.parse(last.time) + (i + 1) * 3600_000).toISOString(),
    edited: null,
    body: [{ op: 'text', text: `Later chatter number ${i + 1}.` }],
  }));
  return { ...script, posts: [...script.posts, ...more] };
}

/**
 * Serves the game's thread in an engine's markup (replacing what was served before, as a
 * forum does when posts arrive). Returns page 1's URL.
 */
export function serveGame(forum: FakeForum, engine: EngineId, script: GameScript, opts: RouteOptions = {}): string {
  const renderer = rendererFor(engine);
  for (const page of renderer.render(script)) forum.route(page.path, { body: page.body }, opts);
  return forum.url(renderer.threadPath(script));
}

/** The paths the forum was asked for since `from`, robots.txt left out (it is asked once per fetcher). */
export function pageRequests(forum: FakeForum, from = 0): LoggedRequest[] {
  return forum.requests.slice(from).filter((r) => r.path !== '/robots.txt');
}

/** A fetcher for the fake forum: loopback allowed, no pause, quick and jitter-free retries. */
export function quickFetcher(options: PageFetcherOptions = {}): PageFetcher {
  return new PageFetcher({
    allowPrivateHosts: true,
    minIntervalMs: 0,
    backoffBaseMs: 5,
    timeoutMs: 2000,
    random: () => 0,
    ...options,
  });
}
