/**
 * Nothing loaded that a game does not need (issue #16): the web's readers of a game load
 * every post as a head and a body only where they show or read it, and show what they
 * showed when every body was loaded. Run on each driver (post-bodies.pglite.test.ts,
 * post-bodies.postgres.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pollGame, type PollDeps } from '../../src/game/poll-game.js';
import type { Game } from '../../src/model/game.js';
import type { Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { liveData } from '../../src/web/ui/game-data.js';
import {
  newGame,
  says,
  serve,
  standardScript,
  testClock,
  testSource,
  vote,
  withBody,
  withPosts,
  without,
} from '../game/support.js';
import { O, signIn } from '../ui/sign-in.js';
import { ADMIN_TOKEN, recordingPoller, testEnv } from './support.js';

/** The store with every call to `posts` written down, and the revisions whose bodies were loaded. */
function spied(store: Store): { store: Store; calls: string[]; bodies: number[] } {
  const calls: string[] = [];
  const bodies: number[] = [];
  const posts = new Proxy(store.posts, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(key));
        if (key === 'bodiesOf') bodies.push(...(args[0] as number[]));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: { ...store, posts }, calls, bodies };
}

/** The store as the readers had it before: every read of the posts gives every body. */
function everyBody(store: Store): Store {
  const posts = store.posts;
  return {
    ...store,
    posts: {
      ...posts,
      headsOf: (gameId) => posts.postsOf(gameId),
      postNumbered: async (gameId, number) => (await posts.postsOf(gameId)).find((p) => p.number === number) ?? null,
    },
  };
}

const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
const NOW = new Date('2026-03-03T20:00:00Z');

export function postBodiesContract(driver: string, open: () => Promise<Store>, threadId: number): void {
  describe(`the web loads bodies only where it reads them (${driver})`, () => {
    let forum: FakeForum;
    let store: Store;
    let game: Game;
    /** The game's posts' numbers, by their current revision's id. */
    let numberOf: Map<number, number>;
    let spy: ReturnType<typeof spied>;
    let app: VotalApp;
    let before: VotalApp;

    /**
     * The standard game, polled, then: Alice's vote in post 2 silently edited, Frank's
     * post 7 deleted, Frank killed after post 10 (Alice votes for him in post 18), and
     * the GM announcing a death in post 23.
     */
    beforeAll(async () => {
      forum = await startFakeForum();
      store = await open();
      const clock = testClock('2026-03-03T19:00:00Z');
      const deps: PollDeps = { store, source: testSource(), now: clock.now };
      const script = standardScript(threadId);
      game = await newGame(store, serve(forum, script));
      expect(await pollGame(deps, game.id)).toMatchObject({ status: 'polled', counted: true });
      const later = withPosts(without(withBody(script, 2, vote('Carol')), 7), [
        { author: 'Moderator', body: says('Dave has been lynched. He was a Villager.') },
      ]);
      serve(forum, later);
      await store.events.append(game.id, { at: 10, kind: 'kill', player: 'Frank' }, 'gm:test');
      clock.advance(5 * 60_000);
      expect(await pollGame(deps, game.id, { full: true })).toMatchObject({ status: 'polled', counted: true });
      numberOf = new Map((await store.posts.headsOf(game.id)).map((p) => [p.revisionId, p.number]));

      spy = spied(store);
      const appOn = (s: Store) => createApp({ store: s, poller: recordingPoller(), env: testEnv(), rateLimit: false });
      app = appOn(spy.store);
      before = appOn(everyBody(store));
    });
    afterAll(async () => {
      await app?.shutdown();
      await before?.shutdown();
      await store?.close();
      await forum?.close();
    });

    const reset = () => {
      spy.calls.length = 0;
      spy.bodies.length = 0;
    };
    /** The posts whose current bodies were loaded, by number (any other revision as minus its id). */
    const loaded = () => [...new Set(spy.bodies)].map((id) => numberOf.get(id) ?? -id).sort((x, y) => x - y);
    const posts = (...numbers: number[]) => numbers.sort((x, y) => x - y);
    const json = async (on: VotalApp, path: string) => {
      const res = await on.request(`${O}/api${path}`, { headers: auth });
      expect(res.status, path).toBe(200);
      return res.json();
    };

    it('the game is as the scenario says: an edit, a deletion, a vote for the dead, the GM posting', async () => {
      const heads = await store.posts.headsOf(game.id);
      expect(heads.filter((p) => p.revisions > 1).map((p) => p.number)).toEqual([2]);
      expect(heads.filter((p) => p.deleted).map((p) => p.number)).toEqual([7]);
      expect(heads.filter((p) => p.author === 'Moderator').map((p) => p.number)).toEqual([1, 23]);
      const tally = (await store.tallies.latest(game.id))!.tally;
      expect(tally.flags.filter((f) => f.kind === 'vote-for-dead').map((f) => f.post)).toEqual([18]);
      expect(tally.violations.filter((v) => v.kind === 'edit').map((v) => v.post)).toEqual([2, 13]);
    });

    it('the live page reads no body the saved readings stand in for, and shows what it showed', async () => {
      reset();
      const data = await liveData(spy.store, game, NOW);
      expect(spy.calls).not.toContain('postsOf');
      expect(loaded()).toEqual([]);
      // Another updatedAt is another cache entry: the page made afresh with every body.
      const reference = await liveData(everyBody(store), { ...game, updatedAt: 'every body' }, NOW);
      expect(data.tally).toEqual(reference.tally);
      expect(data.timeline).toEqual(reference.timeline);
      expect(data.deadline).toEqual(reference.deadline);
      expect(data.tally.postsRead).toBe(23);
    });

    it('the posts list loads no body, and lists what it listed', async () => {
      reset();
      const list = await json(app, `/games/${game.id}/posts`);
      expect(spy.calls).toEqual(['headsOf']);
      expect(list).toEqual(await json(before, `/games/${game.id}/posts`));
      expect((list as { posts: unknown[] }).posts).toHaveLength(23);
    });

    it("a post's revisions load that post, not every post of the game", async () => {
      reset();
      const path = `/games/${game.id}/posts/2/revisions`;
      const found = (await json(app, path)) as { post: unknown; revisions: unknown[] };
      expect(spy.calls).toEqual(['postNumbered', 'revisionsOf']);
      expect(found).toEqual(await json(before, path));
      expect(found.revisions).toHaveLength(2);
      expect((await app.request(`${O}/api/games/${game.id}/posts/99/revisions`, { headers: auth })).status).toBe(404);
    });

    it("news reads the bodies of the GM's posts only, and proposes what it proposed", async () => {
      reset();
      const news = await json(app, `/games/${game.id}/news`);
      expect(spy.calls).not.toContain('postsOf');
      expect(loaded()).toEqual(posts(1, 23));
      expect(news).toEqual(await json(before, `/games/${game.id}/news`));
      expect((news as { proposals: unknown[] }).proposals).not.toEqual([]);
    });

    it('the game page reads the bodies of the posts its review queue and news read, and shows what it showed', async () => {
      const page = async (on: VotalApp) => {
        const { cookie, csrf } = await signIn(on);
        const res = await on.request(`${O}/gm/games/${game.id}`, { headers: { cookie } });
        expect(res.status).toBe(200);
        return (await res.text()).replaceAll(csrf, '(csrf)');
      };
      const reference = await page(before);
      reset();
      const html = await page(app);
      expect(spy.calls).not.toContain('postsOf');
      // Revisions in one query per reader (review, news), never one per edited post (issue #29).
      expect(spy.calls).not.toContain('revisionsOf');
      expect(spy.calls.filter((c) => c === 'revisionsOfPosts')).toHaveLength(2);
      // The GM's posts (news); the edited, the edit-flagged, the deleted; the vote for the dead.
      expect(loaded()).toEqual(posts(1, 23, 2, 13, 7, 18));
      expect(html).toEqual(reference);
      expect(html).toContain('Deleted post');
      expect(html).toContain('Vote for a dead player');
    });
  });
}
