import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { draftStep } from '../../src/game/draft-step.js';
import { gameRuleset } from '../../src/game/game-ruleset.js';
import { pollSettings } from '../../src/game/poll-settings.js';
import { isKnownTimeZone, settingsProblems } from '../../src/model/game-settings.js';
import type { Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { FORM, form, O, signIn } from '../ui/sign-in.js';
import { ADMIN_TOKEN, openTestStore, recordingPoller, sampleTally, testEnv } from './support.js';

/**
 * A game's time zone is checked where it enters (issue #22, 2): `PATCH /api/games/1
 * {"timeZone":"Not/AZone"}` was stored, and afterwards no votal could be rendered while polls
 * reported success. One schema (`TimeZone`, src/model/game-settings.ts) for the API, the
 * dashboard and the check of stored rows; a stored zone that cannot render is an error on the
 * game page, and so is the draft that failed with it.
 */

let store: Store;
let close: () => Promise<void>;
let app: VotalApp;
const bearer = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

beforeAll(async () => {
  ({ store, close } = await openTestStore('pglite'));
  app = createApp({ store, poller: recordingPoller(), env: testEnv(), rateLimit: false, pollWaitMs: 0 });
});
afterAll(async () => {
  await app?.shutdown();
  await close?.();
});

let n = 0;
async function game(settings: Record<string, unknown> = {}): Promise<number> {
  n++;
  const g = await store.games.create(
    {
      threadUrl: `https://forum.example/threads/zone.${n}/`,
      engine: 'xenforo2',
      ruleset: 'plurality',
      roster: [{ name: 'Alice' }, { name: 'Bob' }, { name: 'Carol' }],
      settings,
    },
    'test',
  );
  return g.id;
}

const REFUSED = [
  'Not/AZone',
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'Europe/Berlin ',
  'A'.repeat(65),
];
const ACCEPTED = [
  ['Europe/Berlin', 'listed by the runtime'],
  ['UTC', 'listed by the runtime'],
  ['Asia/Calcutta', 'an alias the runtime accepts (Asia/Kolkata)'],
  ['US/Eastern', 'an alias the runtime accepts (America/New_York)'],
] as const;

describe('the time zone rule', () => {
  it.each(REFUSED)('%j is not a time zone', (zone) => {
    expect(isKnownTimeZone(zone)).toBe(false);
  });
  it.each(ACCEPTED)('%j is one: %s', (zone) => {
    expect(isKnownTimeZone(zone)).toBe(true);
  });
});

describe('PATCH /api/games/:id and POST /api/games refuse a time zone the runtime does not know', () => {
  it.each(REFUSED)('PATCH timeZone %j: 400 naming the field, nothing stored', async (zone) => {
    const id = await game({ timeZone: 'Europe/Paris' });
    const res = await app.request(`/api/games/${id}`, {
      method: 'PATCH',
      headers: bearer,
      body: JSON.stringify({ timeZone: zone }),
    });
    const answer = (await res.json()) as { error: string };
    expect(res.status).toBe(400);
    expect(answer.error).toMatch(/^timeZone: .* is not a time zone this server knows/);
    expect((await store.games.get(id))!.settings.timeZone).toBe('Europe/Paris');
  });

  it.each(ACCEPTED)('PATCH timeZone %j is stored (%s)', async (zone) => {
    const id = await game();
    const res = await app.request(`/api/games/${id}`, {
      method: 'PATCH',
      headers: bearer,
      body: JSON.stringify({ timeZone: zone }),
    });
    expect(res.status).toBe(200);
    expect((await store.games.get(id))!.settings.timeZone).toBe(zone);
  });

  it('POST /api/games with "__proto__" as its time zone makes no game', async () => {
    const before = (await store.games.list()).length;
    const res = await app.request('/api/games', {
      method: 'POST',
      headers: bearer,
      body: JSON.stringify({
        url: 'https://forum.example/threads/zone-new.1/',
        engine: 'xenforo2',
        ruleset: 'plurality',
        players: ['Alice', 'Bob'],
        timeZone: '__proto__',
      }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain('timeZone: "__proto__" is not a time zone');
    expect((await store.games.list()).length).toBe(before);
  });
});

describe('the other settings', () => {
  it('a votal title longer than 200 characters is refused like the title', async () => {
    const id = await game();
    const res = await app.request(`/api/games/${id}`, {
      method: 'PATCH',
      headers: bearer,
      body: JSON.stringify({ votalTitle: 'x'.repeat(201) }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/^votalTitle: /);
  });
});

describe('the dashboard', () => {
  it('the settings form refuses "constructor" and keeps the zone the game had', async () => {
    const id = await game({ timeZone: 'Europe/Paris' });
    const gm = await signIn(app);
    const res = await app.request(`${O}/gm/games/${id}/settings`, {
      method: 'POST',
      body: form({ _csrf: gm.csrf, timeZone: 'constructor', title: 'Zone game' }),
      headers: { cookie: gm.cookie, origin: O, 'content-type': FORM },
    });
    expect(res.status).toBe(303);
    const page = await (
      await app.request(`${O}${res.headers.get('location')}`, { headers: { cookie: gm.cookie } })
    ).text();
    expect(page).toContain('Time zone: &quot;constructor&quot; is not a time zone this server knows');
    const stored = (await store.games.get(id))!.settings;
    expect(stored.timeZone).toBe('Europe/Paris');
    expect(stored.title).toBeUndefined();
  });

  it('a stored zone that cannot render (an older Votal wrote it) is an error on the game page, and so is the draft that failed with it', async () => {
    // A row as an older Votal (or an older runtime's zone list) left it.
    const id = await game({ timeZone: 'Not/AZone', drafts: { everyNVotes: 1 } });
    expect(settingsProblems((await store.games.get(id))!.settings)).toEqual([
      'time zone: "Not/AZone" is not a time zone this server knows (an IANA name such as Europe/Berlin or America/New_York)',
    ]);
    const gm = await signIn(app);
    const show = async () => (await app.request(`${O}/gm/games/${id}`, { headers: { cookie: gm.cookie } })).text();
    const first = await show();
    expect(first).toContain(
      'role="alert" data-problem="true">This game&#39;s time zone: &quot;Not/AZone&quot; is not a time zone',
    );
    expect(first).toContain('No votal can be drafted with it: choose one in Settings.');

    // The poller's draft step at a vote, with a deadline: it cannot render, and says so.
    const g = (await store.games.get(id))!;
    const after = await store.tallies.save(id, sampleTally());
    const drafted = await draftStep({
      store,
      game: g,
      ruleset: gameRuleset(g),
      engine: 'xenforo2',
      settings: pollSettings(g.settings),
      state: await store.polls.get(id),
      after,
      newPosts: [],
      now: '2026-03-03T19:00:00.000Z',
      deadline: '2026-03-04T19:00:00.000Z',
    });
    expect(drafted.draft).toBeNull();
    expect(drafted.error).toMatch(/could not render the votal draft: .*Not\/AZone/);
    const second = await show();
    expect(second).toMatch(
      /data-problem="true">The last votal draft failed \([^)]+\): could not render the votal draft: .*Not\/AZone/,
    );
  });
});
