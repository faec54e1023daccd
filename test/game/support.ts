import { join } from 'node:path';
import type { FakeForum } from '../../src/fake-forum/server.js';
import { PageFetcher } from '../../src/fetch/page-fetcher.js';
import type { Store } from '../../src/store/open-store.js';
import type { Game } from '../../src/model/game.js';
import { loadGameScript, type GameScript, type ScriptNode, type ScriptPost } from '../support/game-script.js';
import { xenforo2Renderer } from '../support/render/xenforo2.js';

export const ROOT = join(import.meta.dirname, '../..');
export const STANDARD_RULESET = join(ROOT, 'fixtures/games/standard-ruleset.yaml');
export const PLAYERS = ['Alice', 'Bob', 'Carol', 'Dave', 'Davina', 'Eve', 'Frank'];

/** The standard fixture game (22 posts on 3 XenForo 2 pages), as its own thread `id`. */
let standard: GameScript | null = null;
export function standardScript(id: number): GameScript {
  standard ??= loadGameScript(join(ROOT, 'fixtures/games/standard-game.yaml'));
  const script = structuredClone(standard);
  return { ...script, thread: { ...script.thread, id, slug: `standard-game-${id}` } };
}

/** A copy of the script with `posts` added at the end (numbers and ids follow on). */
export function withPosts(
  script: GameScript,
  posts: { author: string; body: ScriptNode[]; time?: string }[],
): GameScript {
  const out = structuredClone(script);
  for (const p of posts) {
    const last = out.posts.at(-1)!;
    out.posts.push({
      n: last.n + 1,
      id: last.id + 1,
      author: p.author,
      time: p.time ?? new Date(Date.parse(last.time) + 60_000).toISOString().replace('.000Z', 'Z'),
      edited: null,
      body: p.body,
    });
  }
  return out;
}

/** A copy with post `n`'s body replaced (and, when given, the forum's edit marker). */
export function withBody(
  script: GameScript,
  n: number,
  body: ScriptNode[],
  edited: ScriptPost['edited'] = null,
): GameScript {
  const out = structuredClone(script);
  const post = out.posts.find((p) => p.n === n)!;
  post.body = body;
  post.edited = edited;
  return out;
}

/** A copy without post `n` (deleted on the forum: the others keep their numbers). */
export function without(script: GameScript, n: number): GameScript {
  const out = structuredClone(script);
  out.posts = out.posts.filter((p) => p.n !== n);
  return out;
}

export const vote = (name: string): ScriptNode[] => [{ op: 'bold', children: [{ op: 'text', text: `Vote: ${name}` }] }];
export const says = (text: string): ScriptNode[] => [{ op: 'text', text }];
/** A GM count as the GM types it: each line's wagon name bold, lines broken. */
export const countPost = (...lines: [string, string][]): ScriptNode[] =>
  lines.flatMap(([bold, rest], i): ScriptNode[] => [
    ...(i ? [{ op: 'br' } as const] : []),
    { op: 'bold', children: [{ op: 'text', text: bold }] },
    { op: 'text', text: rest },
  ]);

/** Serves the script's pages on the forum (replacing what was there); returns page 1's URL. */
export function serve(forum: FakeForum, script: GameScript, opts: { delayMs?: number } = {}): string {
  const pages = xenforo2Renderer.render(script);
  for (const page of pages) forum.route(page.path, { body: page.body }, opts.delayMs ? { delayMs: opts.delayMs } : {});
  // Pages past the end are gone.
  for (let n = pages.length + 1; n <= pages.length + 3; n++)
    forum.remove(`${xenforo2Renderer.threadPath(script)}page-${n}`);
  return forum.url(xenforo2Renderer.threadPath(script));
}

export function pagePath(script: GameScript, page: number): string {
  const base = xenforo2Renderer.threadPath(script);
  return page <= 1 ? base : `${base}page-${page}`;
}

export function testSource(): PageFetcher {
  return new PageFetcher({
    allowPrivateHosts: true,
    minIntervalMs: 0,
    backoffBaseMs: 10,
    timeoutMs: 5000,
    retries: 0,
    random: () => 0,
  });
}

export async function newGame(
  store: Pick<Store, 'games'>,
  url: string,
  settings: Record<string, unknown> = {},
  extra: Partial<{
    engine: 'xenforo2' | null;
    ruleset: string;
    rulesetOverrides: Record<string, unknown>;
    roster: readonly string[];
  }> = {},
): Promise<Game> {
  return store.games.create(
    {
      threadUrl: url,
      engine: extra.engine ?? null,
      ruleset: extra.ruleset ?? STANDARD_RULESET,
      rulesetOverrides: extra.rulesetOverrides ?? {},
      roster: (extra.roster ?? PLAYERS).map((name) => ({ name })),
      settings,
    },
    'gm:test',
  );
}

/** A clock the test moves: `now()` for pollGame. */
export function testClock(start: string): {
  now: () => string;
  set: (iso: string) => void;
  advance: (ms: number) => void;
} {
  let t = Date.parse(start);
  return {
    now: () => new Date(t).toISOString(),
    set: (iso) => {
      t = Date.parse(iso);
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

/** Row counts that a poll may change. */
export interface Counts {
  posts: number;
  revisions: number;
  deleted: number;
  tallies: number;
  drafts: number;
  audit: number;
  pages: number;
}

export async function counts(store: Store, gameId: number): Promise<Counts> {
  const one = async (sql: string) => (await store.sql.query<{ n: number }>(sql, [gameId])).rows[0]!.n;
  return {
    posts: await one('SELECT count(*)::int AS n FROM post WHERE game_id = $1'),
    revisions: await one(
      'SELECT count(*)::int AS n FROM post_revision r JOIN post p ON p.id = r.post_id WHERE p.game_id = $1',
    ),
    deleted: await one('SELECT count(*)::int AS n FROM post WHERE game_id = $1 AND deleted_at IS NOT NULL'),
    tallies: await one('SELECT count(*)::int AS n FROM tally WHERE game_id = $1'),
    drafts: await one('SELECT count(*)::int AS n FROM draft WHERE game_id = $1'),
    audit: await one('SELECT count(*)::int AS n FROM audit_log WHERE game_id = $1'),
    pages: await one('SELECT count(*)::int AS n FROM thread_page WHERE game_id = $1'),
  };
}
