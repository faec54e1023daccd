/**
 * The GM's own vote counts checked, through the JSON API and the GM's game page, on each
 * driver (gm-checks.pglite.test.ts, gm-checks.postgres.test.ts): the standard game (real
 * XenForo 2 markup from the stand-in forum) with three posts of the GM's after it: a
 * count that agrees with Votal's, a count that leaves Dave on Bob after his unvote at
 * #13, and the GM's paste of a Votal draft. Marking a difference is audited and changes
 * nothing else: no event, no draft, no new count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pollGame, type PollDeps } from '../../src/game/poll-game.js';
import type { Game } from '../../src/model/game.js';
import type { GmChecks } from '../../src/model/gm-count.js';
import type { Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { countPost, newGame, serve, standardScript, testClock, testSource, withPosts } from '../game/support.js';
import { gmChecksOf } from './gm-api.js';
import { FORM, form, O, signIn } from '../ui/sign-in.js';
import { ADMIN_TOKEN, recordingPoller, testEnv } from './support.js';

const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
const NOW = new Date('2026-03-03T20:00:00Z');

/** Votal's count of the standard game at post 22 (fixtures/games/standard-game.expected.json). */
const AGREES = countPost(
  ['Bob', ' (2): Carol, Bob'],
  ['Carol', ' (1): Eve'],
  ['Frank', ' (1): Alice'],
  ['Davina', ' (1): Frank'],
  ['Eve', ' (1): Davina'],
  ['Not Voting', ' (1): Dave'],
);
/** The same, with Dave left on Bob after his unvote (post 13). */
const SLIP = countPost(
  ['Bob', ' (3): Carol, Bob, Dave'],
  ['Carol', ' (1): Eve'],
  ['Frank', ' (1): Alice'],
  ['Davina', ' (1): Frank'],
  ['Eve', ' (1): Davina'],
);
/** A Votal draft's words (far from the count: checked, it would differ), as the GM pasted it. */
const DRAFT = '[b]Vote Count 1.9[/b]\n[b]Alice[/b] (5): Bob, Carol, Dave, Eve, Frank\n[b]Bob[/b] (1): Alice';
const PASTED = countPost(
  ['Vote Count 1.9', ''],
  ['Alice', ' (5): Bob, Carol, Dave, Eve, Frank'],
  ['Bob', ' (1): Alice'],
);

export function gmChecksContract(driver: string, open: () => Promise<Store>, threadId: number): void {
  describe(`the GM's own counts checked (${driver})`, () => {
    let forum: FakeForum;
    let store: Store;
    let game: Game;
    let app: VotalApp;

    beforeAll(async () => {
      forum = await startFakeForum();
      store = await open();
      const clock = testClock('2026-03-03T19:00:00Z');
      const deps: PollDeps = { store, source: testSource(), now: clock.now };
      const script = withPosts(standardScript(threadId), [
        { author: 'Moderator', body: AGREES },
        { author: 'Moderator', body: SLIP },
        { author: 'Moderator', body: PASTED },
      ]);
      game = await newGame(store, serve(forum, script));
      expect(await pollGame(deps, game.id)).toMatchObject({ status: 'polled', counted: true });
      const tally = (await store.tallies.latest(game.id))!;
      await store.drafts.create({ gameId: game.id, tallyId: tally.id, dialect: 'bbcode', body: DRAFT }, 'gm:test');
      app = createApp({ store, poller: recordingPoller(), env: testEnv(), rateLimit: false, now: () => NOW });
    });
    afterAll(async () => {
      await app?.shutdown();
      await store?.close();
      await forum?.close();
    });

    const checks = () => gmChecksOf(app, game.id);

    it('a count that agrees reports nothing; the slip is named with its deciding post; the pasted draft is not checked', async () => {
      const r = await checks();
      expect(r.ownVotals).toEqual([25]);
      expect((r as GmChecks & { reading: { caughtUp: boolean } }).reading.caughtUp).toBe(true);
      expect(r.counts.map((c) => [c.post, c.comparedTo, c.earlier])).toEqual([
        [23, 22, 0],
        [24, 23, 0],
      ]);
      expect(r.counts[0]!.differences).toEqual([]);
      const heads = await store.posts.headsOf(game.id);
      const permalink13 = heads.find((p) => p.number === 13)!.permalink;
      expect(permalink13).toMatch(/^http/);
      expect(r.counts[1]!.differences).toEqual([
        expect.objectContaining({
          kind: 'wagon',
          text: "Your count at #24: Bob's wagon has 3, Votal counts 2: Dave is on Bob; Dave unvoted at #13",
          posts: [{ post: 13, permalink: permalink13 }],
        }),
        expect.objectContaining({
          kind: 'voter',
          player: 'Dave',
          text: 'Your count at #24: Dave is on Bob; Dave unvoted at #13',
          posts: [{ post: 13, permalink: permalink13 }],
          answer: null,
        }),
      ]);
    });

    it('is for the GM only: no token, no checks', async () => {
      expect((await app.request(`${O}/api/games/${game.id}/checks`)).status).toBe(401);
    });

    it('marking "Votal\'s error" is audited, points at the deciding post, and changes nothing else', async () => {
      const before = {
        tally: (await store.tallies.latest(game.id))!.id,
        events: (await store.events.list(game.id)).length,
        drafts: (await store.drafts.list(game.id)).length,
      };
      const key = (await checks()).counts[1]!.differences[1]!.key;
      const res = await app.request(`${O}/api/games/${game.id}/checks/${key}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ answer: 'votal-error' }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ correct: { post: 13 }, difference: { key, answer: 'votal-error' } });
      const marks = await store.audit.list({ gameId: game.id, action: 'check.mark', limit: 10 });
      expect(marks.map((m) => m.detail)).toEqual([expect.objectContaining({ key, answer: 'votal-error', post: 24 })]);
      expect((await checks()).counts[1]!.differences[1]!.answer).toBe('votal-error');
      expect({
        tally: (await store.tallies.latest(game.id))!.id,
        events: (await store.events.list(game.id)).length,
        drafts: (await store.drafts.list(game.id)).length,
      }).toEqual(before);
    });

    it('refuses an unknown answer and an unknown difference', async () => {
      const key = (await checks()).counts[1]!.differences[0]!.key;
      const post = (k: string, answer: string) =>
        app.request(`${O}/api/games/${game.id}/checks/${k}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ answer }),
        });
      expect((await post(key, 'maybe')).status).toBe(400);
      expect((await post('0123456789abcdef', 'slip')).status).toBe(404);
    });

    it("the GM's game page shows each difference with its post links and the correction it offers", async () => {
      const { cookie, csrf } = await signIn(app);
      const page = await (await app.request(`${O}/gm/games/${game.id}`, { headers: { cookie } })).text();
      expect(page).toContain('Your vote counts, checked');
      expect(page).toContain('Your count at #24: Dave is on Bob; Dave unvoted at #13');
      expect(page).toContain('Count post #13 as a vote for Bob');
      // Marking through the page's form works as through the API.
      const key = (await checks()).counts[1]!.differences[0]!.key;
      const res = await app.request(`${O}/gm/games/${game.id}/checks`, {
        method: 'POST',
        headers: { cookie, origin: O, 'content-type': FORM },
        body: form({ _csrf: csrf, key, answer: 'slip' }),
      });
      expect(res.status).toBe(303);
      expect((await checks()).counts[1]!.differences[0]!.answer).toBe('slip');
    });
  });
}
