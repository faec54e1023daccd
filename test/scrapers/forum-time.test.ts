import { describe, expect, it } from 'vitest';
import {
  fromEpochMillis,
  fromEpochSeconds,
  fromForumText,
  fromIso,
  monthOf,
  pageDateOrder,
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

describe("dates in the board's language (month names and relative words from Intl)", () => {
  it.each([
    // The Harvest gold pages (../shared/forum-samples/harvest) and their languages' neighbours.
    ['11. November 2019 um 10:54 Uhr', 'de', '2019-11-11T10:54:00.000Z'],
    ['10. April 2020', 'de', '2020-04-10T00:00:00.000Z'],
    ['3. März 2020, 08:15', 'de', '2020-03-03T08:15:00.000Z'],
    ['5 Juil 2018', 'fr', '2018-07-05T00:00:00.000Z'],
    ['12 déc. 2019 à 19h46', 'fr', '2019-12-12T19:46:00.000Z'],
    ['1 mai 2020', 'fr', '2020-05-01T00:00:00.000Z'],
    ['14 de marzo de 2020, 10:00', 'es', '2020-03-14T10:00:00.000Z'],
    ['7 settembre 2018 alle 09:30', 'it', '2018-09-07T09:30:00.000Z'],
    ['4 mrt 2021 13:00', 'nl', '2021-03-04T13:00:00.000Z'],
    ['2 de fevereiro de 2017', 'pt', '2017-02-02T00:00:00.000Z'],
    ['5 lipca 2019, 12:00', 'pl', '2019-07-05T12:00:00.000Z'],
    ['29/07/2004, 19h46', 'fr, a day over 12', '2004-07-29T19:46:00.000Z'],
    ['January 30', 'no year: the last 30 January before the fetch', '2024-01-30T00:00:00.000Z'],
    ['December 30', 'no year, a day still to come this year: last year', '2023-12-30T00:00:00.000Z'],
  ])('%s (%s) is %s', (text, _why, utc) => {
    expect(fromForumText(text, opts('UTC'))).toBe(utc);
  });

  it.each([
    ['Heute, 10:54', '2024-06-19T10:54:00.000Z'],
    ['Gestern um 22:10 Uhr', '2024-06-18T22:10:00.000Z'],
    ["Aujourd'hui à 08h12", '2024-06-19T08:12:00.000Z'],
    ['Hier, 23:59', '2024-06-18T23:59:00.000Z'],
    ['hoy 09:00', '2024-06-19T09:00:00.000Z'],
    ['ayer a las 18:30', '2024-06-18T18:30:00.000Z'],
    ['oggi alle 07:45', '2024-06-19T07:45:00.000Z'],
    ['ieri 13:00', '2024-06-18T13:00:00.000Z'],
    ['vandaag om 11:11', '2024-06-19T11:11:00.000Z'],
    ['gisteren 20:00', '2024-06-18T20:00:00.000Z'],
    ['hoje 06:30', '2024-06-19T06:30:00.000Z'],
    ['ontem 21:15', '2024-06-18T21:15:00.000Z'],
    ['dzisiaj, 10:00', '2024-06-19T10:00:00.000Z'],
    ['wczoraj, 10:00', '2024-06-18T10:00:00.000Z'],
    ['vor 3 Tagen', '2024-06-16T12:00:00.000Z'],
    ['il y a 2 jours', '2024-06-17T12:00:00.000Z'],
    ['hace 5 días', '2024-06-14T12:00:00.000Z'],
    ['3 giorni fa', '2024-06-16T12:00:00.000Z'],
    ['2 dagen geleden', '2024-06-17T12:00:00.000Z'],
    ['há 4 dias', '2024-06-15T12:00:00.000Z'],
    ['5 dni temu', '2024-06-14T12:00:00.000Z'],
    ['11 days ago', '2024-06-08T12:00:00.000Z'],
    ['20 hours ago', '2024-06-18T16:00:00.000Z'],
    // shift.ms (bbPress) and healthunlocked print weeks, months and short units.
    ['3 weeks ago', '2024-05-29T12:00:00.000Z'],
    ['6 months ago', '2023-12-19T12:00:00.000Z'],
    ['2 years ago', '2022-06-19T12:00:00.000Z'],
    ['21 mins ago', '2024-06-19T11:39:00.000Z'],
    ['38 secs ago', '2024-06-19T11:59:22.000Z'],
    ['vor 2 Std.', '2024-06-19T10:00:00.000Z'],
    // community.kaspersky.com (inSided): the tooltip's date, not Spanish "ago" (August) before it.
    ['1 month ago 18 April 2020', '2020-04-18T00:00:00.000Z'],
  ])('%s, fetched at 12:00 UTC on 19 June 2024, is %s', (text, utc) => {
    expect(fromForumText(text, opts('UTC'))).toBe(utc);
  });

  it('month words match accent- and case-insensitively, by unambiguous prefix, and nothing else', () => {
    expect([monthOf('Juil'), monthOf('MÄRZ'), monthOf('marz'), monthOf('déc.'), monthOf('Sept')]).toEqual([
      7, 3, 3, 12, 9,
    ]);
    // "Ju" could be June or July; "Mon" and "at" are no months.
    expect([monthOf('ju'), monthOf('Mon'), monthOf('at')]).toEqual([null, null, null]);
  });
});

describe('the order of numeric dates is learned from the page first', () => {
  it.each([
    [
      'a date with a day over 12 elsewhere on the page',
      '<html><p>13/05/2006</p><p>10/05/2006</p></html>',
      'mdy',
      'dmy',
    ],
    ['a month-first date with a day over 12', '<html><p>10-31-2017, 01:56 PM</p></html>', 'dmy', 'mdy'],
    ['dotted dates are day first', '<html><p>08.11.2009, 11:49</p></html>', 'mdy', 'dmy'],
    ['<html lang="de"> when no date tells', '<html lang="de"><p>08/11/2009</p></html>', 'mdy', 'dmy'],
    ['<html lang="en-US"> when no date tells', '<html lang="en-US"><p>08/11/2009</p></html>', 'dmy', 'mdy'],
    ["the profile's order when the page says nothing", '<html><p>08/11/2009</p></html>', 'dmy', 'dmy'],
    // English is written both ways (en-US, en-GB): a bare "en" leaves it to the profile.
    ['<html lang="en"> leaves it to the profile', '<html lang="en"><p>08/11/2009</p></html>', 'dmy', 'dmy'],
    ['a version number is no date', '<html><p>MyBB 1.8.30</p></html>', 'mdy', 'mdy'],
  ] as const)('%s', (_why, html, profile, order) => {
    expect(pageDateOrder(html, profile)).toBe(order);
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
