import { describe, expect, it } from 'vitest';
import {
  closeSpelling,
  initialsOf,
  rosterSpellings,
  spellingNews,
  type SpellingInput,
} from '../../src/game/roster-spellings.js';
import { GmEvent } from '../../src/model/event.js';
import { Roster } from '../../src/model/roster.js';
import { nameKey } from '../../src/parse/name-form.js';

/**
 * A player list typed by hand spells a poster's name otherwise (issue #24): Votal proposes
 * "P is S as the forum spells it" when exactly one slot's unposted name is a slip of the keys
 * from the poster's. Real names from MafiaScum games (donbot data 739243d, data/archive.txt
 * against the posts' authors).
 */
const roster = (...slots: (string | [string, ...string[]])[]): Roster =>
  Roster.parse(slots.map((s) => (typeof s === 'string' ? { name: s } : { name: s[0], formerNames: s.slice(1) })));
const posts = (...authors: [number, string][]): SpellingInput['posts'] =>
  authors.map(([number, author]) => ({ number, author }));
const close = (a: string, b: string): boolean => closeSpelling(nameKey(a), nameKey(b));

describe('a slip of the keys between two names', () => {
  it.each([
    ['two letters added in a long name (game 1117 post #85)', 'saporovirus', 'sapovirus'],
    ['two letters swapped (game 1234 post #11)', 'theamatuer', 'theamateur'],
    ['one letter changed (game 1375 post #26)', 'Starbuckles', 'Starbunkles'],
    ['one letter dropped (game 1874 post #41)', 'Soumil07', 'Soulmil07'],
    ["one name the other's start (game 1207 post #58)", 'nbtnbt5', 'nbtnbt5Town'],
    ["one name the other's end (game 1216 post #21)", 'haoala', 'Captain Haoala'],
  ])('close: %s', (_, a, b) => {
    expect(close(a, b)).toBe(true);
    expect(close(b, a)).toBe(true);
  });

  it.each([
    ['a renamed account, two letters off in five (game 1609: Wake1 posts as Wake88)', 'Wake1', 'Wake88'],
    ['one letter off in a short name is another name', 'Bub', 'Bud'],
    ['two letters off in a name under 8 letters', 'Kaboose', 'Kabooms'],
    ["a short name inside another's", 'Wake', 'Wake88'],
    ['the same name', 'Soulmil07', 'soulmil07'],
    ['another name', 'Randomnamechange', 'randomidget'],
  ])('not close: %s', (_, a, b) => {
    expect(close(a, b)).toBe(false);
  });
});

describe("a poster named by the listed name's initials", () => {
  it.each([
    ['in capitals (MafiaScum game 1791 post #36)', 'BNL', 'BulletNLynchproof', true],
    ['not in capitals: a word, not initials', 'bnl', 'BulletNLynchproof', false],
    ['two letters are too few', 'PJ', 'Panzer Jager', false],
    ['initials of another name', 'BNL', 'BlueMoonRising', false],
  ])('%s', (_, poster, listed, expected) => {
    expect(initialsOf(poster, listed)).toBe(expected);
  });
});

describe('the spellings Votal proposes', () => {
  it('proposes the poster as the slot whose listed name has not posted (MafiaScum game 1117 post #85)', () => {
    const [p, ...rest] = rosterSpellings({
      roster: roster('Empking', 'sapovirus', 'ShadoWolf'),
      events: [],
      hosts: ['InflatablePie'],
      posts: posts([0, 'InflatablePie'], [3, 'Empking'], [85, 'saporovirus'], [90, 'saporovirus']),
    });
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ poster: 'saporovirus', slot: 'sapovirus', listed: 'sapovirus', firstPost: 85 });
    expect(p!.event).toEqual(GmEvent.parse({ kind: 'replace', player: 'sapovirus', by: 'saporovirus', at: 84 }));
    expect(p!.text).toContain('Is saporovirus sapovirus as the forum spells it?');
  });

  it('reads a former name of the slot, named by its current name (MafiaScum game 1874 post #41)', () => {
    const [p] = rosterSpellings({
      roster: roster(['keyenpeydee', 'Soulmil07'], 'massive'),
      events: [],
      hosts: ['Leonshade'],
      posts: posts([20, 'massive'], [41, 'Soumil07']),
    });
    expect(p).toMatchObject({ poster: 'Soumil07', slot: 'keyenpeydee', listed: 'Soulmil07' });
  });

  it.each<[string, Omit<SpellingInput, 'posts'>, SpellingInput['posts']]>([
    [
      'the listed name has posted: the poster is someone else',
      { roster: roster('Empking', 'ShadoWolf', 'Fugitive'), events: [], hosts: [] },
      posts([39, 'Empking'], [42, "Empking's Alt"]),
    ],
    [
      'two slots are close to the poster',
      { roster: roster('Starbunkles', 'Starbuckler', 'McStab'), events: [], hosts: [] },
      posts([26, 'Starbuckles']),
    ],
    [
      'a host',
      { roster: roster('Sapovirus', 'Empking', 'Fugitive'), events: [], hosts: ['Saporovirus'] },
      posts([1, 'Saporovirus']),
    ],
    [
      'a newcomer the GM recorded is a player',
      {
        roster: roster('Elfen', 'Torquez', 'Sundy'),
        events: [GmEvent.parse({ kind: 'replace', player: 'Elfen', by: 'Torquex', at: 10 })],
        hosts: [],
      },
      posts([11, 'Torquex']),
    ],
    [
      'a player matched as the list folds the name',
      { roster: roster('Humble Poirot', 'Cephrir', 'Titus'), events: [], hosts: [] },
      posts([5, 'HumblePoirot']),
    ],
  ])('no proposal: %s', (_, input, thread) => {
    expect(rosterSpellings({ ...input, posts: thread })).toEqual([]);
  });

  it('offers each slot once: a second close poster is left to the GM', () => {
    const out = rosterSpellings({
      roster: roster('Starbunkles', 'McStab', 'Hoopla'),
      events: [],
      hosts: [],
      posts: posts([26, 'Starbuckles'], [30, 'Starbunkies']),
    });
    expect(out.map((p) => p.poster)).toEqual(['Starbuckles']);
  });
});

describe("the spellings in the GM's news", () => {
  const input = {
    roster: roster('Empking', 'sapovirus', 'ShadoWolf'),
    events: [],
    hosts: ['InflatablePie'],
    posts: [
      { number: 3, author: 'Empking', permalink: 'https://forum.example/p3' },
      { number: 85, author: 'saporovirus', permalink: 'https://forum.example/p85' },
    ],
  };

  it("is a news item at the poster's first post, recorded as its replace", () => {
    const [item, ...rest] = spellingNews({ ...input, dismissed: new Set() });
    expect(rest).toEqual([]);
    expect(item).toMatchObject({ post: 85, author: 'saporovirus', permalink: 'https://forum.example/p85' });
    expect(item!.event).toMatchObject({ kind: 'replace', player: 'sapovirus', by: 'saporovirus' });
  });

  it('a dismissed spelling is not offered again', () => {
    const [item] = spellingNews({ ...input, dismissed: new Set() });
    expect(spellingNews({ ...input, dismissed: new Set([item!.key]) })).toEqual([]);
  });

  it('a recorded spelling is not offered again: the poster is a player', () => {
    const [item] = spellingNews({ ...input, dismissed: new Set() });
    expect(spellingNews({ ...input, events: [item!.event], dismissed: new Set() })).toEqual([]);
  });
});
