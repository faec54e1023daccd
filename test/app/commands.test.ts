import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCohost, removeCohost, setCohostForumName } from '../../src/app/cohosts.js';
import type { Clock, CommandDeps, PollerPort } from '../../src/app/deps.js';
import { approveDraft, discardDraft, draftNow, editDraft, StaleDraft } from '../../src/app/drafts.js';
import { Conflict, Invalid } from '../../src/app/errors.js';
import { answerReview, dismissNews, recordEvent } from '../../src/app/events.js';
import { answerQueue, gmQueue } from '../../src/app/queue.js';
import { gameReview } from '../../src/app/review.js';
import { createGame, deleteGame, updateGame } from '../../src/app/games.js';
import { pollNow } from '../../src/app/poll.js';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pollGame } from '../../src/game/poll-game.js';
import type { Gm } from '../../src/model/gm.js';
import { FlagKind, type Flag, type Tally } from '../../src/model/tally.js';
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
  const polledGame = async (deps: CommandDeps, ruleset = 'plurality', extra: Record<string, unknown> = {}) => {
    const url = serve(forum, standardScript((driver === 'pg' ? 8_600 : 8_500) + ++threads));
    const game = await createGame(deps, 'gm:ann', { url, ruleset, players: PLAYERS, engine: 'xenforo2', ...extra });
    await deps.poller.pollNow(String(game.id)); // after the poll createGame asked for
    return game;
  };

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

    it("keeps the rules the GM accepted as the game's ruleset overrides; overrides that break the ruleset are refused", async () => {
      const game = await newGame(depsWith(), {
        ruleset: 'mafiascum-majority',
        rulesetOverrides: { shortOfThreshold: 'no-elimination' },
      });
      expect(game.rulesetOverrides).toEqual({ shortOfThreshold: 'no-elimination' });
      const before = (await store.games.list()).length;
      const error = await refusal(
        newGame(depsWith(), { ruleset: 'mafiascum-majority', rulesetOverrides: { shortOfThreshold: 'whoever' } }),
      );
      expect(error).toBeInstanceOf(Invalid);
      expect((error as Invalid).issues[0]?.field).toBe('rulesetOverrides');
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

    it('accepting a review item is remembered with its key and post: a vote the count counts, read loosely', async () => {
      const deps = depsWith();
      const game = await newGame(deps);
      const voters = [
        { player: 'Bob', post: 9, weight: 1, permalink: null, match: 'fuzzy' as const, written: 'Alcie' },
      ];
      const [wagon] = sampleTally().wagons;
      await store.tallies.save(game.id, sampleTally({ wagons: [{ ...wagon!, voters }] }));
      const key = 'loose:1:Bob:Alcie:Alice';
      expect(await answerReview(deps, 'gm:ann', game.id, { answer: 'accept', post: 9, key })).toEqual({
        answer: 'accept',
      });
      const [entry] = await store.audit.list({ gameId: game.id, action: 'review.accept' });
      expect(entry).toMatchObject({ actor: 'gm:ann', detail: { key, post: 9 } });
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
          message: 'Vote by a non-player (post 15) cannot be accepted: it takes "Dismiss (it does not count)"',
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

  describe('"Accept" counts the vote, or does not exist (issue #24)', () => {
    // One case per flag kind: what its review item offers, and that the dashboard's buttons
    // (the item's choices), the queue's answers and the review command agree. "pick": a
    // correction to a player picked counts it; "count": a correction counts the vote as cast;
    // "dismiss": nothing can make it count.
    const ANSWERS: Record<Exclude<FlagKind, 'gm-correction'>, 'pick' | 'count' | 'dismiss'> = {
      'ambiguous-target': 'pick',
      'unknown-target': 'pick',
      'vote-for-dead': 'pick',
      'malformed-vote': 'pick',
      'empty-vote': 'pick',
      'no-lynch-not-allowed': 'pick',
      'self-vote': 'pick',
      'unreadable-post': 'pick',
      // A game whose votes are sent to the GM: the GM's correction is their word.
      'vote-in-thread': 'count',
      // The count refuses these votes even when corrected.
      'vote-by-non-player': 'dismiss',
      'vote-by-dead': 'dismiss',
      'vote-after-decision': 'dismiss',
      // A GM event's flag, or a correction of no post: a correction would hit another post's vote.
      'not-a-player': 'dismiss',
      'unknown-post': 'dismiss',
      'missing-vote': 'dismiss',
      // A refused side action is no lynch vote, which is all a correction sets.
      'side-action-not-allowed': 'dismiss',
      'veto-spent': 'dismiss',
      'self-veto': 'dismiss',
      'self-forgive': 'dismiss',
      'forgive-without-penalty': 'dismiss',
    };
    const kinds = Object.keys(ANSWERS) as (keyof typeof ANSWERS)[];

    it('every flag kind but the correction itself has its case', () => {
      expect([...kinds, 'gm-correction'].sort()).toEqual([...FlagKind.options].sort());
    });

    const reviewOf = async (gameId: number, key: string) => {
      const item = (await gameReview(depsWith(), gameId)).items.find((i) => i.key === key);
      const queued = (await gmQueue(depsWith(), gameId)).items.find(
        (i) => i.source === 'review' && i.reviewKey === key,
      );
      expect(queued).toBeDefined();
      return { item: item!, queueKey: queued!.key };
    };

    it.each(kinds.filter((k) => ANSWERS[k] === 'dismiss'))(
      '%s: nothing can make it count, so it is dismissed, never accepted, and the count stays as it was',
      async (kind) => {
        const deps = depsWith();
        const game = await newGame(deps);
        const flag: Flag = { post: 9, player: 'Bob', kind, raw: 'Vote: Carol', candidates: [] };
        const saved = await store.tallies.save(game.id, sampleTally({ flags: [flag] }));
        const key = `flag:9:${kind}`;
        const { item, queueKey } = await reviewOf(game.id, key);
        expect(item.choices).toEqual([{ label: 'Dismiss (it does not count)', action: 'dismiss', target: null }]);
        expect(item.pick).toEqual([]);
        const viaQueue = (answer: 'accept' | 'dismiss') =>
          answerQueue(deps, 'gm:ann', game.id, { key: queueKey, answer });
        const refusedQ = await refusal(viaQueue('accept'));
        expect((refusedQ as Invalid).issues).toEqual([{ field: 'answer', message: 'this review item takes dismiss' }]);
        const correct = answerQueue(deps, 'gm:ann', game.id, { key: queueKey, answer: 'correct', target: null });
        expect(await refusal(correct)).toBeInstanceOf(Invalid);
        expect(await refusal(answerReview(deps, 'gm:ann', game.id, { answer: 'accept', post: 9, key }))).toBeInstanceOf(
          Invalid,
        );
        expect(await viaQueue('dismiss')).toEqual({ source: 'review', answer: 'dismiss' });
        expect((await store.audit.list({ gameId: game.id, action: 'review.dismiss' })).map((a) => a.detail)).toEqual([
          { key, post: 9 },
        ]);
        expect(await store.audit.list({ gameId: game.id, action: 'review.accept' })).toEqual([]);
        expect((await reviewOf(game.id, key)).item.resolved).toBe('Dismissed by the GM');
        expect(await store.events.list(game.id)).toEqual([]);
        expect((await store.tallies.latest(game.id))!.id).toBe(saved.id);
      },
    );

    it.each(kinds.filter((k) => ANSWERS[k] !== 'dismiss'))(
      '%s: a correction counts it (a player picked, or the vote as cast), so there is no "Accept" or "Dismiss"',
      async (kind) => {
        const deps = depsWith();
        const game = await newGame(deps);
        const flag: Flag = { post: 9, player: 'Bob', kind, raw: 'Vote: Carl', candidates: ['Carol'] };
        await store.tallies.save(game.id, sampleTally({ flags: [flag] }));
        const key = `flag:9:${kind}`;
        const { item, queueKey } = await reviewOf(game.id, key);
        expect(item.choices.map((c) => c.action)).toEqual(['correct']);
        expect(item.pick.length > 0).toBe(ANSWERS[kind] === 'pick');
        for (const answer of ['accept', 'dismiss'] as const) {
          const refusedQ = await refusal(answerQueue(deps, 'gm:ann', game.id, { key: queueKey, answer }));
          expect((refusedQ as Invalid).issues).toEqual([
            { field: 'answer', message: 'this review item takes correct' },
          ]);
          expect(await refusal(answerReview(deps, 'gm:ann', game.id, { answer, post: 9, key }))).toBeInstanceOf(
            Invalid,
          );
        }
      },
    );

    it('vote-in-thread on a real poll: "Count it" counts the vote in the stored tally', async () => {
      // fixtures/games/standard-game.yaml post 2, Alice: "Vote: Bob"; rulesets/detective-conan.yaml
      // takes votes sent to the GM only, so the thread's vote is flagged until the GM counts it.
      const clock = fakeClock();
      const deps = depsWith({ clock, poller: realPoller(clock) });
      const game = await polledGame(deps, 'detective-conan');
      const before = (await store.tallies.latest(game.id))!.tally;
      expect(before.flags).toContainEqual(expect.objectContaining({ post: 2, kind: 'vote-in-thread' }));
      expect(before.wagons.flatMap((w) => w.voters.map((v) => v.player))).not.toContain('Alice');
      const { item, queueKey } = await reviewOf(game.id, 'flag:2:vote-in-thread');
      expect(item.choices).toEqual([
        { label: 'Count it (Bob)', action: 'correct', target: 'Bob' },
        { label: 'Ignore this vote', action: 'correct', target: null },
      ]);
      const r = await answerQueue(deps, 'gm:ann', game.id, { key: queueKey, answer: 'correct', target: 'Bob' });
      expect(r).toMatchObject({
        source: 'review',
        answer: 'correct',
        recorded: { recounted: true, tallyChanged: true },
      });
      const after = (await store.tallies.latest(game.id))!.tally;
      expect(after.wagons.find((w) => w.target === 'Bob')?.voters.map((v) => [v.player, v.post])).toContainEqual([
        'Alice',
        2,
      ]);
      expect(after.flags.filter((f) => f.post === 2).map((f) => f.kind)).toEqual(['gm-correction']);
    });

    it('vote-by-dead on a real poll: dismissed, and the stored tally is the one it was', async () => {
      // fixtures/games/standard-game.yaml post 9, Bob: "Vote: Carol", after the GM's kill of Bob at post 5.
      const clock = fakeClock();
      const deps = depsWith({ clock, poller: realPoller(clock) });
      const game = await polledGame(deps);
      await recordEvent(deps, 'gm:ann', game.id, { at: 5, kind: 'kill', player: 'Bob' });
      const latest = (await store.tallies.latest(game.id))!;
      expect(latest.tally.flags).toContainEqual(expect.objectContaining({ post: 9, kind: 'vote-by-dead' }));
      const { item, queueKey } = await reviewOf(game.id, 'flag:9:vote-by-dead');
      expect(item.choices.map((c) => c.action)).toEqual(['dismiss']);
      expect(await answerQueue(deps, 'gm:ann', game.id, { key: queueKey, answer: 'dismiss' })).toEqual({
        source: 'review',
        answer: 'dismiss',
      });
      expect((await store.tallies.latest(game.id))!.id).toBe(latest.id);
      expect((await reviewOf(game.id, 'flag:9:vote-by-dead')).item.resolved).toBe('Dismissed by the GM');
    });
  });

  describe('co-hosts', () => {
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
