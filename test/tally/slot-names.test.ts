import { describe, expect, it } from 'vitest';
import type { GmEvent } from '../../src/model/event.js';
import type { Roster } from '../../src/model/roster.js';
import { rosterAt } from '../../src/tally/slot-names.js';
import { players } from './log-builders.js';

/** rosterAt: the roster a post is read under has the GM's replacements and deaths recorded before it. */

const three = players('PeaceBringer', 'Prolapsed Brain', 'Juls');
const alive = (r: Roster) => Object.fromEntries(r.map((s) => [s.name, s.alive]));
const at10 = { number: 10, postedAt: '2026-03-03T10:00:00Z' };

describe('rosterAt: deaths and revivals', () => {
  const cases: { name: string; events: GmEvent[]; dead: string[] }[] = [
    {
      name: 'a kill placed after an earlier post marks the slot dead',
      events: [{ kind: 'kill', player: 'Prolapsed Brain', at: 9 }],
      dead: ['Prolapsed Brain'],
    },
    { name: 'a modkill marks the slot dead', events: [{ kind: 'modkill', player: 'Juls', at: 3 }], dead: ['Juls'] },
    {
      name: 'a kill placed after this post (or later) does not',
      events: [{ kind: 'kill', player: 'Juls', at: 10 }],
      dead: [],
    },
    {
      name: 'a kill timed at the post is before it',
      events: [{ kind: 'kill', player: 'Juls', time: '2026-03-03T10:00:00Z' }],
      dead: ['Juls'],
    },
    {
      name: 'a kill timed after the post is not',
      events: [{ kind: 'kill', player: 'Juls', time: '2026-03-03T10:00:01Z' }],
      dead: [],
    },
    {
      name: 'a revive after the kill makes the slot alive again',
      events: [
        { kind: 'revive', player: 'Juls', at: 6 },
        { kind: 'kill', player: 'Juls', at: 4 },
      ],
      dead: [],
    },
    {
      name: 'a revive placed after this post leaves the slot dead',
      events: [
        { kind: 'kill', player: 'Juls', at: 4 },
        { kind: 'revive', player: 'Juls', at: 12 },
      ],
      dead: ['Juls'],
    },
    {
      name: "a kill of a replaced player's old name kills the slot",
      events: [
        { kind: 'replace', player: 'Juls', by: 'Jinx', at: 2 },
        { kind: 'kill', player: 'Juls', at: 5 },
      ],
      dead: ['Jinx'],
    },
    {
      name: 'a kill of a name not on the roster changes nothing',
      events: [{ kind: 'kill', player: 'Nobody', at: 1 }],
      dead: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = rosterAt(three, c.events, at10);
      expect(Object.entries(alive(r)).flatMap(([n, a]) => (a ? [] : [n]))).toEqual(c.dead);
    });
  }

  it('leaves the roster it was given as it was', () => {
    rosterAt(three, [{ kind: 'kill', player: 'Juls', at: 1 }], at10);
    expect(three.every((s) => s.alive)).toBe(true);
  });
});

describe('rosterAt: replacements rename the slot as the tally does', () => {
  const names = (r: Roster) => r.map((s) => [s.name, ...s.formerNames].join('<'));
  const cases: { name: string; events: GmEvent[]; slots: string[] }[] = [
    {
      name: 'a replacement makes the newcomer the name and keeps the old one',
      events: [{ kind: 'replace', player: 'Juls', by: 'Jinx', at: 2 }],
      slots: ['PeaceBringer', 'Prolapsed Brain', 'Jinx<Juls'],
    },
    {
      // MafiaScum game 1809 (donbot data 739243d): the GM accepts "Wake1 replaces Nachomamma8"
      // from #5, then the news "Wingback replaces Nachomamma8"; the tally renames the slot to
      // Wingback, so the moderator's "Wake1" must read as that slot, not as a slot of its own.
      name: 'a replacement naming the slot by a former name renames it too',
      events: [
        { kind: 'replace', player: 'Juls', by: 'Jinx', at: 2 },
        { kind: 'replace', player: 'Juls', by: 'Jade', at: 4 },
      ],
      slots: ['PeaceBringer', 'Prolapsed Brain', 'Jade<Juls<Jinx'],
    },
    {
      name: 'a replacement of a name not on the roster changes nothing',
      events: [{ kind: 'replace', player: 'Nobody', by: 'Jade', at: 2 }],
      slots: ['PeaceBringer', 'Prolapsed Brain', 'Juls'],
    },
  ];
  for (const c of cases) it(c.name, () => expect(names(rosterAt(three, c.events, at10))).toEqual(c.slots));
});

describe("rosterAt: the GM's decision buries at the next Day's start", () => {
  const dead = (events: GmEvent[]) =>
    rosterAt(three, events, at10)
      .filter((s) => !s.alive)
      .map((s) => s.name);
  const cases: { name: string; events: GmEvent[]; dead: string[] }[] = [
    {
      name: 'the decided player is dead once the next Day has started',
      events: [
        { kind: 'decide', eliminated: ['Juls'], at: 4 },
        { kind: 'day-start', day: 2, at: 6 },
      ],
      dead: ['Juls'],
    },
    {
      name: 'before the next Day starts the decided player is still on the roster (the Night)',
      events: [
        { kind: 'decide', eliminated: ['Juls'], at: 4 },
        { kind: 'day-start', day: 2, at: 12 },
      ],
      dead: [],
    },
    {
      name: "the Day's last decision wins",
      events: [
        { kind: 'decide', eliminated: ['Juls'], at: 3 },
        { kind: 'decide', eliminated: ['PeaceBringer'], at: 4 },
        { kind: 'day-start', day: 2, at: 6 },
      ],
      dead: ['PeaceBringer'],
    },
    {
      name: 'a player revived after the decision stays alive',
      events: [
        { kind: 'decide', eliminated: ['Juls'], at: 3 },
        { kind: 'revive', player: 'Juls', at: 4 },
        { kind: 'day-start', day: 2, at: 6 },
      ],
      dead: [],
    },
    {
      name: 'a decision of nobody buries nobody',
      events: [
        { kind: 'decide', eliminated: [], at: 3 },
        { kind: 'day-start', day: 2, at: 6 },
      ],
      dead: [],
    },
    {
      name: "a decision is one Day's: a later Day's start does not bury its players again after a revive",
      events: [
        { kind: 'decide', eliminated: ['Juls'], at: 2 },
        { kind: 'day-start', day: 2, at: 3 },
        { kind: 'revive', player: 'Juls', at: 4 },
        { kind: 'day-start', day: 3, at: 6 },
      ],
      dead: [],
    },
  ];
  for (const c of cases) it(c.name, () => expect(dead(c.events)).toEqual(c.dead));
});
