import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VoteBook } from '../../src/tally/vote-book.js';

/**
 * The standing votes of a Day: persistent (a fold can fork: "the count as at post N"),
 * read like a Map, iterated in slot order. Checked against a plain Map model.
 */
describe('the vote book', () => {
  it('leaves the book it came from as it was', () => {
    const empty = VoteBook.empty<string>();
    const one = empty.with(3, 'Bob');
    const two = one.with(40, 'Ann');
    const moved = two.with(3, 'Cy');
    expect([empty.size, one.size, two.size, moved.size]).toEqual([0, 1, 2, 2]);
    expect([one.get(3), two.get(3), moved.get(3)]).toEqual(['Bob', 'Bob', 'Cy']);
    expect(one.has(40)).toBe(false);
    expect([...moved]).toEqual([
      [3, 'Cy'],
      [40, 'Ann'],
    ]);
    expect(moved.with(40, undefined).has(40)).toBe(false);
    expect(moved.with(40, 'Ann')).toBe(moved); // setting what is there changes nothing
  });

  it('refuses a slot that is not a slot index', () => {
    expect(() => VoteBook.empty<string>().with(-1, 'x')).toThrow(RangeError);
    expect(() => VoteBook.empty<string>().with(1.5, 'x')).toThrow(RangeError);
  });

  it('reads as a Map of the same votes would, after any sequence of votes and unvotes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(300), fc.option(fc.string({ minLength: 1, maxLength: 3 }), { nil: undefined })), {
          maxLength: 200,
        }),
        (steps) => {
          let book = VoteBook.empty<string>();
          const model = new Map<number, string>();
          const history: [VoteBook<string>, Map<number, string>][] = [];
          for (const [slot, vote] of steps) {
            book = book.with(slot, vote);
            if (vote === undefined) model.delete(slot);
            else model.set(slot, vote);
            history.push([book, new Map(model)]);
          }
          // Every earlier book still reads as it did: nothing was changed in place.
          for (const [b, m] of history) {
            expect(b.size).toBe(m.size);
            expect([...b.entries()]).toEqual([...m.entries()].sort((x, y) => x[0] - y[0]));
            for (const k of m.keys()) expect(b.get(k)).toBe(m.get(k));
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
