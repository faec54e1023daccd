import { describe, expect, it } from 'vitest';
import type { MatchKind } from '../../src/model/action.js';
import { Roster, type SlotInput } from '../../src/model/roster.js';
import { resolveName } from '../../src/parse/names.js';
import { readPost } from '../../src/parse/read-post.js';
import { NameMatching } from '../../src/rules/ruleset.js';
import { b, post, rules } from './build.js';

/** "PK" for PeregrineKnight, learned in an earlier game on the site (the nickname book). */
const pk = (from = 'Mini 12'): SlotInput['nicknames'] => [{ name: 'PK', from }];

interface Case {
  name: string;
  written: string;
  players: SlotInput[];
  match: MatchKind;
  target: string | null;
  candidates?: string[];
  from?: string;
}

const cases: Case[] = [
  {
    name: 'a known nickname no rung reads is the player, shown with its game',
    written: 'PK',
    players: [{ name: 'PeregrineKnight', nicknames: pk() }, { name: 'Sonja' }],
    match: 'nickname',
    target: 'PeregrineKnight',
    from: 'Mini 12',
  },
  {
    name: 'decorations and case do not hide a nickname',
    written: 'pk!',
    players: [{ name: 'PeregrineKnight', nicknames: pk() }, { name: 'Sonja' }],
    match: 'nickname',
    target: 'PeregrineKnight',
  },
  {
    name: "a nickname that is another player's name is ambiguous",
    written: 'PK',
    players: [{ name: 'PeregrineKnight', nicknames: pk() }, { name: 'PK' }],
    match: 'ambiguous',
    target: null,
    candidates: ['PK', 'PeregrineKnight'],
  },
  {
    name: "a nickname that is another player's alias in this game is ambiguous",
    written: 'PK',
    players: [
      { name: 'PeregrineKnight', nicknames: pk() },
      { name: 'Pinkerton', aliases: ['PK'] },
    ],
    match: 'ambiguous',
    target: null,
    candidates: ['Pinkerton', 'PeregrineKnight'],
  },
  {
    name: "a nickname another player's name reads loosely (their initials) is ambiguous",
    written: 'PK',
    players: [{ name: 'PeregrineKnight', nicknames: pk() }, { name: 'Pink Kitten' }],
    match: 'ambiguous',
    target: null,
    candidates: ['Pink Kitten', 'PeregrineKnight'],
  },
  {
    name: 'a nickname two players were given in earlier games is ambiguous',
    written: 'PK',
    players: [
      { name: 'PeregrineKnight', nicknames: pk('Mini 12') },
      { name: 'Pumpkinhead', nicknames: pk('Mini 30') },
    ],
    match: 'ambiguous',
    target: null,
    candidates: ['PeregrineKnight', 'Pumpkinhead'],
  },
  {
    name: "a nickname the ladder reads as the same player is the nickname (shown), not the ladder's guess",
    written: 'PK',
    players: [{ name: 'Peregrine Knight', nicknames: pk() }, { name: 'Sonja' }],
    match: 'nickname',
    target: 'Peregrine Knight',
  },
  {
    name: "the game's own alias for the same player stays an alias",
    written: 'PK',
    players: [{ name: 'PeregrineKnight', aliases: ['PK'], nicknames: pk() }, { name: 'Sonja' }],
    match: 'alias',
    target: 'PeregrineKnight',
  },
  {
    name: 'a name that is no nickname climbs the ladder as before',
    written: 'Sonja',
    players: [{ name: 'PeregrineKnight', nicknames: pk() }, { name: 'Sonja' }],
    match: 'exact',
    target: 'Sonja',
  },
];

describe('known nicknames from earlier games (never guess)', () => {
  it.each(cases)('$name', (c) => {
    const r = resolveName(c.written, Roster.parse(c.players), NameMatching.parse({}));
    expect({ match: r.match, target: r.target }).toEqual({ match: c.match, target: c.target });
    if (c.candidates) expect([...r.candidates].sort()).toEqual([...c.candidates].sort());
    if (c.from) expect(r.from).toBe(c.from);
  });

  it('a vote by a known nickname is counted and says where the nickname came from', () => {
    const players = Roster.parse([{ name: 'PeregrineKnight', nicknames: pk() }, { name: 'Sonja' }, { name: 'Zeke' }]);
    const reading = readPost(post(b('Vote: PK')), players, rules());
    expect(reading.effect).toEqual({ kind: 'vote', target: 'PeregrineKnight', reason: null });
    expect(reading.actions[0]).toMatchObject({ match: 'nickname', written: 'PK', from: 'Mini 12' });
  });

  it('a vote by an ambiguous nickname goes to review', () => {
    const players = Roster.parse([{ name: 'PeregrineKnight', nicknames: pk() }, { name: 'PK' }]);
    const reading = readPost(post(b('Vote: PK')), players, rules());
    expect(reading.effect).toMatchObject({ kind: 'review', reason: 'ambiguous-target' });
  });
});
