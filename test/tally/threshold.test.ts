import { describe, expect, it } from 'vitest';
import { thresholdFor } from '../../src/tally/threshold.js';

describe('threshold', () => {
  it.each([
    ['true majority of 9 living is 5', 9, 5],
    ['true majority of 8 living is 5 (half is not a majority)', 8, 5],
    ['true majority of 13 living is 7', 13, 7],
    ['true majority of 12 living is 7', 12, 7],
    ['true majority of 2 living is 2', 2, 2],
    ['true majority of 1 living is 1', 1, 1],
  ])('%s', (_name, living, votes) => {
    expect(thresholdFor({ kind: 'majority' }, living)).toEqual({ kind: 'majority', votes });
  });

  it.each([
    ['two thirds of 9 living is 6', 9, 2, 3, 6],
    ['two thirds of 10 living rounds up to 7', 10, 2, 3, 7],
    ['half of 7 living rounds up to 4', 7, 1, 2, 4],
  ])('%s', (_name, living, numerator, denominator, votes) => {
    expect(thresholdFor({ kind: 'fraction', numerator, denominator }, living)).toEqual({ kind: 'fraction', votes });
  });

  it('plurality has no fixed number', () => {
    expect(thresholdFor({ kind: 'plurality' }, 9)).toEqual({ kind: 'plurality', votes: null });
  });
});
