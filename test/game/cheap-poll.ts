/**
 * The cheap poll (issue #16): a poll that finds nothing new reads only the page it resumes
 * at and leaves the last count standing; anything the count depends on makes it count
 * again. Run on each driver (cheap-poll.pglite.test.ts, cheap-poll.postgres.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pollGame, type PollDeps } from '../../src/game/poll-game.js';
import type { Tally } from '../../src/model/tally.js';
import type { Store } from '../../src/store/open-store.js';
import { newGame, PLAYERS, serve, standardScript, testClock, testSource, vote, withBody } from './support.js';

/** The store with every call to `posts` and `readings` written down (a poll must avoid the whole-game reads). */
function spied(store: Store): { store: Store; calls: string[] } {
  const calls: string[] = [];
  const watch = <T extends object>(name: string, repo: T): T =>
    new Proxy(repo, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(`${name}.${String(key)}`);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  const posts = watch('posts', store.posts);
  const readings = watch('readings', store.readings);
  return { store: { ...store, posts, readings }, calls };
}

/** Reads of every post or reading of a game. */
const WHOLE_GAME = [
  'posts.postsOf',
  'posts.headsOf',
  'posts.bodiesOf',
  'posts.revisionsOf',
  'readings.forGame',
  'readings.get',
];
const votersOf = (tally: Tally, target: string) =>
  tally.wagons.find((w) => w.target === target)?.voters.map((v) => [v.player, v.post]);

export function cheapPollContract(driver: string, open: () => Promise<Store>, firstThread: number): void {
  describe(`a poll with nothing new is cheap (${driver})`, () => {
    let forum: FakeForum;
    let store: Store;
    let nextThread = firstThread;
    const source = testSource();

    beforeAll(async () => {
      forum = await startFakeForum();
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
      await forum?.close();
    });

    /** A game on its own copy of the standard thread, polled once (counted). */
    async function polledGame(settings: Record<string, unknown> = {}) {
      const script = standardScript(nextThread++);
      const game = await newGame(store, serve(forum, script), settings);
      const clock = testClock('2026-03-03T19:00:00Z');
      const spy = spied(store);
      const deps: PollDeps = { store: spy.store, source, now: clock.now };
      const first = await pollGame(deps, game.id);
      expect(first).toMatchObject({ status: 'polled', counted: true, tallyChanged: true });
      spy.calls.length = 0;
      return { script, game, clock, deps, calls: spy.calls, first };
    }

    it('a poll with nothing new does not recount', async () => {
      const { game, clock, deps, calls, first } = await polledGame();
      clock.advance(5 * 60_000);
      const again = await pollGame(deps, game.id);
      expect(again).toMatchObject({
        status: 'polled',
        fullRead: false,
        added: 0,
        edited: 0,
        counted: false,
        tallyChanged: false,
        parsed: 0,
      });
      expect(again.tally?.id).toBe(first.tally?.id);
      expect(again.pages).toEqual({ fromCache: [1, 2], unchanged: [3], read: [] });
      // Only the last page's posts were read, to resume at; no post body or reading of the game.
      expect(calls).toEqual(['posts.postsOn']);
      expect(calls.filter((c) => WHOLE_GAME.includes(c))).toEqual([]);
      // And again: the last count still stands.
      clock.advance(5 * 60_000);
      expect(await pollGame(deps, game.id)).toMatchObject({ counted: false, tallyChanged: false });
    });

    it('an edit on the last page recounts', async () => {
      const { script, game, clock, deps } = await polledGame();
      clock.advance(5 * 60_000);
      serve(forum, withBody(script, 22, vote('Eve'))); // Bob's vote on page 3 moves to Eve
      const r = await pollGame(deps, game.id);
      expect(r).toMatchObject({ status: 'polled', edited: 1, counted: true, tallyChanged: true, fullRead: false });
      expect(votersOf(r.tally!.tally, 'Eve')).toContainEqual(['Bob', 22]);
    });

    it('an edit on an earlier page recounts once a full read sees it', async () => {
      const { script, game, clock, deps } = await polledGame();
      serve(forum, withBody(script, 2, vote('Carol'))); // Alice, page 1: only a full read re-reads it
      clock.advance(5 * 60_000);
      expect(await pollGame(deps, game.id)).toMatchObject({ edited: 0, counted: false });
      clock.advance(5 * 60_000);
      const full = await pollGame(deps, game.id, { full: true });
      expect(full).toMatchObject({ edited: 1, fullRead: true, counted: true, tallyChanged: true });
      // The forum showed no edit marker: the count flags the edit, quoting both versions.
      const onPost2 = full.tally!.tally.violations.filter((v) => v.post === 2);
      expect(onPost2.map((v) => [v.player, v.kind])).toEqual([['Alice', 'edit']]);
    });

    it('a GM event recounts', async () => {
      const { game, clock, deps, first } = await polledGame();
      await store.events.append(game.id, { at: 10, kind: 'kill', player: 'Frank' }, 'gm:test');
      clock.advance(5 * 60_000);
      const r = await pollGame(deps, game.id);
      expect(r).toMatchObject({ added: 0, edited: 0, counted: true, tallyChanged: true });
      expect(r.tally!.tally.living).toBe(first.tally!.tally.living - 1);
    });

    it('a changed roster recounts', async () => {
      const { game, clock, deps } = await polledGame();
      const roster = [...PLAYERS, 'Gina'].map((name) => ({ name, aliases: [], formerNames: [], alive: true }));
      await store.games.setRoster(game.id, roster, 'gm:test');
      clock.advance(5 * 60_000);
      const r = await pollGame(deps, game.id);
      expect(r).toMatchObject({ counted: true, tallyChanged: true });
      expect(r.tally!.tally.notVoting).toContain('Gina');
    });

    it('crossing the deadline recounts', async () => {
      const day = { number: 1, start: '2026-03-02T18:00:00Z', deadline: '2026-03-03T20:00:00Z' };
      const { game, clock, deps, first } = await polledGame({ day });
      expect(first.tally!.tally.outcome.status).toBe('open');
      expect(first.upcoming).toContain('2026-03-03T20:00:00.000Z');
      clock.set('2026-03-03T19:30:00Z');
      const before = await pollGame(deps, game.id);
      expect(before).toMatchObject({ counted: false, deadline: '2026-03-03T20:00:00.000Z', upcoming: first.upcoming });
      clock.set('2026-03-03T20:01:00Z'); // the thread is the same; only the clock moved past the deadline
      const after = await pollGame(deps, game.id);
      expect(after).toMatchObject({ added: 0, edited: 0, counted: true, tallyChanged: true });
      expect(after.tally!.tally.outcome).toMatchObject({ status: 'ended', eliminated: ['Bob'] });
      clock.set('2026-03-03T20:20:00Z');
      expect(await pollGame(deps, game.id)).toMatchObject({ counted: false, upcoming: [] });
    });

    it('posts recorded by a poll that died before counting are counted by the next one', async () => {
      const { script, game, clock, deps } = await polledGame();
      clock.advance(5 * 60_000);
      serve(forum, withBody(script, 22, vote('Eve')));
      // The poll records page 3, then fails before it counts.
      const dying: PollDeps = {
        ...deps,
        store: {
          ...deps.store,
          events: {
            ...deps.store.events,
            list: async () => {
              throw new Error('the database went away');
            },
          },
        },
      };
      expect(await pollGame(dying, game.id)).toMatchObject({ status: 'failed', edited: 1, counted: false });
      clock.advance(5 * 60_000);
      const next = await pollGame(deps, game.id);
      expect(next).toMatchObject({ status: 'polled', edited: 0, counted: true, tallyChanged: true });
      expect(votersOf(next.tally!.tally, 'Eve')).toContainEqual(['Bob', 22]);
    });
  });
}
