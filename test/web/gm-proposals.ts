/**
 * What the GM's own counts propose, answered with one click through the JSON API and the
 * GM's game page (issue #24), on each driver (gm-proposals.pglite.test.ts,
 * gm-proposals.postgres.test.ts): the standard game (real XenForo 2 markup from the stand-in
 * forum) with an eighth player, Gina, who never posts, and three counts of the GM's after it.
 * #23 and #24 say "With 8 alive, it takes 4 to lynch", which the ruleset's majority (5 of 8)
 * cannot give: half the living, rounded up, is proposed as the game's threshold. #25 says
 * "With 7 alive" and leaves Gina off entirely: her death is proposed. Accepted, the threshold
 * is the game's ruleset override (audited), the count is refolded under it and the proposal
 * is gone; recorded, Gina's death is a `kill` event (audited) and the proposal is gone.
 * The GM's one queue (`GET /api/games/:id/queue`) lists both, answered there alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeForum } from '../../src/fake-forum/server.js';
import { pollGame, type PollDeps } from '../../src/game/poll-game.js';
import type { Game } from '../../src/model/game.js';
import type { Store } from '../../src/store/open-store.js';
import type { VotalApp } from '../../src/web/app.js';
import { countPost, PLAYERS, standardScript, withPosts } from '../game/support.js';
import type { ScriptNode } from '../support/game-script.js';
import { FORM, form, O, signIn } from '../ui/sign-in.js';
import { gmChecksOf } from './gm-api.js';
import { closeGame, polledGame } from './polled-game.js';
import { ADMIN_TOKEN } from './support.js';

const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
const NOW = new Date('2026-03-03T20:00:00Z');
const HALF = { kind: 'fraction', numerator: 1, denominator: 2 };

/** Votal's count of the standard game at post 22, with the not-voting line and the stated threshold. */
const count = (notVoting: string, stated: string): ScriptNode[] => [
  ...countPost(
    ['Bob', ' (2): Carol, Bob'],
    ['Carol', ' (1): Eve'],
    ['Frank', ' (1): Alice'],
    ['Davina', ' (1): Frank'],
    ['Eve', ' (1): Davina'],
    ['Not Voting', `: ${notVoting}`],
  ),
  { op: 'br' },
  { op: 'br' },
  { op: 'text', text: stated },
];

export function gmProposalsContract(driver: string, open: () => Promise<Store>, threadId: number): void {
  describe(`what the GM's own counts propose, one click away (${driver})`, () => {
    let forum: FakeForum;
    let store: Store;
    let game: Game;
    let app: VotalApp;
    let deps: PollDeps;

    beforeAll(async () => {
      const script = withPosts(standardScript(threadId), [
        { author: 'Moderator', body: count('Dave, Gina', 'With 8 alive, it takes 4 to lynch.') },
        { author: 'Moderator', body: count('Dave, Gina', 'With 8 alive, it takes 4 to lynch.') },
        { author: 'Moderator', body: count('Dave', 'With 7 alive, it takes 4 to lynch.') },
      ]);
      ({ forum, store, game, app, deps } = await polledGame(open, script, {
        now: () => NOW,
        roster: [...PLAYERS, 'Gina'],
      }));
    });
    afterAll(() => closeGame({ app, store, forum }));

    const checks = () => gmChecksOf(app, game.id);
    const post = (path: string, body: unknown) =>
      app.request(`${O}/api/games/${game.id}/checks/${path}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    it('offers the stated threshold and the implied death, on the API and on the GM page', async () => {
      const r = await checks();
      expect(r.thresholdProposal).toMatchObject({ overrides: { threshold: HALF }, posts: [23, 24, 25] });
      expect(r.deathProposals).toEqual([
        expect.objectContaining({
          countPost: 25,
          player: 'Gina',
          at: 24,
          text: "Your count at #25 lists 7 alive and leaves off Gina: record Gina's death?",
        }),
      ]);
      expect((await store.tallies.latest(game.id))!.tally.threshold.votes).toBe(5);
      const { cookie } = await signIn(app);
      const page = await (await app.request(`${O}/gm/games/${game.id}`, { headers: { cookie } })).text();
      expect(page).toContain('Set the game&#39;s threshold so');
      expect(page).toContain('Record Gina&#39;s death (after #24)');
    });

    it('refuses an unknown proposal and an unknown answer; no token, no answer', async () => {
      const key = (await checks()).thresholdProposal!.key;
      expect((await post('threshold/0123456789abcdef', { answer: 'accept' })).status).toBe(404);
      expect((await post(`threshold/${key}`, { answer: 'maybe' })).status).toBe(400);
      expect((await post('deaths/0123456789abcdef', { answer: 'record' })).status).toBe(404);
      const anonymous = await app.request(`${O}/api/games/${game.id}/checks/threshold/${key}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answer: 'accept' }),
      });
      expect(anonymous.status).toBe(401);
      expect((await store.games.get(game.id))!.rulesetOverrides).toEqual({});
    });

    it("accepting the threshold sets the game's ruleset overrides, audited; the refold needs 4 and nothing is proposed again", async () => {
      const key = (await checks()).thresholdProposal!.key;
      const res = await post(`threshold/${key}`, { answer: 'accept' });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ answer: 'accept', proposal: { key } });
      expect((await store.games.get(game.id))!.rulesetOverrides).toEqual({ threshold: HALF });
      const audit = await store.audit.list({ gameId: game.id, action: 'game.overrides', limit: 10 });
      expect(audit.map((a) => [a.actor, a.detail])).toEqual([
        [expect.any(String), expect.objectContaining({ key, from: {}, to: { threshold: HALF } })],
      ]);
      // The recount the change asks for (the test's poller does not poll by itself).
      expect(await pollGame(deps, game.id, { full: true })).toMatchObject({ status: 'polled', counted: true });
      expect((await store.tallies.latest(game.id))!.tally.threshold.votes).toBe(4);
      const after = await checks();
      expect(after.thresholdProposal).toBeUndefined();
      // Only #25's alive count still differs: Gina's death is not recorded yet.
      expect(
        after.counts.flatMap((c) => c.differences.filter((d) => d.kind === 'threshold').map((d) => d.text)),
      ).toEqual([
        'Your count at #25 says 7 alive and 4 to lynch; Votal has 8 alive (who Votal thinks is alive beyond yours: Gina)',
      ]);
    });

    it("recording the death on the GM's page is a kill after the compared post, audited; the proposal is gone", async () => {
      const key = (await checks()).deathProposals![0]!.key;
      const { cookie, csrf } = await signIn(app);
      const res = await app.request(`${O}/gm/games/${game.id}/checks/deaths`, {
        method: 'POST',
        headers: { cookie, origin: O, 'content-type': FORM },
        body: form({ _csrf: csrf, key, answer: 'record' }),
      });
      expect(res.status).toBe(303);
      expect((await store.events.list(game.id)).map((e) => e.event)).toContainEqual(
        expect.objectContaining({ kind: 'kill', player: 'Gina', at: 24 }),
      );
      const audit = await store.audit.list({ gameId: game.id, action: 'check.death-record', limit: 10 });
      expect(audit.map((a) => a.detail)).toEqual([expect.objectContaining({ key, player: 'Gina', at: 24 })]);
      expect(await pollGame(deps, game.id, { full: true })).toMatchObject({ status: 'polled', counted: true });
      expect((await store.tallies.latest(game.id))!.tally.players).not.toContain('Gina');
      const after = await checks();
      expect(after.deathProposals).toEqual([]);
      expect(after.counts.find((c) => c.post === 25)!.differences).toEqual([]);
    });
  });

  describe(`the counts' proposals in the GM's one queue, answered as the checks panel answers them (${driver})`, () => {
    let forum: FakeForum;
    let store: Store;
    let game: Game;
    let app: VotalApp;
    let deps: PollDeps;

    beforeAll(async () => {
      const script = withPosts(standardScript(threadId), [
        { author: 'Moderator', body: count('Dave, Gina', 'With 8 alive, it takes 4 to lynch.') },
        { author: 'Moderator', body: count('Dave, Gina', 'With 8 alive, it takes 4 to lynch.') },
        { author: 'Moderator', body: count('Dave', 'With 7 alive, it takes 4 to lynch.') },
      ]);
      ({ forum, store, game, app, deps } = await polledGame(open, script, {
        now: () => NOW,
        roster: [...PLAYERS, 'Gina'],
      }));
    });
    afterAll(() => closeGame({ app, store, forum }));

    const proposalsOf = async (): Promise<QueueItem[]> => {
      const res = await app.request(`${O}/api/games/${game.id}/queue`, { headers: auth });
      expect(res.status).toBe(200);
      const { items } = (await res.json()) as { items: QueueItem[] };
      return items.filter((i) => i.source === 'threshold' || i.source === 'death');
    };
    const answer = (key: string, body: unknown) =>
      app.request(`${O}/api/games/${game.id}/queue/${key}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    it('lists the threshold and the death once each, open, under the keys the checks give them', async () => {
      const checks = await gmChecksOf(app, game.id);
      expect(await proposalsOf()).toEqual([
        expect.objectContaining({
          source: 'threshold',
          key: checks.thresholdProposal!.key,
          post: 23,
          overrides: { threshold: HALF },
          resolved: null,
        }),
        expect.objectContaining({ source: 'death', key: checks.deathProposals![0]!.key, post: 25, player: 'Gina' }),
      ]);
    });

    it('lists what the poll kept with its count; a state an older Votal wrote, without it, is worked out', async () => {
      const { lastCount } = (await store.polls.get(game.id)).state;
      expect(lastCount!.proposals).toMatchObject({ threshold: { posts: [23, 24, 25] }, deaths: [{ player: 'Gina' }] });
      const listed = (await proposalsOf()).map((i) => i.key);
      const { proposals: _dropped, ...older } = lastCount!;
      await store.polls.mergeState(game.id, { lastCount: older });
      expect((await proposalsOf()).map((i) => i.key)).toEqual(listed);
      await store.polls.mergeState(game.id, { lastCount: lastCount! });
    });

    it('takes only the answers a proposal offers', async () => {
      const [threshold, death] = await proposalsOf();
      expect((await answer(threshold!.key, { answer: 'record' })).status).toBe(400);
      expect((await answer(death!.key, { answer: 'accept' })).status).toBe(400);
      expect((await store.games.get(game.id))!.rulesetOverrides).toEqual({});
      expect(await store.events.list(game.id)).toEqual([]);
    });

    it("accepting the threshold sets the game's overrides, audited; it leaves the queue before the recount runs", async () => {
      const [threshold] = await proposalsOf();
      const res = await answer(threshold!.key, { answer: 'accept' });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ source: 'threshold', answer: 'accept', recount: { done: false } });
      expect((await store.games.get(game.id))!.rulesetOverrides).toEqual({ threshold: HALF });
      const audit = await store.audit.list({ gameId: game.id, action: 'game.overrides', limit: 10 });
      expect(audit.map((a) => a.detail)).toEqual([expect.objectContaining({ key: threshold!.key })]);
      // The poll's kept proposals still hold it until the recount: the game's overrides settle it.
      expect((await store.polls.get(game.id)).state.lastCount!.proposals!.threshold).not.toBeNull();
      expect((await proposalsOf()).map((i) => i.source)).toEqual(['death']);
      expect(await pollGame(deps, game.id, { full: true })).toMatchObject({ status: 'polled', counted: true });
      expect((await proposalsOf()).map((i) => i.source)).toEqual(['death']);
    });

    it('recording the death through the queue is a kill after the compared post, audited; it leaves the queue', async () => {
      const [death] = await proposalsOf();
      const res = await answer(death!.key, { answer: 'record' });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({
        source: 'death',
        answer: 'record',
        event: { event: { kind: 'kill', player: 'Gina', at: 24 } },
      });
      const audit = await store.audit.list({ gameId: game.id, action: 'check.death-record', limit: 10 });
      expect(audit.map((a) => a.detail)).toEqual([expect.objectContaining({ key: death!.key, player: 'Gina' })]);
      expect(await proposalsOf()).toEqual([]);
      expect((await answer(death!.key, { answer: 'record' })).status).toBe(404);
      expect(await pollGame(deps, game.id, { full: true })).toMatchObject({ status: 'polled', counted: true });
      expect(await proposalsOf()).toEqual([]);
      expect((await store.tallies.latest(game.id))!.tally.players).not.toContain('Gina');
    });
  });
}

interface QueueItem {
  source: string;
  key: string;
  post: number;
  resolved: string | null;
}
