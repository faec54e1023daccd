import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { draftNow } from '../../src/app/drafts.js';
import type { CommandDeps } from '../../src/app/deps.js';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { pollGame, type PollDeps } from '../../src/game/poll-game.js';
import type { Game } from '../../src/model/game.js';
import type { Tally } from '../../src/model/tally.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createApp, type VotalApp } from '../../src/web/app.js';
import { HAMMER_PLAYERS, hammerThread } from '../support/hammer-thread.js';
import { ADMIN_TOKEN, recordingPoller, testEnv } from '../web/support.js';
import { tempDir } from '../ui/browser-support.js';
import { testClock, testSource } from './support.js';
import { signIn } from '../ui/sign-in.js';

/**
 * Issue #24: an elimination the tally decides by itself (a hammer at majority, the
 * deadline rule at the Day's end), with no `decide` from the GM, reaches the next Day's
 * reading roster and every living list: the stored count and its JSON, the players JSON,
 * the dashboard's Players panel, the live page and the votal draft. Three Days through the product's path: the stand-in
 * forum (XenForo 2), pollGame, the store (PGlite), the app's routes.
 *
 * "Vote: PB" with PeaceBringer and Prolapsed Brain both playing is the case of MafiaScum
 * game 1671 post #1110 (donbot data 739243d), there after Prolapsed Brain's death.
 */

const O = 'http://votal.test';
const ROSTER = HAMMER_PLAYERS;
// The fake thread's posts are five minutes apart from 2026-03-02 18:05 UTC (#6 at 18:30, #11 at 18:55).
const DAY2_DEADLINE = '2026-03-02T18:57:30.000Z';

let forum: FakeForum;
let store: Store;
let app: VotalApp;
let game: Game;
let clock: ReturnType<typeof testClock>;
const data = tempDir('votal-own-eliminations-');
const allowPrivate = process.env['VOTAL_ALLOW_PRIVATE_HOSTS'];

beforeAll(async () => {
  process.env['VOTAL_ALLOW_PRIVATE_HOSTS'] = '1';
  forum = await startFakeForum();
  store = await openStore({ dataDir: 'memory://' });
});
afterAll(async () => {
  if (allowPrivate === undefined) delete process.env['VOTAL_ALLOW_PRIVATE_HOSTS'];
  else process.env['VOTAL_ALLOW_PRIVATE_HOSTS'] = allowPrivate;
  await app?.shutdown();
  await store?.close();
  await forum?.close();
  data.remove();
});

/** Everything that lists the living and the dead, as the GM and the players see it. */
async function surfaces(game: Game, clock: { now: () => string }) {
  const tally = (await store.tallies.latest(game.id))!.tally;
  const auth = { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } };
  const json = (await (await app.request(`${O}/api/games/${game.id}/tally`, auth)).json()) as Tally;
  const players = (await (await app.request(`${O}/api/games/${game.id}`, auth)).json()) as {
    alive: string[];
    dead: string[];
  };
  const live = await (await app.request(`${O}/g/${game.slug}/fragment`)).text();
  const { cookie } = await signIn(app);
  const dashboard = await (await app.request(`${O}/gm/games/${game.id}`, { headers: { cookie } })).text();
  const chips = (list: string) =>
    [
      ...(new RegExp(`aria-labelledby="${list}-h">(.*?)</ul>`).exec(dashboard)?.[1] ?? '').matchAll(
        /<span class="chip">([^<]*)<\/span>/g,
      ),
    ].map((m) => m[1]);
  const deps = { store, clock: { now: () => new Date(clock.now()) } } as unknown as CommandDeps;
  const draft = (await draftNow(deps, 'gm:test', game.id)).body;
  return {
    tally,
    json: { players: json.players, dead: json.dead ?? [], living: json.living },
    players: { alive: players.alive, dead: players.dead },
    dashboard: { alive: chips('alive'), dead: chips('dead') },
    live: {
      alive: /<p id="alive">([^<]*)<\/p>/.exec(live)?.[1] ?? null,
      dead: /<p id="dead">([^<]*)<\/p>/.exec(live)?.[1] ?? null,
    },
    draft: {
      alive: /Alive \(\d+\):\[\/b\] ([^\n]*)/.exec(draft)?.[1] ?? null,
      dead: /Dead \(\d+\):\[\/b\] ([^\n]*)/.exec(draft)?.[1] ?? null,
    },
  };
}

const flagsOf = (t: Tally) => t.flags.map((f) => [f.post, f.player, f.kind]);
const wagonsOf = (t: Tally) => t.wagons.map((w) => [w.target, w.voters.map((v) => v.player)]);

describe("the tally's own eliminations reach the next Day", () => {
  it('a hammer on Day 1 and the deadline rule on Day 2, no GM decide: every living list agrees, votes for them are for the dead', async () => {
    const { thread, add } = hammerThread(forum, 7300); // #1-#5: Day 1's hammer
    add('Moderator', 'Night falls. Then the sun rises again.'); // #6
    add('Eve', '[b]Vote: PB[/b]'); // #7: only PeaceBringer is a living "PB"
    add('Carol', '[b]Vote: PB[/b]'); // #8
    add('Alice', '[b]Vote: Prolapsed Brain[/b]'); // #9: a vote for the dead
    add('Prolapsed Brain', '[b]Vote: Alice[/b]'); // #10: the dead do not vote
    add('Bob', '[b]Vote: Eve[/b]'); // #11, 18:55; the deadline is at 18:57:30
    game = await store.games.create(
      {
        threadUrl: thread.url,
        engine: null,
        ruleset: 'mafiascum-majority',
        rulesetOverrides: {},
        roster: ROSTER.map((name) => ({ name })),
        settings: { gm: 'Moderator', day: { number: 2, start: '2026-03-02T18:30:00.000Z', deadline: DAY2_DEADLINE } },
      },
      'gm:test',
    );
    // The GM starts the Days; nobody records the eliminations.
    await store.events.append(game.id, { kind: 'day-start', day: 2, at: 6 }, 'gm:test');
    clock = testClock('2026-03-02T18:56:00Z');
    app = createApp({
      store,
      poller: recordingPoller(),
      env: testEnv({ dataDir: data.path }),
      rateLimit: false,
      pollWaitMs: 0,
      now: () => new Date(clock.now()),
    });
    const deps: PollDeps = { store, source: testSource(), now: clock.now };

    // Day 2, open: Prolapsed Brain (hammered on Day 1) is dead for the reading and for the count.
    await pollGame(deps, game.id);
    const day2 = await surfaces(game, clock);

    expect(day2.tally.day).toBe(2);
    expect(wagonsOf(day2.tally)).toEqual([
      ['PeaceBringer', ['Eve', 'Carol']],
      ['Eve', ['Bob']],
    ]);
    expect(flagsOf(day2.tally)).toEqual([
      [9, 'Alice', 'vote-for-dead'],
      [10, 'Prolapsed Brain', 'vote-by-dead'],
    ]);
    const living2 = ['Alice', 'Bob', 'Carol', 'Dave', 'Eve', 'PeaceBringer'];
    expect(day2.json).toEqual({ players: living2, dead: ['Prolapsed Brain'], living: 6 });
    expect(day2.players).toEqual({ alive: living2, dead: ['Prolapsed Brain'] });
    expect(day2.dashboard).toEqual({ alive: living2, dead: ['Prolapsed Brain'] });
    expect(day2.live).toEqual({ alive: living2.join(', '), dead: 'Prolapsed Brain' });
    expect(day2.draft).toEqual({ alive: living2.join(', '), dead: 'Prolapsed Brain' });

    // The deadline passes: the plurality leader (PeaceBringer, 2) is eliminated by the rule.
    add('Moderator', 'Day 2 is over. Day 3 begins.'); // #12, 19:00
    add('Dave', '[b]Vote: PeaceBringer[/b]'); // #13: a vote for the dead
    add('PeaceBringer', '[b]Vote: Dave[/b]'); // #14: the dead do not vote
    add('Eve', '[b]Vote: Bob[/b]'); // #15
    await store.events.append(game.id, { kind: 'day-start', day: 3, at: 12 }, 'gm:test');
    clock.set('2026-03-02T19:30:00Z');
    await pollGame(deps, game.id);
    const day3 = await surfaces(game, clock);
    expect(day3.tally.day).toBe(3);
    expect(wagonsOf(day3.tally)).toEqual([['Bob', ['Eve']]]);
    expect(flagsOf(day3.tally)).toEqual([
      [13, 'Dave', 'vote-for-dead'],
      [14, 'PeaceBringer', 'vote-by-dead'],
    ]);
    const living3 = ['Alice', 'Bob', 'Carol', 'Dave', 'Eve'];
    const dead3 = ['PeaceBringer', 'Prolapsed Brain'];
    expect(day3.json).toEqual({ players: living3, dead: dead3, living: 5 });
    expect(day3.players).toEqual({ alive: living3, dead: dead3 });
    expect(day3.dashboard).toEqual({ alive: living3, dead: dead3 });
    expect(day3.live).toEqual({ alive: living3.join(', '), dead: dead3.join(', ') });
    expect(day3.draft).toEqual({ alive: living3.join(', '), dead: dead3.join(', ') });
  });
});
