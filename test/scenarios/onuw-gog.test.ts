import { describe, expect, it } from 'vitest';
import type { TallyEvent } from '../../src/tally/log.js';
import { chatter, gm, players, vote } from '../tally/log-builders.js';
import { dayEnd, explained, flagsOf, scenario, totals } from './kit.js';
import { loadThread } from './thread-fixture.js';

/**
 * One Night Ultimate Werewolf on the GOG forum (seed 001, dedoporno 2016): rules 13-17,
 * the Hunter card and the note on edits. Seven players; the GM enters the hidden vote.
 */
const { count } = scenario('onuw-gog', players('Ann', 'Ben', 'Cat', 'Dan', 'Eva', 'Fin', 'Gus'));
/** The hidden vote: every vote as the GM enters it after post `at`, then the Day's end. */
const hiddenVote = (at: number, votes: Record<string, string>): TallyEvent[] => [
  ...Object.entries(votes).map(([player, target]) => gm({ at, kind: 'vote', player, target })),
  dayEnd(at),
];
const everyone = (targets: string[]) =>
  Object.fromEntries(['Ann', 'Ben', 'Cat', 'Dan', 'Eva', 'Fin', 'Gus'].map((p, i) => [p, targets[i]!]));

describe('onuw-gog: the hidden vote', () => {
  it('13. When the Day Phase is over a hidden vote occurs: the GM enters the votes', () => {
    const t = count([chatter(1, 'Ann'), ...hiddenVote(1, everyone(['Cat', 'Cat', 'Dan', 'Cat', 'Ben', 'Dan', 'Ann']))]);
    expect(totals(t)).toEqual([
      ['Cat', 3],
      ['Dan', 2],
      ['Ann', 1],
      ['Ben', 1],
    ]);
    expect(t.wagons[0]?.voters.map((v) => v.player)).toEqual(['Ann', 'Ben', 'Dan']);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Cat'], decidedAt: 1 });
  });

  it('A vote posted in the thread does not count: only the hidden vote does', () => {
    const t = count([vote(1, 'Ben', 'Cat')]);
    expect(t.wagons).toEqual([]);
    expect(flagsOf(t)).toEqual([[1, 'vote-in-thread', 'Ben']]);
  });

  it('The hidden vote is not shown in public until the Day is decided', () => {
    const events = [
      gm({ at: 1, kind: 'vote', player: 'Ann', target: 'Cat' }),
      gm({ at: 1, kind: 'vote', player: 'Ben', target: 'Cat' }),
    ];
    const open = count(events, { view: 'public' });
    expect(open).toMatchObject({ wagons: [], notVoting: [], outcome: { status: 'open', leaders: [] } });
    expect(open.notes).toEqual(['votes are published when the Day is decided']);
    expect(count(events, { view: 'gm' }).wagons).toHaveLength(1);
    expect(count([...events, dayEnd(1)], { view: 'public' }).wagons).toMatchObject([{ target: 'Cat', total: 2 }]);
  });

  it('14. Each player has to cast a vote: a missing one is flagged for the GM', () => {
    const t = count(hiddenVote(1, { Ann: 'Cat', Ben: 'Cat', Cat: 'Dan', Dan: 'Cat', Eva: 'Ben', Fin: 'Dan' }));
    expect(flagsOf(t)).toEqual([[1, 'missing-vote', 'Gus']]);
  });

  it('14. "No-lynch" is allowed: a No-lynch win lynches nobody', () => {
    const t = count(hiddenVote(1, everyone(['No-lynch', 'no lynch', 'No-lynch', 'Cat', 'Ben', 'Dan', 'Ann'])));
    expect(t.outcome).toMatchObject({ status: 'no-lynch', eliminated: [], leaders: ['No-lynch'] });
  });

  it('15. In case of ties all tied players will be killed', () => {
    const t = count(hiddenVote(1, everyone(['Cat', 'Cat', 'Dan', 'Dan', 'Ben', 'Fin', 'Ann'])));
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Cat', 'Dan'], leaders: ['Cat', 'Dan'] });
    expect(explained(t)).toContain('everyone tied dies: Cat, Dan');
  });

  it('16. No-lynch will always lose ties', () => {
    const t = count(hiddenVote(1, everyone(['Cat', 'Cat', 'No-lynch', 'No-lynch', 'Ben', 'Fin', 'Ann'])));
    expect(t.outcome).toMatchObject({ eliminated: ['Cat'], leaders: ['Cat', 'No-lynch'] });
  });

  it('16. No-lynch tied with two players: both players die', () => {
    const t = count(hiddenVote(1, everyone(['Cat', 'Cat', 'No-lynch', 'No-lynch', 'Dan', 'Dan', 'Ann'])));
    expect(t.outcome.eliminated).toEqual(['Cat', 'Dan']);
  });

  it('17. If no player has more than 1 vote automatic No-lynch will occur', () => {
    const t = count(hiddenVote(1, everyone(['Ben', 'Cat', 'Dan', 'Eva', 'Fin', 'Gus', 'Ann'])));
    expect(t.outcome).toMatchObject({ status: 'no-lynch', eliminated: [] });
    expect(explained(t)).toContain('nobody has 2 votes: no lynch');
  });

  it('17. No-lynch with 2 votes and no player above 1: no lynch', () => {
    const t = count(hiddenVote(1, everyone(['No-lynch', 'No-lynch', 'Dan', 'Eva', 'Fin', 'Gus', 'Ann'])));
    expect(t.outcome.status).toBe('no-lynch');
  });

  it('If the Hunter gets lynched they automatically shoot who they voted for', () => {
    const t = count([
      gm({ at: 0, kind: 'role', player: 'Dan', role: 'Hunter' }),
      ...hiddenVote(1, everyone(['Dan', 'Dan', 'Dan', 'Eva', 'Fin', 'Gus', 'Ann'])),
    ]);
    expect(t.outcome.eliminated).toEqual(['Dan', 'Eva']);
    expect(explained(t)).toContain('Dan (Hunter) takes Eva, their vote, along');
  });

  it('If the Hunter votes "No-Lynch" no one else dies', () => {
    const t = count([
      gm({ at: 0, kind: 'role', player: 'Dan', role: 'hunter' }),
      ...hiddenVote(1, everyone(['Dan', 'Dan', 'Dan', 'No-lynch', 'Fin', 'Gus', 'Ann'])),
    ]);
    expect(t.outcome.eliminated).toEqual(['Dan']);
    expect(explained(t)).toContain('Dan (hunter) voted No-lynch: nobody else dies');
  });

  it('Tied players all die, and a tied Hunter still takes their vote along', () => {
    const t = count([
      gm({ at: 0, kind: 'role', player: 'Cat', role: 'hunter' }),
      ...hiddenVote(1, everyone(['Cat', 'Cat', 'Gus', 'Dan', 'Dan', 'Fin', 'Ann'])),
    ]);
    expect(t.outcome.eliminated).toEqual(['Cat', 'Dan', 'Gus']);
  });

  it('18. Roles are the FINAL cards: the Hunter is whoever the GM records with the card', () => {
    const events = hiddenVote(1, everyone(['Dan', 'Dan', 'Dan', 'Eva', 'Fin', 'Gus', 'Ann']));
    expect(count(events).outcome.eliminated).toEqual(['Dan']);
    expect(count([gm({ at: 1, kind: 'role', player: 'Dan', role: 'hunter' }), ...events]).outcome.eliminated).toEqual([
      'Dan',
      'Eva',
    ]);
  });

  it('Editing of old posts is not encouraged, but not punished', () => {
    const t = count([
      chatter(3, 'Cat', { violations: [{ kind: 'edit', detail: 'Post edited December 22, 2016 by Cat' }] }),
    ]);
    expect(t.violations).toEqual([]);
    expect(t.penalties).toBeUndefined();
  });
});

describe('onuw-gog: the fixture thread', () => {
  it('the talk, then the hidden vote: Cat (the Hunter) is lynched and takes Dan along', () => {
    const thread = loadThread('onuw-gog.thread.yaml');
    const t = count(thread.events);
    expect(totals(t)).toEqual([
      ['Cat', 3],
      ['Dan', 2],
      ['Ben', 1],
      ['No-lynch', 1],
    ]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Cat', 'Dan'], decidedAt: 6 });
    expect(flagsOf(t)).toEqual([[2, 'vote-in-thread', 'Ben']]);
    expect(count(thread.events, { toPost: 5, view: 'public' })).toMatchObject({
      wagons: [],
      outcome: { status: 'open' },
    });
  });
});
