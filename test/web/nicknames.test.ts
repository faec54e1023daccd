/**
 * The forum's nickname book through the JSON API (issue #24), PGlite: in game A the GM's count
 * puts Dave on Eve where Dave wrote "tyler" (a name Votal cannot read); the GM accepts the
 * lesson. Game B, a later game on the same site (the stand-in forum's host) with Eve among its
 * players, reads Frank's "Vote: tyler" as Eve, shown as a nickname from game A, never as
 * exact. A game on another site knows nothing of it. The GM of B drops the nickname for B:
 * Frank's vote is Votal's to ask about again, and the book keeps it for other games.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pollGame, type PollDeps } from '../../src/game/poll-game.js';
import type { Game } from '../../src/model/game.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import {
  countPost,
  newGame,
  PLAYERS,
  serve,
  standardScript,
  testClock,
  testSource,
  vote,
  withPosts,
} from '../game/support.js';
import { gmChecksOf } from './gm-api.js';
import { FORM, form, O, signIn } from '../ui/sign-in.js';
import { ADMIN_TOKEN, recordingPoller, testEnv } from './support.js';

const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
/** The GM's count of the standard game at post 22, with Dave's #23 on Eve (as test/web/count-lessons.ts). */
const COUNT = countPost(
  ['Bob', ' (2): Carol, Bob'],
  ['Carol', ' (1): Eve'],
  ['Frank', ' (1): Alice'],
  ['Davina', ' (1): Frank'],
  ['Eve', ' (2): Davina, Dave'],
);

describe('a nickname learned in one game is known in the next on the same site', () => {
  let forum: FakeForum;
  let store: Store;
  let app: VotalApp;
  let deps: PollDeps;
  let first: Game;
  let later: number;

  beforeAll(async () => {
    forum = await startFakeForum();
    store = await openStore({ dataDir: 'memory://' });
    deps = { store, source: testSource(), now: testClock('2026-03-03T19:00:00Z').now };
    app = createApp({ store, poller: recordingPoller(), env: testEnv(), rateLimit: false, pollWaitMs: 0 });
    const script = withPosts(standardScript(7_970), [
      { author: 'Dave', body: vote('tyler') },
      { author: 'Moderator', body: COUNT },
    ]);
    first = await newGame(store, serve(forum, script), { title: 'Mini 12' });
    expect(await pollGame(deps, first.id)).toMatchObject({ status: 'polled', counted: true });
    const lesson = (await gmChecksOf(app, first.id)).lessons[0]!;
    const res = await app.request(`${O}/api/games/${first.id}/checks/lessons/${lesson.key}`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ answer: 'accept' }),
    });
    expect(await res.json()).toMatchObject({ answer: 'accept', learned: 'tyler' });
  });
  afterAll(async () => {
    await app?.shutdown();
    await store?.close();
    await forum?.close();
  });

  const create = async (url: string, slug: string): Promise<number> => {
    const res = await app.request(`${O}/api/games`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url, ruleset: 'plurality', players: PLAYERS, slug }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };
  const nicknames = async (id: number) =>
    (await (await app.request(`${O}/api/games/${id}/nicknames`, { headers: auth })).json()) as {
      nicknames: unknown[];
    };
  const eveVoters = async (id: number) =>
    (await store.tallies.latest(id))!.tally.wagons.find((w) => w.target === 'Eve')?.voters ?? [];

  it('a later game on the site knows the nickname, from the game it was learned in', async () => {
    const script = withPosts(standardScript(7_971), [{ author: 'Frank', body: vote('tyler') }]);
    later = await create(serve(forum, script), 'later-game');
    expect(await nicknames(later)).toEqual({ nicknames: [{ player: 'Eve', nickname: 'tyler', from: 'Mini 12' }] });
    expect(await store.nicknames.ofSite(new URL(forum.url('/')).hostname)).toMatchObject([
      { forumName: 'Eve', nickname: 'tyler', fromGame: first.id, fromTitle: 'Mini 12' },
    ]);
  });

  it('its count reads the nickname as the player, shown as a nickname from that game, never as exact', async () => {
    expect(await pollGame(deps, later)).toMatchObject({ status: 'polled', counted: true });
    expect(await eveVoters(later)).toContainEqual(
      expect.objectContaining({ player: 'Frank', match: 'nickname', written: 'tyler', from: 'Mini 12' }),
    );
    // The GM's page lists it with the way to drop it.
    const { cookie } = await signIn(app);
    const page = await (await app.request(`${O}/gm/games/${later}`, { headers: { cookie } })).text();
    expect(page).toContain('Nicknames known from earlier games (1)');
    expect(page).toMatch(/&quot;tyler&quot; → Eve \(nickname from game (&#39;|')Mini 12(&#39;|')\)/);
  });

  it('a game on another site knows nothing of it', async () => {
    const script = withPosts(standardScript(7_972), [{ author: 'Frank', body: vote('tyler') }]);
    const url = serve(forum, script).replace('127.0.0.1', 'localhost');
    expect(url).toContain('localhost');
    expect(await nicknames(await create(url, 'other-site'))).toEqual({ nicknames: [] });
  });

  it('the GM drops it for the game: audited, and the vote is no longer read by it', async () => {
    const bad = await app.request(`${O}/api/games/${later}/nicknames/drop`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ player: 'Eve', nickname: 'evie' }),
    });
    expect(bad.status).toBe(404);
    // On the GM's page, one click.
    const { cookie, csrf } = await signIn(app);
    const res = await app.request(`${O}/gm/games/${later}/nicknames/drop`, {
      method: 'POST',
      headers: { cookie, origin: O, 'content-type': FORM },
      body: form({ _csrf: csrf, player: 'Eve', nickname: 'tyler' }),
    });
    expect(res.status).toBe(303);
    expect(await nicknames(later)).toEqual({ nicknames: [] });
    const audit = await store.audit.list({ gameId: later, action: 'game.nickname-drop', limit: 10 });
    expect(audit.map((a) => a.detail)).toEqual([{ player: 'Eve', nickname: 'tyler', from: 'Mini 12' }]);
    expect(await pollGame(deps, later, { full: true })).toMatchObject({ status: 'polled' });
    expect((await eveVoters(later)).map((v) => v.player)).not.toContain('Frank');
    // Changing the players again does not bring it back; the book keeps it for other games.
    const players = await app.request(`${O}/api/games/${later}`, {
      method: 'PATCH',
      headers: auth,
      body: JSON.stringify({ players: PLAYERS }),
    });
    expect(players.status).toBe(200);
    expect(await nicknames(later)).toEqual({ nicknames: [] });
    expect(await store.nicknames.ofSite(new URL(forum.url('/')).hostname)).toHaveLength(1);
  });
});
