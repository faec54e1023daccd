/**
 * What the GM's own count teaches, accepted through the JSON API and the GM's page (issue
 * #24), on each driver (count-lessons.pglite.test.ts, count-lessons.postgres.test.ts): the
 * standard game (real XenForo 2 markup from the stand-in forum), then Dave votes "tyler"
 * (#23, a name Votal cannot read), the GM's count puts Dave on Eve (#24), and Frank votes
 * "tyler" too (#25). Accepting counts #23 for Eve and teaches "tyler": Frank's vote is read
 * as Eve's from then on, and the count agrees with the GM's. The lesson is in the GM's one
 * queue as well (`source: 'lesson'`). Then lessons accepted on the GM page's checks panel
 * and in the one queue, each changing the count, and one the store refuses halfway (a
 * trigger on gm_event): accepting is one transaction, so no alias is left learned.
 * Last, an author lesson: a game whose roster has a slot (Gwen) that never posts, while
 * "Gwen2", no player, votes; two GM counts list Gwen with Gwen2's votes. Accepting records
 * Gwen2's replacement of Gwen before Gwen2's first post, and the recount counts Gwen2's vote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeForum } from '../../src/fake-forum/server.js';
import { pollGame, type PollDeps } from '../../src/game/poll-game.js';
import type { Game } from '../../src/model/game.js';
import type { Store } from '../../src/store/open-store.js';
import type { VotalApp } from '../../src/web/app.js';
import { countPost, PLAYERS, serve, standardScript, vote, withPosts } from '../game/support.js';
import type { ScriptNode } from '../support/game-script.js';
import { gmChecksOf } from './gm-api.js';
import { FORM, form, O, signIn } from '../ui/sign-in.js';
import { closeGame, polledGame } from './polled-game.js';
import { ADMIN_TOKEN } from './support.js';

const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
const NOW = new Date('2026-03-03T20:00:00Z');

/** Votal's count of the standard game at post 22, with Dave's #23 on Eve. */
const COUNT = countPost(
  ['Bob', ' (2): Carol, Bob'],
  ['Carol', ' (1): Eve'],
  ['Frank', ' (1): Alice'],
  ['Davina', ' (1): Frank'],
  ['Eve', ' (2): Davina, Dave'],
);

export function countLessonsContract(driver: string, open: () => Promise<Store>, threadId: number): void {
  describe(`what the GM's count teaches, accepted (${driver})`, () => {
    let forum: FakeForum;
    let store: Store;
    let game: Game;
    let app: VotalApp;
    let deps: PollDeps;

    beforeAll(async () => {
      const script = withPosts(standardScript(threadId), [
        { author: 'Dave', body: vote('tyler') },
        { author: 'Moderator', body: COUNT },
        { author: 'Frank', body: vote('tyler') },
      ]);
      ({ forum, store, game, app, deps } = await polledGame(open, script, { now: () => NOW }));
    });
    afterAll(() => closeGame({ app, store, forum }));

    const checks = () => gmChecksOf(app, game.id);
    const answer = (key: string, body: unknown) =>
      app.request(`${O}/api/games/${game.id}/checks/lessons/${key}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const eve = async () =>
      (await store.tallies.latest(game.id))!.tally.wagons.find((w) => w.target === 'Eve')?.voters.map((v) => v.player);

    it('offers the lesson, on the API and on the GM page', async () => {
      const r = await checks();
      expect(r.lessons).toEqual([
        expect.objectContaining({
          countPost: 24,
          voter: 'Dave',
          wagon: 'Eve',
          post: 23,
          written: 'tyler',
          alias: 'tyler',
          text: 'Your count at #24 puts Dave on Eve; Dave wrote "tyler" at #23. Count it so, and read "tyler" as Eve from now on?',
        }),
      ]);
      expect(await eve()).toEqual(['Davina']);
      // The GM's one queue holds it too, with the answers it takes.
      const queue = await (await app.request(`${O}/api/games/${game.id}/queue`, { headers: auth })).json();
      expect((queue as { items: { source: string; key: string }[] }).items).toContainEqual(
        expect.objectContaining({ source: 'lesson', key: r.lessons[0]!.key, resolved: null }),
      );
      const { cookie } = await signIn(app);
      const page = await (await app.request(`${O}/gm/games/${game.id}`, { headers: { cookie } })).text();
      expect(page).toContain('Count it for Eve, and learn &quot;tyler&quot;');
    });

    it('refuses an unknown lesson and an unknown answer', async () => {
      const key = (await checks()).lessons[0]!.key;
      expect((await answer('0123456789abcdef', { answer: 'accept' })).status).toBe(404);
      expect((await answer(key, { answer: 'maybe' })).status).toBe(400);
    });

    it('accepting corrects the post, learns the name, and the recount counts both votes for Eve', async () => {
      const key = (await checks()).lessons[0]!.key;
      const res = await answer(key, { answer: 'accept' });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ answer: 'accept', learned: 'tyler', lesson: { key, post: 23 } });
      expect((await store.games.get(game.id))!.roster.find((s) => s.name === 'Eve')!.aliases).toEqual(['tyler']);
      expect((await store.events.list(game.id)).map((e) => e.event)).toContainEqual({
        kind: 'correct',
        post: 23,
        target: 'Eve',
      });
      const audit = await store.audit.list({ gameId: game.id, action: 'check.lesson-accept', limit: 10 });
      expect(audit.map((a) => a.detail)).toEqual([expect.objectContaining({ key, post: 23, alias: 'tyler' })]);
      // The recount the correction asks for (the test's poller does not poll by itself).
      expect(await pollGame(deps, game.id, { full: true })).toMatchObject({ status: 'polled', counted: true });
      expect(await eve()).toEqual(['Davina', 'Dave', 'Frank']);
      const after = await checks();
      expect(after.lessons).toEqual([]);
      expect(after.counts.find((c) => c.post === 24)!.differences).toEqual([]);
    });

    it('a lesson dismissed on the page is not offered again', async () => {
      // A fresh lesson: Alice writes a name Votal cannot read, and a count places her.
      const script = withPosts(standardScript(threadId), [
        { author: 'Dave', body: vote('tyler') },
        { author: 'Moderator', body: COUNT },
        { author: 'Frank', body: vote('tyler') },
        { author: 'Alice', body: vote('qzx') },
        {
          author: 'Moderator',
          body: countPost(
            ['Bob', ' (2): Carol, Bob'],
            ['Carol', ' (2): Eve, Alice'],
            ['Eve', ' (3): Davina, Dave, Frank'],
          ),
        },
      ]);
      serve(forum, script);
      expect(await pollGame(deps, game.id, { full: true })).toMatchObject({ status: 'polled', counted: true });
      const lesson = (await checks()).lessons.find((l) => l.kind === 'name' && l.voter === 'Alice')!;
      expect(lesson).toMatchObject({ wagon: 'Carol', post: 26, alias: 'qzx' });
      const { cookie, csrf } = await signIn(app);
      const res = await app.request(`${O}/gm/games/${game.id}/checks/lessons`, {
        method: 'POST',
        headers: { cookie, origin: O, 'content-type': FORM },
        body: form({ _csrf: csrf, key: lesson.key, answer: 'dismiss' }),
      });
      expect(res.status).toBe(303);
      expect((await checks()).lessons).toEqual([]);
    });

    // The thread so far, then Bob's and Carol's unread names, each placed by a count of the GM's.
    const thread: { author: string; body: ScriptNode[] }[] = [
      { author: 'Dave', body: vote('tyler') },
      { author: 'Moderator', body: COUNT },
      { author: 'Frank', body: vote('tyler') },
      { author: 'Alice', body: vote('qzx') },
      {
        author: 'Moderator',
        body: countPost(
          ['Bob', ' (2): Carol, Bob'],
          ['Carol', ' (2): Eve, Alice'],
          ['Eve', ' (3): Davina, Dave, Frank'],
        ),
      },
    ];
    const davina = async () =>
      (await store.tallies.latest(game.id))!.tally.wagons
        .find((w) => w.target === 'Davina')
        ?.voters.map((v) => v.player);
    const lessonOf = async (voter: string, posts: typeof thread) => {
      serve(forum, withPosts(standardScript(threadId), posts));
      // The same thread again (the lesson a refused answer left) has nothing new to count.
      expect(await pollGame(deps, game.id, { full: true })).toMatchObject({ status: 'polled' });
      return (await checks()).lessons.find((l) => l.kind === 'name' && l.voter === voter)!;
    };

    it('a correction the store refuses leaves no alias learned (one transaction)', async () => {
      thread.push(
        { author: 'Bob', body: vote('qqb') }, // #28
        {
          author: 'Moderator', // #29
          body: countPost(['Carol', ' (2): Eve, Alice'], ['Eve', ' (3): Davina, Dave, Frank'], ['Davina', ' (1): Bob']),
        },
      );
      const lesson = await lessonOf('Bob', thread);
      expect(lesson).toMatchObject({ wagon: 'Davina', post: 28, alias: 'qqb' });
      // A real refusal from the database: the correction's insert fails after the alias was set.
      await store.sql.query(
        `CREATE FUNCTION refuse_event() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`,
      );
      await store.sql.query(
        'CREATE TRIGGER refuse_event BEFORE INSERT ON gm_event FOR EACH ROW EXECUTE FUNCTION refuse_event()',
      );
      try {
        expect((await answer(lesson.key, { answer: 'accept' })).status).toBe(500);
      } finally {
        await store.sql.query('DROP TRIGGER refuse_event ON gm_event');
        await store.sql.query('DROP FUNCTION refuse_event()');
      }
      expect((await store.games.get(game.id))!.roster.find((s) => s.name === 'Davina')!.aliases).toEqual([]);
      expect((await checks()).lessons.map((l) => l.key)).toContain(lesson.key);
    });

    it("accepting on the GM page's checks panel counts the post and learns the name", async () => {
      const lesson = await lessonOf('Bob', thread);
      expect(await davina()).toBeUndefined();
      const { cookie, csrf } = await signIn(app);
      const res = await app.request(`${O}/gm/games/${game.id}/checks/lessons`, {
        method: 'POST',
        headers: { cookie, origin: O, 'content-type': FORM },
        body: form({ _csrf: csrf, key: lesson.key, answer: 'accept' }),
      });
      expect(res.status).toBe(303);
      expect((await store.games.get(game.id))!.roster.find((s) => s.name === 'Davina')!.aliases).toEqual(['qqb']);
      expect(await pollGame(deps, game.id, { full: true })).toMatchObject({ status: 'polled', counted: true });
      expect(await davina()).toEqual(['Bob']);
    });

    it("accepting in the GM's one queue (source: 'lesson') counts the post", async () => {
      thread.push(
        { author: 'Carol', body: vote('zzc') }, // #30
        {
          author: 'Moderator', // #31
          body: countPost(['Eve', ' (3): Davina, Dave, Frank'], ['Davina', ' (2): Bob, Carol']),
        },
      );
      const lesson = await lessonOf('Carol', thread);
      expect(lesson).toMatchObject({ wagon: 'Davina', post: 30 });
      const res = await app.request(`${O}/api/games/${game.id}/queue/${lesson.key}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ answer: 'accept' }),
      });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ source: 'lesson', answer: 'accept' });
      expect((await store.events.list(game.id)).map((e) => e.event)).toContainEqual({
        kind: 'correct',
        post: 30,
        target: 'Davina',
      });
      expect(await pollGame(deps, game.id, { full: true })).toMatchObject({ status: 'polled', counted: true });
      expect(await davina()).toEqual(['Bob', 'Carol']);
    });

    const queueLessons = async () =>
      ((await (await app.request(`${O}/api/games/${game.id}/queue`, { headers: auth })).json()) as QueueJson).items
        .filter((i) => i.source === 'lesson')
        .map((i) => i.key);

    it('the poll keeps what the counts teach with its count; the queue offers those, less the dismissed', async () => {
      const { lastCount } = (await store.polls.get(game.id)).state;
      // Alice's "qzx" (#26) is still taught by the count at #27; the GM dismissed it, so the queue leaves it out.
      const alice = lastCount!.lessons!.find((l) => l.kind === 'name' && l.voter === 'Alice')!;
      expect(alice).toMatchObject({ countPost: 27, wagon: 'Carol', post: 26 });
      expect(await queueLessons()).toEqual([]);
      // What the queue offers is what the poll stored: a lesson no fold of the thread makes is offered as stored.
      const stored = { ...alice, key: 'f'.repeat(16) };
      await store.polls.mergeState(game.id, { lastCount: { ...lastCount!, lessons: [stored] } });
      expect(await queueLessons()).toEqual([stored.key]);
      // A state an older Votal wrote keeps no lessons: the queue works them out from the posts.
      const { lessons: _dropped, ...older } = lastCount!;
      await store.polls.mergeState(game.id, { lastCount: older });
      expect(await queueLessons()).toEqual((await checks()).lessons.map((l) => l.key));
      await store.polls.mergeState(game.id, { lastCount: lastCount! });
    });
  });
  describe(`a poster who plays a slot, accepted (${driver})`, () => {
    let forum: FakeForum;
    let store: Store;
    let game: Game;
    let app: VotalApp;
    let deps: PollDeps;
    /** Votal's count of the standard game at post 22, with Gwen (Gwen2's vote) on `on`. */
    const countWith = (on: 'Carol' | 'Frank') =>
      countPost(
        ['Bob', ' (2): Carol, Bob'],
        ['Carol', on === 'Carol' ? ' (2): Eve, Gwen' : ' (1): Eve'],
        ['Frank', on === 'Frank' ? ' (2): Alice, Gwen' : ' (1): Alice'],
        ['Davina', ' (1): Frank'],
        ['Eve', ' (1): Davina'],
      );

    beforeAll(async () => {
      const script = withPosts(standardScript(threadId), [
        { author: 'Gwen2', body: vote('Carol') }, // #23
        { author: 'Moderator', body: countWith('Carol') }, // #24
        { author: 'Gwen2', body: vote('Frank') }, // #25
        { author: 'Moderator', body: countWith('Frank') }, // #26
      ]);
      ({ forum, store, game, deps, app } = await polledGame(open, script, {
        now: () => NOW,
        roster: [...PLAYERS, 'Gwen'],
      }));
    });
    afterAll(() => closeGame({ forum, store, app }));

    const checks = () => gmChecksOf(app, game.id);
    const frank = async () =>
      (await store.tallies.latest(game.id))!.tally.wagons
        .find((w) => w.target === 'Frank')
        ?.voters.map((v) => v.player);

    it('offers "Gwen2 plays Gwen" on the API and the GM page', async () => {
      expect((await checks()).lessons).toEqual([
        expect.objectContaining({
          kind: 'author',
          poster: 'Gwen2',
          slot: 'Gwen',
          countPost: 26,
          agreeing: [24, 26],
          firstPost: 23,
        }),
      ]);
      expect(await frank()).toEqual(['Alice']);
      const { cookie } = await signIn(app);
      const page = await (await app.request(`${O}/gm/games/${game.id}`, { headers: { cookie } })).text();
      expect(page).toContain('Gwen2 replaces Gwen');
    });

    it("accepting in the GM's one queue records the replacement, and the recount counts Gwen2's vote for Frank", async () => {
      const [lesson] = (await checks()).lessons;
      const res = await app.request(`${O}/api/games/${game.id}/queue/${lesson!.key}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ answer: 'accept' }),
      });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ source: 'lesson', answer: 'accept' });
      expect((await store.events.list(game.id)).map((e) => e.event)).toEqual([
        { kind: 'replace', player: 'Gwen', by: 'Gwen2', at: 22 },
      ]);
      const audit = await store.audit.list({ gameId: game.id, action: 'check.lesson-accept', limit: 10 });
      expect(audit.map((a) => a.detail)).toEqual([
        expect.objectContaining({ key: lesson!.key, poster: 'Gwen2', slot: 'Gwen', alias: 'Gwen2' }),
      ]);
      expect(await pollGame(deps, game.id, { full: true })).toMatchObject({ status: 'polled', counted: true });
      expect(await frank()).toEqual(['Alice', 'Gwen2']);
      const after = await checks();
      expect(after.lessons).toEqual([]);
      const aboutGwen = after.counts.flatMap((c) => c.differences.filter((d) => /Gwen/.test(d.text)));
      expect(aboutGwen).toEqual([]);
    });
  });
}

interface QueueJson {
  items: { source: string; key: string }[];
}
