/**
 * The forum's nickname book in running games and forgetting it site-wide, through the JSON API
 * (issue #24), PGlite, on the fake forum (one host: one site).
 *
 * Game B ('Mini 13', running) has Frank's "Vote: tyler", a name Votal cannot read. Then, in
 * game A ('Mini 12'), the GM's count puts Dave on Eve where Dave wrote "tyler" and the GM
 * accepts the lesson: the site's book learns "tyler" for Eve. B's next poll, with no new post,
 * reads Frank's vote as Eve, shown as a nickname from game A. A GM invited to the instance
 * runs game C on the same forum: they see the book, A only as "another game", and cannot
 * forget A's nickname (403). The admin forgets it: gone for B and C, audited, B is polled and
 * Frank's vote is no longer counted for Eve; a finished game that read it keeps it (and its count).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pollGame, type PollDeps } from '../../src/game/poll-game.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { countPost, PLAYERS, serve, standardScript, testClock, testSource, vote, withPosts } from '../game/support.js';
import { gmChecksOf } from './gm-api.js';
import { cookieOf, FORM, form, O, signIn } from '../ui/sign-in.js';
import { ADMIN_TOKEN, recordingPoller, testEnv } from './support.js';

const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
/** The GM's count of the standard game at post 22, with Dave's #23 on Eve (as test/web/nicknames.test.ts). */
const COUNT = countPost(
  ['Bob', ' (2): Carol, Bob'],
  ['Carol', ' (1): Eve'],
  ['Frank', ' (1): Alice'],
  ['Davina', ' (1): Frank'],
  ['Eve', ' (2): Davina, Dave'],
);

interface Signed {
  cookie: string;
  csrf: string;
}

describe("the site's nickname book in running games, and forgetting one for the whole forum", () => {
  let forum: FakeForum;
  let store: Store;
  let app: VotalApp;
  let deps: PollDeps;
  const poller = recordingPoller();
  let site: string;
  const ids = { a: 0, b: 0, c: 0 };
  let gm: Signed;

  const create = async (url: string, title: string, headers: Record<string, string> = auth): Promise<number> => {
    const res = await app.request(`${O}/api/games`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url, ruleset: 'plurality', players: PLAYERS, title }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };
  const frankOnEve = async (id: number) =>
    ((await store.tallies.latest(id))!.tally.wagons.find((w) => w.target === 'Eve')?.voters ?? []).find(
      (v) => v.player === 'Frank',
    );
  const book = async (headers: Record<string, string>) =>
    (await (await app.request(`${O}/api/nicknames`, { headers })).json()) as { sites: unknown[] };
  const forget = (headers: Record<string, string>, nickname = 'tyler') =>
    app.request(`${O}/api/nicknames/forget`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ site, forumName: 'Eve', nickname }),
    });

  /** A GM invited by the admin, signed in (their session, and the CSRF token the API wants). */
  const invitedGm = async (name: string): Promise<Signed> => {
    const admin = await signIn(app);
    await app.request(`${O}/gm/gms/invites`, {
      method: 'POST',
      body: form({ _csrf: admin.csrf }),
      headers: { cookie: admin.cookie, origin: O, 'content-type': FORM },
    });
    const gms = await (await app.request(`${O}/gm/gms`, { headers: { cookie: admin.cookie } })).text();
    const link = new URL(/id="invite-link"[^>]*value="([^"]+)"/.exec(gms)![1]!.replace(/&amp;/g, '&')).pathname;
    const pre = cookieOf(await app.request(`${O}${link}`), 'votal_pre')!;
    const password = `${name}-password-1`;
    const joined = await app.request(`${O}${link}`, {
      method: 'POST',
      body: form({ _pre: pre, name, password, confirm: password }),
      headers: { cookie: `votal_pre=${pre}`, origin: O, 'content-type': FORM },
    });
    const cookie = `votal_gm=${cookieOf(joined, 'votal_gm')!}`;
    const page = await (await app.request(`${O}/gm`, { headers: { cookie } })).text();
    return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(page)![1]! };
  };
  const asGm = () => ({ cookie: gm.cookie, 'x-votal-csrf': gm.csrf, 'content-type': 'application/json' });

  beforeAll(async () => {
    forum = await startFakeForum();
    site = new URL(forum.url('/')).hostname;
    store = await openStore({ dataDir: 'memory://' });
    deps = { store, source: testSource(), now: testClock('2026-03-03T19:00:00Z').now };
    app = createApp({ store, poller, env: testEnv(), rateLimit: false, pollWaitMs: 0 });
    ids.b = await create(
      serve(forum, withPosts(standardScript(7_981), [{ author: 'Frank', body: vote('tyler') }])),
      'Mini 13',
    );
    expect(await pollGame(deps, ids.b)).toMatchObject({ status: 'polled', counted: true });
    const script = withPosts(standardScript(7_980), [
      { author: 'Dave', body: vote('tyler') },
      { author: 'Moderator', body: COUNT },
    ]);
    ids.a = await create(serve(forum, script), 'Mini 12');
    expect(await pollGame(deps, ids.a)).toMatchObject({ status: 'polled', counted: true });
  });
  afterAll(async () => {
    await app?.shutdown();
    await store?.close();
    await forum?.close();
  });

  it('a running game does not read a name the book does not know', async () => {
    expect(await frankOnEve(ids.b)).toBeUndefined();
  });

  it("a nickname learned in game A is read in B's next poll, shown with its game, once audited", async () => {
    const lesson = (await gmChecksOf(app, ids.a)).lessons[0]!;
    const res = await app.request(`${O}/api/games/${ids.a}/checks/lessons/${lesson.key}`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ answer: 'accept' }),
    });
    expect(await res.json()).toMatchObject({ answer: 'accept', learned: 'tyler' });
    // No new post in B: the book alone changes its count.
    expect(await pollGame(deps, ids.b)).toMatchObject({ status: 'polled', added: 0, counted: true });
    expect(await frankOnEve(ids.b)).toMatchObject({ match: 'nickname', written: 'tyler', from: 'Mini 12' });
    expect(await pollGame(deps, ids.b)).toMatchObject({ status: 'polled', counted: false });
    const audit = await store.audit.list({ gameId: ids.b, action: 'game.nicknames', limit: 10 });
    expect(audit.map((a) => [a.actor, a.detail])).toEqual([['poller', { added: ['"tyler" → Eve'], removed: [] }]]);
  });

  it('the admin sees the whole book: each nickname with the game it came from and the games reading it', async () => {
    expect(await book(auth)).toEqual({
      sites: [
        {
          site,
          nicknames: [
            {
              forumName: 'Eve',
              nickname: 'tyler',
              fromGame: ids.a,
              fromTitle: 'Mini 12',
              learnedBy: 'gm',
              learnedAt: expect.any(String),
              readIn: [{ id: ids.b, title: 'Mini 13' }],
              forgettable: true,
            },
          ],
        },
      ],
    });
  });

  it("another GM sees their forum's book, another GM's game only as such, and cannot forget its nickname", async () => {
    gm = await invitedGm('Rhea');
    ids.c = await create(serve(forum, standardScript(7_982)), 'Rhea mini', asGm());
    expect(await book({ cookie: gm.cookie })).toEqual({
      sites: [
        {
          site,
          nicknames: [
            {
              forumName: 'Eve',
              nickname: 'tyler',
              fromGame: null,
              fromTitle: 'another game',
              learnedBy: null,
              learnedAt: expect.any(String),
              readIn: [{ id: ids.c, title: 'Rhea mini' }],
              forgettable: false,
            },
          ],
        },
      ],
    });
    const refused = await forget(asGm());
    expect(refused.status).toBe(403);
    expect(await store.nicknames.ofSite(site)).toHaveLength(1);
  });

  it('the admin forgets it: out of the book and every running roster, audited, and the games count again', async () => {
    // A finished game that read it keeps the count it ended with, and its roster.
    const finished = await create(serve(forum, standardScript(7_983)), 'Mini 9');
    const patched = await app.request(`${O}/api/games/${finished}`, {
      method: 'PATCH',
      headers: auth,
      body: JSON.stringify({ action: 'finish' }),
    });
    expect(patched.status).toBe(200);
    const res = await forget(auth);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      forgotten: { site, forumName: 'Eve', nickname: 'tyler', fromTitle: 'Mini 12' },
      games: [
        { id: ids.b, title: 'Mini 13', status: 'active' },
        { id: ids.c, title: 'Rhea mini', status: 'active' },
      ],
    });
    expect(await store.nicknames.ofSite(site)).toEqual([]);
    const siteWide = await store.audit.list({ action: 'nickname.forget', limit: 10 });
    expect(siteWide.map((a) => [a.gameId, a.actor, a.detail])).toEqual([
      [
        null,
        'gm',
        { site, forumName: 'Eve', nickname: 'tyler', fromGame: ids.a, fromTitle: 'Mini 12', games: [ids.b, ids.c] },
      ],
    ]);
    for (const id of [ids.b, ids.c]) {
      expect((await store.games.get(id))!.roster.flatMap((s) => s.nicknames ?? [])).toEqual([]);
      expect(poller.calls).toContain(String(id));
    }
    expect((await store.games.get(finished))!.roster.flatMap((s) => s.nicknames ?? [])).toEqual([
      { name: 'tyler', from: 'Mini 12' },
    ]);
    expect(await pollGame(deps, ids.b)).toMatchObject({ status: 'polled', counted: true });
    expect(await frankOnEve(ids.b)).toBeUndefined();
    // Game A keeps its own alias: a game's own names are not the book's.
    expect((await store.games.get(ids.a))!.roster.find((s) => s.name === 'Eve')!.aliases).toEqual(['tyler']);
    expect((await forget(auth)).status).toBe(404);
  });
});
