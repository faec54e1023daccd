import type { EngineId } from '../../model/engine.js';
import { PageFetcher } from '../../fetch/page-fetcher.js';
import { assertPublicUrl } from '../../fetch/private-host.js';
import { readOpeningPost } from '../../parse/opening-roster.js';
import { readOpeningPostsRules, type RuleProposal } from '../../parse/opening-rules.js';
import { readThread, type PageSource } from '../../thread/read-thread.js';

/**
 * The new-game form's first step: read the thread once (politely, through the same
 * fetcher and adapters as the poller) and propose what the GM then checks: the engine,
 * the title, the GM (the opening post's author), the players (a list in the opening post,
 * else everyone else who posted), the deadline and tie rules the GM wrote in the opening
 * posts (each with its sentence, for the GM to accept or not) and where Day 1 starts.
 */
export interface ThreadFacts {
  url: string;
  engine: EngineId;
  title: string | null;
  gm: string | null;
  players: string[];
  /** Where the players came from, for the form. */
  playersFrom: 'opening-post' | 'posters' | 'none';
  /** Lines of the opening post past the roster reader's bound, not read: a list there is not seen (0: all read). */
  openingLinesNotRead: number;
  /** The deadline and tie rules of the GM's opening posts: proposals, applied only when the GM accepts. */
  rules: RuleProposal[];
  posts: number;
  /** The post the Day starts after (the opening post), and when it was made. */
  startPost: number;
  startTime: string | null;
}

export interface InspectOptions {
  engine?: EngineId;
  allowPrivateHosts: boolean;
  /** Tests: a ready page source. */
  source?: PageSource;
  /** Read at most this many pages (a proposal does not need a whole long thread). Default 5. */
  maxPages?: number;
}

export async function inspectThread(url: string, opts: InspectOptions): Promise<ThreadFacts> {
  const target = await assertPublicUrl(url, { allowPrivate: opts.allowPrivateHosts });
  const source =
    opts.source ??
    new PageFetcher({ allowPrivateHosts: opts.allowPrivateHosts, minIntervalMs: 250, retries: 1, timeoutMs: 15_000 });
  const read = await readThread(target.href, {
    source,
    lastPage: opts.maxPages ?? 5,
    ...(opts.engine ? { engine: opts.engine } : {}),
  });
  const first = read.posts[0];
  const gm = first?.author ?? null;
  const posters = [...new Set(read.posts.map((p) => p.author))].filter((n) => n && n !== gm);
  // The opening post's list, checked against the posters and its member links: a player
  // it names who has not posted yet is proposed too.
  const opening = first ? readOpeningPost(first.body, { gm, posters }) : null;
  const fromOp = opening?.roster?.names ?? [];
  const players = fromOp.length ? fromOp : posters;
  return {
    url: read.thread.url,
    engine: read.engine,
    title: read.title,
    gm,
    players,
    playersFrom: fromOp.length ? 'opening-post' : posters.length ? 'posters' : 'none',
    openingLinesNotRead: opening?.linesNotRead ?? 0,
    rules: readOpeningPostsRules(read.posts, (author) => author === gm),
    posts: read.posts.length,
    startPost: first?.number ?? 0,
    startTime: first?.postedAt ?? null,
  };
}
