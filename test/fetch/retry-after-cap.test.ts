import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { ThrottledError } from '../../src/fetch/errors.js';
import { MAX_RETRY_AFTER_MS } from '../../src/fetch/retry-after.js';
import { nextPollDelay } from '../../src/jobs/schedule.js';
import type { Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { O, signIn } from '../ui/sign-in.js';
import { openTestStore, recordingPoller, testEnv } from '../web/support.js';
import { recordingSleep, rejectionOf, testFetcher } from './support.js';

/**
 * A forum's Retry-After is capped (issue #22, 6): one thread's 429 asking for two hours held
 * every game on that forum for two hours. Votal waits 15 minutes at most, and the GM reads
 * on the game page that the forum asked for longer and the cap was used.
 */

let f: FakeForum;
afterEach(async () => {
  await f?.close();
});

const TWO_HOURS = 2 * 3600;

async function throttled(): Promise<ThrottledError> {
  f = await startFakeForum();
  f.route('/t/1', { status: 429, headers: { 'retry-after': String(TWO_HOURS) } });
  f.route('/t/2', { body: 'two' });
  const fetcher = testFetcher({ sleep: recordingSleep().sleep, respectRobots: false });
  const first = (await rejectionOf(fetcher.get(f.url('/t/1')))) as ThrottledError;
  // The host is held for the cap, not the two hours: another thread's page says so too.
  const held = (await rejectionOf(fetcher.get(f.url('/t/2')))) as ThrottledError;
  expect(held).toBeInstanceOf(ThrottledError);
  expect(held.retryAfterMs).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
  return first;
}

describe('a Retry-After of two hours', () => {
  it('holds the host for 15 minutes at most, keeping what the forum asked for', async () => {
    const error = await throttled();
    expect(MAX_RETRY_AFTER_MS).toBe(15 * 60_000);
    expect(error.askedMs).toBe(TWO_HOURS * 1000);
    expect(error.retryAfterMs).toBe(MAX_RETRY_AFTER_MS);
    expect(error.message).toContain(
      'Throttled by the forum: HTTP 429, Retry-After 7200 s, longer than Votal waits: trying again after 900 s (the cap)',
    );
  });

  it('puts the next poll 15 minutes away, not two hours', async () => {
    const error = await throttled();
    const delay = nextPollDelay({
      now: 0,
      intervalSeconds: 300,
      upcoming: [],
      errorsInRow: 1,
      retryAfterMs: error.retryAfterMs,
      random: () => 0.5,
    });
    expect(delay).toBe(MAX_RETRY_AFTER_MS);
  });
});

describe("the GM's game page", () => {
  let store: Store;
  let close: () => Promise<void>;
  let app: VotalApp;
  beforeAll(async () => {
    ({ store, close } = await openTestStore('pglite'));
    app = createApp({ store, poller: recordingPoller(), env: testEnv(), rateLimit: false, pollWaitMs: 0 });
  });
  afterAll(async () => {
    await app?.shutdown();
    await close?.();
  });

  it('says the forum asked for longer and the cap was used', async () => {
    const error = await throttled();
    const game = await store.games.create(
      {
        threadUrl: 'https://forum.example/threads/held.1/',
        engine: 'xenforo2',
        ruleset: 'plurality',
        roster: [{ name: 'Ann' }, { name: 'Ben' }],
      },
      'test',
    );
    // What the poller records of a failed poll: the error's message (poll-game.ts describeError).
    await store.polls.claim(game.id, 'test/1', 60_000);
    await store.polls.finish(game.id, 'test/1', { ok: false, error: error.message, at: new Date() });
    const gm = await signIn(app);
    const html = await (await app.request(`${O}/gm/games/${game.id}`, { headers: { cookie: gm.cookie } })).text();
    expect(html).toContain(
      'The last poll failed, so the count may be behind the thread: Throttled by the forum: HTTP 429, Retry-After 7200 s, longer than Votal waits: trying again after 900 s (the cap)',
    );
  });
});
