import { describe, expect, it } from 'vitest';
import { foldGame, type PostHistory } from '../../src/game/fold-game.js';
import { gameRuleset } from '../../src/game/game-ruleset.js';
import { PollSettings } from '../../src/model/game-settings.js';
import { fullReadDue } from '../../src/game/poll-game.js';
import type { PollState } from '../../src/store/polls-repo.js';
import type { PostReading } from '../../src/model/action.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { act, chatter, players, posted, vote } from '../tally/log-builders.js';
import { STANDARD_RULESET } from './support.js';

/** foldGame is pure: posts with their revisions in, the count out. */

const seven = players('Alice', 'Bob', 'Carol', 'Dave', 'Davina', 'Eve', 'Frank');
const votes = (author: string, target: string): PostReading => vote(1, author, target).reading;
const none = (author: string): PostReading => chatter(1, author).reading;

function post(
  number: number,
  author: string,
  postedAt: string,
  ...revisions: [PostReading, string, string?][]
): PostHistory {
  return {
    number,
    author,
    postedAt,
    permalink: null,
    deleted: false,
    revisions: revisions.map(([reading, firstSeen, text]) => ({ reading, firstSeen, edit: null, text: text ?? '' })),
  };
}

describe('foldGame', () => {
  const standard = gameRuleset({ ruleset: STANDARD_RULESET, rulesetOverrides: {} });
  const hammerAtMajority = gameRuleset({ ruleset: STANDARD_RULESET, rulesetOverrides: { endsAtThreshold: true } });

  it('a silent edit before any decision counts, as an edit violation quoting both versions', () => {
    const r = foldGame({
      ruleset: standard,
      roster: seven,
      engine: null,
      gmEvents: [],
      now: '2026-03-03T12:00:00Z',
      posts: [
        post(
          1,
          'Alice',
          '2026-03-03T10:00:00Z',
          [votes('Alice', 'Bob'), '2026-03-03T10:01:00Z', 'Vote: Bob'],
          [votes('Alice', 'Carol'), '2026-03-03T10:30:00Z', 'Vote: Carol'],
        ),
      ],
    });
    expect(r.lateEdits).toEqual([]);
    expect(r.tally.wagons.map((w) => [w.target, w.total])).toEqual([['Carol', 1]]);
    expect(r.tally.violations).toEqual([
      expect.objectContaining({
        player: 'Alice',
        post: 1,
        kind: 'edit',
        consequence: 'flag',
        detail: expect.stringMatching(/without an edit marker.*before: "Vote: Bob".*after: "Vote: Carol"/),
      }),
    ]);
  });

  it('an edit after a majority does not change the result, and is flagged', () => {
    const t = (m: number) => `2026-03-03T10:${String(m).padStart(2, '0')}:00Z`;
    const r = foldGame({
      ruleset: hammerAtMajority,
      roster: seven,
      engine: null,
      gmEvents: [],
      now: '2026-03-03T12:00:00Z',
      posts: [
        // Alice's vote was edited twice: once before the majority (counts), once after (does not).
        post(
          1,
          'Alice',
          t(0),
          [votes('Alice', 'Frank'), t(0)],
          [votes('Alice', 'Eve'), t(5)],
          [votes('Alice', 'Frank'), t(40)],
        ),
        post(2, 'Bob', t(10), [votes('Bob', 'Eve'), t(10)]),
        post(3, 'Carol', t(20), [votes('Carol', 'Eve'), t(20)]),
        post(4, 'Dave', t(30), [votes('Dave', 'Eve'), t(30)]), // 4 of 7: Eve is eliminated here
        post(5, 'Frank', t(35), [none('Frank'), t(35)]),
      ],
    });
    expect(r.tally.outcome).toMatchObject({ status: 'majority', eliminated: ['Eve'], decidedAt: 4 });
    expect(r.lateEdits).toEqual([
      expect.objectContaining({ post: 1, author: 'Alice', at: '2026-03-03T10:40:00.000Z' }),
    ]);
    expect(r.tally.flags).toEqual([
      expect.objectContaining({
        post: 1,
        player: 'Alice',
        kind: 'vote-after-decision',
        raw: expect.stringMatching(/a vote for Frank; it does not count, a vote for Eve stands/),
      }),
    ]);
  });

  it('an edit after the deadline does not change the result', () => {
    const day = { number: 1, start: '2026-03-02T18:00:00Z', deadline: '2026-03-03T18:00:00Z' };
    const input = {
      ruleset: standard,
      roster: seven,
      engine: null,
      gmEvents: [],
      day,
      posts: [
        post(
          1,
          'Alice',
          '2026-03-03T10:00:00Z',
          [votes('Alice', 'Bob'), '2026-03-03T10:00:00Z'],
          [votes('Alice', 'Carol'), '2026-03-03T19:00:00Z'],
        ),
        post(2, 'Dave', '2026-03-03T11:00:00Z', [votes('Dave', 'Carol'), '2026-03-03T11:00:00Z']),
        post(3, 'Eve', '2026-03-03T12:00:00Z', [votes('Eve', 'Bob'), '2026-03-03T12:00:00Z']),
      ],
    };
    const before = foldGame({ ...input, now: '2026-03-03T17:00:00Z' });
    expect(before.tally.outcome.status).toBe('open');
    expect(before.upcoming).toEqual(['2026-03-03T18:00:00.000Z']);
    const after = foldGame({ ...input, now: '2026-03-03T20:00:00Z' });
    expect(after.tally.outcome).toMatchObject({ status: 'ended', eliminated: ['Bob'] });
    expect(after.tally.flags.map((f) => [f.post, f.kind])).toEqual([[1, 'vote-after-decision']]);
    expect(after.upcoming).toEqual([]);
  });

  it('a deleted post still counts and is noted', () => {
    const gone = {
      ...post(1, 'Alice', '2026-03-03T10:00:00Z', [votes('Alice', 'Bob'), '2026-03-03T10:00:00Z']),
      deleted: true,
    };
    const r = foldGame({
      ruleset: standard,
      roster: seven,
      engine: null,
      gmEvents: [],
      now: '2026-03-03T12:00:00Z',
      posts: [gone],
    });
    expect(r.tally.wagons.map((w) => [w.target, w.total])).toEqual([['Bob', 1]]);
    expect(r.tally.notes).toEqual(['Post 1 by Alice was deleted on the forum; it is kept and counted as it was.']);
  });

  describe('Open Conspiracy clock (Hammer at weekday noon checks, Filibuster at the deadline)', () => {
    const oc = loadRuleset('open-conspiracy');
    const four = players('Ann', 'Ben', 'Cat', 'Dan');
    // Monday 2 March 2026 to Wednesday 4 March 17:00 Pacific (PST, UTC-8).
    const day = { number: 1, start: '2026-03-02T16:00:00Z', deadline: '2026-03-05T01:00:00Z' };
    const side = (n: number, author: string, kind: 'hammer' | 'filibuster', at: string): PostHistory =>
      post(n, author, at, [posted(n, author, [act(kind)]).reading, at]);
    const base = [
      post(1, 'Ann', '2026-03-02T17:00:00Z', [votes('Ann', 'Ben'), '2026-03-02T17:00:00Z']),
      post(2, 'Cat', '2026-03-02T18:00:00Z', [votes('Cat', 'Ben'), '2026-03-02T18:00:00Z']),
      post(3, 'Ben', '2026-03-02T19:00:00Z', [votes('Ben', 'Cat'), '2026-03-02T19:00:00Z']),
      post(4, 'Dan', '2026-03-02T19:30:00Z', [votes('Dan', 'Ann'), '2026-03-02T19:30:00Z']),
    ];

    it('Filibuster standing at the deadline extends the Day by one weekday, once', () => {
      const posts = [
        ...base,
        side(5, 'Ben', 'filibuster', '2026-03-03T01:00:00Z'),
        side(6, 'Dan', 'filibuster', '2026-03-03T02:00:00Z'),
      ];
      const input = { ruleset: oc, roster: four, engine: null, gmEvents: [], day, posts };
      const extended = foldGame({ ...input, now: '2026-03-05T02:00:00Z' });
      expect(extended.tally.outcome.status).toBe('open');
      expect(extended.deadline).toBe('2026-03-06T01:00:00.000Z'); // Thursday 17:00 PST
      expect(extended.upcoming).toEqual(['2026-03-05T20:00:00.000Z', '2026-03-06T01:00:00.000Z']); // Thursday noon check, new deadline
      const ended = foldGame({ ...input, now: '2026-03-06T02:00:00Z' });
      expect(ended.tally.outcome).toMatchObject({ status: 'ended', eliminated: ['Ben'] });
      expect(ended.deadline).toBe('2026-03-06T01:00:00.000Z');
    });

    it('Hammer standing at a noon check ends the Day there', () => {
      const posts = [
        ...base,
        side(5, 'Ann', 'hammer', '2026-03-03T18:00:00Z'),
        side(6, 'Cat', 'hammer', '2026-03-03T19:00:00Z'),
      ];
      const input = { ruleset: oc, roster: four, engine: null, gmEvents: [], day, posts };
      expect(foldGame({ ...input, now: '2026-03-03T19:59:00Z' }).tally.outcome.status).toBe('open');
      const hammered = foldGame({ ...input, now: '2026-03-03T20:01:00Z' }); // Tuesday 12:01 PST
      expect(hammered.tally.outcome).toMatchObject({ status: 'ended', eliminated: ['Ben'] });
    });
  });
});

describe('fullReadDue', () => {
  const settings = PollSettings.parse({});
  const state = (over: Partial<PollState>): PollState => ({
    gameId: 1,
    leaseOwner: null,
    leaseUntil: null,
    polls: 1,
    lastPolledAt: '2026-03-04T12:00:00Z',
    lastOkAt: null,
    lastFullReadAt: '2026-03-04T12:00:00Z',
    lastError: null,
    lastErrorAt: null,
    errorsInRow: 0,
    pollRequestedAt: null,
    threadTitle: null,
    pageCount: 3,
    postsPerPage: null,
    state: {},
    updatedAt: null,
    ...over,
  });

  it('reads every page on the first poll, then every fullReadMinutes', () => {
    expect(fullReadDue(state({ lastFullReadAt: null }), settings, '2026-03-04T12:05:00Z')).toBe(true);
    expect(fullReadDue(state({}), settings, '2026-03-04T12:59:00Z')).toBe(false);
    expect(fullReadDue(state({}), settings, '2026-03-04T13:00:00Z')).toBe(true);
  });

  it('reads every page every 10 minutes near a deadline, and right after it', () => {
    const near = state({ state: { upcoming: ['2026-03-04T12:30:00Z'] } });
    expect(fullReadDue(near, settings, '2026-03-04T12:05:00Z')).toBe(false);
    expect(fullReadDue(near, settings, '2026-03-04T12:10:00Z')).toBe(true);
    const passed = state({
      lastPolledAt: '2026-03-04T12:29:00Z',
      lastFullReadAt: '2026-03-04T12:25:00Z',
      state: { upcoming: ['2026-03-04T12:30:00Z'] },
    });
    expect(fullReadDue(passed, settings, '2026-03-04T12:30:05Z')).toBe(true);
  });
});
