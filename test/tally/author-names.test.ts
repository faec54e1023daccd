import { describe, expect, it } from 'vitest';
import { countVotes } from '../../src/tally/count.js';
import { findSlot, foldedOnly } from '../../src/tally/slot-names.js';
import { gm, players, plurality, vote } from './log-builders.js';

/*
 * Issue #24: GMs type the roster by hand, so a post's author may be written otherwise than
 * the roster: the author finds its slot by the one folded name key (case, spaces,
 * punctuation, brackets), but only when exactly one slot folds to it.
 */
describe('a post author written otherwise than the roster finds its slot', () => {
  const cases: { name: string; source: string; roster: string[]; author: string; slot: string }[] = [
    {
      name: 'a space the roster lacks',
      source: 'MafiaScum game 1114 post #72, donbot data 739243d',
      roster: ['HumblePoirot', 'Javert', 'Prox'],
      author: 'Humble Poirot',
      slot: 'HumblePoirot',
    },
    {
      name: 'brackets the GM typed',
      source: 'MafiaScum game 1122 post #40, donbot data 739243d',
      roster: ['[Redacted]', 'Neruz', 'GreyICE'],
      author: 'Redacted',
      slot: '[Redacted]',
    },
    {
      name: 'punctuation and case',
      source: 'a roster shape: "Dr. Who" typed as "drwho"',
      roster: ['Dr. Who', 'Alice'],
      author: 'DRWHO',
      slot: 'Dr. Who',
    },
  ];
  for (const c of cases) {
    it(`${c.name} (${c.source})`, () => {
      const roster = players(...c.roster);
      expect(roster[findSlot(roster, c.author)!]?.name).toBe(c.slot);
      expect(foldedOnly(roster, c.author)).toBe(true);
      const t = countVotes({ ruleset: plurality(), roster, events: [vote(5, c.author, c.roster[1]!)] });
      expect(t.wagons.find((w) => w.target === c.roster[1])?.voters.map((v) => v.player)).toEqual([c.slot]);
      expect(t.flags.filter((f) => f.kind === 'vote-by-non-player')).toEqual([]);
    });
  }

  it('an exact name is not reported as matched by folding', () => {
    const roster = players('HumblePoirot', 'Javert');
    expect(foldedOnly(roster, 'humblepoirot')).toBe(false);
  });
});

describe('two slots that fold alike', () => {
  const roster = players('Bob Smith', 'BobSmith', 'Alice');

  it('the exact name wins', () => {
    expect(findSlot(roster, 'Bob Smith')).toBe(0);
    expect(findSlot(roster, 'BobSmith')).toBe(1);
  });

  it('any other spelling matches neither, and its vote goes to the GM', () => {
    expect(findSlot(roster, 'bob_smith')).toBeUndefined();
    const t = countVotes({ ruleset: plurality(), roster, events: [vote(5, 'Bob-Smith', 'Alice')] });
    expect(t.wagons.find((w) => w.target === 'Alice')?.voters ?? []).toEqual([]);
    expect(t.flags.map((f) => [f.kind, f.player])).toContainEqual(['vote-by-non-player', 'Bob-Smith']);
  });
});

/*
 * A player who replaced into a second slot once their first died answers to both slots'
 * names: their posts and the votes for them are the living slot's (MafiaScum game 1426, donbot
 * data 739243d: Mr. Flay replaced Beyond_Birthday, died on Night 1, then replaced Blue Yoshi;
 * the vote at post #396 was read as the dead slot's, and Day 2 went without its hammer).
 */
describe("a name two slots answer to: the living slot's", () => {
  const roster = players('Beyond_Birthday', 'Blue Yoshi', 'Keybladewielder', 'Alice');
  const events = [
    gm({ at: 1, kind: 'replace', player: 'Beyond_Birthday', by: 'Mr. Flay' }),
    gm({ at: 2, kind: 'kill', player: 'Mr. Flay' }),
    gm({ at: 3, kind: 'replace', player: 'Blue Yoshi', by: 'Mr. Flay' }),
  ];

  it('their vote counts, for the slot they play now', () => {
    const t = countVotes({ ruleset: plurality(), roster, events: [...events, vote(4, 'Mr. Flay', 'Keybladewielder')] });
    expect(t.wagons.find((w) => w.target === 'Keybladewielder')?.voters.map((v) => v.post)).toEqual([4]);
    expect(t.flags.filter((f) => f.kind === 'vote-by-dead')).toEqual([]);
  });

  it('a vote for them is for the living slot', () => {
    const t = countVotes({ ruleset: plurality(), roster, events: [...events, vote(4, 'Alice', 'Mr. Flay')] });
    expect(t.flags.filter((f) => f.kind === 'vote-for-dead')).toEqual([]);
    expect(t.wagons.map((w) => [w.target, w.voters.map((v) => v.player)])).toEqual([['Mr. Flay', ['Alice']]]);
  });

  it('while both slots live, the first slot keeps the name, as before', () => {
    const both = players('Mr. Flay', 'Blue Yoshi');
    expect(findSlot([...both, { name: 'Mr. Flay', formerNames: [], aliases: [] }], 'Mr. Flay')).toBe(0);
  });
});
