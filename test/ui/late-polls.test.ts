import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { ADMIN_TOKEN, recordingPoller, testEnv } from '../web/support.js';
import { O, signIn } from './sign-in.js';

/**
 * Issue #16: the schedule says which games are late and by how much; the GM's game list
 * and the game's JSON say it. The app's clock is fixed; each game's next poll is set
 * around it.
 */
const NOW = new Date('2026-03-04T12:00:00.000Z');
const minutesFromNow = (m: number) => new Date(NOW.getTime() + m * 60_000);

describe('late polls on the dashboard and in the API', () => {
  let store: Store;
  let app: VotalApp;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    app = createApp({
      store,
      poller: recordingPoller(),
      env: testEnv(),
      rateLimit: false,
      pollWaitMs: 0,
      now: () => NOW,
    });
    const game = async (name: string, nextPollAt: Date) => {
      const g = await store.games.create(
        {
          threadUrl: `http://127.0.0.1:9/threads/${name}.1/`,
          engine: 'xenforo2',
          ruleset: 'plurality',
          roster: [{ name: 'Alice' }, { name: 'Bob' }],
          nextPollAt,
          settings: { title: name },
        },
        'gm',
      );
      ids[name] = g.id;
      return g;
    };
    await game('waiting', minutesFromNow(-3));
    await game('on-time', minutesFromNow(2));
    const paused = await game('paused', minutesFromNow(-30));
    await store.games.setStatus(paused.id, 'paused', 'gm');
    // Its due poll started (it runs long): not late, whatever the clock says since.
    const running = await game('running', minutesFromNow(-10));
    await store.polls.started(running.id, minutesFromNow(-10).toISOString());
  });

  afterAll(async () => {
    await app.shutdown();
    await store.close();
  });

  it("the game list says 'Poll late by 3 min' on the game whose poll waits, and on no other", async () => {
    const { cookie } = await signIn(app, ADMIN_TOKEN);
    const html = await (await app.request(`${O}/gm`, { headers: { cookie } })).text();
    const rowOf = (id: number) => {
      const m = new RegExp(`<tr><th scope="row"><a href="/gm/games/${id}">[\\s\\S]*?</tr>`).exec(html);
      expect(m, `game ${id} listed`).not.toBeNull();
      return m![0];
    };
    expect(rowOf(ids.waiting!)).toContain('<div class="late">Poll late by 3 min</div>');
    for (const name of ['on-time', 'paused', 'running']) expect(rowOf(ids[name]!), name).not.toContain('late by');
  });

  it.each([
    { name: 'waiting', late: true, lateSeconds: 180, dueAt: minutesFromNow(-3).toISOString() },
    { name: 'on-time', late: false, lateSeconds: 0, dueAt: minutesFromNow(2).toISOString() },
    { name: 'paused', late: false, lateSeconds: 0, dueAt: null },
    { name: 'running', late: false, lateSeconds: 0, dueAt: minutesFromNow(-10).toISOString() },
  ])('GET /api/games/:id carries the schedule: $name', async ({ name, ...expected }) => {
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const res = await app.request(`${O}/api/games/${ids[name]}`, { headers });
    expect(res.status).toBe(200);
    const { poll } = (await res.json()) as { poll: Record<string, unknown> };
    expect({ late: poll.late, lateSeconds: poll.lateSeconds, dueAt: poll.dueAt }).toEqual(expected);
    // How late the last poll started: known only once the poller noted a start.
    if (name === 'running') expect(poll.lastLateSeconds).toEqual(expect.any(Number));
    else expect(poll.lastLateSeconds).toBeNull();
  });
});
