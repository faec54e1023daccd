import { loadRuleset } from '../../src/rules/load-ruleset.js';
import type { Ruleset } from '../../src/rules/ruleset.js';
import type { Roster } from '../../src/model/roster.js';
import type { Tally } from '../../src/model/tally.js';
import { countVotes, type CountInput } from '../../src/tally/count.js';
import type { TallyEvent } from '../../src/tally/log.js';
import { gm } from '../tally/log-builders.js';

/** Shared helpers of the scenario tests: one shipped ruleset, a roster, a count. */
export function scenario(name: string, roster: Roster) {
  const ruleset: Ruleset = loadRuleset(name);
  const count = (events: TallyEvent[], opts: Partial<Omit<CountInput, 'events'>> = {}): Tally =>
    countVotes({ ruleset, roster, events, explain: true, ...opts });
  return { ruleset, roster, count };
}

export const wagon = (t: Tally, target: string) => t.wagons.find((w) => w.target === target);
export const totals = (t: Tally) => t.wagons.map((w) => [w.target, w.total]);
export const flagsOf = (t: Tally) => t.flags.map((f) => [f.post, f.kind, f.player]);
export const explained = (t: Tally) => (t.outcome.explain ?? []).map((e) => e.text);

export const dayEnd = (at: number) => gm({ at, kind: 'day-end' });
export const dayStart = (at: number, day: number) => gm({ at, kind: 'day-start', day });
export const kill = (at: number, player: string) => gm({ at, kind: 'kill', player });
