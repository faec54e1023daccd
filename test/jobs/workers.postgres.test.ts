import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import type { GameScript } from '../support/game-script.js';
import { newGame, pagePath, ROOT, serve, standardScript } from '../game/support.js';
import { PG_URL, pgProblem, pgSchemas, pgUnavailable } from '../support/postgres.js';
import { overlaps, until } from './support.js';

/**
 * Issue #6: 200 threads polled by two worker processes on one PostgreSQL, no thread ever
 * read by both at once. Four fake forums (four hosts), so each process reads several
 * threads at a time too.
 */
const problem = await pgProblem();
const THREADS = 200;
const FORUMS = 4;

if (problem !== null) {
  pgUnavailable('two worker processes on PostgreSQL', problem);
} else {
  const schemas = pgSchemas();
  const forums: FakeForum[] = [];
  const children: ChildProcess[] = [];
  let store: Store | null = null;
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await store?.close();
    for (const f of forums) await f.close();
  });

  function worker(schema: string): { child: ChildProcess; lines: string[]; exited: Promise<number | null> } {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'test/jobs/fixtures/worker.ts'), PG_URL, schema],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, VOTAL_ALLOW_PRIVATE_HOSTS: '1' },
      },
    );
    children.push(child);
    const lines: string[] = [];
    let rest = '';
    child.stdout!.on('data', (d: Buffer) => {
      const parts = (rest + d.toString()).split('\n');
      rest = parts.pop()!;
      lines.push(...parts);
    });
    child.stderr!.on('data', (d: Buffer) => lines.push(`stderr: ${d.toString()}`));
    return { child, lines, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
  }

  describe('two worker processes on PostgreSQL', () => {
    it(`${THREADS} threads, two processes, no thread polled twice at once`, { timeout: 400_000 }, async () => {
      const schema = await schemas.schema();
      store = await openStore({ databaseUrl: PG_URL, schema });
      for (let i = 0; i < FORUMS; i++) forums.push(await startFakeForum());
      const threads: { forum: FakeForum; script: GameScript; gameId: number }[] = [];
      for (let i = 0; i < THREADS; i++) {
        const forum = forums[i % FORUMS]!;
        const script = standardScript(20_000 + i);
        const game = await newGame(store, serve(forum, script, { delayMs: 15 }));
        threads.push({ forum, script, gameId: game.id });
      }
      await store.sql.query('UPDATE game SET poll_interval_seconds = 2');

      const a = worker(schema);
      const b = worker(schema);
      const requestsOf = (t: (typeof threads)[number]) =>
        t.forum.requests.filter((r) => r.path.startsWith(pagePath(t.script, 1)));
      // Every thread read in full, then asked about again.
      await until(() => threads.every((t) => requestsOf(t).length >= 4), 'every thread polled twice', 300_000);
      a.child.kill('SIGTERM');
      b.child.kill('SIGTERM');
      expect(await a.exited).toBe(0);
      expect(await b.exited).toBe(0);

      for (const t of threads) expect(overlaps(requestsOf(t)), `game ${t.gameId}`).toEqual([]);
      const polls = (lines: string[]) =>
        lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { gameId: number; status: string });
      const all = [...polls(a.lines), ...polls(b.lines)];
      expect(all.filter((p) => p.status !== 'polled')).toEqual([]);
      expect([...a.lines, ...b.lines].filter((l) => l.startsWith('stderr'))).toEqual([]);
      // Both processes did a fair share.
      expect(polls(a.lines).length).toBeGreaterThan(all.length / 5);
      expect(polls(b.lines).length).toBeGreaterThan(all.length / 5);
      const { rows } = await store.sql.query<{ n: number; games: number }>(
        'SELECT count(*)::int AS n, count(DISTINCT game_id)::int AS games FROM post',
      );
      expect(rows[0]).toEqual({ n: THREADS * 22, games: THREADS });
    });
  });
}
