import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pollGame, type PollDeps } from '../../src/game/poll-game.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { newGame, serve, standardScript, testClock, testSource, vote, withPosts } from './support.js';

/**
 * The runner is safe to re-run (src/game/poll-plan.ts): a poll that dies after its plan
 * and before one of its effects leaves the game so that the next poll ends where a poll
 * that never died ends: every post once, the same count, one tally per count, no second
 * draft. Each row breaks one effect's I/O once (the worker dying there), on the real
 * store and the stand-in forum; test/jobs/crash.test.ts kills a whole process instead.
 */

let forum: FakeForum;
let store: Store;
const source = testSource();

beforeAll(async () => {
  forum = await startFakeForum();
  store = await openStore({ dataDir: 'memory://' });
});
afterAll(async () => {
  await store?.close();
  await forum?.close();
});

const dies = () => {
  throw new Error('the worker died here');
};

/** The store with one call broken (it throws), until `heal`. */
function breaking(where: string): { store: Store; heal: () => void } {
  let broken = true;
  const [repo, method] = where.split('.') as [keyof Store, string];
  const original = store[repo] as unknown as Record<string, (...a: unknown[]) => unknown>;
  const patched = {
    ...original,
    [method]: (...args: unknown[]) => {
      // `finish` of a good poll only: the failure is still recorded, as after a restart.
      const failing = method === 'finish' ? (args[2] as { ok: boolean }).ok : true;
      return broken && failing ? dies() : original[method]!.apply(original, args);
    },
  };
  return {
    store: { ...store, [repo]: patched } as Store,
    heal: () => {
      broken = false;
    },
  };
}

/** The standard thread with two more votes: every game here follows it (a game of its own each). */
const script = withPosts(standardScript(8_300), [
  { author: 'Eve', body: vote('Alice') },
  { author: 'Frank', body: vote('Alice') },
]);

/** A new game on the thread, polled once (through `deps`) and then again (through the store as it is). */
async function twoPolls(deps: (clock: ReturnType<typeof testClock>) => PollDeps) {
  const game = await newGame(store, serve(forum, script));
  const clock = testClock('2026-03-03T19:00:00Z');
  const first = await pollGame(deps(clock), game.id);
  clock.advance(5 * 60_000);
  const second = await pollGame({ store, source, now: clock.now }, game.id);
  const tallies = await store.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM tally WHERE game_id = $1', [
    game.id,
  ]);
  return {
    first,
    second,
    posts: (await store.posts.postsOf(game.id)).map((p) => p.number),
    tallies: tallies.rows[0]!.n,
    drafts: (await store.drafts.list(game.id)).length,
    poll: await store.polls.get(game.id),
  };
}

describe('a poll that dies between its plan and an effect', () => {
  let clean: Awaited<ReturnType<typeof twoPolls>>;
  beforeAll(async () => {
    clean = await twoPolls((clock) => ({ store, source, now: clock.now }));
  });

  it.each([
    { where: 'events.list', effect: 'weigh (after every page was recorded)' },
    { where: 'posts.headsOf', effect: 'count (nothing folded yet)' },
    { where: 'drafts.list', effect: 'draft (the tally saved, the draft drawn up but not stored)' },
    { where: 'polls.finish', effect: 'finish (tally and draft stored, the poll state not)' },
  ])('dying at $where, the $effect: the next poll ends as if it had not', async ({ where }) => {
    const broken = breaking(where);
    const run = await twoPolls((clock) => ({ store: broken.store, source, now: clock.now }));
    broken.heal();
    expect(run.first.status).toBe('failed');
    expect(run.first.reason).toBe('the worker died here');
    expect(run.second).toMatchObject({ status: 'polled', counted: true });
    expect(run.posts).toEqual(clean.posts);
    expect(run.second.tally!.tally).toEqual(clean.second.tally!.tally);
    expect(run.tallies).toBe(clean.tallies);
    expect(run.drafts).toBe(clean.drafts);
    expect(run.poll.state).toMatchObject({ recountDue: false, lastCount: { tallyId: run.second.tally!.id } });
  });
});
