import { describe, expect, it } from 'vitest';
import type { PostViolation } from '../../src/model/action.js';
import { addWeekdays, clockEvents } from '../../src/tally/clock.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { chatter, filibuster, forgive, gm, hammer, players, unvoteKeyword, vote } from '../tally/log-builders.js';
import { dayStart, explained, flagsOf, scenario, totals, wagon } from './kit.js';
import { loadThread } from './thread-fixture.js';

/**
 * Open Conspiracy (seed 000, Pleonast 2012): "Voting", "Participation" and "Schedule",
 * one case per rule. Six players; half the living is 3.
 */
const { ruleset, count } = scenario('open-conspiracy', players('Alice', 'Bob', 'Cy', 'Dana', 'Eve', 'Fay'));
const bad = (kind: PostViolation['kind']) => ({ violations: [{ kind, detail: `${kind}!` }] });
/** The Day's deadline: the ruleset's Filibuster looks at it. */
const deadline = (at: number, time = '2012-09-19T17:00:00-07:00') => gm({ at, kind: 'deadline', time });
/** Pacific time in the week of Monday 17 September 2012 (PDT). */
const pt = (day: 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun' | 'mon2', hhmm: string) =>
  `2012-09-${{ mon: 17, tue: 18, wed: 19, thu: 20, fri: 21, sat: 22, sun: 23, mon2: 24 }[day]}T${hhmm}:00-07:00`;
/** Everybody votes, so nobody gets a missed-vote penalty; `from` numbers the posts. */
const allVote = (from: number, targets: Record<string, string>): TallyEvent[] =>
  Object.entries(targets).map(([who, target], i) => vote(from + i, who, target));

describe('open-conspiracy: Voting', () => {
  it('A vote may also be placed for No Lynch', () => {
    const t = count([vote(1, 'Alice', 'No Lynch'), vote(2, 'Bob', 'nolynch')]);
    expect(totals(t)).toEqual([['No Lynch', 2]]);
  });

  it('No Lynch with strictly more votes than any individual player: no lynch occurs', () => {
    const t = count([
      ...allVote(1, { Alice: 'No Lynch', Bob: 'No Lynch', Cy: 'No Lynch', Dana: 'Alice', Eve: 'Alice', Fay: 'Bob' }),
      deadline(6),
    ]);
    expect(t.outcome).toMatchObject({ status: 'no-lynch', eliminated: [], decidedAt: 6, leaders: ['No Lynch'] });
  });

  it('No Lynch tied with a player loses: in all other cases there will be a lynch', () => {
    const t = count([
      ...allVote(1, { Alice: 'No Lynch', Bob: 'No Lynch', Cy: 'No Lynch', Dana: 'Alice', Eve: 'Alice', Fay: 'Alice' }),
      deadline(6),
    ]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Alice'], leaders: ['No Lynch', 'Alice'] });
    expect(explained(t)).toContain('No Lynch (3) is not strictly ahead of Alice (3): it loses the tie');
  });

  it('1. Whoever has the most votes (player plus penalty) is lynched', () => {
    const t = count([
      chatter(1, 'Cy', bad('image')),
      chatter(2, 'Cy', bad('code')),
      ...allVote(3, { Alice: 'Bob', Bob: 'Cy', Cy: 'Bob', Dana: 'Eve', Eve: 'Fay', Fay: 'Alice' }),
      deadline(8),
    ]);
    expect(wagon(t, 'Cy')).toMatchObject({ votes: 1, penalty: 2, total: 3 });
    expect(wagon(t, 'Bob')).toMatchObject({ votes: 2, penalty: 0, total: 2 });
    expect(t.outcome.eliminated).toEqual(['Cy']);
  });

  it('2. Tied on votes: whoever has the most penalty votes', () => {
    const t = count([
      vote(1, 'Alice', 'Bob'),
      vote(2, 'Bob', 'Cy', bad('image')),
      chatter(3, 'Cy', bad('image')),
      chatter(4, 'Cy', bad('code')),
      ...allVote(5, { Cy: 'Bob', Dana: 'Eve', Eve: 'Fay', Fay: 'Dana' }),
      deadline(8),
    ]);
    expect(totals(t).slice(0, 2)).toEqual([
      ['Bob', 3],
      ['Cy', 3],
    ]);
    expect(t.outcome.eliminated).toEqual(['Cy']);
    expect(explained(t)).toContain('most penalty votes (Bob 1, Cy 2): Cy goes');
  });

  it('3. Then whoever gained the most penalty votes during the current Day', () => {
    const t = count([
      chatter(1, 'Bob', bad('image')),
      ...allVote(2, {
        Alice: 'No Lynch',
        Bob: 'No Lynch',
        Cy: 'No Lynch',
        Dana: 'No Lynch',
        Eve: 'No Lynch',
        Fay: 'No Lynch',
      }),
      deadline(7),
      dayStart(7, 2),
      vote(8, 'Alice', 'Bob'),
      vote(9, 'Dana', 'Bob'),
      vote(10, 'Bob', 'Cy'),
      vote(11, 'Eve', 'Cy'),
      vote(12, 'Cy', 'Alice', bad('image')),
      vote(13, 'Fay', 'Dana'),
      deadline(13, '2012-09-21T17:00:00-07:00'),
    ]);
    expect(totals(t).slice(0, 2)).toEqual([
      ['Bob', 3],
      ['Cy', 3],
    ]);
    expect(t.outcome.eliminated).toEqual(['Cy']);
    expect(explained(t)).toContain('most penalty votes gained this Day (Bob 0, Cy 1): Cy goes');
  });

  it('4. Then whoever most recently gained a penalty vote', () => {
    const t = count([
      chatter(1, 'Bob', bad('image')),
      chatter(2, 'Cy', bad('code')),
      ...allVote(3, { Alice: 'Bob', Dana: 'Bob', Bob: 'Cy', Eve: 'Cy', Cy: 'Alice', Fay: 'Dana' }),
      deadline(8),
    ]);
    expect(t.outcome.eliminated).toEqual(['Cy']);
    expect(explained(t).at(-2)).toMatch(/^most recent penalty vote \(Bob event \d+, Cy event \d+\): Cy goes$/);
  });

  it('5. Then whoever comes earliest on the official player list', () => {
    const t = count([
      ...allVote(1, { Alice: 'Cy', Dana: 'Cy', Cy: 'Bob', Eve: 'Bob', Bob: 'Alice', Fay: 'Dana' }),
      deadline(6),
    ]);
    expect(totals(t).slice(0, 2)).toEqual([
      ['Cy', 2],
      ['Bob', 2],
    ]);
    expect(t.outcome.eliminated).toEqual(['Bob']);
    expect(explained(t)).toContain('earliest on the player list (Cy #3, Bob #2): Bob goes');
  });

  it('All player votes are removed at the end of each Day; penalty votes are permanent', () => {
    const t = count([
      chatter(1, 'Bob', bad('image')),
      ...allVote(2, { Alice: 'Cy', Bob: 'Cy', Cy: 'Dana', Dana: 'Cy', Eve: 'Cy', Fay: 'Cy' }),
      deadline(7),
      dayStart(7, 2),
    ]);
    expect(t.day).toBe(2);
    expect(t.wagons).toMatchObject([{ target: 'Bob', votes: 0, penalty: 1, total: 1, voters: [] }]);
  });
});

describe('open-conspiracy: Participation', () => {
  it.each(['non-english', 'edit', 'image', 'code', 'external-link'] as const)(
    'A player who posts a violation (%s) receives a permanent penalty vote',
    (kind) => {
      const t = count([chatter(4, 'Eve', bad(kind))]);
      expect(t.penalties).toEqual([
        { player: 'Eve', count: 1, today: 1, explain: [{ post: 4, text: `Day 1: ${kind} in post 4` }] },
      ]);
      expect(wagon(t, 'Eve')).toMatchObject({ votes: 0, penalty: 1, total: 1 });
    },
  );

  it('... for each post that has a violation: one penalty vote per post, however many violations', () => {
    const t = count([
      chatter(4, 'Eve', {
        violations: [
          { kind: 'image', detail: 'a.png' },
          { kind: 'external-link', detail: 'x.com' },
        ],
      }),
      chatter(5, 'Eve', bad('edit')),
    ]);
    expect(t.penalties?.[0]).toMatchObject({ player: 'Eve', count: 2 });
    expect(t.violations).toHaveLength(3);
  });

  it("A living player without an active vote at the end of the Day gets a penalty vote, effective on that Day's final count", () => {
    const events = [...allVote(1, { Alice: 'Fay', Bob: 'Cy', Cy: 'Dana', Dana: 'Eve', Eve: 'Alice' })];
    expect(wagon(count(events), 'Fay')?.total).toBe(1);
    const t = count([...events, deadline(5)]);
    expect(wagon(t, 'Fay')).toMatchObject({ votes: 1, penalty: 1, total: 2 });
    expect(wagon(t, 'Fay')?.explain?.map((e) => e.text)).toEqual([
      'Alice: vote',
      'penalty vote (Day 1): no vote at the end of Day 1',
    ]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Fay'], decidedAt: 5 });
  });

  it('A vote on No Lynch is an active vote: no penalty', () => {
    const t = count([
      ...allVote(1, {
        Alice: 'No Lynch',
        Bob: 'No Lynch',
        Cy: 'No Lynch',
        Dana: 'No Lynch',
        Eve: 'No Lynch',
        Fay: 'No Lynch',
      }),
      deadline(6),
    ]);
    expect(t.penalties).toBeUndefined();
    expect(t.powersBlocked).toEqual([]);
  });

  it('All of their powers for that Day and the following Night are blocked', () => {
    const events = [...allVote(1, { Alice: 'Fay', Bob: 'Cy', Cy: 'Dana', Dana: 'Eve' }), deadline(4)];
    expect(count(events).powersBlocked).toEqual(['Eve', 'Fay']);
    expect(count([...events, dayStart(5, 2)]).powersBlocked).toEqual([]);
  });

  it('More penalty votes than the number of living players: mod-killed at that time', () => {
    const three = scenario('open-conspiracy', players('Alice', 'Bob', 'Cy'));
    const posts = [vote(1, 'Bob', 'Alice'), ...[2, 3, 4].map((n) => chatter(n, 'Bob', bad('image')))];
    expect(three.count(posts).living).toBe(3);
    const t = three.count([...posts, chatter(5, 'Bob', bad('code'))]);
    expect(t).toMatchObject({ living: 2, players: ['Alice', 'Cy'], wagons: [] });
    expect(t.deaths).toEqual([
      {
        player: 'Bob',
        cause: 'penalty-modkill',
        day: 1,
        post: 5,
        text: '4 penalty votes, more than the 3 living players: mod-killed',
      },
    ]);
  });

  it('Every Night, the player with the most forgiveness votes loses their oldest penalty vote', () => {
    const t = count([
      chatter(1, 'Bob', bad('image')),
      chatter(2, 'Bob', bad('code')),
      chatter(3, 'Cy', bad('image')),
      ...allVote(4, { Alice: 'Cy', Bob: 'Cy', Cy: 'Dana', Dana: 'Cy', Eve: 'Cy', Fay: 'Cy' }),
      deadline(9),
      forgive(10, 'Alice', 'Bob'),
      forgive(11, 'Dana', 'Bob'),
      forgive(12, 'Eve', 'Cy'),
      dayStart(12, 2),
    ]);
    expect(t.penalties?.map((p) => [p.player, p.count])).toEqual([
      ['Bob', 1],
      ['Cy', 1],
    ]);
    expect(t.penalties?.[0]?.explain?.[0]?.text).toBe('Day 1: image in post 1; forgiven after post 12');
    expect(t.notes).toEqual([
      'Night 1 forgiveness (Bob 2, Cy 1): Bob loses their oldest penalty vote (image in post 1)',
    ]);
  });

  it('The forgiveness count shows at Night', () => {
    const t = count([
      chatter(1, 'Bob', bad('image')),
      ...allVote(2, { Alice: 'Cy', Bob: 'Cy', Cy: 'Dana', Dana: 'Cy', Eve: 'Cy', Fay: 'Cy' }),
      deadline(7),
      forgive(8, 'Alice', 'Bob'),
      forgive(9, 'Dana', 'Bob'),
    ]);
    expect(t.sideVotes?.find((s) => s.kind === 'forgive')).toMatchObject({
      target: 'Bob',
      total: 2,
      voters: [{ player: 'Alice' }, { player: 'Dana' }],
    });
  });

  it('In case of tie, no one will lose a penalty vote', () => {
    const t = count([
      chatter(1, 'Bob', bad('image')),
      chatter(2, 'Cy', bad('image')),
      ...allVote(3, { Alice: 'Cy', Bob: 'Cy', Cy: 'Dana', Dana: 'Cy', Eve: 'Cy', Fay: 'Cy' }),
      deadline(8),
      forgive(9, 'Alice', 'Bob'),
      forgive(10, 'Dana', 'Cy'),
      dayStart(10, 2),
    ]);
    expect(t.penalties?.map((p) => [p.player, p.count])).toEqual([
      ['Bob', 1],
      ['Cy', 1],
    ]);
    expect(t.notes).toEqual(['Night 1 forgiveness (Bob 1, Cy 1): a tie, no one is forgiven']);
  });

  it('A forgiveness vote is for one other player (not themself) who has a penalty vote', () => {
    const t = count([
      chatter(1, 'Bob', bad('image')),
      ...allVote(2, { Alice: 'Cy', Bob: 'Cy', Cy: 'Dana', Dana: 'Cy', Eve: 'Cy', Fay: 'Cy' }),
      deadline(7),
      forgive(8, 'Bob', 'Bob'),
      forgive(9, 'Alice', 'Eve'),
    ]);
    expect(flagsOf(t)).toEqual([
      [8, 'self-forgive', 'Bob'],
      [9, 'forgive-without-penalty', 'Alice'],
    ]);
  });

  it('Forgiveness votes are placed at Night: one during the Day is flagged', () => {
    const t = count([chatter(1, 'Bob', bad('image')), forgive(2, 'Alice', 'Bob')]);
    expect(flagsOf(t)).toEqual([[2, 'side-action-not-allowed', 'Alice']]);
  });

  it("The GM's forgiveness result replaces the count of forgive votes", () => {
    const t = count([
      chatter(1, 'Bob', bad('image')),
      chatter(2, 'Cy', bad('image')),
      ...allVote(3, { Alice: 'Cy', Bob: 'Cy', Cy: 'Dana', Dana: 'Cy', Eve: 'Cy', Fay: 'Cy' }),
      deadline(8),
      forgive(9, 'Alice', 'Bob'),
      gm({ at: 9, kind: 'forgiven', player: 'Cy' }),
      dayStart(9, 2),
    ]);
    expect(t.penalties?.map((p) => [p.player, p.count])).toEqual([
      ['Bob', 1],
      ['Cy', 0],
    ]);
    expect(t.notes).toEqual(['Night 1 forgiveness (GM): Cy loses their oldest penalty vote (image in post 2)']);
  });
});

describe('open-conspiracy: Schedule', () => {
  const day1 = clockEvents(ruleset, { day: 1, start: pt('mon', '09:00'), deadline: pt('wed', '17:00') });

  it('Hammer checks fall on every weekday at 12 noon PT (3pm ET), and the deadline ends the list', () => {
    expect(day1).toEqual([
      { kind: 'check', time: '2012-09-17T19:00:00.000Z', day: 1 },
      { kind: 'check', time: '2012-09-18T19:00:00.000Z', day: 1 },
      { kind: 'check', time: '2012-09-19T19:00:00.000Z', day: 1 },
      { kind: 'deadline', time: '2012-09-20T00:00:00.000Z', day: 1 },
    ]);
    const weekend = clockEvents(ruleset, { day: 1, start: pt('fri', '13:00'), deadline: pt('mon2', '17:00') });
    expect(weekend.map((e) => e.time)).toEqual(['2012-09-24T19:00:00.000Z', '2012-09-25T00:00:00.000Z']);
  });

  it('If at least half the living players are voting for Hammer at a weekday noon check, the Day ends at that point', () => {
    const t = count([
      vote(1, 'Alice', 'Bob', { time: pt('mon', '10:00') }),
      hammer(2, 'Bob', { time: pt('mon', '10:30') }),
      hammer(3, 'Cy', { time: pt('mon', '11:00') }),
      hammer(4, 'Dana', { time: pt('mon', '11:30') }),
      vote(5, 'Eve', 'Alice', { time: pt('mon', '12:30') }),
      ...day1,
    ]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Bob'], decidedAt: 4 });
    expect(explained(t)[0]).toBe('Day 1 ends: Hammer: 3 of 6 living (needs 3) at the check 2012-09-17T19:00:00.000Z');
    expect(flagsOf(t)).toEqual([[5, 'vote-after-decision', 'Eve']]);
    expect(t.sideVotes?.[0]).toMatchObject({ kind: 'hammer', total: 3, needs: 3 });
  });

  it('Short of half the living on Hammer at the check, the Day goes on', () => {
    const t = count([
      hammer(1, 'Bob', { time: pt('mon', '10:30') }),
      hammer(2, 'Cy', { time: pt('mon', '11:00') }),
      ...day1.slice(0, 1),
    ]);
    expect(t.outcome.status).toBe('open');
  });

  it('Hammer counts only at the check: half the living on it between checks does not end the Day', () => {
    const t = count([hammer(1, 'Bob'), hammer(2, 'Cy'), hammer(3, 'Dana'), hammer(4, 'Eve')]);
    expect(t.outcome.status).toBe('open');
  });

  it('"Unvote: Hammer" withdraws the Hammer vote and keeps the lynch vote', () => {
    const t = count([vote(1, 'Bob', 'Cy'), hammer(2, 'Bob'), unvoteKeyword(3, 'Bob', 'Hammer')]);
    expect(t.sideVotes?.[0]).toMatchObject({ kind: 'hammer', total: 0 });
    expect(totals(t)).toEqual([['Cy', 1]]);
  });

  it('If at least half the living players are voting for Filibuster at the end of the Day, it continues one more weekday', () => {
    const t = count([
      filibuster(1, 'Alice'),
      filibuster(2, 'Bob'),
      filibuster(3, 'Cy'),
      deadline(3, pt('fri', '17:00')),
    ]);
    expect(t.outcome.status).toBe('open');
    expect(t.notes).toEqual([
      'Filibuster: 3 of 6 living (needs 3) at the deadline 2012-09-21T17:00:00-07:00: the Day is extended by 1 weekday, ' +
        'to 2012-09-25T00:00:00.000Z, and the Night as much',
    ]);
  });

  it('The Day can be extended this way only once per Day', () => {
    const t = count([
      filibuster(1, 'Alice'),
      filibuster(2, 'Bob'),
      filibuster(3, 'Cy'),
      deadline(3, pt('fri', '17:00')),
      deadline(3, pt('mon2', '17:00')),
    ]);
    expect(t.outcome).toMatchObject({ status: 'ended', decidedAt: 3 });
  });

  it('Hammer takes precedence over Filibuster', () => {
    const t = count([
      filibuster(1, 'Alice'),
      filibuster(2, 'Bob'),
      filibuster(3, 'Cy'),
      hammer(4, 'Dana'),
      hammer(5, 'Eve'),
      hammer(6, 'Fay'),
      deadline(6, pt('fri', '17:00')),
    ]);
    expect(t.outcome.status).not.toBe('open');
    expect(explained(t)[0]).toBe('Day 1 ends: the deadline; Hammer: 3 of 6 living (needs 3), so it is not extended');
  });

  it('If the Day is extended, then the Night will also be extended by one weekday (Friday -> Monday)', () => {
    expect(addWeekdays(pt('fri', '17:00'), 1, 'America/Los_Angeles')).toBe('2012-09-25T00:00:00.000Z');
    expect(addWeekdays(pt('mon', '17:00'), 1, 'America/Los_Angeles')).toBe('2012-09-19T00:00:00.000Z');
  });
});

describe('open-conspiracy: the fixture thread', () => {
  const thread = loadThread('open-conspiracy.thread.yaml');
  const at = (day: number) => count(thread.events, { day });

  it('Day 1: Hammer at Tuesday noon ends it; Dana and Fay missed their vote; Bob (2 votes + 1 penalty) is lynched', () => {
    const t = at(1);
    expect(t.wagons.map((w) => [w.target, w.votes, w.penalty, w.total])).toEqual([
      ['Bob', 2, 1, 3],
      ['Fay', 0, 2, 2],
      ['Alice', 1, 0, 1],
      ['No Lynch', 1, 0, 1],
      ['Dana', 0, 1, 1],
    ]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Bob'], decidedAt: 7 });
    expect(t.powersBlocked).toEqual(['Dana', 'Fay']);
    expect(flagsOf(t)).toEqual([[8, 'vote-after-decision', 'Cy']]);
  });

  it('Day 2: Fay was forgiven one penalty vote, Filibuster extended the Day, Fay (2 votes + 1 penalty) is lynched', () => {
    const t = at(2);
    expect(t.wagons.map((w) => [w.target, w.votes, w.penalty, w.total])).toEqual([
      ['Fay', 2, 1, 3],
      ['Alice', 2, 0, 2],
      ['Dana', 0, 1, 1],
      ['Eve', 0, 1, 1],
    ]);
    expect(t.outcome).toMatchObject({ status: 'ended', eliminated: ['Fay'], decidedAt: 17 });
    expect(t.notes?.[0]).toBe(
      'Night 1 forgiveness (Fay 2, Dana 1): Fay loses their oldest penalty vote (edit in post 6)',
    );
    expect(t.notes?.[1]).toMatch(
      /^Filibuster: 3 of 5 living \(needs 3\) at the deadline .*: the Day is extended by 1 weekday, to 2012-09-25T00:00:00.000Z/,
    );
    expect(t.penalties?.map((p) => [p.player, p.count])).toEqual([
      ['Bob', 1],
      ['Dana', 1],
      ['Eve', 1],
      ['Fay', 1],
    ]);
  });

  it('as at a time: at Tuesday 11:45 PT the Day is open with 3 on Hammer, the noon check still to come', () => {
    const t = count(thread.events, { toTime: pt('tue', '11:45') });
    expect(t).toMatchObject({ day: 1, asOfPost: 7, outcome: { status: 'open' } });
    expect(t.sideVotes?.[0]).toMatchObject({ kind: 'hammer', total: 3 });
  });
});
