import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { cookieOf, FORM, form, O } from '../ui/sign-in.js';
import { openTestStore, recordingPoller, testEnv } from './support.js';

/**
 * The wrong-token throttle and the sign-in limit count per client as the rest of the app
 * tells clients apart (issue #22, 6): behind a reverse proxy (VOTAL_TRUST_PROXY) every
 * request comes from the proxy's one socket address, and keyed on that, one client's wrong
 * guesses locked every GM out.
 */

let store: Store;
let close: () => Promise<void>;
let app: VotalApp;
const T = 1_000_000;

beforeAll(async () => {
  ({ store, close } = await openTestStore('pglite'));
  app = createApp({
    store,
    poller: recordingPoller(),
    env: testEnv({ trustProxy: 'private' }),
    rateLimit: false,
    authRateLimit: { capacity: 3, perSecond: 0.0001, now: () => T },
    now: () => new Date(T),
  });
});
afterAll(async () => {
  await app?.shutdown();
  await close?.();
});

/** A request as our reverse proxy on loopback passes it on, for the client `from`. */
const viaProxy = (_from: string) => ({ incoming: { socket: { remoteAddress: '127.0.0.1' } } });
const headersFor = (from: string, more: Record<string, string> = {}) => ({ 'x-forwarded-for': from, ...more });

describe('behind a trusted proxy', () => {
  it('wrong admin tokens from one client do not lock out another', async () => {
    const guess = (from: string) =>
      app.request(
        `${O}/api/games`,
        { headers: headersFor(from, { authorization: 'Bearer wrong-token-guess' }) },
        viaProxy(from),
      );
    const mallory = [];
    for (let i = 0; i < 4; i++) mallory.push((await guess('203.0.113.66')).status);
    expect(mallory).toEqual([401, 401, 401, 429]);
    // Another player's GM, through the same proxy: still asked for a token, not throttled.
    expect((await guess('198.51.100.7')).status).toBe(401);
  });

  it('wrong sign-ins from one client do not lock out another', async () => {
    const signIn = async (from: string) => {
      const login = await app.request(`${O}/gm/login`, { headers: headersFor(from) }, viaProxy(from));
      const pre = cookieOf(login, 'votal_pre')!;
      return app.request(
        `${O}/gm/login`,
        {
          method: 'POST',
          body: form({ _pre: pre, secret: 'not-the-admin-token', next: '/gm' }),
          headers: headersFor(from, { cookie: `votal_pre=${pre}`, origin: O, 'content-type': FORM }),
        },
        viaProxy(from),
      );
    };
    const mallory = [];
    for (let i = 0; i < 11; i++) mallory.push((await signIn('203.0.113.66')).status);
    expect(mallory.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(mallory[10]).toBe(429);
    expect((await signIn('198.51.100.7')).status).toBe(401);
  });
});
