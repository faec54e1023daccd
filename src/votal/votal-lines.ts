import type { Tally, Wagon } from '../model/tally.js';

/** The words of a votal, shared by every medium: each renderer only marks them up. */
export function thresholdLine(t: Tally): string {
  const alive = `${t.living} alive`;
  if (t.threshold.votes === null) return `${alive}; most votes at the deadline decide.`;
  return t.threshold.kind === 'majority'
    ? `${alive}, so it takes ${t.threshold.votes} to reach majority.`
    : `${alive}, so it takes ${t.threshold.votes} votes to decide.`;
}

export function wagonCount(w: Wagon): string {
  const penalty = w.penalty ? ` + ${w.penalty} penalty` : '';
  const toGo = w.toThreshold === null ? '' : w.toThreshold <= 0 ? ' - reached' : ` - L-${w.toThreshold}`;
  return `${w.votes}${penalty}${toGo}`;
}

export function outcomeLine(t: Tally): string {
  const o = t.outcome;
  switch (o.status) {
    case 'open':
      return 'The Day goes on.';
    case 'majority':
      return `Majority reached on ${o.eliminated.join(', ')}${o.decidedAt ? ` at post ${o.decidedAt}` : ''}.`;
    case 'no-lynch':
      return 'The Day ended with no elimination.';
    case 'tie':
      return `The Day ended in a tie between ${o.leaders.join(', ')}.`;
    case 'ended':
      if (o.held) return `The Day ended; the elimination waits for the GM: ${o.held}.`;
      return o.eliminated.length
        ? `The Day ended: ${o.eliminated.join(', ')} eliminated.`
        : 'The Day ended with no elimination decided.';
  }
}
