import { describe, expect, it } from 'vitest';
import type { GmEvent, PostEvent } from '../../src/model/event.js';
import { Roster } from '../../src/model/roster.js';
import { foldGame, type PostHistory } from '../../src/game/fold-game.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';
import { buildTimeline, changeText } from '../../src/web/ui/timeline.js';
import { vote } from '../tally/log-builders.js';

/*
 * Issue #24: the live page folded on its own twice over. Its timeline ignored the clock
 * (a deadline at 12:00, two votes after it: the tally said "ended, Eve 3" while the
 * timeline kept counting), and its recent changes showed a kill and a replacement as
 * votes ("Lurker unvoted Alice", "Carol unvoted Bob"). Here the timeline is made the way
 * the live page makes it (web/ui/game-data.ts): from the one fold's log and clock.
 */
const ruleset = loadRuleset('plurality');
const roster = Roster.parse(['Alice', 'Bob', 'Carol', 'Dana', 'Eve', 'Lurker'].map((name) => ({ name })));
const at = (hm: string) => `2026-12-01T${hm}:00.000Z`;

const posts: PostEvent[] = [
  vote(1, 'Alice', 'Eve', { time: at('10:00') }),
  vote(2, 'Bob', 'Eve', { time: at('10:05') }),
  vote(3, 'Carol', 'Bob', { time: at('10:10') }),
  vote(4, 'Lurker', 'Alice', { time: at('10:15') }),
  vote(5, 'Dana', 'Eve', { time: at('10:20') }),
  // After the 12:00 deadline: neither counts.
  vote(6, 'Eve', 'Dana', { time: at('12:30') }),
  vote(7, 'Bob', 'Alice', { time: at('12:40') }),
];
const gmEvents: GmEvent[] = [
  { kind: 'kill', player: 'Lurker', at: 4 },
  { kind: 'replace', player: 'Carol', by: 'Caroline', at: 5 },
];
const histories: PostHistory[] = posts.map((p) => ({
  number: p.post,
  author: p.author,
  postedAt: p.time,
  permalink: p.permalink,
  deleted: false,
  revisions: [{ reading: p.reading, firstSeen: p.time!, edit: null, text: '' }],
}));

function livePage() {
  const folded = foldGame({
    ruleset,
    roster,
    engine: null,
    posts: histories,
    gmEvents,
    day: { number: 1, start: at('09:00'), deadline: at('12:00') },
    now: at('13:00'),
    view: 'public',
  });
  const timeline = buildTimeline({
    ruleset,
    roster,
    events: folded.log,
    engine: null,
    view: 'public',
    clock: folded.clock,
    day: folded.tally.day,
    posts: posts.map((p) => p.post),
  });
  return { tally: folded.tally, timeline };
}

describe('the live page from the one fold', () => {
  it('the timeline’s last values are the wagons: votes after the deadline move no line', () => {
    const { tally, timeline } = livePage();
    expect(tally.outcome.status).not.toBe('open');
    const wagons = Object.fromEntries(tally.wagons.map((w) => [w.target, w.total]));
    expect(wagons).toEqual({ Eve: 3, Bob: 1 });
    const last = Object.fromEntries(timeline.series.map((s) => [s.target, s.values.at(-1)]));
    expect(Object.fromEntries(Object.entries(last).filter(([, v]) => v !== 0))).toEqual(wagons);
    expect(timeline.series.find((s) => s.target === 'Dana')).toBeUndefined();
  });

  it('recent changes name the GM’s events as events, never as a player’s vote', () => {
    const told = livePage().timeline.changes.map((c) => `#${c.post} ${changeText(c)}`);
    expect(told).toEqual([
      '#1 Alice voted Eve',
      '#2 Bob voted Eve',
      '#3 Carol voted Bob',
      // The kill placed after post 4 falls in the same point as Lurker's vote there.
      '#4 Lurker died (GM)',
      '#5 Dana voted Eve',
      '#5 Caroline replaced Carol',
    ]);
  });
});
