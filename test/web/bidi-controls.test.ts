import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { startHttpServer } from '../../src/web/server.js';
import { O, signIn } from '../ui/sign-in.js';
import { SseClient } from './sse-client.js';
import { eventually, openTestStore, recordingPoller, sampleTally, testEnv } from './support.js';

/**
 * Bidi and invisible controls from the forum never reach a page (issue #22, 4). The second
 * attack named a player "Bob" + U+202E + "ecila": the live page and its fragment printed it
 * raw, and every name after it on the line read reversed. Now every page and fragment leaves
 * without them (ui/security.ts), the event stream carries ids only, and webhooks and votal
 * dialects strip them too (test/notify/webhook.test.ts, test/votal/render-votal.test.ts).
 */

const CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;
const SPOOF = 'Bob\u202Eecila';
const ISOLATED = '\u2067Dana\u2069\u200F';
const MARKED = 'E\u061Cve\u200E\u202A';

let store: Store;
let close: () => Promise<void>;
let app: VotalApp;
let slug: string;
let gameId: number;
let draftId: number;

beforeAll(async () => {
  ({ store, close } = await openTestStore('pglite'));
  app = createApp({ store, poller: recordingPoller(), env: testEnv(), rateLimit: false, pollWaitMs: 0 });
  const players = [SPOOF, ISOLATED, MARKED, 'Carol'];
  const game = await store.games.create(
    {
      threadUrl: 'https://forum.example/threads/bidi.1/',
      engine: 'xenforo2',
      ruleset: 'plurality',
      roster: players.map((name) => ({ name })),
      settings: { title: `Game of ${SPOOF}` },
    },
    'test',
  );
  ({ slug, id: gameId } = game);
  const tally = await store.tallies.save(
    game.id,
    sampleTally({
      players,
      wagons: [
        {
          target: SPOOF,
          votes: 2,
          penalty: 0,
          total: 2,
          voters: [
            { player: ISOLATED, post: 2, weight: 1, permalink: null },
            { player: MARKED, post: 3, weight: 1, permalink: null },
          ],
          toThreshold: null,
        },
      ],
      notVoting: [SPOOF, 'Carol'],
      flags: [{ post: 4, player: MARKED, kind: 'unknown-target', raw: `vote: ${SPOOF}`, candidates: [SPOOF] }],
      outcome: { status: 'open', eliminated: [], decidedAt: null, leaders: [SPOOF] },
    }),
  );
  draftId = (
    await store.drafts.create(
      { gameId: game.id, tallyId: tally.id, dialect: 'bbcode-xenforo', body: `[b]${SPOOF}[/b]` },
      'test',
    )
  ).id;
});
afterAll(async () => {
  await app?.shutdown();
  await close?.();
});

describe('pages show forum names without bidi or invisible controls', () => {
  const shown = async (path: string, cookie?: string): Promise<string> => {
    const res = await app.request(`${O}${path}`, cookie ? { headers: { cookie } } : {});
    expect(res.status, path).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    return res.text();
  };

  it.each([
    ['the live page', () => `/g/${slug}`],
    ['its fragment', () => `/g/${slug}/fragment`],
  ])('%s', async (_, path) => {
    const html = await shown(path());
    expect(html).toContain('Bobecila');
    expect(html).toContain('Dana');
    expect(html).not.toMatch(CONTROLS);
  });

  it.each([
    ['the game page', () => `/gm/games/${gameId}`],
    ['the settings page', () => `/gm/games/${gameId}/settings`],
    ['the draft page', () => `/gm/drafts/${draftId}`],
    ['the games list', () => '/gm'],
  ])('the dashboard: %s', async (_, path) => {
    const gm = await signIn(app);
    const html = await shown(path(), gm.cookie);
    expect(html).toContain('Bobecila');
    expect(html).not.toMatch(CONTROLS);
  });
});

describe('the event stream', () => {
  it('carries ids and states only: no name reaches it', async () => {
    const server = await startHttpServer(app, { host: '127.0.0.1', port: 0 });
    try {
      const sse = await SseClient.open(`${server.url}/g/${slug}/events`);
      await eventually(() => sse.frames.some((f) => f.event === 'hello'), 10_000, 'the hello frame');
      const hello = sse.frames.find((f) => f.event === 'hello')!;
      expect(JSON.parse(hello.data)).toMatchObject({ slug, status: 'active' });
      expect(sse.frames.map((f) => f.data).join('\n')).not.toMatch(CONTROLS);
      await sse.close();
    } finally {
      await server.close();
    }
  });
});
