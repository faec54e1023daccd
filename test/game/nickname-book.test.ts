import { describe, expect, it } from 'vitest';
import { type BookEntry, knownNicknames } from '../../src/game/nickname-book.js';
import type { DroppedNickname } from '../../src/model/nickname.js';
import { Roster, type SlotInput } from '../../src/model/roster.js';

/** A site's book applied to a new game's roster: which slots get which nicknames from earlier games. */
const pk: BookEntry = { forumName: 'PeregrineKnight', nickname: 'PK', fromTitle: 'Mini 12' };

interface Case {
  name: string;
  players: SlotInput[];
  book: BookEntry[];
  dropped?: DroppedNickname[];
  /** Each slot's nicknames as `name (from)`. */
  expected: Record<string, string[]>;
}

const cases: Case[] = [
  {
    name: "the slot with the book's forum name gets the nickname, with its game",
    players: [{ name: 'PeregrineKnight' }, { name: 'Sonja' }],
    book: [pk],
    expected: { PeregrineKnight: ['PK (Mini 12)'], Sonja: [] },
  },
  {
    name: 'the forum name is compared as names are (case, spaces)',
    players: [{ name: 'peregrine knight' }],
    book: [pk],
    expected: { 'peregrine knight': ['PK (Mini 12)'] },
  },
  {
    name: "a replaced player's forum name (a former name of the slot) brings its nicknames",
    players: [{ name: 'Sonja', formerNames: ['PeregrineKnight'] }],
    book: [pk],
    expected: { Sonja: ['PK (Mini 12)'] },
  },
  {
    name: 'a nickname the game already has as an alias of the slot is left out',
    players: [{ name: 'PeregrineKnight', aliases: ['pk'] }],
    book: [pk],
    expected: { PeregrineKnight: [] },
  },
  {
    name: "a nickname that is another player's forum name in this game is left out (mafiascum games 1543, 1575)",
    players: [{ name: 'MafiaSSK' }, { name: 'Natirasha' }],
    book: [{ forumName: 'MafiaSSK', nickname: 'Natirasha', fromTitle: 'mafiascum 1543' }],
    expected: { MafiaSSK: [], Natirasha: [] },
  },
  {
    name: 'a nickname the GM dropped for this game is left out',
    players: [{ name: 'PeregrineKnight' }],
    book: [pk, { forumName: 'PeregrineKnight', nickname: 'Perry', fromTitle: 'Mini 30' }],
    dropped: [{ forumName: 'PeregrineKnight', nickname: 'pk' }],
    expected: { PeregrineKnight: ['Perry (Mini 30)'] },
  },
  {
    name: 'the same nickname from two games is given once, from the first',
    players: [{ name: 'PeregrineKnight' }],
    book: [pk, { ...pk, fromTitle: 'Mini 30' }],
    expected: { PeregrineKnight: ['PK (Mini 12)'] },
  },
];

describe("the site's nickname book on a new game's roster", () => {
  it.each(cases)('$name', (c) => {
    const out = knownNicknames(Roster.parse(c.players), c.book, c.dropped);
    expect(
      Object.fromEntries(out.map((s) => [s.name, (s.nicknames ?? []).map((n) => `${n.name} (${n.from})`)])),
    ).toEqual(c.expected);
  });
});
