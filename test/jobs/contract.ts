import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { createPoller, type Poller } from '../../src/jobs/poller.js';
import type { Store } from '../../src/store/open-store.js';
import { newGame, pagePath, serve, standardScript, testSource } from '../game/support.js';
import { jobsOf, overlaps, pollLog, threadRequests, until } from './support.js';

export interface PollerSetup {
  store: Store;
  /** pg-boss's schema. */
  schema: string;
  /** PostgreSQL: pg-boss connects with this. */
  databaseUrl?: string;
  close(): Promise<void>;
}

/** The poller's behaviour, the same on both drivers. */
export function pollerContract(driver: string, open: () => Promise<PollerSetup>, firstThread: number): void {
  // Real pg-boss timers and real polls (read a thread, fold, save): each wait is for a poll
  // result, never a duration, and a loaded machine makes them slow, so each case may take
  // several waits' worth (see `until`).
  describe(`the poller on ${driver}`, { timeout: 180_000 }, () => {
    let forum: FakeForum;
    let setup: PollerSetup;
    let poller: Poller;
    const polls = pollLog();
    const errors: string[] = [];
    let nextThread = firstThread;

    beforeAll(async () => {
      forum = await startFakeForum();
      setup = await open();
      poller = createPoller({
        store: setup.store,
        source: testSource(),
        concurrency: 2,
        pollingIntervalSeconds: 0.5,
        minDelayMs: 1_000,
        reconcileEveryMs: 500,
        schema: setup.schema,
        ...(setup.databaseUrl ? { databaseUrl: setup.databaseUrl } : {}),
        onPolled: polls.onPolled,
        log: { error: (fields, message) => errors.push(`${message} ${JSON.stringify(fields)}`) },
      });
      await poller.start();
    });
    afterAll(async () => {
      await poller?.stop();
      await setup?.close();
      await forum?.close();
    });

    async function thread(pollIntervalSeconds: number) {
      const script = standardScript(nextThread++);
      const url = serve(forum, script);
      const game = await newGame(setup.store, url);
      await setup.store.sql.query('UPDATE game SET poll_interval_seconds = $2 WHERE id = $1', [
        game.id,
        pollIntervalSeconds,
      ]);
      return { script, game };
    }

    it('a game is polled on schedule and rescheduled', async () => {
      const { script, game } = await thread(1);
      await until(() => polls.of(game.id).length >= 3, 'three polls of the game');
      const mine = polls.of(game.id);
      expect(mine[0]).toMatchObject({ status: 'polled', added: 22 });
      expect(mine.slice(1).every((r) => r.status === 'polled' && r.added === 0)).toBe(true);
      // Later polls ask about the last page only, one poll after the other.
      const asked = threadRequests(forum, pagePath(script, 1));
      expect(asked.slice(3).length).toBeGreaterThan(0);
      expect(asked.slice(3).every((r) => r.path === pagePath(script, 3) && r.status === 304)).toBe(true);
      expect(overlaps(asked)).toEqual([]);
      const gaps = asked
        .slice(3)
        .map((r, i, all) => (i === 0 ? null : r.at - all[i - 1]!.at))
        .filter((g): g is number => g !== null);
      expect(Math.min(...gaps)).toBeGreaterThan(800); // 1 s interval, jitter ±10 %
      // The next poll is queued, in the future, and the game shows when.
      await until(
        async () => (await jobsOf(setup.store.sql, setup.schema, game.id)).some((j) => j.state === 'created'),
        'a queued poll',
      );
      expect((await setup.store.games.get(game.id))?.nextPollAt).not.toBeNull();
      // Each start is noted with the time its job was due (its start_after): the schedule's lateness.
      const { state } = await setup.store.polls.get(game.id);
      expect(state.pollDueAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
      // Both are database times; the start is kept to the millisecond, the due time may round up by one.
      expect(Date.parse(state.pollStartedAt as string)).toBeGreaterThanOrEqual(
        Date.parse(state.pollDueAt as string) - 1,
      );
    });

    it('paused games are not polled', async () => {
      const { script, game } = await thread(1);
      await until(() => polls.of(game.id).length >= 1, 'the first poll');
      await setup.store.games.setStatus(game.id, 'paused', 'gm:test');
      await until(() => polls.of(game.id).some((r) => r.status === 'skipped'), 'the paused game to be skipped');
      const seen = threadRequests(forum, pagePath(script, 1)).length;
      await new Promise((r) => setTimeout(r, 3_000));
      expect(threadRequests(forum, pagePath(script, 1)).length).toBe(seen);
      const live = (await jobsOf(setup.store.sql, setup.schema, game.id)).filter(
        (j) => j.state === 'created' || j.state === 'active',
      );
      expect(live).toEqual([]);
      expect((await setup.store.games.get(game.id))?.nextPollAt).toBeNull();

      // A finished game neither.
      const done = await thread(1);
      await setup.store.games.setStatus(done.game.id, 'finished', 'gm:test');
      await new Promise((r) => setTimeout(r, 1_500));
      expect(threadRequests(forum, pagePath(done.script, 1))).toEqual([]);

      // Resumed, the reconciler queues it again.
      await setup.store.games.setStatus(game.id, 'active', 'gm:test');
      await until(() => polls.of(game.id).filter((r) => r.status === 'polled').length >= 2, 'a poll after resuming');
    });

    it('pollNow polls a game at once', async () => {
      const { game } = await thread(3_600);
      await until(() => polls.of(game.id).length >= 1, 'the first poll');
      await until(
        async () => (await jobsOf(setup.store.sql, setup.schema, game.id)).some((j) => j.state === 'created'),
        'a queued poll',
      );
      const jobs = await jobsOf(setup.store.sql, setup.schema, game.id);
      expect(jobs.find((j) => j.state === 'created')!.startAfter.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
      // "At once": long before the hour its schedule says (the wait's limit is no speed bound).
      await poller.pollNow(String(game.id));
      await until(() => polls.of(game.id).length >= 2, 'the poll asked for');
      // Asked again and again while it runs: still one poll at a time, one queued at most.
      await Promise.all([1, 2, 3, 4].map(() => poller.pollNow(String(game.id))));
      await until(() => polls.of(game.id).length >= 3, 'another poll');
      expect(polls.of(game.id).every((r) => r.status === 'polled')).toBe(true);
      const live = (await jobsOf(setup.store.sql, setup.schema, game.id)).filter((j) => j.state === 'created');
      expect(live.length).toBeLessThanOrEqual(1);
    });

    it('logged no errors (pg-boss included)', () => {
      expect(errors).toEqual([]);
    });
  });
}
