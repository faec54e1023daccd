import type { FakeForum, LoggedRequest } from '../../src/fake-forum/server.js';
import type { PollResult } from '../../src/game/poll-game.js';
import type { Sql } from '../../src/store/sql.js';

/**
 * Waits until `check` holds (polling every 50 ms), or fails with `what` after `timeoutMs`.
 * The limit only turns a wait that never ends into a message naming it: it is no bound on
 * speed, so it is generous (a loaded two-core machine runs pg-boss, the poll and the fake
 * forum many times slower than an idle one). A test whose waits add up must allow for it.
 */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Collects every poll result, per game. */
export function pollLog(): {
  results: PollResult[];
  of: (gameId: number) => PollResult[];
  onPolled: (r: PollResult) => void;
} {
  const results: PollResult[] = [];
  return {
    results,
    of: (gameId) => results.filter((r) => r.gameId === gameId),
    onPolled: (r) => results.push(r),
  };
}

/** Requests to one thread (its pages share a path prefix). */
export function threadRequests(forum: FakeForum, prefix: string): LoggedRequest[] {
  return forum.requests.filter((r) => r.path.startsWith(prefix));
}

/**
 * Pairs of requests to the same thread that were in flight at the same time. One poll reads
 * a thread's pages one after the other, so an overlap means two polls of one thread at once.
 */
export function overlaps(requests: readonly LoggedRequest[]): [LoggedRequest, LoggedRequest][] {
  const sorted = [...requests].sort((a, b) => a.at - b.at);
  const out: [LoggedRequest, LoggedRequest][] = [];
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const cur = sorted[i]!;
    const end = prev.doneAt ?? Number.POSITIVE_INFINITY;
    if (cur.at < end) out.push([prev, cur]);
  }
  return out;
}

/** The poll jobs pg-boss holds for a game, by state. */
export async function jobsOf(sql: Sql, schema: string, gameId: number): Promise<{ state: string; startAfter: Date }[]> {
  const { rows } = await sql.query<{ state: string; start_after: Date }>(
    `SELECT state, start_after FROM ${schema}.job WHERE name = 'votal.poll-thread' AND singleton_key = $1 ORDER BY created_on`,
    [String(gameId)],
  );
  return rows.map((r) => ({ state: r.state, startAfter: r.start_after }));
}
