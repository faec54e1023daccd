import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PLAYERS } from '../../src/model/roster.js';
import type { Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { runCli } from '../cli/run-cli.js';
import { ADMIN_TOKEN, openTestStore, recordingPoller, testEnv } from './support.js';

/**
 * A roster has 500 players at most (issue #22, 6): a 60,000-player roster was accepted, and
 * every vote is matched against every name. Refused with a clear error by the API (and so the
 * dashboard, which runs the same command) and by the CLI.
 */

let store: Store;
let close: () => Promise<void>;
let app: VotalApp;
const bearer = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
const names = (n: number) => Array.from({ length: n }, (_, i) => `Player${i + 1}`);

beforeAll(async () => {
  ({ store, close } = await openTestStore('pglite'));
  app = createApp({ store, poller: recordingPoller(), env: testEnv(), rateLimit: false, pollWaitMs: 0 });
});
afterAll(async () => {
  await app?.shutdown();
  await close?.();
});

let threads = 0;
const create = (players: unknown) =>
  app.request('/api/games', {
    method: 'POST',
    headers: bearer,
    body: JSON.stringify({
      url: `https://forum.example/threads/roster.${++threads}/`,
      engine: 'xenforo2',
      ruleset: 'plurality',
      players,
    }),
  });

describe('POST /api/games and PATCH /api/games/:id', () => {
  it.each([
    [
      '60,000 names in one entry',
      [names(60_000).join(', ')],
      '60,000 players is more than a game can have (500 at most)',
    ],
    ['501 entries', names(MAX_PLAYERS + 1), 'a game has 500 players at most'],
    [
      '501 names over two entries',
      [names(300).join(', '), names(501).slice(300).join(', ')],
      '501 players is more than a game can have',
    ],
  ])('%s: 400 naming players, no game made', async (_, players, message) => {
    const before = (await store.games.list()).length;
    const res = await create(players);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain(`players: ${message}`);
    expect((await store.games.list()).length).toBe(before);
  });

  it('500 players is a game', async () => {
    expect((await create(names(MAX_PLAYERS))).status).toBe(201);
  });

  it('a PATCH to 501 players is refused and the roster stays', async () => {
    const made = (await (await create(['Ann', 'Ben'])).json()) as { id: number };
    const res = await app.request(`/api/games/${made.id}`, {
      method: 'PATCH',
      headers: bearer,
      body: JSON.stringify({ players: [names(MAX_PLAYERS + 1).join(', ')] }),
    });
    expect(res.status).toBe(400);
    expect((await store.games.get(made.id))!.roster.map((s) => s.name)).toEqual(['Ann', 'Ben']);
  });
});

describe('votal count --players', () => {
  it('501 players: exit 2 with the cap, before any fetch', async () => {
    const r = await runCli([
      'count',
      'http://127.0.0.1:9/threads/x.1/',
      '--ruleset',
      'plurality',
      '--players',
      names(MAX_PLAYERS + 1).join(','),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--players: 501 players is more than a game can have (500 at most)');
  });
});
