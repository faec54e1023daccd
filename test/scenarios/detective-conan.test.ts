import { describe, expect, it } from 'vitest';
import type { GmEvent } from '../../src/model/event.js';
import { gm, players, vote } from '../tally/log-builders.js';
import { dayEnd, dayStart, explained, flagsOf, scenario, totals, wagon } from './kit.js';
import { loadThread } from './thread-fixture.js';

/**
 * Forum Mafia, Detective Conan setup (seed 002): "Voting", "Condition" and "Rules for
 * inactivity". Votes are PMed to the GM, who enters them (`vote` events).
 */
const { count } = scenario('detective-conan', players('Conia', 'Abs', 'Akonyl', 'Kleene', 'Miaka', 'pofa'));
const pm = (at: number, player: string, target: string | null, hidden?: boolean): GmEvent =>
  gm({ at, kind: 'vote', player, target, ...(hidden ? { hidden } : {}) });
const status = (at: number, player: string, s: string) => gm({ at, kind: 'status', player, status: s });

describe('detective-conan: Voting', () => {
  it('To vote, you must PM the order to the GM: those submitted in the main channel do not count', () => {
    const t = count([vote(1, 'Akonyl', 'Abs'), pm(1, 'Conia', 'Abs')]);
    expect(totals(t)).toEqual([['Abs', 1]]);
    expect(flagsOf(t)).toEqual([[1, 'vote-in-thread', 'Akonyl']]);
  });

  it('The player who has the most votes is lynched', () => {
    const t = count([pm(1, 'Conia', 'Abs'), pm(1, 'Akonyl', 'Abs'), pm(1, 'Abs', 'Miaka'), dayEnd(1)]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Abs'], decidedAt: 1 });
  });

  it("Each player's vote is made public at the end of each day phase", () => {
    const events = [pm(1, 'Conia', 'Abs'), pm(1, 'Akonyl', 'Abs')];
    const open = count(events, { view: 'public' });
    expect(open).toMatchObject({ wagons: [], notVoting: [], notes: ['votes are published when the Day is decided'] });
    expect(open.abstaining).toBeUndefined();
    expect(count([...events, dayEnd(1)], { view: 'public' }).wagons[0]?.voters.map((v) => v.player)).toEqual([
      'Akonyl',
      'Conia',
    ]);
  });

  it('... unless Voice of Reason, Lovey-Dovey, Protect or Travel was used: the vote counts, its voter is not shown', () => {
    const events = [pm(1, 'Conia', 'Abs', true), pm(1, 'Akonyl', 'Abs'), dayEnd(1)];
    expect(count(events, { view: 'public' }).wagons[0]?.voters.map((v) => v.player)).toEqual(['Akonyl', 'Hidden']);
    expect(count(events, { view: 'gm' }).wagons[0]?.voters.map((v) => v.player)).toEqual(['Akonyl', 'Conia']);
  });

  it('Players may abstain from voting', () => {
    const t = count([pm(1, 'pofa', 'abstain'), pm(1, 'Conia', 'Abs'), dayEnd(1)]);
    expect(t.abstaining).toEqual(['pofa']);
    expect(t.notVoting).not.toContain('pofa');
    expect(t.flags.filter((f) => f.player === 'pofa')).toEqual([]);
    expect(totals(t)).toEqual([['Abs', 1]]);
  });

  it('If a player was poisoned by APTX or arrested, their vote for that phase will not count or be shown', () => {
    const events = [
      status(0, 'Miaka', 'arrested'),
      status(0, 'pofa', 'poisoned'),
      pm(1, 'Miaka', 'Abs'),
      pm(1, 'pofa', 'Abs'),
      pm(1, 'Conia', 'Kleene'),
      dayEnd(1),
    ];
    const t = count(events);
    expect(wagon(t, 'Abs')).toMatchObject({
      votes: 0,
      total: 0,
      voters: [
        { player: 'Miaka', weight: 0 },
        { player: 'pofa', weight: 0 },
      ],
    });
    expect(wagon(t, 'Abs')?.explain?.map((e) => e.text)).toEqual([
      "Miaka's vote does not count: arrested",
      "pofa's vote does not count: poisoned",
    ]);
    expect(t.outcome.eliminated).toEqual(['Kleene']);
    expect(count(events, { view: 'public' }).wagons.map((w) => w.target)).toEqual(['Kleene']);
  });

  it('You may only not vote if you are abroad (a traveller) or hindered: those votes do not count', () => {
    const t = count([
      status(0, 'Abs', 'abroad'),
      status(0, 'Kleene', 'hindered'),
      pm(1, 'Abs', 'Conia'),
      pm(1, 'Kleene', 'Conia'),
      pm(1, 'pofa', 'Miaka'),
      dayEnd(1),
    ]);
    expect(t.outcome.eliminated).toEqual(['Miaka']);
    // They could not vote: not blamed for a missing vote either.
    expect(t.flags.map((f) => f.player)).not.toContain('Abs');
  });

  it('A status holds until the GM clears it', () => {
    const t = count([status(0, 'Miaka', 'arrested'), status(0, 'Miaka', 'clear'), pm(1, 'Miaka', 'Abs')]);
    expect(wagon(t, 'Abs')?.total).toBe(1);
  });

  it('If a single person with the most lynch votes is either arrested or APTXed in the same phase, there will be no lynch', () => {
    const t = count([
      pm(1, 'Conia', 'Miaka'),
      pm(1, 'Akonyl', 'Miaka'),
      pm(1, 'Abs', 'pofa'),
      status(1, 'Miaka', 'poisoned'),
      dayEnd(1),
    ]);
    expect(t.outcome).toMatchObject({ status: 'no-lynch', eliminated: [], leaders: ['Miaka'] });
    expect(explained(t)).toContain('the lynch fails: Miaka is poisoned');
  });

  it('Two players receive the same number of lynch votes and one is APTXed or arrested: the other will not be lynched', () => {
    const t = count([pm(1, 'Conia', 'Miaka'), pm(1, 'Akonyl', 'pofa'), status(1, 'Miaka', 'arrested'), dayEnd(1)]);
    expect(t.outcome).toMatchObject({ status: 'no-lynch', eliminated: [], leaders: ['Miaka', 'pofa'] });
    expect(explained(t)).toContain('the lynch fails: Miaka is arrested');
  });

  it('A tie (Sabotage, Voice of Accusation) means the lynch failed', () => {
    const t = count([pm(1, 'Conia', 'Miaka'), pm(1, 'Akonyl', 'pofa'), dayEnd(1)]);
    expect(t.outcome).toMatchObject({ status: 'no-lynch', eliminated: [], leaders: ['Miaka', 'pofa'] });
    expect(explained(t)).toContain('a tie: nobody is lynched');
  });
});

describe('detective-conan: Rules for inactivity', () => {
  const day = (n: number, at: number, votes: GmEvent[]) => [dayStart(at, n), ...votes, dayEnd(at)];

  it('Every player needs to send a PM every phase: a Day without one is flagged', () => {
    const t = count([pm(1, 'Conia', 'Abs'), dayEnd(1)]);
    expect(t.flags.filter((f) => f.kind === 'missing-vote').map((f) => f.player)).toEqual([
      'Abs',
      'Akonyl',
      'Kleene',
      'Miaka',
      'pofa',
    ]);
  });

  it('Failing to do so for 3 total phases: the player is inactive, their vote cast by a token holder shown as "Token"', () => {
    const all = (at: number) => ['Conia', 'Abs', 'Akonyl', 'Miaka', 'pofa'].map((p) => pm(at, p, 'abstain'));
    // Day 1 without a PM, Night 1 without one (`missed`), Day 2 without one: three in all.
    const events = [...day(1, 1, all(1)), gm({ at: 2, kind: 'missed', player: 'Kleene' }), ...day(2, 3, all(3))];
    expect(count(events, { toPost: 2 }).inactive).toEqual([]);
    expect(count(events).inactive).toEqual(['Kleene']);
    const t = count([...events, dayStart(5, 3), pm(5, 'Kleene', 'Abs')]);
    expect(t.inactive).toEqual(['Kleene']);
    expect(count([...events, dayStart(5, 3), pm(5, 'Kleene', 'Abs')], { view: 'public' }).inactive).toBeUndefined();
    const shown = count([...events, dayStart(5, 3), pm(5, 'Kleene', 'Abs'), dayEnd(5)], { view: 'public' });
    expect(shown.wagons[0]?.voters.map((v) => v.player)).toEqual(['Token']);
  });

  it('The phases missed are counted in total, not in a row', () => {
    const all = (at: number, but: string[] = []) =>
      ['Conia', 'Abs', 'Akonyl', 'Kleene', 'Miaka', 'pofa']
        .filter((p) => !but.includes(p))
        .map((p) => pm(at, p, 'abstain'));
    const t = count([
      ...day(1, 1, all(1, ['Kleene'])),
      ...day(2, 2, all(2)),
      gm({ at: 3, kind: 'missed', player: 'Kleene' }),
      ...day(3, 4, all(4)),
      ...day(4, 5, all(5, ['Kleene'])),
    ]);
    expect(t.inactive).toEqual(['Kleene']);
  });
});

describe('detective-conan: the fixture thread', () => {
  const thread = loadThread('detective-conan.thread.yaml');
  const on = (day: number, view: 'gm' | 'public' = 'gm') => count(thread.events, { day, view });

  it('Day 1: Abs (2) is lynched; pofa abstained; Abs sent nothing', () => {
    expect(on(1).outcome).toMatchObject({ status: 'ended', eliminated: ['Abs'] });
    expect(on(1).abstaining).toEqual(['pofa']);
    expect(flagsOf(on(1))).toEqual([
      [2, 'vote-in-thread', 'Akonyl'],
      [3, 'missing-vote', 'Abs'],
    ]);
  });

  it("Day 2: Miaka leads but is arrested, so the lynch fails; pofa's vote is hidden in public", () => {
    expect(on(2).outcome).toMatchObject({ status: 'no-lynch', leaders: ['Miaka'] });
    expect(on(2, 'public').wagons.map((w) => [w.target, w.voters.map((v) => v.player)])).toEqual([
      ['Miaka', ['Akonyl', 'Conia']],
      ['Akonyl', ['Hidden']],
    ]);
  });

  it('Day 3: Kleene is inactive and their token votes; pofa and Conia tie: no lynch', () => {
    expect(on(3).outcome).toMatchObject({ status: 'no-lynch', leaders: ['Conia', 'pofa'] });
    expect(on(3).inactive).toEqual(['Kleene']);
    expect(
      on(3, 'public')
        .wagons.find((w) => w.target === 'pofa')
        ?.voters.map((v) => v.player),
    ).toEqual(['Conia', 'Token']);
  });
});
