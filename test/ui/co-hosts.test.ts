import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gmNames } from '../../src/game/gm-news.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { ADMIN_TOKEN, recordingPoller, testEnv } from '../web/support.js';
import { tempDir } from './browser-support.js';
import { cookieOf, form, FORM, O, signIn as signInAdmin } from './sign-in.js';

/**
 * Co-hosts (issue #14): GMs invited by the instance admin, each with their own name and
 * password, each seeing only the games they own or co-host. Through the real app
 * (`app.request`), with a fake clock.
 */

const T0 = Date.UTC(2026, 2, 1, 12);
const DAY = 86_400_000;

interface Signed {
  cookie: string;
  csrf: string;
}
type Fields = Record<string, string>;

describe('co-hosts: GM accounts, invites and who sees which game', () => {
  let store: Store;
  let app: VotalApp;
  let clock = T0;
  let admin: Signed;
  const data = tempDir('votal-ui-cohosts-');
  const make = () =>
    createApp({
      store,
      poller: recordingPoller(),
      env: testEnv({ dataDir: data.path }),
      rateLimit: false,
      pollWaitMs: 0,
      now: () => new Date(clock),
    });

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    const first = make();
    admin = await signInAdmin(first);
    await first.shutdown();
  });
  // An app per case: each has its own sign-in limit (10 forms, then a wait), as a server would.
  beforeEach(() => {
    app = make();
  });
  afterEach(async () => {
    await app.shutdown();
  });
  afterAll(async () => {
    await store.close();
    data.remove();
  });

  const post = (on: VotalApp, path: string, who: Signed, fields: Fields = {}) =>
    on.request(`${O}${path}`, {
      method: 'POST',
      body: form({ _csrf: who.csrf, ...fields }),
      headers: { cookie: who.cookie, origin: O, 'content-type': FORM },
    });
  const page = async (path: string, who: Signed, on = app) => {
    const res = await on.request(`${O}${path}`, { headers: { cookie: who.cookie } });
    return { status: res.status, html: await res.text() };
  };
  /** The admin makes an invite link; it is shown once on the GMs' page. */
  const inviteLink = async (): Promise<string> => {
    expect((await post(app, '/gm/gms/invites', admin)).status).toBe(303);
    const { html } = await page('/gm/gms', admin);
    return new URL(/id="invite-link"[^>]*value="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&')).pathname;
  };
  /** Opens an invite link and takes it; the answer is the raw response. */
  const takeInvite = async (path: string, name: string, password: string, on = app): Promise<Response> => {
    const opened = await on.request(`${O}${path}`);
    const pre = cookieOf(opened, 'votal_pre') ?? 'none';
    return on.request(`${O}${path}`, {
      method: 'POST',
      body: form({ _pre: pre, name, password, confirm: password }),
      headers: { cookie: `votal_pre=${pre}`, origin: O, 'content-type': FORM },
    });
  };
  const sessionOf = async (res: Response, on = app): Promise<Signed> => {
    const cookie = `votal_gm=${cookieOf(res, 'votal_gm')!}`;
    const { html } = await page('/gm', { cookie, csrf: '' }, on);
    return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(html)![1]! };
  };
  const join = async (name: string, password = `${name}-password-1`): Promise<Signed> => {
    const res = await takeInvite(await inviteLink(), name, password);
    expect(res.status).toBe(303);
    return sessionOf(res);
  };
  const signInAs = async (name: string, secret: string, on = app): Promise<Response> => {
    const login = await on.request(`${O}/gm/login`);
    const pre = cookieOf(login, 'votal_pre')!;
    return on.request(`${O}/gm/login`, {
      method: 'POST',
      body: form({ _pre: pre, name, secret, next: '/gm' }),
      headers: { cookie: `votal_pre=${pre}`, origin: O, 'content-type': FORM },
    });
  };
  let threads = 0;
  /** A game made through the JSON API with the GM's session (as the dashboard's scripts could). */
  const createGame = async (who: Signed): Promise<number> => {
    const res = await app.request(`${O}/api/games`, {
      method: 'POST',
      body: JSON.stringify({
        url: `http://127.0.0.1:9/threads/game.${++threads}/`,
        engine: 'xenforo2',
        ruleset: 'plurality',
        players: ['Ann', 'Ben'],
      }),
      headers: { cookie: who.cookie, 'x-votal-csrf': who.csrf, 'content-type': 'application/json' },
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };

  it('an invite link signs the new GM in once; used again it is refused and makes nobody', async () => {
    const link = await inviteLink();
    const first = await takeInvite(link, 'Alice', 'alice-password-1');
    expect(first.status).toBe(303);
    const alice = await sessionOf(first);
    expect((await page('/gm', alice)).html).toContain('Signed in as Alice');
    const again = await takeInvite(link, 'Mallory', 'mallory-password');
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('was used already');
    expect((await app.request(`${O}${link}`)).status).toBe(410);
    expect(await store.gms.credentials('Mallory')).toBeNull();
  });

  it('an expired invite is refused', async () => {
    const link = await inviteLink();
    clock += 7 * DAY;
    try {
      expect((await app.request(`${O}${link}`)).status).toBe(410);
      const res = await takeInvite(link, 'Latecomer', 'late-password-1');
      expect(res.status).toBe(410);
      expect(await res.text()).toContain('has expired');
      expect(await store.gms.credentials('Latecomer')).toBeNull();
    } finally {
      clock = T0;
    }
  });

  it('a revoked invite is refused', async () => {
    const link = await inviteLink();
    const id = (await store.gms.invites())[0]!.id;
    expect((await post(app, `/gm/gms/invites/${id}/revoke`, admin)).status).toBe(303);
    expect((await takeInvite(link, 'Revoked', 'revoked-password')).status).toBe(410);
  });

  it('a name already taken (ignoring case) or a short password is refused, and the link still works', async () => {
    await join('Taken');
    const link = await inviteLink();
    expect((await takeInvite(link, 'taken', 'another-password')).status).toBe(409);
    expect((await takeInvite(link, 'Short', 'short')).status).toBe(400);
    expect((await takeInvite(link, 'Fresh', 'fresh-password-1')).status).toBe(303);
  });

  it('a GM signs in with name and password; a wrong password is refused and counted like any sign-in', async () => {
    await join('Dora', 'dora-password-1');
    expect((await signInAs('dora', 'dora-password-1')).status).toBe(303);
    // The sign-in limit of a fresh app, on its (fake, stopped) clock: 10 attempts, then a wait.
    const limited = make();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await signInAs('Dora', `wrong-password-${i}`, limited)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    clock += 5_000; // one more attempt every 5 s
    try {
      expect((await signInAs('Dora', 'dora-password-1', limited)).status).toBe(303);
    } finally {
      clock = T0;
    }
    const failed = await store.audit.list({ action: 'gm.login-failed', limit: 20 });
    expect(failed.filter((e) => e.detail.gm === 'Dora')).toHaveLength(10);
    await limited.shutdown();
  });

  it('a session survives a restart: a new app on the same store knows the cookie', async () => {
    const erin = await join('Erin');
    // The store keeps the session id's SHA-256, never the id itself.
    const id = erin.cookie.split('=')[1]!;
    const held = async (value: string) =>
      (await store.sql.query<{ n: number }>('SELECT count(*) AS n FROM gm_session WHERE id_hash = $1', [value]))
        .rows[0]!.n;
    expect(await held(id)).toBe(0);
    expect(await held(createHash('sha256').update(id).digest('hex'))).toBe(1);
    const restarted = make();
    try {
      const { status, html } = await page('/gm', erin, restarted);
      expect(status).toBe(200);
      expect(html).toContain('Signed in as Erin');
      expect((await post(restarted, '/gm/logout', erin)).status).toBe(303);
      expect((await page('/gm', erin)).status).toBe(303); // signed out everywhere
    } finally {
      await restarted.shutdown();
    }
  });

  it('a session ends after 12 hours unused', async () => {
    const fay = await join('Fay');
    clock += 12 * 3600_000 + 1;
    try {
      expect((await page('/gm', fay)).status).toBe(303);
    } finally {
      clock = T0;
    }
  });

  it('audit entries name the GM who acted: gm:<name>', async () => {
    const gina = await join('Gina');
    const id = await createGame(gina);
    const settings = await post(app, `/gm/games/${id}/settings`, gina, { title: 'Gina’s game', timeZone: 'UTC' });
    expect(settings.status).toBe(303);
    const event = await post(app, `/gm/games/${id}/events`, gina, { kind: 'kill', player: 'Ann', at: '0' });
    expect(event.status).toBe(303);
    const entries = await store.audit.list({ gameId: id });
    const actors = Object.fromEntries(entries.map((e) => [e.action, e.actor]));
    expect(actors).toMatchObject({
      'game.create': 'gm:Gina',
      'game.owner': 'gm:Gina',
      'game.settings': 'gm:Gina',
      'event.append': 'gm:Gina',
    });
    const logins = await store.audit.list({ action: 'gm.login', limit: 50 });
    expect(logins.some((e) => e.actor === 'gm:admin')).toBe(true);
  });

  it('a GM sees only the games they own or co-host: another game is 404 everywhere and off the lists', async () => {
    const [hal, ivy] = [await join('Hal'), await join('Ivy')];
    const halGame = await createGame(hal);
    const draft = await store.drafts.create(
      {
        gameId: halGame,
        tallyId: (
          await store.tallies.save(halGame, {
            engine: 'xenforo2',
            ruleset: 'plurality',
            day: 1,
            postsRead: 0,
            asOfPost: null,
            living: 2,
            players: ['Ann', 'Ben'],
            threshold: { kind: 'plurality', votes: null },
            wagons: [],
            notVoting: ['Ann', 'Ben'],
            violations: [],
            flags: [],
            outcome: { status: 'open', eliminated: [], decidedAt: null, leaders: [] },
          })
        ).id,
        dialect: 'bbcode',
        body: 'Votal',
      },
      'gm:Hal',
    );
    expect((await page(`/gm/games/${halGame}`, hal)).status).toBe(200);
    const pages = [
      `/gm/games/${halGame}`,
      `/gm/games/${halGame}/settings`,
      `/gm/games/${halGame}/delete`,
      `/gm/drafts/${draft.id}`,
    ];
    for (const path of pages) {
      expect({ path, status: (await page(path, ivy)).status }).toEqual({ path, status: 404 });
    }
    expect((await post(app, `/gm/games/${halGame}/poll`, ivy)).status).toBe(404);
    expect((await post(app, `/gm/drafts/${draft.id}/discard`, ivy)).status).toBe(404);
    expect((await page('/gm', ivy)).html).not.toContain(`/gm/games/${halGame}"`);
    const api = (path: string, init: RequestInit = {}) =>
      app.request(`${O}/api${path}`, {
        ...init,
        headers: { cookie: ivy.cookie, 'x-votal-csrf': ivy.csrf, 'content-type': 'application/json' },
      });
    const missing = await api('/games/999999');
    const routes = [`/games/${halGame}`, `/games/${halGame}/tally`, `/games/${halGame}/audit`, `/drafts/${draft.id}`];
    for (const path of routes) {
      const res = await api(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    // Told apart from a game that does not exist by nothing but the number in the message.
    expect(Object.keys(await (await api(`/games/${halGame}`)).json())).toEqual(Object.keys(await missing.json()));
    const patched = await api(`/games/${halGame}`, { method: 'PATCH', body: JSON.stringify({ title: 'mine now' }) });
    expect(patched.status).toBe(404);
    expect((await api(`/drafts/${draft.id}/approve`, { method: 'POST', body: '{}' })).status).toBe(404);
    const listed = (await (await api('/games')).json()) as { games: { id: number }[] };
    expect(listed.games.map((g) => g.id)).not.toContain(halGame);
    // The admin (signed in, or with the token) sees it.
    expect((await page(`/gm/games/${halGame}`, admin)).status).toBe(200);
    const bearer = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const withToken = await app.request(`${O}/api/games/${halGame}`, { headers: bearer });
    expect(withToken.status).toBe(200);
  });

  it('the owner adds a co-host by name and removes them; a co-host runs the game but adds nobody', async () => {
    const [jo, kim, lee] = [await join('Jo'), await join('Kim'), await join('Lee')];
    const id = await createGame(jo);
    expect((await page(`/gm/games/${id}`, kim)).status).toBe(404);
    expect((await post(app, `/gm/games/${id}/cohosts`, jo, { name: 'kim' })).status).toBe(303);
    const settings = await page(`/gm/games/${id}/settings`, jo);
    expect(settings.html).toContain('Kim — co-host');
    expect((await page(`/gm/games/${id}`, jo)).html).toContain('Co-host added: Kim <span class="muted">— gm:Jo');
    expect(settings.html).toContain('Kim co-hosts this game.');
    expect((await page(`/gm/games/${id}`, kim)).status).toBe(200);
    expect((await page('/gm', kim)).html).toContain(`/gm/games/${id}"`);
    // A co-host runs the game (their name in the audit) but does not choose who else does.
    expect((await post(app, `/gm/games/${id}/poll`, kim)).status).toBe(303);
    await post(app, `/gm/games/${id}/cohosts`, kim, { name: 'Lee' });
    expect(await store.gms.roleIn(id, (await store.gms.credentials('Lee'))!.id)).toBeNull();
    expect((await page(`/gm/games/${id}`, lee)).status).toBe(404);
    // An unknown name is said so, and nothing changes.
    await post(app, `/gm/games/${id}/cohosts`, jo, { name: 'Nobody' });
    expect((await page(`/gm/games/${id}/settings`, jo)).html).toContain('No GM is called &quot;Nobody&quot;');
    // Deleting the game is the owner's call: a co-host is refused on the page and in the API.
    const slug = (await store.games.get(id))!.slug;
    const kimSettings = (await page(`/gm/games/${id}/settings`, kim)).html;
    expect(kimSettings).not.toContain(`/gm/games/${id}/delete`);
    expect(kimSettings).toContain('Only the owner of this game or the instance admin can delete it.');
    expect((await page(`/gm/games/${id}/settings`, jo)).html).toContain(`/gm/games/${id}/delete`);
    expect((await page(`/gm/games/${id}/delete`, kim)).status).toBe(403);
    expect((await post(app, `/gm/games/${id}/delete`, kim, { confirm: slug })).status).toBe(403);
    const viaApi = await app.request(`${O}/api/games/${id}?confirm=${slug}`, {
      method: 'DELETE',
      headers: { cookie: kim.cookie, 'x-votal-csrf': kim.csrf },
    });
    expect(viaApi.status).toBe(403);
    expect(await store.games.get(id)).not.toBeNull();
    expect((await page(`/gm/games/${id}/delete`, jo)).status).toBe(200);
    const kimId = (await store.gms.credentials('Kim'))!.id;
    expect((await post(app, `/gm/games/${id}/cohosts/${kimId}/remove`, jo)).status).toBe(303);
    expect((await page(`/gm/games/${id}`, kim)).status).toBe(404);
    const audit = await store.audit.list({ gameId: id });
    expect(
      audit.filter((e) => e.action.startsWith('game.cohost')).map((e) => [e.action, e.actor, e.detail.gm]),
    ).toEqual([
      ['game.cohost-remove', 'gm:Jo', 'Kim'],
      ['game.cohost-add', 'gm:Jo', 'Kim'],
    ]);
  });

  it("a co-host added with their forum name is a host of the game: their posts are the hosts' (issue #24)", async () => {
    const [ann, bea] = [await join('Ann'), await join('Bea')];
    const id = await createGame(ann);
    expect((await post(app, `/gm/games/${id}/cohosts`, ann, { name: 'Bea', forum: 'BeaOnTheForum' })).status).toBe(303);
    const game = (await store.games.get(id))!;
    expect(game.settings.cohostForumNames).toEqual({ Bea: 'BeaOnTheForum' });
    // Whoever opened the thread stays the GM; the co-host's forum name joins them.
    expect(gmNames(game.settings, [{ number: 1, author: 'Opener' }])).toEqual(['Opener', 'BeaOnTheForum']);
    const settings = (await page(`/gm/games/${id}/settings`, ann)).html;
    expect(settings).toContain('on the forum: BeaOnTheForum');
    expect((await store.audit.list({ gameId: id, action: 'game.settings' })).map((a) => a.detail)).toContainEqual({
      cohostForumNames: { gm: 'Bea', forum: 'BeaOnTheForum' },
    });
    const beaId = (await store.gms.credentials('Bea'))!.id;
    // Their forum name changes on its own form (the owner's or the admin's, not the co-host's).
    expect(settings).toContain(`action="/gm/games/${id}/cohosts/${beaId}/forum"`);
    await post(app, `/gm/games/${id}/cohosts/${beaId}/forum`, bea, { forum: 'Mallory' });
    expect((await store.games.get(id))!.settings.cohostForumNames).toEqual({ Bea: 'BeaOnTheForum' });
    expect((await post(app, `/gm/games/${id}/cohosts/${beaId}/forum`, ann, { forum: 'BeaToo' })).status).toBe(303);
    expect((await store.games.get(id))!.settings.cohostForumNames).toEqual({ Bea: 'BeaToo' });
    // The change recounts at once: the poll it asked for did not finish in this test's 0 s wait, and the GM is told.
    expect((await page(`/gm/games/${id}/settings`, ann)).html).toContain(
      'Bea is BeaToo on the forum. Their posts as BeaToo are the hosts&#39;. Recount: the poll is queued',
    );
    // An id the id rule refuses is no co-host: 404, as for every route.
    expect((await post(app, `/gm/games/${id}/cohosts/0${beaId}/forum`, ann, { forum: 'X' })).status).toBe(404);
    expect((await post(app, `/gm/games/${id}/cohosts/${beaId}/remove`, ann)).status).toBe(303);
    expect((await store.games.get(id))!.settings.cohostForumNames).toBeUndefined();
    expect((await page(`/gm/games/${id}`, bea)).status).toBe(404);
  });

  it('only the instance admin reaches the GMs page; to a GM it does not exist', async () => {
    const max = await join('Max');
    expect((await page('/gm/gms', max)).status).toBe(404);
    expect((await post(app, '/gm/gms/invites', max)).status).toBe(404);
    expect((await page('/gm/gms', admin)).html).toContain('Max');
  });

  it('a revoked GM is signed out and cannot sign in again', async () => {
    const ned = await join('Ned', 'ned-password-1');
    const id = (await store.gms.credentials('Ned'))!.id;
    expect((await post(app, `/gm/gms/${id}/revoke`, admin)).status).toBe(303);
    expect((await page('/gm', ned)).status).toBe(303);
    expect((await signInAs('Ned', 'ned-password-1')).status).toBe(401);
  });

  it('the API with a GM session needs the session CSRF token for a change', async () => {
    const oz = await join('Oz');
    const id = await createGame(oz);
    const patch = (headers: Record<string, string>) =>
      app.request(`${O}/api/games/${id}`, {
        method: 'PATCH',
        body: JSON.stringify({ title: 'x' }),
        headers: { cookie: oz.cookie, 'content-type': 'application/json', ...headers },
      });
    expect((await patch({})).status).toBe(403);
    expect((await patch({ 'x-votal-csrf': 'wrong' })).status).toBe(403);
    expect((await patch({ 'x-votal-csrf': oz.csrf })).status).toBe(200);
    // Without a session or a token: 401 as before.
    expect((await app.request(`${O}/api/games/${id}`)).status).toBe(401);
  });
});
