import { describe, expect, it } from 'vitest';
import type { Tally } from '../../src/model/tally.js';
import {
  DraftSettings,
  draftReasons,
  voteChanges,
  type DraftInput,
  type NewPost,
} from '../../src/votal/draft-triggers.js';
import { PLAYERS, tallyOf, wagon } from './support.js';

const NOW = '2026-03-14T12:00:00Z';
const posts = (...list: [number, string, string?][]): NewPost[] =>
  list.map(([post, author, text]) => ({ post, author, text: text ?? `Vote: something (${post})` }));

function input(over: Partial<DraftInput> & { after: Tally }): DraftInput {
  return {
    before: null,
    newPosts: [],
    lastDraft: { at: '2026-03-14T10:00:00Z', votesSinceCount: 0 },
    now: NOW,
    settings: {},
    ...over,
  };
}
const kinds = (i: DraftInput) => draftReasons(i).map((r) => r.kind);

// Day 1, majority at 4 of 7: Bob has two votes, Carol one.
const base = tallyOf({
  wagons: [
    wagon('Bob', [
      ['Alice', 2],
      ['Carol', 3],
    ]),
    wagon('Carol', [['Dave', 4]]),
  ],
});

describe('draft triggers', () => {
  it('the settings default to every 5 votes, every 12 hours, L-1, majority, deadline and ##votecount / ##vc', () => {
    expect(DraftSettings.parse({})).toEqual({
      everyNVotes: 5,
      everyHours: 12,
      onLMinus1: true,
      onMajority: true,
      onDeadline: true,
      requestKeywords: ['##votecount', '##vc'],
    });
    expect(() => DraftSettings.parse({ everyNVotes: 0 })).toThrow();
    expect(() => DraftSettings.parse({ everyVotes: 5 })).toThrow(/everyVotes/);
  });

  it('five new votes trigger a draft', () => {
    // Two earlier votes since the last draft, three in these posts: five.
    const after = tallyOf({
      wagons: [
        wagon('Bob', [
          ['Alice', 2],
          ['Carol', 3],
        ]),
        wagon('Carol', [
          ['Dave', 4],
          ['Frank', 12],
        ]),
        wagon('Dave', [['Eve', 11]]),
        wagon('Eve', [['Grace', 13]]),
      ],
    });
    const i = input({
      before: base,
      after,
      newPosts: posts([11, 'Eve'], [12, 'Frank'], [13, 'Grace']),
      lastDraft: { at: '2026-03-14T11:00:00Z', votesSinceCount: 2 },
    });
    const reasons = draftReasons(i);
    expect(reasons).toEqual([
      {
        kind: 'votes',
        text: '5 votes and unvotes since the last draft (posts 11, 12, 13).',
        posts: [11, 12, 13],
        count: 5,
      },
    ]);
    // Four is not enough.
    expect(kinds({ ...i, lastDraft: { at: '2026-03-14T11:00:00Z', votesSinceCount: 1 } })).toEqual([]);
  });

  it('an unvote and a moved vote count as changes; a vote carried to a replacement does not', () => {
    const after = tallyOf({
      players: ['Alicia', ...PLAYERS.slice(1)],
      wagons: [wagon('Bob', [['Alicia', 2]]), wagon('Eve', [['Dave', 20]])],
    });
    expect(voteChanges(base, after, posts([19, 'Carol', 'unvote'], [20, 'Dave']))).toEqual([
      { player: 'Carol', post: 19, from: 'Bob', to: null },
      { player: 'Dave', post: 20, from: 'Carol', to: 'Eve' },
    ]);
  });

  it('a wagon newly at L-1 triggers', () => {
    const after = tallyOf({
      wagons: [
        wagon('Bob', [
          ['Alice', 2],
          ['Carol', 3],
          ['Eve', 14],
        ]),
        wagon('Carol', [['Dave', 4]]),
      ],
    });
    const i = input({ before: base, after, newPosts: posts([14, 'Eve']) });
    expect(draftReasons(i)).toEqual([
      { kind: 'l-minus-1', text: 'Bob is at L-1 with 3 (post 14).', posts: [14], target: 'Bob' },
    ]);
    // Still at L-1 on the next check: no new reason.
    expect(kinds({ ...i, before: after, newPosts: posts([15, 'Eve', 'just chatting']) })).toEqual([]);
    expect(kinds({ ...i, settings: { onLMinus1: false } })).toEqual([]);
  });

  it('majority triggers', () => {
    const atThree = tallyOf({
      wagons: [
        wagon('Bob', [
          ['Alice', 2],
          ['Carol', 3],
          ['Eve', 14],
        ]),
      ],
    });
    const after = tallyOf({
      wagons: [
        wagon('Bob', [
          ['Alice', 2],
          ['Carol', 3],
          ['Eve', 14],
          ['Frank', 15],
        ]),
      ],
      outcome: { status: 'majority', eliminated: ['Bob'], decidedAt: 15 },
    });
    const i = input({ before: atThree, after, newPosts: posts([15, 'Frank']) });
    expect(draftReasons(i)).toEqual([
      { kind: 'majority', text: 'Bob reached majority with 4 (post 15).', posts: [15], target: 'Bob' },
    ]);
    // A ruleset that goes on past the threshold: the wagon reaching it is enough.
    const open = tallyOf({ wagons: after.wagons });
    expect(draftReasons({ ...i, after: open })).toMatchObject([{ kind: 'majority', posts: [15], target: 'Bob' }]);
  });

  it('the Day ending at the deadline triggers', () => {
    const ended = {
      ...base,
      outcome: { ...base.outcome, status: 'ended' as const, eliminated: ['Bob'], decidedAt: 30 },
    };
    expect(draftReasons(input({ before: base, after: ended }))).toEqual([
      { kind: 'deadline', text: 'The Day ended (post 30): Bob eliminated.', posts: [30] },
    ]);
    expect(kinds(input({ before: base, after: ended, settings: { onDeadline: false } }))).toEqual([]);
  });

  it("a player's ##votecount triggers", () => {
    const i = input({
      before: base,
      after: base,
      newPosts: posts([21, 'eve', 'Can we get a ##VoteCount please?'], [22, 'Frank', 'lol']),
    });
    expect(draftReasons(i)).toEqual([
      {
        kind: 'request',
        text: 'Eve asked for a count with ##votecount (post 21).',
        posts: [21],
        player: 'Eve',
        keyword: '##votecount',
      },
    ]);
    // Whole words only, and only from players.
    expect(kinds({ ...i, newPosts: posts([21, 'Eve', 'see ##vcs and ###vc']) })).toEqual([]);
    expect(kinds({ ...i, newPosts: posts([21, 'Lurker', '##vc']) })).toEqual([]);
    expect(kinds({ ...i, newPosts: posts([21, 'Eve', '##vc.']) })).toEqual(['request']);
  });

  it('the GM asking triggers', () => {
    expect(draftReasons(input({ after: base, gm: { note: 'before the night' } }))).toMatchObject([
      { kind: 'gm', text: 'The GM asked for a count: before the night', posts: [] },
    ]);
  });

  it('no change, no draft even after 12 hours', () => {
    const i = input({
      before: base,
      after: base,
      newPosts: posts([23, 'Eve', 'just chatting']),
      lastDraft: { at: '2026-03-13T12:00:00Z', votesSinceCount: 0 },
    });
    expect(draftReasons(i)).toEqual([]);
  });

  it('12 hours and a change since the last draft trigger', () => {
    const i = input({ before: base, after: base, lastDraft: { at: '2026-03-13T23:30:00Z', votesSinceCount: 1 } });
    expect(draftReasons(i)).toEqual([
      { kind: 'hours', text: '12.5 hours since the last draft, and the count changed.', posts: [], hours: 12.5 },
    ]);
    expect(kinds({ ...i, lastDraft: { at: '2026-03-14T00:30:00Z', votesSinceCount: 1 } })).toEqual([]);
    expect(() => draftReasons({ ...i, now: 'soon' })).toThrow(/"soon" is not an ISO 8601/);
  });

  it('a new Day starts from no votes: its first votes are changes, not unvotes of the old Day', () => {
    const day2 = tallyOf({ day: 2, wagons: [wagon('Eve', [['Frank', 40]])] });
    expect(voteChanges(base, day2, posts([40, 'Frank']))).toEqual([
      { player: 'Frank', post: 40, from: null, to: 'Eve' },
    ]);
  });
});
