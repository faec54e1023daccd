import { describe, expect, it } from 'vitest';
import { countChanges } from '../../src/votal/count-changes.js';
import { tallyOf, wagon } from './support.js';

/** What a GM reads before approving a draft older than the count (issue #14, 2). */
describe('count changes since a draft', () => {
  it('a wagon that grew, one that appeared and one that went are each named, in the current order', () => {
    const from = tallyOf({
      postsRead: 22,
      asOfPost: 22,
      wagons: [wagon('Bob', [['Carol', 3]]), wagon('Eve', [['Dave', 4]])],
      notVoting: ['Grace'],
    });
    const to = tallyOf({
      postsRead: 32,
      asOfPost: 32,
      wagons: [
        wagon('Bob', [
          ['Carol', 3],
          ['Alice', 25],
        ]),
        wagon('Frank', [['Dave', 30]]),
      ],
      notVoting: ['Grace'],
    });
    const changes = countChanges(from, to);
    expect(changes.wagons).toEqual([
      { target: 'Bob', from: 1, to: 2 },
      { target: 'Frank', from: 0, to: 1 },
      { target: 'Eve', from: 1, to: 0 },
    ]);
    expect(changes.summary).toEqual([
      'Posts read: 22 → 32 (now as of post 32).',
      'Bob: 1 vote → 2 votes.',
      'Frank: 0 votes → 1 vote.',
      'Eve: 1 vote → 0 votes.',
    ]);
  });

  it('a recount of the same posts lists only what changed, no "Posts read: 22 → 22" (issue #28)', () => {
    const from = tallyOf({ postsRead: 22, asOfPost: 22, living: 7 });
    expect(countChanges(from, { ...from, living: 6 }).summary).toEqual(['Alive: 7 → 6.']);
    expect(countChanges(from, { ...from }).summary).toEqual([
      'The count was made again from the same posts and reads the same.',
    ]);
  });

  it('only posts read: nothing else is listed', () => {
    const from = tallyOf({ postsRead: 5, asOfPost: 5 });
    const changes = countChanges(from, { ...from, postsRead: 7, asOfPost: 7 });
    expect(changes).toMatchObject({ wagons: [], notVoting: null, living: null, outcome: null, openFlags: null });
    expect(changes.summary).toEqual(['Posts read: 5 → 7 (now as of post 7).']);
  });

  it('the living, who is not voting, the outcome and the open review items', () => {
    const from = tallyOf({
      living: 7,
      notVoting: ['Dave'],
      flags: [{ post: 3, player: 'Eve', kind: 'ambiguous-target', raw: 'vote: da', candidates: [] }],
    });
    const to = tallyOf({
      living: 6,
      notVoting: [],
      outcome: { status: 'majority', eliminated: ['Bob'], decidedAt: 31, leaders: ['Bob'] },
      flags: [{ post: 3, player: 'Eve', kind: 'gm-correction', raw: 'vote: da -> Dave', candidates: [] }],
    });
    expect(countChanges(from, to).summary).toEqual([
      'Alive: 7 → 6.',
      'Not voting: Dave → nobody.',
      'Outcome: The Day goes on. → Majority reached on Bob at post 31.',
      'Votes for the GM to check: 1 → 0.',
    ]);
  });
});
