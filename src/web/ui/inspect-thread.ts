import type { EngineId } from '../../model/engine.js';
import { plainText } from '../../model/body.js';
import type { Post } from '../../model/post.js';
import { PageFetcher } from '../../fetch/page-fetcher.js';
import { assertPublicUrl } from '../../fetch/private-host.js';
import { readThread, type PageSource } from '../../thread/read-thread.js';

/**
 * The new-game form's first step: read the thread once (politely, through the same
 * fetcher and adapters as the poller) and propose what the GM then checks: the engine,
 * the title, the GM (the opening post's author), the players (a list in the opening post,
 * else everyone else who posted) and where Day 1 starts.
 */
export interface ThreadFacts {
  url: string;
  engine: EngineId;
  title: string | null;
  gm: string | null;
  players: string[];
  /** Where the players came from, for the form. */
  playersFrom: 'opening-post' | 'posters' | 'none';
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
  const fromOp = first ? playersInOpeningPost(first, gm) : [];
  const posters = [...new Set(read.posts.map((p) => p.author))].filter((n) => n && n !== gm);
  const players = fromOp.length >= 3 ? fromOp : posters;
  return {
    url: read.thread.url,
    engine: read.engine,
    title: read.title,
    gm,
    players,
    playersFrom: fromOp.length >= 3 ? 'opening-post' : posters.length ? 'posters' : 'none',
    posts: read.posts.length,
    startPost: first?.number ?? 0,
    startTime: first?.postedAt ?? null,
  };
}

const HEADING = /\b(players?|roster|alive|participants|sign-?ups?|living)\b/i;

/**
 * A player list in the opening post: the lines after a heading that names players
 * ("Players:", "Alive (7):"), one name a line, numbering and bullets dropped, up to a blank
 * line. Names that are clearly sentences (long, or with sentence punctuation) end it.
 */
export function playersInOpeningPost(post: Post, gm: string | null): string[] {
  const lines = plainText(post.body)
    .split('\n')
    .map((l) => l.trim());
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!HEADING.test(line) || line.length > 60) continue;
    // "Players: A, B, C" on the heading line itself.
    const inline = /:\s*(.+)$/.exec(line)?.[1];
    if (inline && inline.includes(',')) {
      const names = inline
        .split(',')
        .map(clean)
        .filter((n): n is string => n !== null && n !== gm);
      if (names.length >= 3) return [...new Set(names)];
    }
    const names: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j]!;
      if (l === '') {
        if (names.length) break;
        continue;
      }
      const name = clean(l);
      if (name === null) break;
      if (name !== gm) names.push(name);
    }
    if (names.length >= 3) return [...new Set(names)];
  }
  return [];
}

function clean(line: string): string | null {
  const name = line
    .replace(/^\s*(?:\d+[.)]|[-*•·]|#\d+)\s*/, '')
    .replace(/\s*[-–—(].*(?:dead|killed|lynched|replaced|modkilled|eliminated).*$/i, '')
    .trim();
  if (!name || name.length > 40 || /[.!?]$/.test(name) || name.split(/\s+/).length > 4) return null;
  return name;
}
