import { describe, expect, it } from 'vitest';
import { playersNow } from '../../src/game/players-now.js';
import type { GmEvent } from '../../src/model/event.js';
import { livingNow } from '../../src/model/tally.js';
import { countVotes } from '../../src/tally/count.js';
import { dayEndPreview, deadlineRule } from '../../src/tally/day-end-preview.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { mafiascum, players, plurality, variant, vote } from './log-builders.js';

/*
 * Issue #24: ending a Day short of majority under "Majority lynch (mafiascum style)"
 * eliminated the plurality leader while the form said a player "needs more than half";
 * the live page then said "Bob eliminated" and still listed Bob among the living; and a
 * Night kill recorded after the Day ended was lost from the living list.
 */
const roster = players('Alice', 'Bob', 'Carol', 'Dana', 'Eve');
const day1: TallyEvent[] = [vote(1, 'Alice', 'Bob'), vote(2, 'Carol', 'Bob'), vote(3, 'Eve', 'Dana')];
const end: GmEvent = { kind: 'day-end', at: 3 };

describe('ending a Day says first what the ruleset will decide', () => {
  it('short of majority under mafiascum-majority: the plurality leader goes, and the count agrees', () => {
    const open = countVotes({ ruleset: mafiascum(), roster, events: day1 });
    expect(dayEndPreview(open, mafiascum())).toBe(
      'No one has majority; under this ruleset the plurality leader, Bob, is eliminated.',
    );
    const ended = countVotes({ ruleset: mafiascum(), roster, events: [...day1, end] });
    expect(ended.outcome.eliminated).toEqual(['Bob']);
  });

  it.each([
    ['no-elimination', 'No one has majority; under this ruleset nobody is eliminated.'],
    ['gm', 'No one has majority; under this ruleset the GM (Judge) decides.'],
  ] as const)('shortOfThreshold %s', (rule, text) => {
    const ruleset = variant('mafiascum-majority', { shortOfThreshold: rule });
    expect(dayEndPreview(countVotes({ ruleset, roster, events: day1 }), ruleset)).toBe(text);
  });

  it('the ruleset itself says, where the GM chooses it, what happens at a deadline short of majority', () => {
    expect(deadlineRule(mafiascum())).toBe(
      'At the deadline with no one at majority, the plurality leader is eliminated; a tie: the GM decides.',
    );
    expect(deadlineRule(variant('mafiascum-majority', { shortOfThreshold: 'no-elimination', minVotes: 2 }))).toBe(
      'At the deadline with no one at majority, nobody is eliminated; a tie: the GM decides.',
    );
    expect(deadlineRule(variant('plurality', { minVotes: 2 }))).toBe(
      'At the deadline the leader (with 2 votes at least) is eliminated; a tie: the GM decides.',
    );
  });

  it('a tie names the ruleset’s tie rule', () => {
    const tied = [...day1, vote(4, 'Bob', 'Dana')];
    expect(dayEndPreview(countVotes({ ruleset: plurality(), roster, events: tied }), plurality())).toBe(
      'Under this ruleset the leaders Bob and Dana are tied (2 each): the GM decides.',
    );
  });
});

describe('an elimination and the living list agree; a GM event after the Day’s end carries on', () => {
  it('the eliminated player is not among the living once the Day ends', () => {
    const ended = countVotes({ ruleset: mafiascum(), roster, events: [...day1, end] });
    expect(livingNow(ended)).toEqual(['Alice', 'Carol', 'Dana', 'Eve']);
  });

  it("the GM's Players panel and the API's players agree: the eliminated are dead from the Day's end", () => {
    const alive = (t: ReturnType<typeof countVotes>, events: GmEvent[]) =>
      playersNow(roster, events, t)
        .filter((p) => p.alive)
        .map((p) => p.name);
    const ended = countVotes({ ruleset: mafiascum(), roster, events: [...day1, end] });
    expect(alive(ended, [end])).toEqual(livingNow(ended));
    const night: GmEvent = { kind: 'kill', player: 'Dana', at: 3 };
    const killed = countVotes({ ruleset: mafiascum(), roster, events: [...day1, end, night] });
    expect(alive(killed, [end, night])).toEqual(['Alice', 'Carol', 'Eve']);
  });

  it('a Night kill recorded after the deadline applies to the game and to the next Day', () => {
    const night: GmEvent = { kind: 'kill', player: 'Dana', at: 3 };
    const ended = countVotes({ ruleset: mafiascum(), roster, events: [...day1, end, night] });
    expect(ended.dead).toContain('Dana');
    expect(livingNow(ended)).toEqual(['Alice', 'Carol', 'Eve']);
    const day2 = countVotes({
      ruleset: mafiascum(),
      roster,
      events: [...day1, end, night, { kind: 'day-start', day: 2, at: 3 }, vote(4, 'Alice', 'Eve')],
    });
    expect(day2.day).toBe(2);
    expect(day2.players).not.toContain('Dana');
    expect(day2.dead).toContain('Dana');
  });
});
