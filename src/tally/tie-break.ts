import type { TieBreaker } from '../rules/ruleset.js';
import type { GameState } from './state.js';
import { targetKey } from './vote-target.js';
import type { Standing } from './wagons.js';

export interface TieBreak {
  /** The tied standings that win this breaker (all of them when it does not separate them). */
  readonly kept: readonly Standing[];
  readonly text: string;
}

/**
 * One step of a tie-break chain ("then most penalty votes, then ..."). Each breaker scores
 * the tied standings and keeps those with the best score; No Lynch scores as a player
 * with no penalty votes, and comes after every player on the roster.
 */
export function breakTie(breaker: TieBreaker, tied: readonly Standing[], state: GameState): TieBreak {
  const { score, better, label, show } = scorer(breaker, state);
  const scored = tied.map((s) => ({ s, v: score(s) }));
  const best = scored.reduce((b, x) => (better(x.v, b) ? x.v : b), scored[0]?.v ?? 0);
  const kept = scored.filter((x) => x.v === best).map((x) => x.s);
  const scores = scored.map((x) => `${x.s.name} ${show(x.v)}`).join(', ');
  const result = kept.length === 1 ? `${kept[0]!.name} goes` : `still tied: ${kept.map((s) => s.name).join(', ')}`;
  return { kept, text: `${label} (${scores}): ${result}` };
}

interface Scorer {
  score(s: Standing): number;
  better(a: number, b: number): boolean;
  label: string;
  show(v: number): string;
}

function scorer(breaker: TieBreaker, state: GameState): Scorer {
  const higher = (a: number, b: number) => a > b;
  const lower = (a: number, b: number) => a < b;
  const plain = (v: number) => String(v);
  switch (breaker) {
    case 'most-penalty':
      return { score: (s) => s.penalty, better: higher, label: 'most penalty votes', show: plain };
    case 'most-penalty-today':
      return {
        score: (s) => gained(state, s).filter((p) => p.day === state.day && p.duringDay).length,
        better: higher,
        label: 'most penalty votes gained this Day',
        show: plain,
      };
    case 'latest-penalty':
      // Penalty votes gained at the same event (day-end missed votes) are equally recent.
      return {
        score: (s) => Math.max(-1, ...gained(state, s).map((p) => p.step)),
        better: higher,
        label: 'most recent penalty vote',
        show: (v) => (v < 0 ? 'none' : `event ${v}`),
      };
    case 'first-to-reach':
      // The wagon whose last standing vote came first was complete first.
      return {
        score: (s) => Math.max(0, ...s.voters.filter((v) => !v.blockedBy).map((v) => v.vote.post)),
        better: lower,
        label: 'first to reach the count',
        show: (v) => `at post ${v}`,
      };
    case 'roster-order':
      return {
        score: (s) => (s.target.kind === 'slot' ? s.target.slot : Number.MAX_SAFE_INTEGER),
        better: lower,
        label: 'earliest on the player list',
        show: (v) => (v === Number.MAX_SAFE_INTEGER ? 'not a player' : `#${v + 1}`),
      };
    case 'last-to-lead': {
      // Only one target leads alone at a step, so two tied players never score the same but -1.
      const led = (s: Standing) => state.leads.get(targetKey(s.target));
      const posts = new Map([...state.leads.values()].map((l) => [l.step, l.post]));
      return {
        score: (s) => led(s)?.step ?? -1,
        better: higher,
        label: 'most recently led alone',
        show: (v) => (v < 0 ? 'never led alone' : `last led alone after post ${posts.get(v)}`),
      };
    }
  }
}

/** Every penalty vote the target ever gained (forgiven ones included: they were gained). */
function gained(state: GameState, s: Standing) {
  return s.target.kind === 'slot' ? (state.slots[s.target.slot]?.penalties ?? []) : [];
}
