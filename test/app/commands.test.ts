import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCohost, removeCohost, setCohostForumName } from '../../src/app/cohosts.js';
import type { Clock, CommandDeps, PollerPort } from '../../src/app/deps.js';
import { approveDraft, discardDraft, draftNow, editDraft, StaleDraft } from '../../src/app/drafts.js';
import { Conflict, Invalid } from '../../src/app/errors.js';
import { answerReview, dismissNews, recordEvent } from '../../src/app/events.js';
import { createGame, deleteGame, updateGame } from '../../src/app/games.js';
import { pollNow } from '../../src/app/poll.js';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pollGame } from '../../src/game/poll-game.js';
import type { Gm } from '../../src/model/gm.js';
import type { Flag, Tally } from '../../src/model/tally.js';
import { PublishHttp } from '../../src/publish/http.js';
import { publisherFor } from '../../src/publish/publisher-for.js';
import { NotFoundError, ThreadTakenError } from '../../src/store/errors.js';
import type { Store } from '../../src/store/open-store.js';
import { PLAYERS, serve, standardScript, testSource } from '../game/support.js';
import { describePg, openTestStore, sampleTally } from '../web/support.js';

/**
 * The commands (src/app): the only way a game's state changes, called by the API and the
 * dashboard alike. Each rule below is one case, run against a real store (PGlite, and
 * PostgreSQL when it answers) with a fake clock: waiting for a poll advances the clock,
 * never the wall.
 */

/** A clock that moves only when someone sleeps on it. */
function fakeClock(start = '2026-12-01T12:00:00Z'): Clock & { slept: number } {
  let t = Date.parse(start);
  const clock = {
    slept: 0,
    now: () => new Date(t),
    sleep: async (ms: number) => {
      t += ms;
      clock.slept += ms;
    },
  };
  return clock;
}

/**
 * A poller that runs a poll the way the real one records it (lease, then the finished poll),
 * or, with `idle`, only takes the request (a queue nobody works on).
 */
function testPoller(store: Store, opts: { idle?: boolean } = {}): PollerPort & { calls: string[] } {
  const calls: string[] = [];
  // One poll at a time, as the real poller runs a game's polls: a poll asked for while
  // another runs (the one a new game kicks off) follows it instead of racing its lease.
  let queue: Promise<void> = Promise.resolve();
  return {
    calls,
    async pollNow(gameId) {
      calls.push(gameId);
      if (opts.idle) return;
      const id = Number(gameId);
      const poll = queue.then(async () => {
        await store.polls.claim(id, 'test-poller', 60_000);
        await store.polls.finish(id, 'test-poller', { ok: true, fullRead: false, at: new Date() });
      });
      queue = poll.catch(() => undefined);
      await poll;
    },
  };
}

function commandSuite(driver: 'pglite' | 'pg'): void {
  let store: Store;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await openTestStore(driver));
  });
  afterAll(async () => {
    await close?.();
  });

  const depsWith = (over: { poller?: PollerPort; clock?: Clock; pollWaitMs?: number } = {}): CommandDeps => {
    const clock = over.clock ?? fakeClock();
    const http = new PublishHttp({ timeoutMs: 1_000, allowPrivateHosts: true });
    return {
      store,
      poller: over.poller ?? testPoller(store),
      clock,
      box: null,
      allowPrivateHosts: true,
      publish: {
        store,
        publisherFor: async (game) => publisherFor(game, game.engine, { http, box: null }),
        now: clock.now,
      },
      pollWaitMs: over.pollWaitMs ?? 1_000,
    };
  };

  let n = 0;
  const threadUrl = () => `https://forum.example/threads/mafia-${driver}.${++n}/`;
  const players = ['Alice', 'Bob', 'Carol'];
  const newGame = (deps: CommandDeps, extra: Record<string, unknown> = {}) =>
    createGame(deps, 'gm:ann', { url: threadUrl(), ruleset: 'plurality', players, engine: 'xenforo2', ...extra });
  const refusal = async (promise: Promise<unknown>): Promise<unknown> =>
    promise.then(
      () => null,
      (error: unknown) => error,
    );

  describe('games', () => {
    it('a game is added with typed settings, audited with its actor, and its first poll is asked for', async () => {
      const poller = testPoller(store);
      const deps = depsWith({ poller });
      const game = await newGame(deps, { title: 'Mafia 42', timeZone: 'Europe/Berlin', gm: ['Ann', 'Ben'] });
      expect(game.settings).toMatchObject({ title: 'Mafia 42', timeZone: 'Europe/Berlin', gm: ['Ann', 'Ben'] });
      expect(poller.calls).toEqual([String(game.id)]);
      const audit = await store.audit.list({ gameId: game.id, action: 'game.create' });
      expect(audit.map((a) => a.actor)).toEqual(['gm:ann']);
    });

    it('whoever creates a game owns it, audited as game.owner with their actor', async () => {
      const gm = await store.gms.admin(new Date('2026-12-01T12:00:00Z'));
      const game = await createGame(
        depsWith(),
        'gm:ann',
        { url: threadUrl(), ruleset: 'plurality', players, engine: 'xenforo2' },
        { owner: gm.id },
      );
      expect((await store.gms.ofGame(game.id)).map((g) => [g.gm.id, g.role])).toEqual([[gm.id, 'owner']]);
      const audit = await store.audit.list({ gameId: game.id, action: 'game.owner' });
      expect(audit.map((a) => a.actor)).toEqual(['gm:ann']);
    });

    it('a game whose owner cannot be written is not stored either (one transaction)', async () => {
      const before = (await store.games.list()).length;
      const url = threadUrl();
      const input = { url, ruleset: 'plurality', players, engine: 'xenforo2' };
      const error = await refusal(createGame(depsWith(), 'gm:ann', input, { owner: 987_654 }));
      expect(error).toBeInstanceOf(NotFoundError);
      expect((await store.games.list()).length).toBe(before);
      // Nothing half-made holds the thread: the same game can be made again.
      expect((await createGame(depsWith(), 'gm:ann', input)).threadUrl).toBe(url);
    });

    it("a game's opening events are stored with it, before its first poll is asked for", async () => {
      // What the store holds at the moment the first poll is asked for (the query starts then).
      let seen: Promise<string[]> = Promise.resolve([]);
      const poller: PollerPort = {
        async pollNow(gameId) {
          seen = store.events.list(Number(gameId)).then((es) => es.map((e) => `${e.event.kind} by ${e.createdBy}`));
        },
      };
      const game = await createGame(
        depsWith({ poller }),
        'gm:ann',
        { url: threadUrl(), ruleset: 'plurality', players, engine: 'xenforo2' },
        { events: [{ kind: 'day-start', day: 2, at: 40 }] },
      );
      expect(await seen).toEqual(['day-start by gm:ann']);
      expect((await store.events.list(game.id)).map((e) => e.event)).toMatchObject([
        { kind: 'day-start', day: 2, at: 40 },
      ]);
    });

    it('a malformed opening event is refused naming it, and no game is stored', async () => {
      const before = (await store.games.list()).length;
      const input = { url: threadUrl(), ruleset: 'plurality', players, engine: 'xenforo2' };
      const error = await refusal(createGame(depsWith(), 'gm:ann', input, { events: [{ kind: 'day-start' }] }));
      expect(error).toBeInstanceOf(Invalid);
      expect((error as Invalid).issues[0]?.field).toMatch(/^events\.0/);
      expect((await store.games.list()).length).toBe(before);
    });

    it('an unknown ruleset is refused naming the field, and nothing is stored', async () => {
      const before = (await store.games.list()).length;
      const error = await refusal(newGame(depsWith(), { ruleset: 'no-such-rules' }));
      expect(error).toBeInstanceOf(Invalid);
      expect((error as Invalid).issues).toEqual([
        { field: 'ruleset', message: expect.stringContaining('unknown ruleset "no-such-rules"') },
      ]);
      expect((await store.games.list()).length).toBe(before);
    });

    it('a second game on a thread an unfinished game follows is refused, naming that game', async () => {
      const deps = depsWith();
      const first = await newGame(deps);
      const error = await refusal(
        createGame(deps, 'gm:ann', { url: first.threadUrl, ruleset: 'plurality', players, engine: 'xenforo2' }),
      );
      expect(error).toBeInstanceOf(ThreadTakenError);
      expect((error as ThreadTakenError).existing).toEqual({ id: first.id, slug: first.slug });
    });

    it('a votal template that cannot render is refused naming votalTemplate, and the game is unchanged', async () => {
      const deps = depsWith();
      const game = await newGame(deps);
      const error = await refusal(
        updateGame(deps, 'gm:ann', game.id, { votalTemplate: '{{nosuchplaceholder}}', title: 'New name' }),
      );
      expect(error).toBeInstanceOf(Invalid);
      expect((error as Invalid).issues[0]!.field).toBe('votalTemplate');
      expect((await store.games.get(game.id))!.settings.title).toBeUndefined();
    });

    it('a change refused half-way (the thread taken on resume) leaves roster, ruleset, settings and status as they were', async () => {
      const deps = depsWith();
      const first = await newGame(deps);
      await updateGame(deps, 'gm:ann', first.id, { action: 'finish' });
      const second = await newGame(deps, { url: first.threadUrl });
      const before = (await store.games.get(first.id))!;
      const error = await refusal(
        updateGame(deps, 'gm:ann', first.id, {
          players: ['Alice', 'Bob', 'Carol', 'Dave'],
          ruleset: 'mafiascum-majority',
          title: 'Resumed',
          action: 'resume',
        }),
      );
      expect(error).toBeInstanceOf(ThreadTakenError);
      expect((error as ThreadTakenError).existing).toEqual({ id: second.id, slug: second.slug });
      expect(await store.games.get(first.id)).toEqual(before);
      const written = await store.audit.list({ gameId: first.id });
      expect(written.filter((a) => ['game.roster', 'game.ruleset', 'game.settings'].includes(a.action))).toEqual([]);
    });

    it('unarchiving a game that is not archived is refused, naming its status', async () => {
      const deps = depsWith();
      const game = await newGame(deps);
      const error = await refusal(updateGame(deps, 'gm:ann', game.id, { action: 'unarchive' }));
      expect(error).toBeInstanceOf(Conflict);
      expect((error as Conflict).detail).toEqual({ status: 'active' });
    });

    it('archive then unarchive brings the game back paused', async () => {
      const deps = depsWith();
      const game = await newGame(deps);
      expect((await updateGame(deps, 'gm:ann', game.id, { action: 'archive' })).game.status).toBe('archived');
      expect((await updateGame(deps, 'gm:ann', game.id, { action: 'unarchive' })).game.status).toBe('paused');
    });

    it('a change that does not touch the count does not recount', async () => {
      const poller = testPoller(store);
      const deps = depsWith({ poller });
      const game = await newGame(deps);
      const changed = await updateGame(deps, 'gm:ann', game.id, { title: 'Harbour Town', pollIntervalSeconds: 120 });
      expect(changed.recount).toBeNull();
      expect(changed.game.settings.title).toBe('Harbour Town');
      expect(poller.calls).toEqual([String(game.id)]); // the first poll only
    });

    it('a change to the players waits for the poll that recounts', async () => {
      const deps = depsWith();
      const game = await newGame(deps);
      const changed = await updateGame(deps, 'gm:ann', game.id, { players: ['Alice', 'Bob', 'Carol', 'Dave'] });
      expect(changed.recount).toEqual({ done: true, note: null });
      expect(changed.game.roster.map((s) => s.name)).toEqual(['Alice', 'Bob', 'Carol', 'Dave']);
    });

    it('a recount the poller does not finish in time says so after exactly the wait', async () => {
      const clock = fakeClock();
      const deps = depsWith({ poller: testPoller(store, { idle: true }), clock, pollWaitMs: 1_000 });
      const game = await newGame(deps);
      const changed = await updateGame(deps, 'gm:ann', game.id, { ruleset: 'mafiascum-majority' });
      expect(changed.recount).toEqual({
        done: false,
        note: 'the poll is queued but did not finish within 1 s; the count follows',
      });
      expect(clock.slept).toBe(1_000);
    });

    it('a change to the count of a paused game counts from the next poll after it is resumed', async () => {
      const poller = testPoller(store);
      const deps = depsWith({ poller });
      const game = await newGame(deps);
      await updateGame(deps, 'gm:ann', game.id, { action: 'pause' });
      const changed = await updateGame(deps, 'gm:ann', game.id, { deadline: '2030-03-01T19:00:00Z' });
      expect(changed.recount).toEqual({
        done: false,
        note: 'the game is paused: the change counts from the next poll after it is resumed',
      });
      expect(changed.game.settings.day).toMatchObject({ number: 1, deadline: '2030-03-01T19:00:00.000Z' });
    });

    it("deleting needs the game's slug; without it nothing is deleted", async () => {
      // A poller that only queues: the first poll of the new game does not hold the game mid-read.
      const deps = depsWith({ poller: testPoller(store, { idle: true }) });
      const game = await newGame(deps);
      const error = await refusal(deleteGame(deps, 'gm:ann', game.id, 'not-the-slug'));
      expect(error).toBeInstanceOf(Invalid);
      expect((error as Invalid).issues[0]).toMatchObject({
        field: 'confirm',
        message: expect.stringContaining('nothing was deleted'),
      });
      expect(await store.games.get(game.id)).not.toBeNull();
      await deleteGame(deps, 'gm:ann', game.id, game.slug);
      expect(await store.games.get(game.id)).toBeNull();
    });

    it('a game being read right now is not deleted', async () => {
      // The lease is in database time: the clock reads the same instant.
      const deps = depsWith({ poller: testPoller(store, { idle: true }), clock: fakeClock(new Date().toISOString()) });
      const game = await newGame(deps);
      expect(await store.polls.claim(game.id, 'another-poller', 3_600_000)).not.toBeNull();
      const error = await refusal(deleteGame(deps, 'gm:ann', game.id, game.slug));
      expect(error).toBeInstanceOf(Conflict);
      expect((error as Conflict).message).toContain('is being read right now; nothing was deleted');
      expect(await store.games.get(game.id)).not.toBeNull();
    });

    it('a game that does not exist is NotFound', async () => {
      expect(await refusal(updateGame(depsWith(), 'gm:ann', 999_999, { title: 'x' }))).toBeInstanceOf(NotFoundError);
    });
  });

  describe("the GM's word", () => {
    it('a GM event on a paused game is recorded with its actor and counts from the next poll', async () => {
      const deps = depsWith();
      const game = await newGame(deps);
      await updateGame(deps, 'gm:ann', game.id, { action: 'pause' });
      const r = await recordEvent(deps, 'gm:ben', game.id, { at: 12, kind: 'kill', player: 'Bob' });
      expect(r.recounted).toBe(false);
      expect(r.note).toBe('the game is paused: the event counts from the next poll after it is resumed');
      expect((await store.events.list(game.id)).map((e) => e.event)).toEqual([
        expect.objectContaining({ kind: 'kill', player: 'Bob', at: 12 }),
      ]);
      expect((await store.audit.list({ gameId: game.id, action: 'event.append' }))[0]!.actor).toBe('gm:ben');
    });

    it('a malformed GM event is refused naming the field, and nothing is recorded', async () => {
      const deps = depsWith();
      const game = await newGame(deps);
      const error = await refusal(recordEvent(deps, 'gm:ann', game.id, { at: 12, kind: 'kill' }));
      expect(error).toBeInstanceOf(Invalid);
      expect((error as Invalid).issues.map((i) => i.field)).toContain('player');
      expect(await store.events.list(game.id)).toEqual([]);
    });

    it('accepting a review item is remembered with its key and post', async () => {
      const deps = depsWith();
      const game = await newGame(deps);
      const flag: Flag = {
        post: 9,
        player: 'Bob',
        kind: 'side-action-not-allowed',
        raw: 'Hammer: Bob',
        candidates: [],
      };
      await store.tallies.save(game.id, sampleTally({ flags: [flag] }));
      expect(
        await answerReview(deps, 'gm:ann', game.id, {
          answer: 'accept',
          post: 9,
          key: 'flag:9:side-action-not-allowed',
        }),
      ).toEqual({ answer: 'accept' });
      const [entry] = await store.audit.list({ gameId: game.id, action: 'review.accept' });
      expect(entry).toMatchObject({ actor: 'gm:ann', detail: { key: 'flag:9:side-action-not-allowed', post: 9 } });
    });

    it("accepting what the queue does not offer to accept is refused: a non-player's vote, an item it does not hold", async () => {
      // Issue #24: "Accept" on a non-player's vote changed nothing and said "Post 15: accepted."
      const deps = depsWith();
      const game = await newGame(deps);
      const flag: Flag = { post: 15, player: 'Lurker', kind: 'vote-by-non-player', raw: 'Vote: Alice', candidates: [] };
      await store.tallies.save(game.id, sampleTally({ flags: [flag] }));
      const accept = (post: number, key: string) =>
        answerReview(deps, 'gm:ann', game.id, { answer: 'accept', post, key });
      const refused = await refusal(accept(15, 'flag:15:vote-by-non-player'));
      expect((refused as Invalid).issues).toEqual([
        {
          field: 'answer',
          message: 'Vote by a non-player (post 15) cannot be accepted: it takes "Ignore this vote"',
        },
      ]);
      expect(await refusal(accept(16, 'flag:16:vote-for-dead'))).toBeInstanceOf(NotFoundError);
      expect(await store.audit.list({ gameId: game.id, action: 'review.accept' })).toEqual([]);
    });

    it('correcting a review item is a GM event that recounts', async () => {
      const deps = depsWith();
      const game = await newGame(deps);
      const r = await answerReview(deps, 'gm:ann', game.id, { answer: 'correct', post: 17, target: null });
      expect(r.answer === 'correct' && r.recorded.recounted).toBe(true);
      expect((await store.events.list(game.id)).map((e) => e.event)).toEqual([
        expect.objectContaining({ kind: 'correct', post: 17, target: null }),
      ]);
    });

    it('a news proposal is dismissed by its key; anything else is refused', async () => {
      const deps = depsWith();
      const game = await newGame(deps);
      await dismissNews(deps, 'gm:ann', game.id, '0123456789abcdef');
      expect((await store.audit.list({ gameId: game.id, action: 'news.dismiss' })).map((a) => a.detail)).toEqual([
        { key: '0123456789abcdef' },
      ]);
      const error = await refusal(dismissNews(deps, 'gm:ann', game.id, 'drop table'));
      expect((error as Invalid).issues[0]!.field).toBe('key');
    });

    it('polling a game that is not active is refused, naming its status', async () => {
      const deps = depsWith();
      const game = await newGame(deps);
      await updateGame(deps, 'gm:ann', game.id, { action: 'finish' });
      const error = await refusal(pollNow(deps, game.id));
      expect(error).toBeInstanceOf(Conflict);
      expect((error as Conflict).message).toBe(`game ${game.id} is finished; resume it to poll`);
    });
  });

  describe('co-hosts', () => {
    let forum: FakeForum;
    beforeAll(async () => {
      forum = await startFakeForum();
    });
    afterAll(async () => {
      await forum?.close();
    });

    /** A poller that really polls the fake forum (one poll at a time, as the real one). */
    const realPoller = (clock: Clock): PollerPort => {
      let queue: Promise<unknown> = Promise.resolve();
      return {
        async pollNow(gameId) {
          const poll = queue.then(() =>
            pollGame({ store, source: testSource(), now: () => clock.now().toISOString() }, gameId),
          );
          queue = poll.catch(() => undefined);
          await poll;
        },
      };
    };
    let gms = 0;
    /** A GM invited by the admin, with a name of their own. */
    const invitedGm = async (name: string): Promise<Gm> => {
      const at = new Date('2026-12-01T11:00:00Z');
      const admin = await store.gms.admin(at);
      const tokenHash = `cohost-${driver}-${++gms}`;
      const expiresAt = new Date(at.getTime() + 86_400_000);
      await store.gms.createInvite({ tokenHash, createdBy: admin.id, at, expiresAt }, 'gm:admin');
      return store.gms.acceptInvite({ tokenHash, name: `${name}${gms}`, passwordHash: 'scrypt$x', at });
    };
    /** The standard game (fixtures/games/standard-game.yaml) on the fake forum, polled once. */
    let threads = 0;
    const polledGame = async (deps: CommandDeps) => {
      const url = serve(forum, standardScript((driver === 'pg' ? 8_600 : 8_500) + ++threads));
      const game = await createGame(deps, 'gm:ann', {
        url,
        ruleset: 'plurality',
        players: PLAYERS,
        engine: 'xenforo2',
      });
      await deps.poller.pollNow(String(game.id)); // after the poll createGame asked for
      return game;
    };
    const nonPlayerVotes = async (gameId: number) =>
      (await store.tallies.latest(gameId))!.tally.flags
        .filter((f) => f.kind === 'vote-by-non-player')
        .map((f) => f.post);

    it("a co-host's forum name makes their posts the hosts': the stored count changes at once, no poll waited for", async () => {
      // Post 15 of the standard game: "Lurker", on no roster, writes "Vote: Alice".
      const clock = fakeClock();
      const deps = depsWith({ clock, poller: realPoller(clock) });
      const game = await polledGame(deps);
      expect(await nonPlayerVotes(game.id)).toEqual([15]);
      const bea = await invitedGm('Bea');
      const added = await addCohost(deps, 'gm:ann', game.id, { name: bea.name, forum: 'Lurker' });
      expect(added).toMatchObject({ forum: 'Lurker', recount: { done: true, note: null } });
      expect(added.member).toMatchObject({ role: 'cohost', gm: { name: bea.name } });
      expect(await nonPlayerVotes(game.id)).toEqual([]);
      // Another forum name: Lurker posts as a poster again, and is flagged again.
      const renamed = await setCohostForumName(deps, 'gm:ann', game.id, bea.id, { forum: 'BeaOnTheForum' });
      expect(renamed.recount).toEqual({ done: true, note: null });
      expect(await nonPlayerVotes(game.id)).toEqual([15]);
      const audit = await store.audit.list({ gameId: game.id, action: 'game.settings' });
      expect(audit.map((a) => [a.actor, a.detail])).toEqual([
        ['gm:ann', { cohostForumNames: { gm: bea.name, forum: 'BeaOnTheForum' } }],
        ['gm:ann', { cohostForumNames: { gm: bea.name, forum: 'Lurker' } }],
      ]);
    });

    it("removing a co-host forgets their forum name and recounts: their posts are a poster's again", async () => {
      const clock = fakeClock();
      const deps = depsWith({ clock, poller: realPoller(clock) });
      const game = await polledGame(deps);
      const cy = await invitedGm('Cy');
      await addCohost(deps, 'gm:ann', game.id, { name: cy.name, forum: 'Lurker' });
      expect(await nonPlayerVotes(game.id)).toEqual([]);
      const removed = await removeCohost(deps, 'gm:ann', game.id, cy.id);
      expect(removed).toMatchObject({ forum: null, recount: { done: true, note: null } });
      expect((await store.games.get(game.id))!.settings.cohostForumNames).toBeUndefined();
      expect(await store.gms.roleIn(game.id, cy.id)).toBeNull();
      expect(await nonPlayerVotes(game.id)).toEqual([15]);
      const actions = (await store.audit.list({ gameId: game.id })).map((a) => a.action);
      expect(actions).toEqual(expect.arrayContaining(['game.cohost-add', 'game.cohost-remove']));
    });

    it("a change to the GM's forum name recounts as a co-host's does", async () => {
      const clock = fakeClock();
      const deps = depsWith({ clock, poller: realPoller(clock) });
      const game = await polledGame(deps);
      const changed = await updateGame(deps, 'gm:ann', game.id, { gm: ['Moderator', 'Lurker'] });
      expect(changed.recount).toEqual({ done: true, note: null });
      expect(await nonPlayerVotes(game.id)).toEqual([]);
      // The same names again change nothing: no recount.
      expect((await updateGame(deps, 'gm:ann', game.id, { gm: ['Moderator', 'Lurker'] })).recount).toBeNull();
    });

    it('a co-host without a forum name, or with the same one again, does not recount', async () => {
      const poller = testPoller(store);
      const deps = depsWith({ poller });
      const game = await newGame(deps);
      const dee = await invitedGm('Dee');
      expect((await addCohost(deps, 'gm:ann', game.id, { name: dee.name })).recount).toBeNull();
      await addCohost(deps, 'gm:ann', game.id, { name: dee.name, forum: 'DeeOnTheForum' });
      const again = await setCohostForumName(deps, 'gm:ann', game.id, dee.id, { forum: ' DeeOnTheForum ' });
      expect(again).toMatchObject({ forum: 'DeeOnTheForum', recount: null });
      // The first poll, then the one recount.
      expect(poller.calls).toEqual([String(game.id), String(game.id)]);
    });

    it('a co-host who is no GM here, or a forum name too long, is refused naming the field; nothing changes', async () => {
      const deps = depsWith();
      const game = await newGame(deps);
      for (const name of ['Nobody', 'admin']) {
        const error = await refusal(addCohost(deps, 'gm:ann', game.id, { name }));
        expect((error as Invalid).issues).toEqual([
          { field: 'name', message: `No GM is called "${name}". Ask the instance admin to invite them first.` },
        ]);
      }
      const eve = await invitedGm('Eve');
      const long = await refusal(addCohost(deps, 'gm:ann', game.id, { name: eve.name, forum: 'x'.repeat(101) }));
      expect((long as Invalid).issues.map((i) => i.field)).toEqual(['forum']);
      expect(await store.gms.ofGame(game.id)).toEqual([]);
      // Not one of the game's GMs: there is no forum name of theirs to set.
      expect(await refusal(setCohostForumName(deps, 'gm:ann', game.id, eve.id, { forum: 'E' }))).toBeInstanceOf(
        NotFoundError,
      );
      expect((await store.games.get(game.id))!.settings.cohostForumNames).toBeUndefined();
    });

    it("the game's owner is not removed, and their forum name stays", async () => {
      const deps = depsWith();
      const fay = await invitedGm('Fay');
      const game = await createGame(
        deps,
        'gm:ann',
        { url: threadUrl(), ruleset: 'plurality', players, engine: 'xenforo2' },
        { owner: fay.id },
      );
      await setCohostForumName(deps, 'gm:ann', game.id, fay.id, { forum: 'FayOnTheForum' });
      const error = await refusal(removeCohost(deps, 'gm:ann', game.id, fay.id));
      expect((error as Error).message).toBe(`${fay.name} owns this game; an owner is not removed`);
      expect((await store.games.get(game.id))!.settings.cohostForumNames).toEqual({ [fay.name]: 'FayOnTheForum' });
      expect(await store.gms.roleIn(game.id, fay.id)).toBe('owner');
    });
  });

  describe('drafts', () => {
    const atPost22: Partial<Tally> = { postsRead: 22, asOfPost: 22 };
    const atPost32: Partial<Tally> = {
      postsRead: 32,
      asOfPost: 32,
      notVoting: ['Carol'],
      wagons: [
        {
          target: 'Alice',
          votes: 2,
          penalty: 0,
          total: 2,
          voters: [
            { player: 'Bob', post: 2, weight: 1, permalink: null },
            { player: 'Alice', post: 30, weight: 1, permalink: null },
          ],
          toThreshold: null,
        },
      ],
    };
    const withDraft = async (deps: CommandDeps) => {
      const game = await newGame(deps);
      await store.tallies.save(game.id, sampleTally(atPost22));
      return { game, draft: await draftNow(deps, 'gm:ann', game.id) };
    };

    it('drafting without a count is refused', async () => {
      const deps = depsWith();
      const game = await newGame(deps);
      const error = await refusal(draftNow(deps, 'gm:ann', game.id));
      expect(error).toBeInstanceOf(Conflict);
      expect((error as Conflict).message).toBe('There is no count yet to draft from.');
    });

    it("a draft is drawn up from the current count in the thread's markup, with the game's votal title", async () => {
      const deps = depsWith();
      const game = await newGame(deps, { votalTitle: 'Mafia 42 — vote count' });
      const saved = await store.tallies.save(game.id, sampleTally(atPost22));
      const draft = await draftNow(deps, 'gm:ann', game.id);
      expect(draft).toMatchObject({
        gameId: game.id,
        tallyId: saved.id,
        status: 'pending',
        createdBy: 'gm:ann',
        dialect: 'bbcode-xenforo',
      });
      expect(draft.body).toContain('Mafia 42 — vote count');
    });

    it('approving a stale draft without confirm is refused naming what changed', async () => {
      const deps = depsWith();
      const { game, draft } = await withDraft(deps);
      await store.tallies.save(game.id, sampleTally(atPost32));
      const error = await refusal(approveDraft(deps, 'gm:ann', draft.id, {}));
      expect(error).toBeInstanceOf(StaleDraft);
      const { stale } = error as StaleDraft;
      expect(stale.message).toMatch(/made from an older count \(as of post 22\); the count now stands as of post 32\./);
      expect(stale.changes.summary.join(' ')).toContain('Alice: 1 vote → 2 votes.');
      expect((await store.drafts.get(draft.id))!.status).toBe('pending');
    });

    it('a stale draft approved with confirm is approved and, with no way to post set, given to copy', async () => {
      const deps = depsWith();
      const { game, draft } = await withDraft(deps);
      await store.tallies.save(game.id, sampleTally(atPost32));
      const result = await approveDraft(deps, 'gm:ann', draft.id, { confirm: true });
      expect(result.status).toBe('copy');
      expect(result.draft).toMatchObject({ id: draft.id, status: 'approved', decidedBy: 'gm:ann' });
    });

    it('an edited body with CRLF only is no edit', async () => {
      const deps = depsWith();
      const { draft } = await withDraft(deps);
      const edited = await editDraft(deps, 'gm:ann', draft.id, draft.body.replace(/\n/g, '\r\n'));
      expect(edited).toEqual({ draft, changed: false });
      expect(await store.drafts.list(draft.gameId)).toHaveLength(1);
    });

    it('an edit is a new pending draft; the old one is discarded', async () => {
      const deps = depsWith();
      const { draft } = await withDraft(deps);
      const edited = await editDraft(deps, 'gm:ann', draft.id, `${draft.body}\r\nSee you at the deadline.`);
      expect(edited.changed).toBe(true);
      expect(edited.draft.body.endsWith('\nSee you at the deadline.')).toBe(true);
      expect((await store.drafts.get(draft.id))!).toMatchObject({ status: 'discarded', supersededBy: edited.draft.id });
    });

    it('an empty edit is refused naming the body', async () => {
      const deps = depsWith();
      const { draft } = await withDraft(deps);
      expect(((await refusal(editDraft(deps, 'gm:ann', draft.id, ' \r\n'))) as Invalid).issues).toEqual([
        { field: 'body', message: 'the draft is empty' },
      ]);
    });

    it('a draft that is not pending cannot be edited', async () => {
      const deps = depsWith();
      const { draft } = await withDraft(deps);
      await discardDraft(deps, 'gm:ann', draft.id);
      const error = await refusal(editDraft(deps, 'gm:ann', draft.id, 'Something else'));
      expect(error).toBeInstanceOf(Conflict);
      expect((error as Conflict).message).toBe(`draft ${draft.id} is discarded; only a pending draft can be edited`);
    });

    it('a discarded draft cannot be approved', async () => {
      const deps = depsWith();
      const { draft } = await withDraft(deps);
      await discardDraft(deps, 'gm:ann', draft.id);
      const error = await refusal(approveDraft(deps, 'gm:ann', draft.id, {}));
      expect((error as Conflict).message).toBe(`draft ${draft.id} was discarded; it cannot be approved`);
    });

    it('a superseded draft cannot be approved; the refusal names the newer one', async () => {
      const deps = depsWith();
      const { game, draft } = await withDraft(deps);
      const newer = await draftNow(deps, 'gm:ann', game.id);
      const error = await refusal(approveDraft(deps, 'gm:ann', draft.id, {}));
      expect((error as Conflict).detail).toEqual({ status: 'superseded', supersededBy: newer.id });
    });
  });
}

describe('commands (PGlite)', () => commandSuite('pglite'));
await describePg('commands (PostgreSQL)', () => commandSuite('pg'));
