import { describe, expect, it } from 'vitest';
import type { TallyEvent } from '../../src/tally/log.js';
import type { Slot } from '../../src/model/roster.js';
import { readPost } from '../../src/parse/read-post.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { countVotes, countVotesWithCuts } from '../../src/tally/count.js';
import { findSlot } from '../../src/tally/slot-names.js';
import type { SlotState } from '../../src/tally/state.js';
import { buildTimeline, pointsFor } from '../../src/web/ui/timeline.js';

/**
 * The live page's work grows linearly with the thread (issue #17, item 7): its vote
 * timeline is one pass of the fold with a view at each point, not one whole fold per
 * point (240 points made a 3,000-player page take minutes). Work is counted, not timed:
 * every read of an event by the fold is counted through a Proxy.
 */

const ruleset = loadRuleset('mafiascum-majority');

function game(players: number, posts: number): { roster: Slot[]; events: TallyEvent[]; reads: { n: number } } {
  const roster: Slot[] = Array.from({ length: players }, (_, i) => ({
    name: `Player${i}`,
    aliases: [],
    formerNames: [],
    alive: true,
  }));
  const reads = { n: 0 };
  const events: TallyEvent[] = [];
  for (let i = 1; i <= posts; i++) {
    const body = [
      { t: 'bold' as const, children: [{ t: 'text' as const, text: `Vote: Player${(i * 7 + 3) % players}` }] },
    ];
    const event: TallyEvent = {
      kind: 'post',
      post: i,
      author: `Player${i % players}`,
      time: null,
      permalink: null,
      reading: readPost({ body, edit: null }, roster, ruleset),
    };
    events.push(
      new Proxy(event, {
        get: (target, key, receiver) => {
          reads.n += 1;
          return Reflect.get(target, key, receiver);
        },
      }),
    );
  }
  events.push({ kind: 'kill', player: 'Player1', at: Math.floor(posts / 2) });
  return { roster, events, reads };
}

describe('live page work', () => {
  it('a count at many posts in one pass is the same as a count at each post', () => {
    const { roster, events } = game(12, 40);
    const cuts = [1, 5, 19, 20, 21, 33, 40, 99];
    const one = countVotesWithCuts({ ruleset, roster, events, view: 'public' }, cuts);
    expect(one.cuts).toEqual(cuts.map((toPost) => countVotes({ ruleset, roster, events, view: 'public', toPost })));
    expect(one.tally).toEqual(countVotes({ ruleset, roster, events, view: 'public' }));
  });

  it('the timeline reads each event a bounded number of times, however many points it draws', () => {
    const small = game(100, 200);
    buildTimeline({
      ruleset,
      roster: small.roster,
      events: small.events,
      view: 'public',
      posts: small.events.flatMap((e) => (e.kind === 'post' ? [e.post] : [])),
    });
    const big = game(400, 800);
    buildTimeline({
      ruleset,
      roster: big.roster,
      events: big.events,
      view: 'public',
      posts: big.events.flatMap((e) => (e.kind === 'post' ? [e.post] : [])),
    });
    // One fold reads each event a few dozen properties at most (the fold, the clock, the
    // untimed-post check); one fold per point (240 points) would be thousands.
    expect(small.reads.n / 200).toBeLessThan(30);
    // Four times the thread, four times the reads (linear, not 16 times).
    expect(big.reads.n / small.reads.n).toBeLessThan(4.5);
  });

  it("finding a voter's slot does not scan the roster: names are read once per roster, not once per lookup", () => {
    let reads = 0;
    const slots = Array.from(
      { length: 500 },
      (_, i) =>
        new Proxy({ name: `P${i}`, formerNames: [`Old${i}`], aliases: [`A${i}`] } as unknown as SlotState, {
          get: (target, key, receiver) => {
            if (key === 'name' || key === 'formerNames' || key === 'aliases') reads += 1;
            return Reflect.get(target, key, receiver);
          },
        }),
    );
    const found = [];
    for (let i = 0; i < 500; i++)
      found.push(findSlot(slots, `p${i}`), findSlot(slots, `old${i}`), findSlot(slots, `a${i}`));
    expect(found).toEqual(Array.from({ length: 500 }, (_, i) => [i, i, i]).flat());
    expect(reads).toBeLessThanOrEqual(3 * slots.length);
    // The first slot with a name wins, as in roster order; a current name beats an alias.
    const clash = [
      { name: 'Bo', formerNames: [], aliases: ['Al'] },
      { name: 'Al', formerNames: [], aliases: ['Bo'] },
    ] as unknown as SlotState[];
    expect([findSlot(clash, 'al'), findSlot(clash, 'BO'), findSlot(clash, 'nobody')]).toEqual([1, 0, undefined]);
  });

  it('draws fewer points for a bigger roster, so points x players stays bounded (each point is a count of the roster)', () => {
    expect([10, 300, 500, 1000, 3000, 100_000].map(pointsFor)).toEqual([240, 240, 240, 120, 40, 24]);
    for (const n of [500, 1000, 3000, 10_000]) expect(pointsFor(n) * n).toBeLessThanOrEqual(Math.max(120_000, 24 * n));
    const big = game(3000, 3000);
    const timeline = buildTimeline({
      ruleset,
      roster: big.roster,
      events: big.events,
      view: 'public',
      posts: big.events.flatMap((e) => (e.kind === 'post' ? [e.post] : [])),
    });
    expect(timeline.posts).toHaveLength(40);
    expect(timeline.posts.at(-1)).toBe(3000); // the last post is always a point
  });
});
