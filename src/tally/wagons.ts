import type { Threshold, Voter, Wagon } from '../model/tally.js';
import type { Board, GameState, VoteTarget } from './state.js';
import { targetKey, targetName } from './vote-target.js';

/**
 * The wagons on the board: each target with its standing voters (by post), sorted by
 * total (desc), then by whose earliest standing vote came first, then by name.
 */
export function wagonsOf(state: GameState, board: Board, threshold: Threshold): Wagon[] {
  const groups = new Map<string, { target: VoteTarget; voters: Voter[] }>();
  for (const voter of board.living) {
    const vote = state.votes.get(voter);
    if (!vote) continue;
    const key = targetKey(vote.target);
    const group = groups.get(key) ?? { target: vote.target, voters: [] };
    group.voters.push({
      player: state.slots[voter]?.name ?? `#${voter}`,
      post: vote.post,
      weight: board.weights[voter] ?? 1,
      permalink: vote.permalink,
    });
    groups.set(key, group);
  }
  const wagons = [...groups.values()].map(({ target, voters }) => {
    voters.sort((a, b) => a.post - b.post || a.player.localeCompare(b.player));
    const votes = voters.reduce((sum, v) => sum + v.weight, 0);
    const penalty = 0; // penalty votes arrive with the penalty mechanism
    const total = votes + penalty;
    return {
      target: targetName(state, target), votes, penalty, total, voters,
      toThreshold: threshold.votes === null ? null : Math.max(0, threshold.votes - total),
    };
  });
  const earliest = (w: Wagon) => w.voters[0]?.post ?? Number.POSITIVE_INFINITY;
  return wagons.sort((a, b) => b.total - a.total || earliest(a) - earliest(b) || a.target.localeCompare(b.target));
}

/** The targets sharing the top total (empty when nobody has a vote). */
export function leadersOf(wagons: readonly Wagon[]): string[] {
  const top = wagons[0]?.total ?? 0;
  if (top <= 0) return [];
  return wagons.filter((w) => w.total === top).map((w) => w.target);
}
