/**
 * The GM's one queue (issue #25): the review items and the news from the GM's posts in one
 * listing, `GET /api/games/:id/queue`, each answered through `POST .../queue/:key` as its
 * own route answers it (audited, recorded as a GM event), the routes of each part kept.
 * Run on each driver (gm-queue.pglite.test.ts, gm-queue.postgres.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeForum } from '../../src/fake-forum/server.js';
import { pollGame, type PollDeps } from '../../src/game/poll-game.js';
import type { Game } from '../../src/model/game.js';
import type { Store } from '../../src/store/open-store.js';
import type { VotalApp } from '../../src/web/app.js';
import { says, serve, standardScript, vote, withBody, withPosts, without } from '../game/support.js';
import { closeGame, polledGame } from './polled-game.js';
import { ADMIN_TOKEN } from './support.js';

const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

interface Item {
  source: 'review' | 'news' | 'unread';
  key: string;
  reviewKey?: string;
  post: number;
  event?: unknown;
  resolved: string | null;
}

export function gmQueueContract(driver: string, open: () => Promise<Store>, threadId: number): void {
  describe(`the GM's one queue: review items and news, answered alike (${driver})`, () => {
    let forum: FakeForum;
    let store: Store;
    let game: Game;
    let app: VotalApp;
    let deps: PollDeps;

    /** The standard game, then Alice's vote in post 2 edited, post 7 deleted, and the GM announcing a lynch in post 23. */
    beforeAll(async () => {
      const script = standardScript(threadId);
      const polled = await polledGame(open, script);
      ({ forum, store, game, app, deps } = polled);
      serve(
        forum,
        withPosts(without(withBody(script, 2, vote('Carol')), 7), [
          { author: 'Moderator', body: says('Dave has been lynched. He was a Villager.') },
        ]),
      );
      polled.clock.advance(5 * 60_000);
      expect(await pollGame(deps, game.id, { full: true })).toMatchObject({ status: 'polled', counted: true });
    });
    afterAll(() => closeGame({ app, store, forum }));

    const queue = async (): Promise<{ items: Item[]; open: number }> => {
      const res = await app.request(`/api/games/${game.id}/queue`, { headers: auth });
      expect(res.status).toBe(200);
      return (await res.json()) as { items: Item[]; open: number };
    };
    const answer = (key: string, body: unknown) =>
      app.request(`/api/games/${game.id}/queue/${key}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
    const reviewItem = async (reviewKey: string): Promise<Item> =>
      (await queue()).items.find((i) => i.reviewKey === reviewKey)!;

    it('lists what the review queue and the news list hold, one key of 16 hex digits each, open items first', async () => {
      const { items, open: openCount } = await queue();
      const news = (await (await app.request(`/api/games/${game.id}/news`, { headers: auth })).json()) as {
        proposals: { key: string }[];
        unread: { key: string }[];
      };
      expect(items.filter((i) => i.source === 'news').map((i) => i.key)).toEqual(news.proposals.map((p) => p.key));
      expect(items.filter((i) => i.source === 'unread').map((i) => i.key)).toEqual(news.unread.map((u) => u.key));
      expect(items.find((i) => i.source === 'news' && i.post === 23)?.event).toEqual({
        kind: 'kill',
        player: 'Dave',
        at: 23,
      });
      expect(items.filter((i) => i.source === 'review').map((i) => i.reviewKey)).toEqual(
        expect.arrayContaining(['edit:2', 'deleted:7', 'flag:14:ambiguous-target', 'loose:1:Eve:Carl:Carol']),
      );
      expect(items.every((i) => /^[0-9a-f]{16}$/.test(i.key))).toBe(true);
      expect(new Set(items.map((i) => i.key)).size).toBe(items.length);
      expect(openCount).toBe(items.filter((i) => i.resolved === null).length);
      const firstSettled = items.findIndex((i) => i.resolved !== null);
      if (firstSettled >= 0) expect(items.slice(firstSettled).every((i) => i.resolved !== null)).toBe(true);
    });

    it('corrects a review item through the queue: a GM event, audited, and the item settled', async () => {
      const deleted = await reviewItem('deleted:7');
      const res = await answer(deleted.key, { answer: 'correct', target: null });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ source: 'review', answer: 'correct' });
      const events = await store.events.list(game.id);
      expect(events.map((e) => e.event)).toContainEqual({ kind: 'correct', post: 7, target: null });
      const appended = await store.audit.list({ gameId: game.id, action: 'event.append' });
      expect(appended.map((a) => a.actor)).toContain('gm');
      expect((await reviewItem('deleted:7')).resolved).toBe('Vote ignored by the GM');
    });

    it('records a news proposal through the queue: it becomes its event, audited, and the count follows', async () => {
      const lynch = (await queue()).items.find((i) => i.source === 'news' && i.post === 23)!;
      const res = await answer(lynch.key, { answer: 'record' });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ source: 'news', answer: 'record' });
      expect((await store.events.list(game.id)).map((e) => e.event)).toContainEqual({
        kind: 'kill',
        player: 'Dave',
        at: 23,
      });
      expect((await store.audit.list({ gameId: game.id, action: 'news.record' })).map((a) => a.detail['key'])).toEqual([
        lynch.key,
      ]);
      expect((await queue()).items.map((i) => i.key)).not.toContain(lynch.key);
      // The recount is a poll (the test's poller only notes the ask): once it runs, Dave is dead.
      expect(await pollGame(deps, game.id)).toMatchObject({ status: 'polled' });
      expect((await store.tallies.latest(game.id))!.tally.players).not.toContain('Dave');
    });

    it('takes only the answers an item offers, and refuses a key the queue does not hold', async () => {
      const ambiguous = await reviewItem('flag:14:ambiguous-target');
      expect((await answer(ambiguous.key, { answer: 'record' })).status).toBe(400);
      // "Accept" on a vote Votal could not place would count nothing: it is not offered.
      expect((await answer(ambiguous.key, { answer: 'accept' })).status).toBe(400);
      expect((await answer(ambiguous.key, { answer: 'correct', target: 'Nobody At All' })).status).toBe(400);
      const news = (await queue()).items.find((i) => i.source === 'news');
      if (news) expect((await answer(news.key, { answer: 'accept' })).status).toBe(400);
      expect((await answer('0'.repeat(16), { answer: 'dismiss' })).status).toBe(404);
      expect((await answer('not-a-key', { answer: 'dismiss' })).status).toBe(400);
      const edit = await reviewItem('edit:2');
      expect((await answer(edit.key, { answer: 'correct', target: 'Carol' })).status).toBe(201);
      expect((await store.events.list(game.id)).map((e) => e.event)).toContainEqual({
        kind: 'correct',
        post: 2,
        target: 'Carol',
      });
    });

    it('keeps a loose reading through the queue as the dashboard does: accepted under its review key', async () => {
      const loose = await reviewItem('loose:1:Eve:Carl:Carol');
      const res = await answer(loose.key, { answer: 'accept' });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ source: 'review', answer: 'accept' });
      const accepted = await store.audit.list({ gameId: game.id, action: 'review.accept' });
      expect(accepted.map((a) => a.detail)).toContainEqual({ key: 'loose:1:Eve:Carl:Carol', post: loose.post });
      expect((await reviewItem('loose:1:Eve:Carl:Carol')).resolved).toBe('Accepted by the GM');
    });
  });
}
