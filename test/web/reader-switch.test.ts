import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { form, FORM, O, signIn } from '../ui/sign-in.js';
import { ADMIN_TOKEN, describePg, openTestStore, recordingPoller, testEnv } from './support.js';

/**
 * The reader switch through the web (issue #26): the thin API routes
 * (`/api/games/:id/generic/switch`, `.../switch-back`, `reader` in `GET .../generic`) and
 * the dashboard's button, over the commands (src/app/reader-switch.ts; their rules and the
 * whole path over the stand-in forum are test/app/reader-switch.test.ts). The poll's offer is
 * set as the poll sets it (the poll fact `genericOffer`); polls are only recorded here.
 */

function webSuite(driver: 'pglite' | 'pg'): void {
  let store: Store;
  let close: () => Promise<void>;
  let app: VotalApp;
  const poller = recordingPoller();
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const call = async (method: string, path: string, status: number) => {
    const res = await app.request(path, { method, headers: auth });
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as Record<string, unknown> & { reader: Record<string, unknown>; error?: string };
  };
  let n = 0;
  const newGame = async () => {
    const res = await app.request('/api/games', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        url: `https://forum.example/threads/mafia-${driver}.${++n}/`,
        ruleset: 'plurality',
        players: ['Alice', 'Bob'],
        engine: 'xenforo2',
      }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };

  beforeAll(async () => {
    ({ store, close } = await openTestStore(driver));
    app = createApp({ store, poller, env: testEnv(), pollWaitMs: 0 });
  });
  afterAll(async () => {
    await app?.shutdown();
    await close?.();
  });

  it('the API switches only what a poll offered, and back; each answer says where the reader stands', async () => {
    const id = await newGame();
    expect((await call('GET', `/api/games/${id}/generic`, 200)).reader).toEqual({
      offer: null,
      switchedFrom: null,
      canSwitchBack: false,
      adapterName: null,
    });
    const refused = await call('POST', `/api/games/${id}/generic/switch`, 409);
    expect(refused.error).toMatch(/offered only when the engine's adapter finds no posts/);
    await call('POST', `/api/games/${id}/generic/switch-back`, 409);

    await store.polls.mergeState(id, { genericOffer: 'xenforo2' });
    expect((await call('GET', `/api/games/${id}/generic`, 200)).reader).toMatchObject({
      offer: 'xenforo2',
      adapterName: 'XenForo 2',
    });
    const polls = poller.calls.length;
    const switched = await call('POST', `/api/games/${id}/generic/switch`, 200);
    expect(switched).toMatchObject({
      engine: 'generic',
      generic: { state: 'unread' },
      reader: { offer: null, canSwitchBack: true, switchedFrom: { engine: 'xenforo2' } },
    });
    expect(poller.calls.slice(polls)).toEqual([String(id)]);
    await call('POST', `/api/games/${id}/generic/switch`, 409);

    const back = await call('POST', `/api/games/${id}/generic/switch-back`, 200);
    expect(back).toMatchObject({ engine: 'xenforo2', generic: null, reader: { canSwitchBack: false, offer: null } });
    const audit = (await call('GET', `/api/games/${id}/audit?limit=50`, 200)).audit as {
      action: string;
      actor: string;
      detail: { from: string; to: string };
    }[];
    expect(audit.filter((a) => a.action === 'game.engine').map((a) => [a.actor, a.detail.from, a.detail.to])).toEqual([
      ['gm', 'generic', 'xenforo2'],
      ['gm', 'xenforo2', 'generic'],
    ]);
    await call('POST', '/api/games/999999/generic/switch', 404);
  });

  it("the GM's page shows the offer as a button that switches the game, then the way back", async () => {
    const id = await newGame();
    const session = await signIn(app);
    const page = async () => (await app.request(`${O}/gm/games/${id}`, { headers: { cookie: session.cookie } })).text();
    expect(await page()).not.toContain('data-reader-offer');

    await store.polls.mergeState(id, { genericOffer: 'xenforo2' });
    const offered = await page();
    expect(offered).toContain('data-reader-offer="xenforo2"');
    expect(offered).toContain(`action="/gm/games/${id}/generic/switch"`);
    expect(offered).toContain('Read this thread generically');

    const post = (path: string) =>
      app.request(`${O}${path}`, {
        method: 'POST',
        body: form({ _csrf: session.csrf }),
        headers: { cookie: session.cookie, origin: O, 'content-type': FORM },
      });
    expect((await post(`/gm/games/${id}/generic/switch`)).status).toBe(303);
    expect((await store.games.get(id))!.engine).toBe('generic');
    const switched = await page();
    expect(switched).not.toContain('data-reader-offer');
    expect(switched).toContain('data-reader-back="xenforo2"');
    expect(switched).toContain('Go back to the XenForo 2 adapter');
    expect(switched).toContain('Switched to the generic reader');

    expect((await post(`/gm/games/${id}/generic/switch-back`)).status).toBe(303);
    expect((await store.games.get(id))!.engine).toBe('xenforo2');
    expect(await page()).not.toContain('data-reader-back');
    // A forged form changes nothing.
    await store.polls.mergeState(id, { genericOffer: 'xenforo2' });
    const forged = await app.request(`${O}/gm/games/${id}/generic/switch`, {
      method: 'POST',
      body: form({ _csrf: 'forged' }),
      headers: { cookie: session.cookie, origin: O, 'content-type': FORM },
    });
    expect(forged.status).toBe(403);
    expect((await store.games.get(id))!.engine).toBe('xenforo2');
  });
}

describe('the reader switch through the web (PGlite)', () => webSuite('pglite'));
await describePg('the reader switch through the web (PostgreSQL)', () => webSuite('pg'));
