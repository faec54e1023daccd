import { describe, expect, it } from 'vitest';
import { mulberry32, seedFrom } from '../../src/tally/draw.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { gm, players, unvote, veto, vote } from '../tally/log-builders.js';
import { dayEnd, dayStart, explained, flagsOf, kill, scenario, totals, wagon } from './kit.js';
import { loadThread } from './thread-fixture.js';

/**
 * TWG2, Havenburg (seed 003, Ronin 2012): "Votes and Vetos" and "The Mayor". Seven
 * players, public bold votes in the thread.
 */
const names = ['Ronin', 'elD', 'Hal', 'Ivy', 'Jax', 'Kim', 'Lou'];
const { count, ruleset } = scenario('twg2', players(...names));
const mayor = (player: string) => gm({ at: 0, kind: 'role', player, role: 'Mayor' });
/** Every listed player votes in turn from post `from`. */
const ballot = (from: number, votes: Record<string, string>): TallyEvent[] =>
  Object.entries(votes).map(([who, target], i) => vote(from + i, who, target));

describe('twg2: Votes and Vetos', () => {
  it('Votes are made publicly, in bold, in the thread: the PC with the highest number of votes is lynched', () => {
    const t = count([
      ...ballot(1, { Ronin: 'Jax', elD: 'Jax', Hal: 'Ivy', Ivy: 'Jax', Jax: 'Ivy', Kim: 'Lou', Lou: 'Kim' }),
      dayEnd(7),
    ]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Jax'], decidedAt: 7 });
  });

  it('For the first day only, PCs may cast a "no lynch" vote: if the "no lynch" votes win there is no lynching', () => {
    const t = count([
      ...ballot(1, {
        Ronin: 'No Lynch',
        elD: 'no lynch',
        Hal: 'Ivy',
        Ivy: 'No Lynch',
        Jax: 'Ivy',
        Kim: 'Lou',
        Lou: 'Kim',
      }),
      dayEnd(7),
    ]);
    expect(t.outcome).toMatchObject({ status: 'no-lynch', eliminated: [], leaders: ['No Lynch'] });
  });

  it('After the first day, votes must all be for a PC or a veto: "no lynch" is refused', () => {
    const t = count([dayEnd(0), dayStart(0, 2), vote(1, 'Ronin', 'Ivy'), vote(2, 'Ronin', 'No Lynch')]);
    expect(flagsOf(t)).toEqual([[2, 'no-lynch-not-allowed', 'Ronin']]);
    expect(totals(t)).toEqual([['Ivy', 1]]);
  });

  it('Every day, everyone (alive) must vote: no abstentions', () => {
    const t = count([...ballot(1, { Ronin: 'Jax', elD: 'Jax', Hal: 'Ivy', Ivy: 'Jax', Jax: 'Ivy' }), dayEnd(5)]);
    expect(flagsOf(t)).toEqual([
      [5, 'missing-vote', 'Kim'],
      [5, 'missing-vote', 'Lou'],
    ]);
  });

  it('Each veto cast nullifies a vote for lynching that PC that day', () => {
    const t = count([...ballot(1, { Ronin: 'Jax', elD: 'Jax', Hal: 'Ivy' }), veto(4, 'Kim', 'Jax')]);
    expect(wagon(t, 'Jax')).toMatchObject({ votes: 2, cancelled: 1, total: 1 });
    expect(wagon(t, 'Jax')?.explain?.map((e) => e.text)).toEqual([
      'Ronin: vote',
      'elD: vote',
      "Kim's veto cancels one vote",
    ]);
  });

  it('If only one PC was in the running and they receive zero (or less) votes then no one is lynched', () => {
    const t = count([vote(1, 'Ronin', 'Jax'), veto(2, 'Kim', 'Jax'), veto(3, 'Lou', 'Jax'), dayEnd(3)]);
    expect(wagon(t, 'Jax')).toMatchObject({ votes: 1, cancelled: 2, total: -1 });
    expect(t.outcome).toMatchObject({ status: 'no-lynch', eliminated: [] });
  });

  it('A vetoed PC is lynched only with more votes left than anyone else', () => {
    const t = count([
      ...ballot(1, { Ronin: 'Jax', elD: 'Jax', Hal: 'Ivy', Ivy: 'Kim' }),
      veto(5, 'Kim', 'Jax'),
      dayEnd(5),
    ]);
    expect(totals(t)).toEqual([
      ['Jax', 1],
      ['Ivy', 1],
      ['Kim', 1],
    ]);
    expect(t.outcome.status).toBe('ended');
    expect(t.outcome.draw?.candidates).toEqual(['Ivy', 'Jax', 'Kim']);
  });

  it('You only get one veto per game', () => {
    const t = count([veto(1, 'Kim', 'Jax'), dayEnd(1), dayStart(1, 2), veto(2, 'Kim', 'Ivy')]);
    expect(flagsOf(t)).toEqual([[2, 'veto-spent', 'Kim']]);
    expect(t.wagons).toEqual([]);
  });

  it('You can only use your veto for someone else, not in (direct) self-preservation', () => {
    const t = count([vote(1, 'Ronin', 'Kim'), veto(2, 'Kim', 'Kim'), veto(3, 'Kim', 'Ivy')]);
    expect(flagsOf(t)).toEqual([[2, 'self-veto', 'Kim']]);
    // The refused veto is not spent: the next one counts.
    expect(wagon(t, 'Ivy')?.cancelled).toBe(1);
  });

  it('At the point a lynch vote is tied, a coin toss between them: seeded, recorded and shown', () => {
    const events = [
      ...ballot(1, { Ronin: 'Jax', elD: 'Ivy', Hal: 'Lou', Ivy: 'Jax', Jax: 'Ivy', Kim: 'Lou', Lou: 'Kim' }),
      dayEnd(7),
    ];
    const t = count(events);
    const seed = seedFrom('twg2|day 1|Ivy|Jax|Lou');
    const roll = mulberry32(seed)();
    const picked = ['Ivy', 'Jax', 'Lou'][Math.floor(roll * 3)]!;
    expect(t.outcome).toMatchObject({
      status: 'ended',
      eliminated: [picked],
      draw: { seed, candidates: ['Ivy', 'Jax', 'Lou'], roll, picked },
    });
    expect(explained(t)).toContain(
      `random draw among Ivy, Jax, Lou (seed ${seed}, roll ${roll.toFixed(6)}): ${picked}`,
    );
    // A recount draws the same.
    expect(count(events).outcome).toEqual(t.outcome);
  });

  it('The GM may fix the seed of the draw (day-end seed)', () => {
    const votes = ballot(1, { Ronin: 'Jax', elD: 'Ivy' });
    const drawn = (seed: number) => count([...votes, gm({ at: 2, kind: 'day-end', seed })]).outcome.draw;
    expect(drawn(1)?.seed).toBe(1);
    const picks = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((s) => drawn(s)?.picked));
    expect(picks).toEqual(new Set(['Ivy', 'Jax']));
  });

  it('A No Lynch tied on the first day takes part in the coin toss', () => {
    const t = count([...ballot(1, { Ronin: 'Jax', elD: 'No Lynch' }), dayEnd(2)]);
    expect(t.outcome.draw?.candidates).toEqual(['Jax', 'No Lynch']);
  });

  it('If a PC fails to vote for two consecutive days then they are dead', () => {
    const everyoneBut = (from: number, who: string) =>
      ballot(from, Object.fromEntries(names.filter((n) => n !== who).map((n) => [n, n === 'Ronin' ? 'Ivy' : 'Ronin'])));
    const day1 = [...everyoneBut(1, 'Lou'), dayEnd(6)];
    expect(count(day1).deaths).toBeUndefined();
    const t = count([...day1, dayStart(6, 2), ...everyoneBut(7, 'Lou'), dayEnd(12)]);
    expect(t.deaths).toEqual([
      {
        player: 'Lou',
        cause: 'inactivity',
        day: 2,
        post: 12,
        text: 'missed phases: 2 in a row (latest: Day 2 without a vote)',
      },
    ]);
    expect(
      count([...day1, dayStart(6, 2), ...everyoneBut(7, 'Lou'), dayEnd(12), dayStart(12, 3)]).players,
    ).not.toContain('Lou');
  });

  it('Two days without a vote must be consecutive: a vote in between starts the count again', () => {
    const t = count([
      vote(1, 'Ronin', 'Ivy'),
      dayEnd(1),
      dayStart(1, 2),
      vote(2, 'Lou', 'Jax'),
      dayEnd(2),
      dayStart(2, 3),
      vote(3, 'Ronin', 'Lou'),
      dayEnd(3),
    ]);
    // Day 1 only Ronin votes (Ivy is lynched, so dead on Day 2), Day 2 only Lou: the other
    // four die after Day 2; Ronin and Lou each missed one Day, then voted (Ronin on Day 1,
    // Lou on Day 2), so neither has two in a row.
    expect(t.deaths?.map((d) => [d.player, d.day])).toEqual([
      ['elD', 2],
      ['Hal', 2],
      ['Jax', 2],
      ['Kim', 2],
    ]);
    expect(t.dead).toContain('Ivy');
    expect(t.players).toEqual(['Ronin', 'Lou']);
  });

  it('A veto is a vote for that purpose: "votes must all be for a PC or a veto"', () => {
    const t = count([veto(1, 'Lou', 'Ivy'), dayEnd(1), dayStart(1, 2), dayEnd(1)]);
    expect(t.deaths?.map((d) => d.player)).not.toContain('Lou');
    expect(t.flags.filter((f) => f.player === 'Lou')).toEqual([
      { post: 1, player: 'Lou', kind: 'missing-vote', raw: 'no vote at the end of Day 2', candidates: [] },
    ]);
  });

  it('An unvote leaves the player without a vote', () => {
    const t = count([vote(1, 'Lou', 'Ivy'), unvote(2, 'Lou'), dayEnd(2)]);
    expect(t.flags.some((f) => f.kind === 'missing-vote' && f.player === 'Lou')).toBe(true);
  });

  it('Ghosts cannot vote or veto', () => {
    const t = count([kill(0, 'Lou'), vote(1, 'Lou', 'Ivy'), veto(2, 'Lou', 'Ivy')]);
    expect(flagsOf(t)).toEqual([
      [1, 'vote-by-dead', 'Lou'],
      [2, 'vote-by-dead', 'Lou'],
    ]);
  });
});

describe('twg2: The Mayor', () => {
  it('Each day the Mayor has two votes', () => {
    const t = count([mayor('Hal'), vote(1, 'Hal', 'Jax'), vote(2, 'Ivy', 'Kim')]);
    expect(wagon(t, 'Jax')).toMatchObject({ votes: 2, voters: [{ player: 'Hal', weight: 2 }] });
    expect(wagon(t, 'Jax')?.explain?.[0]?.text).toBe('Hal: vote, counts 2');
  });

  it('Both votes must be cast in the same way, at the same PC: a new vote moves both', () => {
    const t = count([mayor('Hal'), vote(1, 'Hal', 'Jax'), vote(2, 'Hal', 'Kim')]);
    expect(totals(t)).toEqual([['Kim', 2]]);
  });

  it('The Mayor is an overt role: the public sees the double vote', () => {
    expect(count([mayor('Hal'), vote(1, 'Hal', 'Jax')], { view: 'public' }).wagons[0]?.votes).toBe(2);
    expect(ruleset.roles['mayor']).toEqual({ weight: 2, hiddenWeight: false, lynchKillsVoteTarget: false });
  });

  it('The Mayor still only has one veto', () => {
    const t = count([
      mayor('Hal'),
      vote(1, 'Ivy', 'Jax'),
      vote(2, 'Kim', 'Jax'),
      veto(3, 'Hal', 'Jax'),
      veto(4, 'Hal', 'Ivy'),
    ]);
    expect(wagon(t, 'Jax')).toMatchObject({ votes: 2, cancelled: 1, total: 1 });
    expect(flagsOf(t)).toEqual([[4, 'veto-spent', 'Hal']]);
  });
});

describe('twg2: the fixture thread', () => {
  const thread = loadThread('twg2.thread.yaml');

  it("Day 1: No Lynch (3) beats Jax (the Mayor's 2 and Ronin's 1, one vetoed: 2)", () => {
    const t = count(thread.events, { day: 1 });
    expect(t.wagons.map((w) => [w.target, w.votes, w.cancelled, w.total])).toEqual([
      ['No Lynch', 3, 0, 3],
      ['Jax', 3, 1, 2],
    ]);
    expect(t.outcome).toMatchObject({ status: 'no-lynch', decidedAt: 7 });
    expect(flagsOf(t)).toEqual([[7, 'missing-vote', 'Lou']]);
  });

  it("Day 2: No Lynch refused, Kim's second veto refused, Ivy and Kim tie and the draw decides; Lou dies of two silent days", () => {
    const t = count(thread.events, { day: 2 });
    expect(totals(t)).toEqual([
      ['Ivy', 3],
      ['Kim', 3],
    ]);
    expect(t.outcome.draw).toMatchObject({ candidates: ['Ivy', 'Kim'], seed: seedFrom('twg2|day 2|Ivy|Kim') });
    expect(t.outcome.eliminated).toEqual([t.outcome.draw?.picked]);
    expect(flagsOf(t)).toEqual([
      [9, 'no-lynch-not-allowed', 'elD'],
      [13, 'veto-spent', 'Kim'],
      [14, 'missing-vote', 'elD'],
      [14, 'missing-vote', 'Lou'],
    ]);
    expect(t.deaths?.map((d) => [d.player, d.cause])).toEqual([['Lou', 'inactivity']]);
  });
});
