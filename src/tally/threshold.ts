import type { Threshold } from '../model/tally.js';
import type { NoLynchThreshold, Ruleset } from '../rules/ruleset.js';

/**
 * The number of votes that decides the Day, in the shape the tally prints
 * ("needs 5"): one function so the count and the votal can never disagree.
 */
export function thresholdFor(rule: NoLynchThreshold, living: number): Threshold {
  switch (rule.kind) {
    // A true majority: more than half of the living.
    case 'majority':
      return { kind: 'majority', votes: Math.floor(living / 2) + 1 };
    case 'fraction':
      return { kind: 'fraction', votes: Math.ceil((living * rule.numerator) / rule.denominator) };
    // Plurality has no fixed number: the leader at the deadline goes.
    case 'plurality':
      return { kind: 'plurality', votes: null };
    case 'votes':
      return { kind: 'votes', votes: rule.votes };
  }
}

/** What a wagon needs: No Lynch's own threshold where the ruleset gives one, else the game's. */
export function thresholdOf(ruleset: Ruleset, living: number, noLynch: boolean): Threshold {
  const own = noLynch ? ruleset.noLynch?.threshold : undefined;
  return thresholdFor(own ?? ruleset.threshold, living);
}
