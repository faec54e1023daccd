import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '../../src/model/post.js';
import { hashBody } from '../../src/model/post.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { createUiApp } from '../../src/web/ui/index.js';
import { Deadline } from '../../src/web/live/live-page.js';
import { deadOf, LiveRenders } from '../../src/web/live/live-render.js';
import { ADMIN_TOKEN, recordingPoller, sampleTally, testEnv } from '../web/support.js';
import { tempDir } from './browser-support.js';

/**
 * The live page's data and its rules (issues #14 and #17): it says how fresh the count is
 * and why it is stale; it is rendered once per version for every reader; the countdown
 * stops when the Day is decided; it refreshes itself without JavaScript; it lists the
 * living and the dead. Through `app.request` on embedded PGlite (no browser).
 */

const O = 'http://votal.test';
let n = 0;
const post = (author: string, text: string): Post => {
  n += 1;
  const body = [{ t: 'bold' as const, children: [{ t: 'text' as const, text }] }];
  return {
    id: String(1000 + n),
    number: n,
    page: 1,
    author,
    authorId: null,
    postedAt: new Date(Date.UTC(2026, 10, 1, 12, n)).toISOString(),
    permalink: `http://127.0.0.1:9/threads/live.1/post-${1000 + n}`,
    edit: null,
    bodyHash: hashBody(body),
    body,
  };
};

describe('live page', () => {
  let store: Store;
  let app: VotalApp;
  let gameId = 0;
  let slug = '';
  const data = tempDir('votal-live-page-');
  const deadline = '2026-12-03T12:00:00.000Z';
  // One clock for the app and the store: a wall-clock "seen at" past the deadline would end the Day.
  const NOW = '2026-12-01T12:00:00.000Z';

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    app = createApp({
      store,
      poller: recordingPoller(),
      env: testEnv({ dataDir: data.path }),
      rateLimit: false,
      pollWaitMs: 0,
      now: () => new Date(NOW),
    });
    const game = await store.games.create(
      {
        threadUrl: 'http://127.0.0.1:9/threads/live.1/',
        engine: 'xenforo2',
        ruleset: 'mafiascum-majority',
        roster: [
          { name: 'Alice' },
          { name: 'Bob' },
          { name: 'Carol' },
          { name: 'Dave' },
          { name: 'Eve' },
          { name: 'Frank' },
        ],
        settings: { day: { number: 1, start: '2026-11-01T00:00:00.000Z', deadline } },
      },
      'gm',
    );
    gameId = game.id;
    slug = game.slug;
    await store.posts.recordPage(gameId, [post('Alice', 'Vote: Bob'), post('Carol', 'Vote: Bob')], new Date(NOW));
    await store.tallies.save(
      gameId,
      sampleTally({ engine: 'xenforo2', ruleset: 'mafiascum-majority', asOfPost: 2, postsRead: 2 }),
    );
  });

  afterAll(async () => {
    await app.shutdown();
    await store.close();
    data.remove();
  });

  const page = async (path = `/g/${slug}`): Promise<string> => {
    const res = await app.request(`${O}${path}`);
    expect(res.status).toBe(200);
    return res.text();
  };
  const api = async (path: string): Promise<{ status: number; json: Record<string, unknown>; headers: Headers }> => {
    const res = await app.request(`${O}/api${path}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    return { status: res.status, json: (await res.json()) as Record<string, unknown>, headers: res.headers };
  };
  const failPoll = async (error: string) => {
    await store.polls.claim(gameId, 'test/1', 60_000);
    await store.polls.finish(gameId, 'test/1', { ok: false, error, at: new Date(NOW) });
  };
  const goodPoll = async () => {
    await store.polls.claim(gameId, 'test/2', 60_000);
    await store.polls.finish(gameId, 'test/2', { ok: true, fullRead: true, at: new Date(NOW) });
  };

  it('renders once per version, however many readers ask at once (page and fragment share it)', async () => {
    const renders = new LiveRenders();
    const ui = createUiApp(
      { store, poller: recordingPoller(), env: testEnv({ dataDir: data.path }), now: () => new Date(NOW) },
      { liveRenders: renders },
    );
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, () => ui.request(`${O}/g/${slug}/fragment`)),
      ...Array.from({ length: 5 }, () => ui.request(`${O}/g/${slug}`)),
    ]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const fragments = await Promise.all(answers.slice(0, 20).map((a) => a.text()));
    expect(new Set(fragments).size).toBe(1);
    expect(renders.renders).toBe(1);
    // A new count is a new version: one more render, again shared.
    await store.posts.recordPage(gameId, [post('Dave', 'Vote: Alice')], new Date(NOW));
    await store.tallies.save(
      gameId,
      sampleTally({ engine: 'xenforo2', ruleset: 'mafiascum-majority', asOfPost: 3, postsRead: 3 }),
    );
    await Promise.all(Array.from({ length: 10 }, () => ui.request(`${O}/g/${slug}/fragment`)));
    expect(renders.renders).toBe(2);
  });

  it('says when the count was made and, while polls fail, since when it is stale and why (page and API)', async () => {
    const fresh = await page(`/g/${slug}/fragment`);
    expect(fresh).toContain('id="freshness"');
    expect(fresh).not.toContain('Not updated since');
    await goodPoll();
    await failPoll('HTTP 503 for http://127.0.0.1:9/threads/live.1/page-2 <script>');
    await failPoll('HTTP 503 for http://127.0.0.1:9/threads/live.1/page-2 <script>');
    const stale = await page(`/g/${slug}/fragment`);
    expect(stale).toMatch(/data-stale="1"/);
    expect(stale).toContain('Not updated since');
    expect(stale).toContain('the last 2 reads of the thread failed');
    expect(stale).toContain('Last error: HTTP 503 for http://127.0.0.1:9/threads/live.1/page-2 &lt;script&gt;');

    const tally = await api(`/games/${gameId}/tally`);
    expect(tally.status).toBe(200);
    expect(tally.headers.get('x-votal-stale')).toBe('true');
    expect(tally.json.freshness).toMatchObject({
      stale: true,
      failedPolls: 2,
      error: 'HTTP 503 for http://127.0.0.1:9/threads/live.1/page-2 <script>',
    });
    expect((tally.json.freshness as { lastOkAt: string | null }).lastOkAt).toEqual(expect.any(String));
    expect(tally.json).toHaveProperty('wagons');

    await goodPoll();
    expect(await page(`/g/${slug}/fragment`)).not.toContain('Not updated since');
    expect((await api(`/games/${gameId}/tally`)).json.freshness).toMatchObject({
      stale: false,
      error: null,
      failedPolls: 0,
    });
  });

  it('a countdown runs while the Day is open and stops at a majority, the outcome shown instead (live and GM pages)', async () => {
    const open = await page();
    expect(open).toContain(`data-countdown="${deadline}"`);
    await store.posts.recordPage(gameId, [post('Eve', 'Vote: Bob'), post('Frank', 'Vote: Bob')], new Date(NOW));
    await store.tallies.save(
      gameId,
      sampleTally({ engine: 'xenforo2', ruleset: 'mafiascum-majority', asOfPost: 5, postsRead: 5 }),
    );
    const decided = await page();
    expect(decided).not.toContain('data-countdown');
    expect(decided).toMatch(/Day over\. Majority reached on Bob/);
  });

  it('the deadline part (live and GM pages alike) runs no clock once the Day is decided', async () => {
    const running = String(await Deadline({ deadline, timeZone: null }));
    expect(running).toContain(`data-countdown="${deadline}"`);
    const ended = String(await Deadline({ deadline, timeZone: null, ended: 'Majority reached on Bob at post 5.' }));
    expect(ended).not.toContain('data-countdown');
    expect(ended).toContain('Day over. Majority reached on Bob at post 5.');
  });

  it('lists the living and the dead', async () => {
    await store.events.append(gameId, { kind: 'kill', player: 'Dave', at: 0 }, 'gm');
    const html = await page(`/g/${slug}/fragment`);
    // Bob was eliminated by the majority above (issue #24: never "Bob eliminated" and Bob among the living).
    expect(/<p id="alive">([^<]*)<\/p>/.exec(html)?.[1]).toBe('Alice, Carol, Eve, Frank');
    expect(/<p id="dead">([^<]*)<\/p>/.exec(html)?.[1]).toBe('Bob, Dave');
  });

  it('the dead are the slots with no living name: a replaced slot lives on under its new name', () => {
    const roster = [
      { name: 'Bob', aliases: [], formerNames: [], alive: true },
      { name: 'Cy', aliases: ['C'], formerNames: [], alive: true },
    ];
    expect(deadOf(roster, ['Robert'], [{ kind: 'replace', player: 'Bob', by: 'Robert', at: 3 }])).toEqual(['Cy']);
    // A replacement cycle ends (each name is followed once).
    expect(
      deadOf(
        roster,
        [],
        [
          { kind: 'replace', player: 'Bob', by: 'Rob', at: 1 },
          { kind: 'replace', player: 'Rob', by: 'Bob', at: 2 },
        ],
      ),
    ).toEqual(['Bob', 'Cy']);
  });

  it('refreshes itself where no script runs', async () => {
    const html = await page();
    expect(html).toMatch(
      /<head>[\s\S]*<noscript><meta http-equiv="refresh" content="30"\/?><\/noscript>[\s\S]*<\/head>/,
    );
  });
});
