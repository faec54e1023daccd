import { describe, expect, it } from 'vitest';
import { progressSentence, ReadPace, type ReadProgress } from '../../src/thread/read-progress.js';

const at = (page: number, phase: ReadProgress['phase'], known = true): ReadProgress => ({
  page,
  pageCount: 60,
  pageCountKnown: known,
  phase,
  pauseMs: 1000,
  url: `https://forum.example/t/1/page-${page}`,
});

describe('a read told in words (the dashboard and the live page)', () => {
  it.each([
    ['a page asked for, the length known', at(12, 'reading'), 50_000, 'Reading page 12 of 60, about 50 s left'],
    ['a page read', at(12, 'read'), 48_000, 'Read page 12 of 60, about 48 s left'],
    ['a page the forum said had not changed', at(3, 'unchanged'), 57_000, 'Unchanged: page 3 of 60, about 57 s left'],
    ['page 1 before the forum told the length', at(1, 'reading', false), null, 'Reading page 1'],
    ['the last page: no time left to tell', at(60, 'read'), 0, 'Read page 60 of 60'],
    ['minutes', at(2, 'read'), 118_000, 'Read page 2 of 60, about 1 min 58 s left'],
  ])('%s', (_rule, p, leftMs, words) => {
    expect(progressSentence(p, leftMs)).toBe(words);
  });

  it('the pace is the read so far, never faster than the pause', () => {
    let t = 0;
    const pace = new ReadPace(() => t);
    expect(pace.note(at(1, 'reading', false))).toBeNull();
    t = 2000;
    expect(pace.note(at(1, 'read'))).toBe(59 * 2000);
    t = 2100;
    // Two pages in 2.1 s would be 1.05 s a page; still not under the 1 s pause.
    expect(pace.note(at(2, 'read'))).toBe(Math.round(58 * 1050));
  });
});
