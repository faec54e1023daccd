import type { Tally } from '../model/tally.js';
import type { Ruleset } from '../rules/ruleset.js';

/**
 * What ending the Day now would decide under the ruleset, in words, for the GM to read
 * before confirming ("No one has majority; under this ruleset the plurality leader, Bob,
 * is eliminated"). Read from the count as it stands: the wagons, the leaders and the
 * ruleset's rules for a Day short of its threshold and for ties.
 */
export function dayEndPreview(t: Tally, ruleset: Ruleset): string {
  if (t.outcome.status !== 'open')
    return t.outcome.held ? `The Day waits for you: ${t.outcome.held}.` : 'The Day is already decided.';
  const rule = ruleDecision(t, ruleset);
  const waiting = t.waiting ?? [];
  if (!waiting.length) return rule;
  const posts = waiting.map((w) => `#${w.post} "${w.raw}"`).join(', ');
  const n = waiting.length;
  return `${rule} But ${n} vote${n === 1 ? ' waits' : 's wait'} for you (${posts}): if ${n === 1 ? 'it' : 'they'} could change who is eliminated, the decision waits until you read ${n === 1 ? 'it' : 'them'}.`;
}

function ruleDecision(t: Tally, ruleset: Ruleset): string {
  const reached = t.wagons.filter((w) => w.toThreshold !== null && w.toThreshold <= 0);
  if (reached.length === 1) return `${reached[0]!.target} has reached the threshold and is eliminated.`;
  const leaders = t.outcome.leaders;
  const top = t.wagons[0]?.total ?? 0;
  const short =
    t.threshold.votes === null ? 'Under this ruleset' : `No one has ${thresholdWord(t)}; under this ruleset`;
  if (t.threshold.votes !== null && ruleset.shortOfThreshold === 'gm') return `${short} the GM (Judge) decides.`;
  if (t.threshold.votes !== null && ruleset.shortOfThreshold === 'no-elimination')
    return `${short} nobody is eliminated.`;
  if (leaders.length === 0 || top < Math.max(ruleset.minVotes, 1))
    return `${short} nobody is eliminated: no one has ${Math.max(ruleset.minVotes, 1)} vote${Math.max(ruleset.minVotes, 1) === 1 ? '' : 's'}.`;
  if (leaders.length === 1) return `${short} the plurality leader, ${leaders[0]}, is eliminated.`;
  return `${short} the leaders ${leaders.join(' and ')} are tied (${top} each): ${tieWords(ruleset)}.`;
}

/**
 * What the ruleset does at the deadline, in words, for the GM choosing it (the new-game and
 * settings forms): a majority ruleset's Day short of majority, and a tie. The rule post a
 * ruleset cites says how a player is eliminated; this says what Votal will do otherwise.
 */
export function deadlineRule(ruleset: Ruleset): string {
  const tie = `a tie: ${tieWords(ruleset)}`;
  const least = ruleset.minVotes > 1 ? ` (with ${ruleset.minVotes} votes at least)` : '';
  if (ruleset.threshold.kind === 'plurality') return `At the deadline the leader${least} is eliminated; ${tie}.`;
  const short = {
    plurality: `the plurality leader${least} is eliminated`,
    'no-elimination': 'nobody is eliminated',
    gm: 'the GM (Judge) decides',
  }[ruleset.shortOfThreshold];
  const needed = ruleset.threshold.kind === 'majority' ? 'majority' : 'the votes needed';
  return `At the deadline with no one at ${needed}, ${short}; ${tie}.`;
}

function thresholdWord(t: Tally): string {
  return t.threshold.kind === 'majority' ? 'majority' : `the ${t.threshold.votes} votes needed`;
}

const BREAKERS: Record<Ruleset['ties']['breakers'][number], string> = {
  'most-penalty': 'most penalty votes',
  'most-penalty-today': 'most penalty votes gained this Day',
  'latest-penalty': 'the most recent penalty vote',
  'first-to-reach': 'the wagon complete first',
  'roster-order': 'earliest on the player list',
  'last-to-lead': 'who most recently led alone',
};

function tieWords(ruleset: Ruleset): string {
  const then = {
    gm: 'the GM decides',
    all: 'all of them are eliminated',
    none: 'nobody is eliminated',
    draw: 'a random draw decides',
  }[ruleset.ties.then];
  const breakers = ruleset.ties.breakers.map((b) => BREAKERS[b]);
  return breakers.length ? `${breakers.join(', then ')} decides; still tied, ${then}` : then;
}
