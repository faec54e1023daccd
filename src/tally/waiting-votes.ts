import type { Outcome } from '../model/tally.js';
import { liveBoard } from './board.js';
import { dayOutcome } from './day-outcome.js';
import type { Board, GameState, VoteTarget, WaitingVote } from './state.js';
import { withVote } from './state.js';
import { resolveTarget, sameTarget } from './vote-target.js';
import { wagonAtThreshold } from './wagons.js';

/** Readings tried at most; past it the decision is held (a Day with that many unread votes is the GM's). */
const MAX_READINGS = 2048;

interface Unread {
  readonly voter: number;
  readonly vote: WaitingVote;
  /** What the vote could read as, other than leaving the standing vote where it is. */
  readonly readings: readonly VoteTarget[];
}

/**
 * A decision is not final while votes Votal could not read, by living players, could change
 * who is eliminated: each such vote is tried as every reading it could have (its candidates,
 * or any living player and No Lynch when the name names nobody), together with the others,
 * and if any reading ends the Day differently the outcome waits for the GM, naming the posts.
 * Once the GM reads them (corrections), the recount decides as usual. A Day a wagon at the
 * threshold ended (`early`) would have gone on under a reading where no wagon is at it.
 * Each reading is also tried where the vote was cast: one that completes a wagon there
 * would have ended the Day at that post (one vote at a time; not with the others' readings).
 */
export function holdForWaitingVotes(
  state: GameState,
  board: Board,
  outcome: Outcome,
  position: number,
  early: boolean,
): Outcome {
  const unread = unreadVotes(state, board);
  if (unread.length === 0) return outcome;
  const key = (o: Outcome) => resultKey(o, early);
  const decided = key(outcome);
  if (!anyReadingDiffers(state, board, position, unread, key, decided) && !anEarlierHammerDiffers(unread, decided))
    return outcome;
  const held = heldReason(unread);
  const explain = [...(outcome.explain ?? []), { post: position, text: held }];
  if (outcome.decidedAt === null) return { ...outcome, explain, held };
  const { draw: _undecided, ...rest } = outcome;
  return { ...rest, status: 'ended', eliminated: [], decidedAt: null, explain, held };
}

function unreadVotes(state: GameState, board: Board): Unread[] {
  const living = new Set(board.living);
  const anyone: VoteTarget[] = [
    ...board.living.map((slot) => ({ kind: 'slot' as const, slot })),
    ...(state.ruleset.noLynch ? [{ kind: 'no-lynch' as const }] : []),
  ];
  const out: Unread[] = [];
  for (const [voter, vote] of state.waiting) {
    if (!living.has(voter)) continue;
    const named = vote.candidates.flatMap((name) => {
      const target = resolveTarget(state, name);
      return target ? [target] : [];
    });
    const standing = state.votes.get(voter)?.target;
    // A candidate who is dead (or names nobody) cannot be voted for: that reading leaves the vote as it is.
    const readings = (vote.candidates.length ? named : anyone).filter(
      (t) => (t.kind !== 'slot' || living.has(t.slot)) && !(standing && sameTarget(standing, t)),
    );
    if (readings.length) out.push({ voter, vote, readings });
  }
  return out;
}

/** Every combination of readings (each vote read or left as it stands), until one decides differently. */
function anyReadingDiffers(
  state: GameState,
  board: Board,
  position: number,
  unread: readonly Unread[],
  key: (o: Outcome) => string,
  decided: string,
): boolean {
  let combinations = 1;
  for (const u of unread) {
    combinations *= u.readings.length + 1;
    if (combinations > MAX_READINGS) return true;
  }
  for (let n = 1; n < combinations; n++) {
    let s = state;
    let rest = n;
    for (const u of unread) {
      const pick = rest % (u.readings.length + 1);
      rest = Math.floor(rest / (u.readings.length + 1));
      if (pick === 0) continue;
      const target = u.readings[pick - 1]!;
      s = withVote(s, u.voter, { target, post: u.vote.post, permalink: null, source: 'parsed' });
    }
    if (key(dayOutcome(s, board, position, [])) !== decided) return true;
  }
  return false;
}

/**
 * A reading that would have put a wagon at the threshold at the vote's own post, where the
 * ruleset ends the Day there: the Day would have ended then, perhaps with someone else (the
 * wagon may have lost votes since).
 */
function anEarlierHammerDiffers(unread: readonly Unread[], decided: string): boolean {
  for (const { voter, vote, readings } of unread) {
    const at = vote.asCast;
    if (!at.ruleset.endsAtThreshold || at.phase.kind !== 'open') continue;
    for (const target of readings) {
      const s = withVote(at, voter, { target, post: vote.post, permalink: null, source: 'parsed' });
      const board = liveBoard(s);
      if (wagonAtThreshold(s, board) && resultKey(dayOutcome(s, board, vote.post, []), false) !== decided) return true;
    }
  }
  return false;
}

/** What the Day's decision does: who is eliminated, or that the GM decides (or, early, that the Day goes on). */
function resultKey(outcome: Outcome, early: boolean): string {
  if (outcome.decidedAt === null) return 'gm';
  if (early && outcome.status !== 'majority' && outcome.status !== 'no-lynch') return 'goes on';
  return [...outcome.eliminated].sort().join('\u0000');
}

function heldReason(unread: readonly Unread[]): string {
  const posts = unread.map(({ vote }) => {
    const written = vote.raw ? ` "${vote.raw}"` : ' (unreadable post)';
    const could = vote.candidates.length ? `: ${vote.candidates.join(' or ')}` : '';
    return `#${vote.post}${written}${could}`;
  });
  const n = unread.length;
  return `${n} vote${n === 1 ? ' waits' : 's wait'} for you (${posts.join(', ')}); ${n === 1 ? 'it' : 'they'} could change who is eliminated`;
}
