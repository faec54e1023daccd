import { describe, expect, it } from 'vitest';
import { countVotes } from '../../src/tally/count.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { dayEndPreview } from '../../src/tally/day-end-preview.js';
import { outcomeLine } from '../../src/votal/votal-lines.js';
import { chatter, doubtful, gm, mafiascum, players, review, vote } from './log-builders.js';

/**
 * A Day is not decided over votes Votal could not read (issue #24): the outcome waits for
 * the GM while a reading of them could change who is eliminated, and is decided as usual
 * once the GM reads them.
 */
const roster = players('momo', 'XnadrojX', 'Ann', 'Ben', 'Cat', 'Dan', 'Juls', 'PeanutButter', 'PBandJ');
const count = (events: TallyEvent[], view: 'gm' | 'public' = 'gm') =>
  countVotes({ ruleset: mafiascum(), roster, events, view });
const dayEnd = (at: number) => gm({ at, kind: 'day-end' });
const kill = (at: number, player: string) => gm({ at, kind: 'kill', player });
const correct = (post: number, target: string | null) => gm({ kind: 'correct', post, target });

// mafiascum game 1883 D1, reduced: the votes for XnadrojX written "jordan" went to the GM as
// unknown, and the deadline's plurality rule then eliminated momo as if they did not exist.
const jordan = [
  vote(1, 'Ann', 'momo'),
  vote(2, 'Ben', 'momo'),
  vote(3, 'Cat', 'XnadrojX'),
  review(4, 'Dan', 'unknown-target', 'VOTE: jordan'),
  review(5, 'Juls', 'unknown-target', 'VOTE: jordan'),
];

// Four votes on momo, then Juls's unread vote: read as momo, it is the fifth (the hammer).
const momoShortOfHammer = [
  vote(1, 'Ann', 'momo'),
  vote(2, 'Ben', 'momo'),
  vote(3, 'Cat', 'momo'),
  vote(4, 'Dan', 'momo'),
  review(5, 'Juls', 'unknown-target', 'VOTE: jordan'),
];

// Juls votes momo, then a post the parser doubted ("Confirm vote: <target>"), then momo is hammered.
const confirmedThenHammer = (target: string) => [
  vote(1, 'Juls', 'momo'),
  doubtful(2, 'Juls', target, `Confirm vote: ${target}`),
  vote(3, 'Ann', 'momo'),
  vote(4, 'Ben', 'momo'),
  vote(5, 'Cat', 'momo'),
  vote(6, 'Dan', 'momo'),
];

describe('a decision waits for votes Votal could not read', () => {
  it('deadline: unknown votes that could overtake the plurality leader hold the outcome, naming the posts', () => {
    const t = count([...jordan, dayEnd(6)]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: [], decidedAt: null });
    expect(t.outcome.held).toBe(
      '2 votes wait for you (#4 "VOTE: jordan", #5 "VOTE: jordan"); they could change who is eliminated',
    );
  });

  it('deadline: once the GM reads the votes, the rules decide as usual', () => {
    const t = count([...jordan, dayEnd(6), correct(4, 'XnadrojX'), correct(5, 'XnadrojX')]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['XnadrojX'], decidedAt: 6 });
    expect(t.outcome.held).toBeUndefined();
  });

  // mafiascum game 1671 D4, reduced: "PB" could be a living player or one already dead.
  it('deadline: an ambiguous vote whose living candidate could tie the leader holds the outcome', () => {
    const t = count([
      kill(0, 'PBandJ'),
      vote(1, 'Ann', 'Juls'),
      vote(2, 'Ben', 'Juls'),
      vote(3, 'Cat', 'PeanutButter'),
      review(4, 'Dan', 'ambiguous-target', 'VOTE: PB', ['PeanutButter', 'PBandJ']),
      dayEnd(5),
    ]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: [], decidedAt: null });
    expect(t.outcome.held).toBe(
      '1 vote waits for you (#4 "VOTE: PB": PeanutButter or PBandJ); it could change who is eliminated',
    );
  });

  it('a vote that can only read as the voter’s counted vote changes nothing: the Day is decided', () => {
    const t = count([
      kill(0, 'PBandJ'),
      vote(1, 'Ann', 'Juls'),
      vote(2, 'Dan', 'PeanutButter'),
      vote(3, 'Ben', 'Juls'),
      review(4, 'Dan', 'ambiguous-target', 'VOTE: PB', ['PeanutButter', 'PBandJ']),
      dayEnd(5),
    ]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Juls'], decidedAt: 5 });
    expect(t.outcome.held).toBeUndefined();
  });

  it('an unread vote the voter replaced with a readable one no longer waits', () => {
    const t = count([...jordan, vote(6, 'Dan', 'momo'), vote(7, 'Juls', 'momo'), dayEnd(8)]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['momo'], decidedAt: 8 });
    expect(t.outcome.held).toBeUndefined();
  });

  it('the unread vote of a player who died since no longer waits', () => {
    const t = count([...jordan, kill(5, 'Dan'), kill(5, 'Juls'), chatter(6, 'Ann'), dayEnd(6)]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['momo'], decidedAt: 6 });
  });

  it('majority: a hammer counted with the vote of a player whose later vote is unread waits', () => {
    // Dan's counted vote is on momo; his unread vote may have moved it, so momo may be short of 5.
    const t = count([
      vote(1, 'Ann', 'momo'),
      vote(2, 'Dan', 'momo'),
      review(3, 'Dan', 'unknown-target', 'VOTE: jordan'),
      vote(4, 'Ben', 'momo'),
      vote(5, 'Cat', 'momo'),
      vote(6, 'Juls', 'momo'),
    ]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: [], decidedAt: null });
    expect(t.outcome.held).toContain('#3 "VOTE: jordan"');
  });

  it('majority: an unread vote of a player with no counted vote cannot undo a hammer', () => {
    const t = count([
      review(1, 'Dan', 'unknown-target', 'VOTE: jordan'),
      vote(2, 'Ann', 'momo'),
      vote(3, 'Ben', 'momo'),
      vote(4, 'Cat', 'momo'),
      vote(5, 'Juls', 'momo'),
      vote(6, 'PBandJ', 'momo'),
    ]);
    expect(t.outcome).toMatchObject({ status: 'majority', eliminated: ['momo'], decidedAt: 6 });
    expect(t.outcome.held).toBeUndefined();
  });

  // MafiaScum game 1317 post #637 (donbot data 739243d): "VOTE: change vote: thez" went to
  // the GM while thezmon221 was one vote short; read as thezmon221 it was the hammer, yet
  // the Day was decided for hokorippoi's later hammer.
  it('deadline: a reading that would have completed another wagon where the vote was cast holds the outcome', () => {
    // Read as momo, Juls's vote at #5 was momo's fifth: the hammer, before Ann and Ben moved to XnadrojX.
    const t = count([
      ...momoShortOfHammer,
      vote(6, 'Ann', 'XnadrojX'),
      vote(7, 'Ben', 'XnadrojX'),
      vote(8, 'PeanutButter', 'XnadrojX'),
      vote(9, 'PBandJ', 'XnadrojX'),
      dayEnd(10),
    ]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: [], decidedAt: null });
    expect(t.outcome.held).toBe('1 vote waits for you (#5 "VOTE: jordan"); it could change who is eliminated');
  });

  it('deadline: a reading that would have hammered the player the deadline eliminates changes nothing', () => {
    const t = count([...momoShortOfHammer, dayEnd(6)]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['momo'], decidedAt: 6 });
    expect(t.outcome.held).toBeUndefined();
  });

  // MafiaScum game 1094 post #184 (donbot data 739243d): singersigner, already on Guderian,
  // closed a post with "Confirm vote: Guderian"; the Day was held as if it could be anyone.
  it('majority: a vote sent to the GM around a name the parser read is that vote or none: on the hammered wagon it decides nothing', () => {
    const t = count(confirmedThenHammer('momo'));
    expect(t.outcome).toMatchObject({ status: 'majority', eliminated: ['momo'], decidedAt: 6 });
    expect(t.outcome.held).toBeUndefined();
  });

  it('majority: such a vote naming another player could take a hammer vote away: it waits, naming that player', () => {
    const t = count(confirmedThenHammer('Ann'));
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: [], decidedAt: null });
    expect(t.outcome.held).toBe(
      '1 vote waits for you (#2 "Confirm vote: Ann": Ann); it could change who is eliminated',
    );
  });
});

describe('where a held decision shows', () => {
  it('the count says the elimination waits for the GM, with the posts', () => {
    expect(outcomeLine(count([...jordan, dayEnd(6)]))).toBe(
      'The Day ended; the elimination waits for the GM: 2 votes wait for you (#4 "VOTE: jordan", #5 "VOTE: jordan"); they could change who is eliminated.',
    );
  });

  it('players see that it waits, not which votes', () => {
    expect(count([...jordan, dayEnd(6)], 'public').outcome.held).toBe(
      'votes the GM is reading could change who is eliminated',
    );
  });

  it('the end-of-Day preview names the votes that wait', () => {
    const t = count(jordan);
    expect(t.waiting?.map((w) => [w.post, w.player])).toEqual([
      [4, 'Dan'],
      [5, 'Juls'],
    ]);
    expect(dayEndPreview(t, mafiascum())).toBe(
      'No one has majority; under this ruleset the plurality leader, momo, is eliminated. But 2 votes wait for you (#4 "VOTE: jordan", #5 "VOTE: jordan"): if they could change who is eliminated, the decision waits until you read them.',
    );
  });
});
