import { afterEach, describe, expect, it } from 'vitest';
import { checkCrons, clockTasks, createClock, dueNow, type Clock } from '../../src/jobs/clock.js';
import { PollSettings } from '../../src/model/game-settings.js';
import type { Tally } from '../../src/model/tally.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import type { Game } from '../../src/model/game.js';
import type { Store } from '../../src/store/open-store.js';
import type { PollState } from '../../src/store/polls-repo.js';

const oc = loadRuleset('open-conspiracy');
const plurality = loadRuleset('plurality');

const pollState = (over: Partial<PollState> = {}): PollState => ({
  gameId: 1,
  leaseOwner: null,
  leaseUntil: null,
  polls: 1,
  lastPolledAt: null,
  lastOkAt: null,
  lastFullReadAt: null,
  lastError: null,
  lastErrorAt: null,
  errorsInRow: 0,
  pollRequestedAt: null,
  threadTitle: null,
  pageCount: null,
  postsPerPage: null,
  state: {},
  updatedAt: null,
  ...over,
});

const tally = (over: Partial<Tally> = {}): Tally => ({
  engine: null,
  ruleset: 'open-conspiracy',
  day: 1,
  postsRead: 3,
  asOfPost: 3,
  living: 4,
  players: ['Ann', 'Ben', 'Cat', 'Dan'],
  threshold: { kind: 'plurality', votes: null },
  wagons: [
    {
      target: 'Ben',
      votes: 1,
      penalty: 0,
      total: 1,
      toThreshold: null,
      voters: [{ player: 'Ann', post: 1, weight: 1, permalink: null }],
    },
  ],
  notVoting: ['Ben', 'Cat', 'Dan'],
  violations: [],
  flags: [],
  outcome: { status: 'open', eliminated: [], decidedAt: null, leaders: ['Ben'] },
  ...over,
});

// Monday 2 March 2026 08:00 to Wednesday 4 March 17:00 Pacific.
const day = { number: 1, start: '2026-03-02T16:00:00Z', deadline: '2026-03-05T01:00:00Z' };
const settings = PollSettings.parse({ day });

describe('clock decisions (pure)', () => {
  it("the Open Conspiracy Hammer check is a weekday noon cron task in Los Angeles' time", () => {
    expect(checkCrons([oc, plurality, oc])).toEqual([
      { expression: '0 12 * * 1,2,3,4,5', timezone: 'America/Los_Angeles', rulesets: ['open-conspiracy'] },
    ]);
  });

  it('a deadline that came after the last poll makes the game due', () => {
    const input = { ruleset: plurality, settings, tally: null };
    expect(
      dueNow({ ...input, poll: pollState({ lastPolledAt: '2026-03-05T00:59:00Z' }), now: '2026-03-05T00:59:30Z' }),
    ).toEqual([]);
    expect(
      dueNow({ ...input, poll: pollState({ lastPolledAt: '2026-03-05T00:59:00Z' }), now: '2026-03-05T01:00:00Z' }),
    ).toEqual([{ kind: 'deadline', at: '2026-03-05T01:00:00.000Z' }]);
    // Once polled after it, no more.
    expect(
      dueNow({ ...input, poll: pollState({ lastPolledAt: '2026-03-05T01:00:05Z' }), now: '2026-03-05T01:01:00Z' }),
    ).toEqual([]);
    // A clock that was down catches up.
    expect(
      dueNow({ ...input, poll: pollState({ lastPolledAt: '2026-03-04T20:00:00Z' }), now: '2026-03-05T09:00:00Z' }),
    ).toEqual([{ kind: 'deadline', at: '2026-03-05T01:00:00.000Z' }]);
  });

  it('Filibuster moved the deadline: the clock fires at the new one', () => {
    const extended = pollState({
      lastPolledAt: '2026-03-05T01:00:05Z',
      state: { deadline: '2026-03-06T01:00:00.000Z' },
    });
    const input = { ruleset: oc, settings, tally: null, poll: extended };
    expect(dueNow({ ...input, now: '2026-03-05T02:00:00Z' })).toEqual([]);
    expect(dueNow({ ...input, now: '2026-03-05T20:00:30Z' })).toEqual([
      { kind: 'check', at: '2026-03-05T20:00:00.000Z' },
    ]);
    expect(
      dueNow({ ...input, poll: { ...extended, lastPolledAt: '2026-03-05T20:00:10Z' }, now: '2026-03-06T01:00:00Z' }),
    ).toEqual([{ kind: 'deadline', at: '2026-03-06T01:00:00.000Z' }]);
  });

  it('a Hammer check at noon Pacific makes an Open Conspiracy game due', () => {
    const poll = pollState({ lastPolledAt: '2026-03-03T19:58:00Z' });
    expect(dueNow({ ruleset: oc, settings, tally: null, poll, now: '2026-03-03T19:59:00Z' })).toEqual([]);
    expect(dueNow({ ruleset: oc, settings, tally: null, poll, now: '2026-03-03T20:00:00Z' })).toEqual([
      { kind: 'check', at: '2026-03-03T20:00:00.000Z' },
    ]);
    // Under a ruleset without checks, nothing.
    expect(dueNow({ ruleset: plurality, settings, tally: null, poll, now: '2026-03-03T20:00:00Z' })).toEqual([]);
  });

  it('draft triggers by hours: due once the hours have passed and votes came since the last draft', () => {
    const drafted = { lastDraftAt: '2026-03-03T00:00:00Z', votesSinceDraft: 2, draftCheckedTallyId: 1 };
    const noDay = PollSettings.parse({ drafts: { everyHours: 6 } });
    const input = {
      ruleset: plurality,
      settings: noDay,
      tally: tally(),
      poll: pollState({ state: drafted, lastPolledAt: '2026-03-03T05:59:00Z' }),
    };
    expect(dueNow({ ...input, now: '2026-03-03T05:59:00Z' })).toEqual([]);
    expect(dueNow({ ...input, now: '2026-03-03T06:00:00Z' })).toEqual([
      { kind: 'draft-hours', text: expect.stringMatching(/6 hours since the last draft/) },
    ]);
    expect(
      dueNow({ ...input, poll: pollState({ state: { ...drafted, votesSinceDraft: 0 } }), now: '2026-03-03T07:00:00Z' }),
    ).toEqual([]);
    expect(
      dueNow({ ...input, settings: PollSettings.parse({ drafts: { everyHours: null } }), now: '2026-03-03T07:00:00Z' }),
    ).toEqual([]);
  });
});

describe('the clock (node-cron)', () => {
  let clock: Clock | null = null;
  afterEach(async () => {
    await clock?.stop();
    clock = null;
  });

  /**
   * The store calls the clock makes, over fixed data: the minute pass reads the games with
   * their poll state and tally in one query (`polls.activeGames`), never one per game.
   */
  function fakeStore(games: Partial<Game>[], polls: Record<number, PollState>): Store & { queries: string[] } {
    const queries: string[] = [];
    const full = () => games.map((g) => ({ status: 'active', rulesetOverrides: {}, settings: {}, ...g }) as Game);
    const perGame = (name: string) => async () => {
      throw new Error(`the clock's pass read ${name} for one game`);
    };
    return {
      queries,
      games: {
        list: async () => {
          queries.push('games.list');
          return full();
        },
      },
      polls: {
        activeGames: async () => {
          queries.push('polls.activeGames');
          return full().map((game) => ({ game, poll: polls[game.id] ?? pollState({ gameId: game.id }), tally: null }));
        },
        get: perGame('polls.get'),
      },
      tallies: { latest: perGame('tallies.latest') },
    } as unknown as Store & { queries: string[] };
  }

  it('a tick asks the poller to poll the games that are due, and runs its checks as timezone-aware cron tasks', async () => {
    const asked: string[] = [];
    const logs: string[] = [];
    const store = fakeStore(
      [
        { id: 1, ruleset: 'open-conspiracy', settings: { day } },
        { id: 2, ruleset: 'plurality', settings: { day: { ...day, deadline: '2026-03-06T01:00:00Z' } } },
        { id: 3, ruleset: 'plurality', settings: {} },
      ],
      {
        1: pollState({ gameId: 1, lastPolledAt: '2026-03-05T00:59:00Z' }),
        2: pollState({ gameId: 2, lastPolledAt: '2026-03-05T00:59:00Z' }),
      },
    );
    clock = createClock({
      store,
      poller: {
        pollNow: async (id) => {
          asked.push(id);
        },
      },
      now: () => '2026-03-05T01:00:30Z',
      log: { info: (_f, m) => logs.push(m ?? ''), warn: (_f, m) => logs.push(`warn ${m}`) },
    });
    await clock.start();
    expect(clockTasks()).toEqual(
      expect.arrayContaining(['votal-clock', 'votal-check 0 12 * * 1,2,3,4,5|America/Los_Angeles']),
    );
    store.queries.length = 0;
    const due = await clock.tick();
    expect(store.queries).toEqual(['polls.activeGames']);
    expect(due).toEqual([{ gameId: 1, reasons: [{ kind: 'deadline', at: '2026-03-05T01:00:00.000Z' }] }]);
    expect(asked).toEqual(['1']);
    await clock.stop();
    expect(clockTasks()).not.toContain('votal-clock');
  });
});
