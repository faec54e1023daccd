import { describe, expect, it } from 'vitest';
import {
  fromEpochMillis,
  fromEpochSeconds,
  fromForumText,
  fromIso,
  wallTimeToUtc,
  type TextDateOptions,
} from '../../scrapers/forum-time.js';

const opts = (
  timeZone: string,
  dateOrder: TextDateOptions['dateOrder'] = 'mdy',
  now = '2024-06-19T12:00:00Z',
): TextDateOptions => ({ timeZone, dateOrder, now });

describe('machine times are read exactly', () => {
  it('epoch seconds (XenForo data-time, vBulletin 5 publishdate) are UTC instants', () => {
    expect(fromEpochSeconds('1716353983')).toBe('2024-05-22T04:59:43.000Z');
    expect(fromEpochSeconds(1290336718)).toBe('2010-11-21T10:51:58.000Z');
  });

  it('epoch milliseconds (NodeBB, ProBoards) keep their milliseconds', () => {
    expect(fromEpochMillis('1553465133393')).toBe('2019-03-24T22:05:33.393Z');
    expect(fromEpochMillis(1553465133393)).toBe('2019-03-24T22:05:33.393Z');
  });

  it.each([[null], [undefined], [''], ['0'], ['abc'], [-5]])('no usable epoch (%s) is null, never 1970', (v) => {
    expect(fromEpochSeconds(v)).toBeNull();
    expect(fromEpochMillis(v)).toBeNull();
  });

  it.each([
    ['2024-05-22T06:59:43+0200', '2024-05-22T04:59:43.000Z'],
    ['2024-05-22T06:59:43+02:00', '2024-05-22T04:59:43.000Z'],
    ['2024-11-12T10:43:23+00:00', '2024-11-12T10:43:23.000Z'],
    ['2019-03-24T19:54:11.505Z', '2019-03-24T19:54:11.505Z'],
    ['2013-02-04T15:26:26.278-05:00', '2013-02-04T20:26:26.278Z'],
    ['2024-05-22 06:59', '2024-05-22T06:59:00.000Z'],
  ])('ISO %s with its offset is %s', (iso, utc) => {
    expect(fromIso(iso)).toBe(utc);
  });

  it('ISO without an offset is wall time in the zone given (vBulletin 5 prints UTC)', () => {
    expect(fromIso('2019-04-09T08:37:23')).toBe('2019-04-09T08:37:23.000Z');
    expect(fromIso('2019-04-09T08:37:23', 'Europe/Berlin')).toBe('2019-04-09T06:37:23.000Z');
  });

  it.each([[null], [''], ['yesterday'], ['2024-13']])('an unreadable ISO value (%s) is null', (v) => {
    expect(fromIso(v)).toBeNull();
  });
});

describe("text dates are read in the board's zone and date order", () => {
  it.each<[string, TextDateOptions, string]>([
    // phpBB "D M d, Y g:i a"
    ['Sun May 26, 2019 4:34 pm', opts('UTC'), '2019-05-26T16:34:00.000Z'],
    // Summer (CEST, +2) and winter (CET, +1) in the same zone.
    ['Sun May 26, 2019 4:34 pm', opts('Europe/Berlin'), '2019-05-26T14:34:00.000Z'],
    ['Sun Jan 06, 2019 4:34 pm', opts('Europe/Berlin'), '2019-01-06T15:34:00.000Z'],
    // XenForo 1 title text, either side of the US change back to standard time.
    ['Oct 30, 2014 at 10:48 PM', opts('America/New_York'), '2014-10-31T02:48:00.000Z'],
    ['Nov 3, 2014 at 10:48 PM', opts('America/New_York'), '2014-11-04T03:48:00.000Z'],
    // The night clocks go forward in Berlin (31 March 2019, 02:00 -> 03:00).
    ['Mar 31, 2019 1:30 am', opts('Europe/Berlin'), '2019-03-31T00:30:00.000Z'],
    ['Mar 31, 2019 3:30 am', opts('Europe/Berlin'), '2019-03-31T01:30:00.000Z'],
    // vBulletin 4 (month-day-year) and a day-month-year board.
    ['06-15-2016, 03:03 PM', opts('UTC', 'mdy'), '2016-06-15T15:03:00.000Z'],
    ['15-06-2016, 15:03', opts('UTC', 'dmy'), '2016-06-15T15:03:00.000Z'],
    ['06/07/2016 10:00', opts('UTC', 'dmy'), '2016-07-06T10:00:00.000Z'],
    // vBulletin 3 year-first dates, whatever the board's order for short dates.
    ['2016-02-01, 02:21', opts('UTC', 'dmy'), '2016-02-01T02:21:00.000Z'],
    // SMF, with seconds.
    ['August 07, 2025, 10:00:00 PM', opts('UTC'), '2025-08-07T22:00:00.000Z'],
    // Day-first with a month name.
    ['06 Sep 2018 13:44', opts('UTC'), '2018-09-06T13:44:00.000Z'],
    // ProBoards' abbreviation "Sept".
    ['Sept 17, 2012 6:22:12', opts('America/Los_Angeles'), '2012-09-17T13:22:12.000Z'],
    // 12 am is midnight, 12 pm is noon.
    ['Jan 1, 2020 12:30 am', opts('UTC'), '2020-01-01T00:30:00.000Z'],
    ['Jan 1, 2020 12:15 pm', opts('UTC'), '2020-01-01T12:15:00.000Z'],
  ])('%s (%o) is %s', (text, o, utc) => {
    expect(fromForumText(text, o)).toBe(utc);
  });

  it('"Today" and "Yesterday" are relative to when the page was fetched', () => {
    expect(fromForumText('Today at 5:17 AM', opts('UTC'))).toBe('2024-06-19T05:17:00.000Z');
    expect(fromForumText('Yesterday, 12:51 AM', opts('UTC'))).toBe('2024-06-18T00:51:00.000Z');
  });

  it('"Today" is the board\'s date, not the UTC date', () => {
    // 23:30 UTC on 19 June is already 20 June in Berlin.
    expect(fromForumText('Today at 5:17 AM', opts('Europe/Berlin', 'mdy', '2024-06-19T23:30:00Z'))).toBe(
      '2024-06-20T03:17:00.000Z',
    );
    // 02:00 UTC on 19 June is still 18 June in New York: "Yesterday" is 17 June there.
    expect(fromForumText('Yesterday at 11:59 PM', opts('America/New_York', 'mdy', '2024-06-19T02:00:00Z'))).toBe(
      '2024-06-18T03:59:00.000Z',
    );
  });

  it('a date without a time (GOG "Posted December 21, 2016") is that day\'s midnight in the zone', () => {
    expect(fromForumText('Posted December 21, 2016', opts('UTC'))).toBe('2016-12-21T00:00:00.000Z');
    expect(fromForumText('Posted December 21, 2016', opts('America/New_York'))).toBe('2016-12-21T05:00:00.000Z');
  });

  it.each(['a while ago', '13-13-2016', 'Posted now', ''])('text without a readable date (%j) is null', (text) => {
    expect(fromForumText(text, opts('UTC'))).toBeNull();
  });
});

describe('wall time to UTC', () => {
  it('settles the offset in force at that wall time, on both sides of a change', () => {
    expect(wallTimeToUtc(2024, 3, 31, 1, 59, 0, 'Europe/Berlin')).toBe('2024-03-31T00:59:00.000Z');
    expect(wallTimeToUtc(2024, 3, 31, 3, 0, 0, 'Europe/Berlin')).toBe('2024-03-31T01:00:00.000Z');
    expect(wallTimeToUtc(2024, 7, 1, 12, 0, 0, 'Australia/Sydney')).toBe('2024-07-01T02:00:00.000Z');
    expect(wallTimeToUtc(2024, 1, 1, 12, 0, 0, 'Australia/Sydney')).toBe('2024-01-01T01:00:00.000Z');
  });
});
