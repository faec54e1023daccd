import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GmEvent, PostEvent } from '../../src/model/event.js';
import { countVotes } from '../../src/tally/count.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import {
  act,
  chatter,
  gm,
  mafiascum,
  players,
  plurality,
  posted,
  unvote,
  unvoteKeyword,
  vote,
  witchhunt,
} from './log-builders.js';

const names = ['Alice', 'Bob', 'Cy', 'Dana', 'Eve', 'Lurker'];
const five = players('Alice', 'Bob', 'Cy', 'Dana', 'Eve');

/** A random game log: votes, unvotes, kills, weights and day ends at random posts. */
const arbitraryLog = fc
  .array(
    fc.oneof(
      fc.record({
        kind: fc.constant('vote' as const),
        author: fc.constantFrom(...names),
        target: fc.constantFrom(...names, 'No Lynch', 'Sleep'),
      }),
      fc.record({ kind: fc.constant('unvote' as const), author: fc.constantFrom(...names) }),
      fc.record({ kind: fc.constant('kill' as const), player: fc.constantFrom(...names) }),
      fc.record({
        kind: fc.constant('weight' as const),
        player: fc.constantFrom(...names),
        weight: fc.integer({ min: 0, max: 3 }),
      }),
      fc.record({ kind: fc.constant('day-end' as const) }),
    ),
    { maxLength: 40 },
  )
  .map((steps) => {
    const events: TallyEvent[] = [];
    let n = 0;
    for (const step of steps) {
      if (step.kind === 'vote') events.push(vote(++n, step.author, step.target));
      else if (step.kind === 'unvote') events.push(unvote(++n, step.author));
      else if (step.kind === 'kill') events.push(gm({ at: n, kind: 'kill', player: step.player }));
      else if (step.kind === 'weight')
        events.push(gm({ at: n, kind: 'weight', player: step.player, weight: step.weight }));
      else events.push(gm({ at: n, kind: 'day-end' }));
    }
    return { events, posts: n };
  });

const position = (e: TallyEvent): number =>
  e.kind === 'post' ? (e as PostEvent).post : ((e as GmEvent & { at?: number }).at ?? 0);

describe('replay', () => {
  it('tally as at post N equals a count of events cut at N', () => {
    const events = [
      vote(1, 'Alice', 'Eve'),
      vote(2, 'Bob', 'Eve'),
      gm({ at: 2, kind: 'kill', player: 'Cy' }),
      vote(3, 'Dana', 'Alice'),
      unvote(4, 'Alice'),
      gm({ at: 4, kind: 'day-end' }),
      vote(5, 'Eve', 'Bob'),
    ];
    for (let n = 0; n <= 5; n++) {
      const cut = events.filter((e) => position(e) <= n);
      expect(countVotes({ ruleset: plurality(), roster: five, events, toPost: n }), `post ${n}`).toEqual(
        countVotes({ ruleset: plurality(), roster: five, events: cut }),
      );
    }
  });

  it.each([
    ['plurality', plurality],
    ['witchhunt', witchhunt],
    ['mafiascum-majority', mafiascum],
  ] as const)('tally as at post N equals a count of events cut at N, for any log (%s)', (_name, ruleset) => {
    fc.assert(
      fc.property(arbitraryLog, fc.nat(45), ({ events }, n) => {
        const cut = events.filter((e) => position(e) <= n);
        expect(countVotes({ ruleset: ruleset(), roster: five, events, toPost: n })).toEqual(
          countVotes({ ruleset: ruleset(), roster: five, events: cut }),
        );
      }),
      { numRuns: 150 },
    );
  });

  it('counting does not change its input', () => {
    fc.assert(
      fc.property(arbitraryLog, ({ events }) => {
        const roster = players('Alice', 'Bob', 'Cy', 'Dana', 'Eve');
        const before = structuredClone({ events, roster });
        countVotes({ ruleset: witchhunt(), roster, events });
        expect({ events, roster }).toEqual(before);
      }),
      { numRuns: 100 },
    );
  });

  it('every count is consistent: wagon totals add up and no living player both votes and is not voting', () => {
    fc.assert(
      fc.property(arbitraryLog, ({ events }) => {
        const t = countVotes({ ruleset: plurality(), roster: five, events });
        const voters = t.wagons.flatMap((w) => w.voters.map((v) => v.player));
        expect(new Set(voters).size).toBe(voters.length);
        expect([...voters, ...t.notVoting].sort()).toEqual([...t.players].sort());
        for (const w of t.wagons) expect(w.total).toBe(w.voters.reduce((s, v) => s + v.weight, 0) + w.penalty);
      }),
      { numRuns: 150 },
    );
  });

  it('day N is counted up to the start of day N+1', () => {
    const events = [
      vote(1, 'Alice', 'Eve'),
      gm({ at: 1, kind: 'day-end' }),
      gm({ at: 2, kind: 'day-start', day: 2 }),
      vote(3, 'Bob', 'Cy'),
    ];
    const day1 = countVotes({ ruleset: plurality(), roster: five, events, day: 1 });
    expect(day1).toMatchObject({ day: 1, outcome: { status: 'ended', eliminated: ['Eve'] } });
    expect(day1.wagons.map((w) => w.target)).toEqual(['Eve']);
    const day2 = countVotes({ ruleset: plurality(), roster: five, events, day: 2 });
    expect(day2).toMatchObject({ day: 2, outcome: { status: 'open' } });
    expect(day2.wagons.map((w) => w.target)).toEqual(['Cy']);
  });

  it('postsRead and asOfPost describe the posts folded', () => {
    const t = countVotes({
      ruleset: plurality(),
      roster: five,
      events: [vote(3, 'Alice', 'Eve'), vote(8, 'Bob', 'Eve'), vote(12, 'Cy', 'Eve')],
      toPost: 10,
    });
    expect(t).toMatchObject({ postsRead: 2, asOfPost: 8 });
    expect(countVotes({ ruleset: plurality(), roster: five, events: [] })).toMatchObject({
      postsRead: 0,
      asOfPost: null,
    });
  });

  /** Logs with everything the seed rulesets react to: side actions, violations, statuses, roles, clock events. */
  const richLog = fc
    .array(
      fc.oneof(
        fc.record({
          kind: fc.constant('vote' as const),
          author: fc.constantFrom(...names),
          target: fc.constantFrom(...names, 'No Lynch', 'No-lynch', 'Abstain'),
        }),
        fc.record({ kind: fc.constant('unvote' as const), author: fc.constantFrom(...names) }),
        fc.record({
          kind: fc.constant('side' as const),
          author: fc.constantFrom(...names),
          action: fc.constantFrom('hammer', 'filibuster', 'veto', 'forgive', 'unhammer') as fc.Arbitrary<string>,
          target: fc.constantFrom(...names),
        }),
        fc.record({
          kind: fc.constant('violation' as const),
          author: fc.constantFrom(...names),
          what: fc.constantFrom('image', 'edit', 'code') as fc.Arbitrary<'image' | 'edit' | 'code'>,
        }),
        fc.record({
          kind: fc.constant('gm' as const),
          event: fc.oneof(
            fc.record({ kind: fc.constantFrom('kill', 'revive', 'missed'), player: fc.constantFrom(...names) }),
            fc.record({
              kind: fc.constant('status'),
              player: fc.constantFrom(...names),
              status: fc.constantFrom('arrested', 'abroad', 'clear'),
            }),
            fc.record({
              kind: fc.constant('role'),
              player: fc.constantFrom(...names),
              role: fc.constantFrom('Mayor', 'hunter'),
            }),
            fc.record({
              kind: fc.constant('vote'),
              player: fc.constantFrom(...names),
              target: fc.constantFrom(...names, 'No-lynch'),
            }),
            fc.record({ kind: fc.constant('forgiven'), player: fc.constantFrom(...names) }),
            fc.record({
              kind: fc.constantFrom('deadline', 'check'),
              time: fc.constantFrom('2012-09-18T12:00:00-07:00', '2012-09-21T17:00:00-07:00'),
            }),
            fc.record({ kind: fc.constant('day-end') }),
          ),
        }),
        fc.record({ kind: fc.constant('next-day' as const) }),
      ),
      { maxLength: 40 },
    )
    .map((steps) => {
      const events: TallyEvent[] = [];
      let n = 0;
      let day = 1;
      for (const step of steps) {
        if (step.kind === 'vote') events.push(vote(++n, step.author, step.target));
        else if (step.kind === 'unvote') events.push(unvote(++n, step.author));
        else if (step.kind === 'side') {
          events.push(
            step.action === 'unhammer'
              ? unvoteKeyword(++n, step.author, 'Hammer')
              : posted(++n, step.author, [
                  act(step.action as 'hammer', ['veto', 'forgive'].includes(step.action) ? step.target : null),
                ]),
          );
        } else if (step.kind === 'violation')
          events.push(chatter(++n, step.author, { violations: [{ kind: step.what, detail: step.what }] }));
        else if (step.kind === 'next-day')
          events.push(gm({ at: n, kind: 'day-end' }), gm({ at: n, kind: 'day-start', day: ++day }));
        else events.push(gm({ at: n, ...step.event }));
      }
      return { events, posts: n };
    });

  it.each(['open-conspiracy', 'onuw-gog', 'detective-conan', 'twg2'])(
    'tally as at post N equals a count of events cut at N, for any log with every mechanism (%s)',
    (name) => {
      const ruleset = loadRuleset(name);
      fc.assert(
        fc.property(richLog, fc.nat(45), fc.constantFrom('gm' as const, 'public' as const), ({ events }, n, view) => {
          const cut = events.filter((e) => position(e) <= n);
          expect(countVotes({ ruleset, roster: five, events, toPost: n, view, explain: true })).toEqual(
            countVotes({ ruleset, roster: five, events: cut, view, explain: true }),
          );
        }),
        { numRuns: 120 },
      );
    },
  );

  it.each(['open-conspiracy', 'twg2', 'detective-conan'])(
    'every count keeps its sums: total = votes + penalty - cancelled (%s)',
    (name) => {
      const ruleset = loadRuleset(name);
      fc.assert(
        fc.property(richLog, ({ events }) => {
          const t = countVotes({ ruleset, roster: five, events });
          for (const w of t.wagons) {
            expect(w.votes).toBe(w.voters.reduce((s, v) => s + v.weight, 0));
            expect(w.total).toBe(w.votes + w.penalty - (w.cancelled ?? 0));
          }
          const counted = new Map((t.penalties ?? []).map((p) => [p.player, p.count]));
          for (const w of t.wagons)
            if (w.penalty && t.outcome.status === 'open') expect(counted.get(w.target)).toBe(w.penalty);
        }),
        { numRuns: 120 },
      );
    },
  );
});
