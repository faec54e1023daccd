import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { PageFetcher } from '../../src/fetch/page-fetcher.js';
import { pollGame } from '../../src/game/poll-game.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { FakeThread } from '../publish/fake-thread.js';
import { recordingPoller, testEnv } from '../web/support.js';
import { tempDir } from './browser-support.js';
import { form, FORM, O, signIn } from './sign-in.js';

/**
 * A GM runs a whole game from the dashboard (issue #14 items 4 and 5): deaths shown as the
 * count knows them; players, nicknames, ruleset, title and deadline changed after creation
 * (a recount where the count changes); archive; delete after a confirmation naming the game.
 */
describe('running a game from the dashboard', () => {
  let store: Store;
  let app: VotalApp;
  let forum: FakeForum;
  let thread: FakeThread;
  let session: { cookie: string; csrf: string };
  const data = tempDir('votal-ui-settings-');
  const poller = recordingPoller((id) =>
    pollGame(
      {
        store,
        source: new PageFetcher({ allowPrivateHosts: true, minIntervalMs: 0, respectRobots: false, retries: 0 }),
        now: () => new Date().toISOString(),
      },
      id,
    ).then(() => undefined),
  );

  const get = async (path: string) =>
    (await app.request(`${O}${path}`, { headers: { cookie: session.cookie } })).text();
  const post = (path: string, fields: Record<string, string>) =>
    app.request(`${O}${path}`, {
      method: 'POST',
      body: form({ _csrf: session.csrf, ...fields }),
      headers: { cookie: session.cookie, origin: O, 'content-type': FORM },
    });
  /** Posts a form, follows its redirect, returns the page it lands on. */
  const submit = async (path: string, fields: Record<string, string>): Promise<{ location: string; html: string }> => {
    const res = await post(path, fields);
    expect(res.status, await res.clone().text()).toBe(303);
    const location = res.headers.get('location')!;
    return { location, html: await get(location) };
  };
  /** The settings form as the page fills it, with some fields changed. */
  const settingsForm = async (gameId: number, changes: Record<string, string>): Promise<Record<string, string>> => {
    const html = await get(`/gm/games/${gameId}/settings`);
    const value = (id: string) => new RegExp(`id="${id}"[^>]*value="([^"]*)"`).exec(html)?.[1] ?? '';
    const players = /<textarea id="players"[^>]*>([^<]*)<\/textarea>/.exec(html)![1]!;
    const ruleset = /<select id="ruleset"[\s\S]*?<option value="([^"]+)" selected=""/.exec(html)![1]!;
    const decodeHtml = (s: string) =>
      s
        .replace(/&#39;/g, "'")
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
    return {
      title: decodeHtml(value('title')),
      ruleset,
      players: decodeHtml(players),
      pollSeconds: value('pollSeconds'),
      status: 'active',
      dayNumber: value('dayNumber'),
      deadline: value('deadline'),
      timeZone: value('timeZone'),
      everyNVotes: '5',
      everyHours: '12',
      onLMinus1: '1',
      onMajority: '1',
      onDeadline: '1',
      requestKeywords: '##votecount',
      webhookUrl: '',
      publishMethod: '',
      ...changes,
    };
  };
  const newGame = async (players = ['Alice', 'Bob', 'Carol', 'Dave']): Promise<number> => {
    const game = await store.games.create(
      { threadUrl: thread.url, engine: 'xenforo2', ruleset: 'plurality', roster: players.map((name) => ({ name })) },
      'gm',
    );
    await poller.pollNow(String(game.id));
    return game.id;
  };
  const panel = (html: string, heading: string): string =>
    new RegExp(`<h2 id="${heading}">[\\s\\S]*?</section>`).exec(html)![0];

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    forum = await startFakeForum();
    thread = new FakeThread(forum, { engine: 'xenforo2', postsPerPage: 10 });
    thread.add({ author: 'Moderator', body: '[b]Day 1 begins.[/b]' });
    thread.add({ author: 'Alice', body: '[b]Vote: Bob[/b]' });
    thread.add({ author: 'Bob', body: '[b]Vote: Alice[/b]' });
    thread.add({ author: 'Carol', body: '[b]Vote: Bob[/b]' });
    thread.add({ author: 'Dave', body: '[b]Vote: Dee[/b]' });
    thread.add({ author: 'Lurker', body: 'Just watching, [b]vote: Carol[/b]' });
    app = createApp({ store, poller, env: testEnv({ dataDir: data.path, allowPrivateHosts: true }), rateLimit: false });
    session = await signIn(app);
  });

  afterAll(async () => {
    await app.shutdown();
    await forum.close();
    await store.close();
    data.remove();
  });

  it('a kill recorded on the game page shows the player among the dead', async () => {
    const id = await newGame();
    expect(panel(await get(`/gm/games/${id}`), 'players-h')).toContain('Dead (0)');
    const { html } = await submit(`/gm/games/${id}/events`, { kind: 'kill', player: 'Dave', at: '3' });
    const players = panel(html, 'players-h');
    expect(players).toMatch(
      /<h3 id="alive-h">Alive \(3\)<\/h3><ul[^>]*>(<li><span class="chip">(Alice|Bob|Carol)<\/span><\/li>){3}<\/ul>/,
    );
    expect(players).toMatch(/<h3 id="dead-h">Dead \(1\)<\/h3><ul[^>]*><li><span class="chip">Dave<\/span><\/li><\/ul>/);
  });

  it('a replacement shows the new player in the slot, the old name beside it', async () => {
    const id = await newGame();
    const { html } = await submit(`/gm/games/${id}/events`, {
      kind: 'replace',
      player: 'Carol',
      by: 'Caroline',
      at: '2',
    });
    expect(panel(html, 'players-h')).toContain(
      '<span class="chip">Caroline</span><span class="muted"> (replaced Carol)</span>',
    );
  });

  it('players are edited as on the new-game form: a non-player removed, nicknames, one added; the count is redone', async () => {
    const id = await newGame(['Alice', 'Bob', 'Carol', 'Dave', 'Lurker']);
    expect((await store.tallies.latest(id))!.tally.wagons.map((w) => [w.target, w.total])).toEqual([
      ['Bob', 2],
      ['Alice', 1],
      ['Carol', 1],
    ]);
    const settings = await settingsForm(id, {});
    expect(settings.players).toBe('Alice\nBob\nCarol\nDave\nLurker');

    const { location, html } = await submit(`/gm/games/${id}/settings`, {
      ...settings,
      players: 'Alice\nBob\nCarol\nDave (Dee, D)\nErin',
    });
    expect(location).toBe(`/gm/games/${id}/settings`);
    expect(html).toContain('Settings saved. The game was counted again.');
    expect(html).toContain('Dave (Dee, D)\nErin</textarea>');
    const tally = (await store.tallies.latest(id))!.tally;
    expect(tally.players).toEqual(['Alice', 'Bob', 'Carol', 'Dave', 'Erin']);
    expect(tally.wagons.map((w) => [w.target, w.total])).toEqual([
      ['Bob', 2],
      ['Alice', 1],
      ['Dave', 1],
    ]);
    expect(panel(await get(`/gm/games/${id}`), 'audit-h')).toContain('Players changed: Alice, Bob, Carol, Dave, Erin');
  });

  it('saving settings without changing players, ruleset or deadline does not recount', async () => {
    const id = await newGame();
    const before = poller.calls.length;
    const { html } = await submit(`/gm/games/${id}/settings`, await settingsForm(id, {}));
    expect(html).toContain('Settings saved.');
    expect(html).not.toContain('counted again');
    expect(poller.calls.length).toBe(before);
    expect((await store.audit.list({ gameId: id })).map((a) => a.action)).not.toContain('game.roster');
  });

  it('an empty player list is refused and nothing changes', async () => {
    const id = await newGame();
    const { html } = await submit(`/gm/games/${id}/settings`, await settingsForm(id, { players: '  \n' }));
    expect(html).toContain('Name at least one player.');
    expect((await store.games.get(id))!.roster.map((s) => s.name)).toEqual(['Alice', 'Bob', 'Carol', 'Dave']);
  });

  it('changing the ruleset recounts under the new rules and says so in the activity', async () => {
    const id = await newGame();
    const { html } = await submit(
      `/gm/games/${id}/settings`,
      await settingsForm(id, { ruleset: 'mafiascum-majority' }),
    );
    expect(html).toContain('The game was counted again.');
    expect(html).toMatch(/<option value="mafiascum-majority" selected="">/);
    expect((await store.tallies.latest(id))!.tally).toMatchObject({
      ruleset: 'mafiascum-majority',
      threshold: { kind: 'majority', votes: 3 },
    });
    const game = await get(`/gm/games/${id}`);
    expect(panel(game, 'audit-h')).toContain('Ruleset changed from plurality to mafiascum-majority (recounted)');
    expect(game).toContain('<span class="chip">mafiascum-majority</span>');
  });

  it('title, deadline and time zone are changed; the title names the game everywhere', async () => {
    const id = await newGame();
    const { html } = await submit(
      `/gm/games/${id}/settings`,
      await settingsForm(id, {
        title: 'Mafia 42 <Harbour Town>',
        deadline: '2030-03-01T20:00',
        timeZone: 'Europe/Berlin',
      }),
    );
    expect(html).toContain('Settings saved.');
    const game = (await store.games.get(id))!;
    expect(game.settings).toMatchObject({
      title: 'Mafia 42 <Harbour Town>',
      timeZone: 'Europe/Berlin',
      day: { deadline: '2030-03-01T19:00:00.000Z' },
    });
    expect(html).toContain('value="2030-03-01T20:00"');
    expect(await get(`/gm/games/${id}`)).toContain('<h1>Mafia 42 &lt;Harbour Town&gt;</h1>');
    expect(await get('/gm')).toContain('Mafia 42 &lt;Harbour Town&gt;</a>');
    // Emptied, the deadline goes: no Day clock.
    await submit(`/gm/games/${id}/settings`, await settingsForm(id, { deadline: '' }));
    expect((await store.games.get(id))!.settings.day).toBeUndefined();
  });

  it('an archived game leaves the main list, stays reachable, and comes back paused', async () => {
    const id = await newGame();
    await submit(`/gm/games/${id}/settings`, await settingsForm(id, { title: 'Old game to archive' }));
    const archived = await submit(`/gm/games/${id}/archive`, { archive: '1' });
    expect(archived.location).toBe('/gm');
    expect(archived.html).toContain('The game is archived');
    expect(archived.html).not.toContain('Old game to archive');
    expect(archived.html).toMatch(/<a href="\/gm\?archived=1">Archived games \(\d+\)<\/a>/);
    expect(await get('/gm?archived=1')).toContain(`<a href="/gm/games/${id}">Old game to archive</a>`);
    expect(await get(`/gm/games/${id}`)).toContain('<span class="chip">archived</span>');
    expect((await store.games.get(id))!.status).toBe('archived');

    const back = await submit(`/gm/games/${id}/archive`, { archive: '0' });
    expect(back.html).toContain('The game is back, paused');
    expect((await store.games.get(id))!.status).toBe('paused');
    expect(await get('/gm')).toContain('Old game to archive');
  });

  it('deleting asks for the game by name first; without it nothing is deleted', async () => {
    const id = await newGame();
    await submit(`/gm/games/${id}/settings`, await settingsForm(id, { title: 'Doomed game' }));
    const { slug } = (await store.games.get(id))!;
    const confirm = await get(`/gm/games/${id}/delete`);
    expect(confirm).toContain('<h1>Delete “Doomed game”?</h1>');
    expect(confirm).toContain(`Type the game&#39;s short name, ${slug}, to confirm`);

    for (const typed of ['', 'doomed game', `${slug}x`]) {
      const { html } = await submit(`/gm/games/${id}/delete`, { confirm: typed });
      expect(html).toContain(`Nothing was deleted: type ${slug} to confirm.`);
    }
    expect((await store.games.get(id))?.id).toBe(id);
    expect((await store.posts.postsOf(id)).length).toBe(6);
  });

  it('deleting with the confirmation removes the game and all of its data', async () => {
    const id = await newGame();
    await submit(`/gm/games/${id}/events`, { kind: 'kill', player: 'Dave', at: '3' });
    await submit(`/gm/games/${id}/settings`, await settingsForm(id, { title: 'Finished and gone' }));
    const { slug } = (await store.games.get(id))!;
    const { location, html } = await submit(`/gm/games/${id}/delete`, { confirm: slug });
    expect(location).toBe('/gm');
    expect(html).toContain('“Finished and gone” and all its data were deleted.');
    expect(await store.games.get(id)).toBeNull();
    expect(await store.posts.postsOf(id)).toEqual([]);
    expect(await store.events.list(id)).toEqual([]);
    expect(await store.tallies.latest(id)).toBeNull();
    expect(await store.audit.list({ gameId: id })).toEqual([]);
    expect((await app.request(`${O}/gm/games/${id}`, { headers: { cookie: session.cookie } })).status).toBe(404);
  });

  it('archive and delete need a session and the CSRF token', async () => {
    const id = await newGame();
    for (const path of [`/gm/games/${id}/archive`, `/gm/games/${id}/delete`]) {
      const anonymous = await app.request(`${O}${path}`, {
        method: 'POST',
        body: form({ _csrf: 'x', archive: '1' }),
        headers: { origin: O, 'content-type': FORM },
      });
      expect(anonymous.status, path).toBe(401);
      const forged = await app.request(`${O}${path}`, {
        method: 'POST',
        body: form({ _csrf: 'forged', archive: '1', confirm: 'x' }),
        headers: { cookie: session.cookie, origin: O, 'content-type': FORM },
      });
      expect(forged.status, path).toBe(403);
    }
    expect((await app.request(`${O}/gm/games/${id}/delete`)).status).toBe(303);
    expect((await store.games.get(id))!.status).toBe('active');
  });
});
