import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { reviewQueue } from '../../src/game/review-queue.js';
import { AuditAction } from '../../src/model/audit.js';
import { MAX_ROSTER_LINES } from '../../src/parse/opening-roster.js';
import { openFlags } from '../../src/votal/render-votal.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { FakeThread } from '../publish/fake-thread.js';
import { recordingPoller, sampleTally, testEnv } from '../web/support.js';
import { tempDir } from './browser-support.js';
import { form, FORM, O, signIn } from './sign-in.js';

/**
 * The GM's day on the dashboard, as a GM running a real game meets it (issue "The GM's
 * Day", smaller items): nothing chosen for the GM by default, the list of games says what
 * needs doing, activity reads as words.
 */
describe("the GM's dashboard", () => {
  let store: Store;
  let app: VotalApp;
  let forum: FakeForum;
  let thread: FakeThread;
  const data = tempDir('votal-ui-day-');
  const allowPrivate = process.env['VOTAL_ALLOW_PRIVATE_HOSTS'];
  /** The GM events stored when each game's first poll was asked for (the query starts then). */
  const eventsAtFirstPoll = new Map<string, Promise<unknown[]>>();

  beforeAll(async () => {
    process.env['VOTAL_ALLOW_PRIVATE_HOSTS'] = '1';
    store = await openStore({ dataDir: 'memory://' });
    forum = await startFakeForum();
    thread = new FakeThread(forum, { engine: 'xenforo2', postsPerPage: 10 });
    thread.add({ author: 'Moderator', body: '[b]Day 1 begins.[/b]' });
    thread.add({ author: 'Alice', body: '[b]Vote: Bob[/b]' });
    app = createApp({
      store,
      poller: recordingPoller(async (id) => {
        if (!eventsAtFirstPoll.has(id))
          eventsAtFirstPoll.set(
            id,
            store.events.list(Number(id)).then((es) => es.map((e) => e.event)),
          );
      }),
      env: testEnv({ dataDir: data.path }),
      rateLimit: false,
      pollWaitMs: 0,
    });
  });

  afterAll(async () => {
    if (allowPrivate === undefined) delete process.env['VOTAL_ALLOW_PRIVATE_HOSTS'];
    else process.env['VOTAL_ALLOW_PRIVATE_HOSTS'] = allowPrivate;
    await app.shutdown();
    await forum.close();
    await store.close();
    data.remove();
  });

  it('asks the GM to choose the ruleset, says what each one is, and keeps the GM named in the form', async () => {
    const { cookie, csrf } = await signIn(app);
    const res = await app.request(`${O}/gm/new/inspect`, {
      method: 'POST',
      body: form({ _csrf: csrf, url: thread.url, engine: '' }),
      headers: { cookie, origin: O, 'content-type': FORM },
    });
    const html = await res.text();
    expect(res.status).toBe(200);
    const select = /<select id="ruleset"[\s\S]*?<\/select>/.exec(html)![0];
    expect(select).toMatch(/<option value="" selected="" disabled="">Choose the game&#39;s rules…<\/option>/);
    expect(select.match(/selected=""/g)).toHaveLength(1);
    expect(select).toContain('<option value="witchhunt">Witchhunt (witchhunt)</option>');
    expect(html).toContain('What each ruleset is');
    expect(html).toMatch(/<dt>Witchhunt \(witchhunt\)<\/dt><dd>Witchhunt rule post by fontisian/);
    // Issue #24: the rule post says "more than half"; what Votal does short of it is said too.
    expect(html).toMatch(
      /<dt>Majority lynch \(mafiascum style\)\s*\(mafiascum-majority\)<\/dt><dd>[^<]*<p class="hint">At the deadline with no one at majority, the plurality leader is eliminated; a tie: the GM decides\.<\/p><\/dd>/,
    );

    const created = await app.request(`${O}/gm/games`, {
      method: 'POST',
      body: form({
        _csrf: csrf,
        url: thread.url,
        engine: 'xenforo2',
        ruleset: 'plurality',
        players: 'Alice\nBob\nCarol',
        gm: 'Moderator',
        day: '1',
        startPost: '0',
        timeZone: 'UTC',
        pollSeconds: '300',
      }),
      headers: { cookie, origin: O, 'content-type': FORM },
    });
    expect(created.status).toBe(303);
    const [game] = await store.games.list();
    expect(game!.settings['gm']).toBe('Moderator');
  });

  it('says when the opening post is longer than the lines read for the player list (a list there is not seen)', async () => {
    const { cookie, csrf } = await signIn(app);
    const long = new FakeThread(forum, { engine: 'xenforo2', prefix: '/long', postsPerPage: 10 });
    const rules = Array.from({ length: MAX_ROSTER_LINES }, (_, k) => `Rule ${k + 1}: be nice.`).join('\n');
    long.add({ author: 'Moderator', body: `${rules}\nPlayers:\nAlice\nBob\nCarol` });
    long.add({ author: 'Alice', body: 'Hi.' });
    const res = await app.request(`${O}/gm/new/inspect`, {
      method: 'POST',
      body: form({ _csrf: csrf, url: long.url, engine: '' }),
      headers: { cookie, origin: O, 'content-type': FORM },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(
      `Only the first ${MAX_ROSTER_LINES} lines of the opening post were read for the player list; 4 more were not: check the list against the post.`,
    );
  });

  it("proposes the opening posts' deadline rule with its sentence, unticked; only a ticked one is laid over the ruleset (issue #24)", async () => {
    const { cookie, csrf } = await signIn(app);
    const sentence = "If a majority isn't reached by the deadline, a no lynch will occur.";
    const create = async (prefix: string, accept: Record<string, string>) => {
      const rulesThread = new FakeThread(forum, { engine: 'xenforo2', prefix, postsPerPage: 10 });
      rulesThread.add({ author: 'Moderator', body: 'Players:\nAlice\nBob\nCarol' });
      rulesThread.add({ author: 'Moderator', body: `Rules (mafiascum game 1166 post #1's rule)\n${sentence}` });
      rulesThread.add({ author: 'Alice', body: 'Hi.' });
      const res = await app.request(`${O}/gm/new/inspect`, {
        method: 'POST',
        body: form({ _csrf: csrf, url: rulesThread.url, engine: '' }),
        headers: { cookie, origin: O, 'content-type': FORM },
      });
      const html = await res.text();
      const rules = /<input type="hidden" name="rules" value="([^"]*)"/.exec(html)?.[1]?.replace(/&quot;/g, '"');
      const created = await app.request(`${O}/gm/games`, {
        method: 'POST',
        body: form({
          _csrf: csrf,
          url: rulesThread.url,
          engine: 'xenforo2',
          ruleset: 'mafiascum-majority',
          players: 'Alice\nBob\nCarol',
          gm: 'Moderator',
          day: '1',
          startPost: '0',
          timeZone: 'UTC',
          pollSeconds: '300',
          rules: rules ?? '',
          ...accept,
        }),
        headers: { cookie, origin: O, 'content-type': FORM },
      });
      expect(created.status, await created.text()).toBe(303);
      return { html, game: (await store.games.list()).find((g) => g.threadUrl === rulesThread.url)! };
    };
    const ticked = await create('/rules-a', { 'accept-deadline': '1' });
    expect(ticked.html).toContain('At the deadline with no one at majority, nobody is eliminated.');
    expect(ticked.html).toContain(
      `<blockquote>If a majority isn&#39;t reached by the deadline, a no lynch will occur.</blockquote>`,
    );
    expect(ticked.html).toMatch(/<input type="checkbox" name="accept-deadline" value="1"\s*\/?>/);
    expect(ticked.game.rulesetOverrides).toEqual({ shortOfThreshold: 'no-elimination' });
    const unticked = await create('/rules-b', {});
    expect(unticked.game.rulesetOverrides).toEqual({});
  });

  it("a game that starts mid-thread holds its Day's start from its first poll on", async () => {
    const later = new FakeThread(forum, { engine: 'xenforo2', postsPerPage: 10, threadId: 4343, slug: 'day-two' });
    for (const body of ['Night 1 ends.', '[b]Vote: Alice[/b]', 'Day 2 begins.'])
      later.add({ author: 'Moderator', body });
    const { cookie, csrf } = await signIn(app);
    const created = await app.request(`${O}/gm/games`, {
      method: 'POST',
      body: form({
        _csrf: csrf,
        url: later.url,
        engine: 'xenforo2',
        ruleset: 'plurality',
        players: 'Alice\nBob\nCarol',
        gm: 'Moderator',
        day: '2',
        startPost: '3',
        timeZone: 'UTC',
        pollSeconds: '300',
      }),
      headers: { cookie, origin: O, 'content-type': FORM },
    });
    expect(created.status, await created.text()).toBe(303);
    const game = (await store.games.list()).find((g) => g.threadUrl === later.url)!;
    expect(await eventsAtFirstPoll.get(String(game.id))).toEqual([{ kind: 'day-start', day: 2, at: 3 }]);
  });

  it('lists per game what is open for review, the deadline and when it was last read', async () => {
    const game = await store.games.create(
      { threadUrl: `${thread.url}?other`, ruleset: 'plurality', roster: [{ name: 'Alice' }, { name: 'Bob' }] },
      'gm',
    );
    await store.tallies.save(
      game.id,
      sampleTally({
        flags: [
          { post: 4, player: 'Bob', kind: 'unknown-target', raw: 'vote: zed', candidates: [] },
          { post: 5, player: 'Carol', kind: 'gm-correction', raw: 'vote: al', candidates: [] },
        ],
      }),
    );
    const { cookie } = await signIn(app);
    const html = await (await app.request(`${O}/gm`, { headers: { cookie } })).text();
    expect(html).toContain('<th scope="col">To review</th>');
    expect(html).toContain(`<a class="chip" href="/gm/games/${game.id}#review">1 open</a>`);
    expect(html).toContain('not read yet');
  });

  it('says what the ruleset will decide before the GM ends the Day (issue #24: "Bob eliminated" came unannounced)', async () => {
    // Issue #24: under "Majority lynch (mafiascum style)" a Day ended short of majority
    // eliminated the plurality leader, while the form only said a player needs more than half.
    const roster = ['Alice', 'Bob', 'Carol', 'Dana', 'Eve'].map((name) => ({ name }));
    const game = await store.games.create(
      { threadUrl: `${thread.url}?day-end`, ruleset: 'mafiascum-majority', roster },
      'gm',
    );
    const voters = (...names: string[]) =>
      names.map((player, i) => ({ player, post: i + 2, weight: 1, permalink: null }));
    const wagon = (target: string, names: string[]) => ({
      target,
      votes: names.length,
      penalty: 0,
      total: names.length,
      voters: voters(...names),
      toThreshold: 3 - names.length,
    });
    const short = sampleTally({
      ruleset: 'mafiascum-majority',
      living: 5,
      players: roster.map((r) => r.name),
      threshold: { kind: 'majority', votes: 3 },
      wagons: [wagon('Bob', ['Alice', 'Carol']), wagon('Dana', ['Eve'])],
      notVoting: ['Bob', 'Dana'],
      outcome: { status: 'open', eliminated: [], decidedAt: null, leaders: ['Bob'] },
    });
    await store.tallies.save(game.id, short);
    const { cookie } = await signIn(app);
    const page = async () => (await app.request(`${O}/gm/games/${game.id}`, { headers: { cookie } })).text();
    const preview = (html: string) => /<p class="notice" id="day-end-preview">([^<]*)<\/p>/.exec(html)?.[1];
    expect(preview(await page())).toBe(
      'If the Day ends now: No one has majority; under this ruleset the plurality leader, Bob, is eliminated.',
    );
    // Once the Day is decided, the preview says so rather than guess again.
    await store.tallies.save(game.id, {
      ...short,
      outcome: { status: 'ended', eliminated: ['Bob'], decidedAt: 4, leaders: ['Bob'] },
    });
    expect(preview(await page())).toBe('If the Day ends now: The Day is already decided.');
  });

  it('shows recent activity in words, not codes', async () => {
    const [game] = await store.games.list();
    // Not only the game's creation (the one action this test once saw, which always had
    // words): what the poller records through a Day too.
    for (const action of ['poll.read', 'draft.reasons', 'poll.recover', 'tally.decided'] as const)
      await store.audit.record({ gameId: game!.id, actor: 'poller', action, detail: {} });
    const { cookie } = await signIn(app);
    const html = await (await app.request(`${O}/gm/games/${game!.id}`, { headers: { cookie } })).text();
    const activity = /<h2 id="audit-h">Recent activity<\/h2>[\s\S]*?<\/section>/.exec(html)![0];
    expect(activity).toContain('Game created');
    expect(activity).toContain('Thread read: nothing new');
    for (const code of AuditAction.options) expect(activity, code).not.toContain(code);
  });

  it('shows a discarded draft as discarded, with no empty panel of actions', async () => {
    const game = await store.games.create(
      { threadUrl: `${thread.url}?drafts`, ruleset: 'plurality', roster: [{ name: 'Alice' }] },
      'gm',
    );
    const saved = await store.tallies.save(game.id, sampleTally());
    const draft = await store.drafts.create(
      { gameId: game.id, tallyId: saved.id, dialect: 'bbcode', body: '[b]Vote count[/b]' },
      'poller',
    );
    const { cookie } = await signIn(app);
    const pending = await (await app.request(`${O}/gm/drafts/${draft.id}`, { headers: { cookie } })).text();
    expect(pending).toContain('id="draft-actions"');
    await store.drafts.discard(draft.id, 'gm');
    const html = await (await app.request(`${O}/gm/drafts/${draft.id}`, { headers: { cookie } })).text();
    expect(html).toContain('This draft was discarded: nothing was posted.');
    expect(html).not.toContain('id="draft-actions"');
    expect(html).not.toMatch(/<section class="panel"><div class="actions"><\/div><\/section>/);
  });

  it('previews an edit of a draft in place, storing nothing', async () => {
    const game = await store.games.create(
      { threadUrl: `${thread.url}?preview`, ruleset: 'plurality', roster: [{ name: 'Alice' }] },
      'gm',
    );
    const saved = await store.tallies.save(game.id, sampleTally());
    const draft = await store.drafts.create(
      { gameId: game.id, tallyId: saved.id, dialect: 'bbcode', body: '[b]Vote count[/b]' },
      'poller',
    );
    const { cookie, csrf } = await signIn(app);
    const res = await app.request(`${O}/gm/drafts/${draft.id}/preview`, {
      method: 'POST',
      body: form({ _csrf: csrf, body: '[b]Vote count[/b]\r\n[i]Edited by the GM[/i]' }),
      headers: { cookie, origin: O, 'content-type': FORM },
    });
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain('Preview of your edit: it is not saved until you save or approve it.');
    const preview = /<section class="panel" aria-labelledby="preview-h">[\s\S]*?<\/section>/.exec(html)![0];
    expect(preview).toContain('Edited by the GM');
    expect(html).toMatch(
      /<textarea id="body" name="body" rows="16">\[b\]Vote count\[\/b\]\n\[i\]Edited by the GM\[\/i\]<\/textarea>/,
    );
    expect((await store.drafts.get(draft.id))?.body).toBe('[b]Vote count[/b]');
    expect(await store.drafts.list(game.id)).toHaveLength(1);
  });

  it('serves an icon where browsers look for one', async () => {
    const res = await app.request(`${O}/favicon.ico`);
    expect(res.status).toBe(301);
    const icon = await app.request(`${O}${res.headers.get('location')!}`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toMatch(/^<svg /);
  });
});

describe('the review queue', () => {
  const ruleset = loadRuleset('plurality');
  const game = {
    roster: [
      { name: 'Alice', aliases: [], formerNames: [], alive: true },
      { name: 'Bob', aliases: [], formerNames: [], alive: true },
      { name: 'Carol', aliases: [], formerNames: [], alive: true },
    ],
  };
  const flag = { post: 4, player: 'Bob', kind: 'unknown-target' as const, raw: 'vote: zed', candidates: [] };
  const queue = (tally: ReturnType<typeof sampleTally>) =>
    reviewQueue({ game: game as never, ruleset, tally, posts: [], events: [], audit: [], previousBodies: new Map() });

  it('marks an unreadable vote moot once its voter has voted again, and leaves it out of the open count', () => {
    const later = sampleTally({
      flags: [flag],
      wagons: [
        {
          target: 'Alice',
          votes: 1,
          penalty: 0,
          total: 1,
          voters: [{ player: 'Bob', post: 9, weight: 1, permalink: null }],
          toThreshold: null,
        },
      ],
    });
    const [item] = queue(later);
    expect(item!.resolved).toBe('Moot: Bob voted again in post 9');
    expect(openFlags(later)).toEqual([]);
    const earlier = sampleTally({
      flags: [flag],
      wagons: [
        {
          target: 'Alice',
          votes: 1,
          penalty: 0,
          total: 1,
          voters: [{ player: 'Bob', post: 2, weight: 1, permalink: null }],
          toThreshold: null,
        },
      ],
    });
    expect(queue(earlier)[0]!.resolved).toBeNull();
    expect(openFlags(earlier)).toHaveLength(1);
  });
});

describe('answering a review item', () => {
  let store: Store;
  let app: VotalApp;
  const data = tempDir('votal-ui-pick-');

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    app = createApp({
      store,
      poller: recordingPoller(),
      env: testEnv({ dataDir: data.path }),
      rateLimit: false,
      pollWaitMs: 0,
    });
  });
  afterAll(async () => {
    await app.shutdown();
    await store.close();
    data.remove();
  });

  it('offers no player by default, and refuses a "Pick" with no player chosen instead of ignoring the vote', async () => {
    const game = await store.games.create(
      { threadUrl: 'http://127.0.0.1:9/t/1/', ruleset: 'plurality', roster: [{ name: 'Alice' }] },
      'gm',
    );
    await store.tallies.save(
      game.id,
      sampleTally({ flags: [{ post: 4, player: 'Bob', kind: 'unknown-target', raw: 'vote: zed', candidates: [] }] }),
    );
    const { cookie, csrf } = await signIn(app);
    const gamePage = await (await app.request(`${O}/gm/games/${game.id}`, { headers: { cookie } })).text();
    const pick = /<select id="pick-4" name="target" required="">[\s\S]*?<\/select>/.exec(gamePage)![0];
    expect(pick).toMatch(
      /^<select[^>]*><option value="" selected="" disabled="">Choose a player…<\/option><option value="Alice">/,
    );
    expect(pick.match(/selected=""/g)).toHaveLength(1);

    const res = await app.request(`${O}/gm/games/${game.id}/review`, {
      method: 'POST',
      body: form({ _csrf: csrf, post: '4', key: 'flag:4:unknown-target', action: 'correct', pick: '1', target: '' }),
      headers: { cookie, origin: O, 'content-type': FORM },
    });
    expect(res.status).toBe(303);
    expect(await store.events.list(game.id)).toEqual([]);
    const page = await (await app.request(`${O}${res.headers.get('location')!}`, { headers: { cookie } })).text();
    expect(page).toContain('Post 4: choose the player meant.');
  });

  it('offers "Dismiss", not "Accept", for a dead player\'s vote; the button dismisses it and the count stays (issue #24)', async () => {
    const game = await store.games.create(
      { threadUrl: 'http://127.0.0.1:9/t/2/', ruleset: 'plurality', roster: [{ name: 'Alice' }] },
      'gm',
    );
    const flag = { post: 6, player: 'Bob', kind: 'vote-by-dead' as const, raw: 'Vote: Alice', candidates: [] };
    const saved = await store.tallies.save(game.id, sampleTally({ flags: [flag] }));
    const { cookie, csrf } = await signIn(app);
    const gamePage = await (await app.request(`${O}/gm/games/${game.id}`, { headers: { cookie } })).text();
    const item = /<li[^>]*>(?:(?!<\/li>)[\s\S])*Vote by a dead player[\s\S]*?<\/li>/.exec(gamePage)![0];
    expect(item).toContain('Dismiss (it does not count)');
    expect(item).not.toMatch(/>Accept</);
    const res = await app.request(`${O}/gm/games/${game.id}/review`, {
      method: 'POST',
      body: form({ _csrf: csrf, post: '6', key: 'flag:6:vote-by-dead', action: 'dismiss' }),
      headers: { cookie, origin: O, 'content-type': FORM },
    });
    expect(res.status).toBe(303);
    const page = await (await app.request(`${O}${res.headers.get('location')!}`, { headers: { cookie } })).text();
    expect(page).toContain('Post 6: dismissed.');
    expect((await store.audit.list({ gameId: game.id, action: 'review.dismiss' })).map((a) => a.detail)).toEqual([
      { key: 'flag:6:vote-by-dead', post: 6 },
    ]);
    expect((await store.tallies.latest(game.id))!.id).toBe(saved.id);
  });
});
