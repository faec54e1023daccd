import { thresholdOf } from './threshold.js';
import {
  isLooseMatch,
  looseReading,
  type Explanation,
  type Threshold,
  type Voter,
  type Wagon,
} from '../model/tally.js';
import { activePenalties, voteBlockedBy } from './board.js';
import type { Board, CastVote, GameState, PenaltyVote, Status, Veto, VoteTarget } from './state.js';
import { slotName } from './state.js';
import { targetKey, targetName } from './vote-target.js';

/** One voter on a standing: `blockedBy` set when a status makes the vote not count. */
export interface StandingVoter {
  readonly slot: number;
  readonly vote: CastVote;
  readonly weight: number;
  readonly blockedBy: Status | null;
}

/**
 * A target's standing on the board, with slot indices kept: what the decision works on
 * and what a wagon is drawn from. total = votes + penalty - cancelled.
 */
export interface Standing {
  readonly target: VoteTarget;
  readonly name: string;
  readonly votes: number;
  readonly penalty: number;
  readonly cancelled: number;
  readonly total: number;
  /** Sorted by the post of the vote. */
  readonly voters: readonly StandingVoter[];
  readonly penalties: readonly PenaltyVote[];
  readonly vetoes: readonly Veto[];
}

export interface WagonView {
  /** `public` shows hidden weights as 1, hides hidden voters and leaves out votes that do not count. */
  readonly view: 'gm' | 'public';
  readonly explain: boolean;
}

/**
 * The standings on the board: each target with its standing voters, its penalty votes
 * and the vetoes against it, sorted by total (desc), then by whose earliest counted vote
 * came first, then by name. Abstentions are on no standing.
 */
export function standingsOf(state: GameState, board: Board, publicWeights = false): Standing[] {
  const { ruleset } = state;
  const groups = new Map<
    string,
    { target: VoteTarget; voters: StandingVoter[]; penalties: readonly PenaltyVote[]; vetoes: Veto[] }
  >();
  const group = (target: VoteTarget) => {
    const key = targetKey(target);
    const found = groups.get(key);
    if (found) return found;
    const made = {
      target,
      voters: [] as StandingVoter[],
      penalties: [] as readonly PenaltyVote[],
      vetoes: [] as Veto[],
    };
    groups.set(key, made);
    return made;
  };
  const living = new Set(board.living);

  for (const voter of board.living) {
    const vote = state.votes.get(voter);
    const slot = board.slots[voter];
    if (!vote || !slot || vote.target.kind === 'abstain') continue;
    const blockedBy = voteBlockedBy(ruleset, slot);
    const weight = blockedBy ? 0 : publicWeights && slot.hiddenWeight ? 1 : slot.weight;
    group(vote.target).voters.push({ slot: voter, vote, weight, blockedBy });
  }
  // Penalty votes are votes on the penalised player: they make a wagon on their own.
  for (const i of board.living) {
    const penalties = activePenalties(board.slots[i]!);
    if (penalties.length) group({ kind: 'slot', slot: i }).penalties = penalties;
  }
  for (const veto of state.vetoes) {
    if (living.has(veto.target)) group({ kind: 'slot', slot: veto.target }).vetoes.push(veto);
  }

  const standings = [...groups.values()].map(({ target, voters, penalties, vetoes }): Standing => {
    const nameOf = (v: StandingVoter) => state.slots[v.slot]?.name ?? '';
    voters.sort((a, b) => a.vote.post - b.vote.post || nameOf(a).localeCompare(nameOf(b)));
    const votes = voters.reduce((sum, v) => sum + v.weight, 0);
    const penalty = penalties.length;
    const cancelled = vetoes.length;
    return {
      target,
      name: targetName(state, target),
      votes,
      penalty,
      cancelled,
      total: votes + penalty - cancelled,
      voters,
      penalties,
      vetoes,
    };
  });
  const earliest = (s: Standing) => s.voters.find((v) => !v.blockedBy)?.vote.post ?? Number.POSITIVE_INFINITY;
  return standings.sort((a, b) => b.total - a.total || earliest(a) - earliest(b) || a.name.localeCompare(b.name));
}

function toThreshold(threshold: Threshold, total: number): number | null {
  return threshold.votes === null ? null : Math.max(0, threshold.votes - total);
}

/** The wagons as the tally shows them, in the given view. */
/** The first wagon at what it needs (No Lynch may need fewer than a player), if any. */
export function wagonAtThreshold(state: GameState, board: Board): Standing | undefined {
  const living = board.living.length;
  return standingsOf(state, board).find((s) => {
    const needs = thresholdOf(state.ruleset, living, s.target.kind === 'no-lynch').votes;
    return needs !== null && s.total >= needs;
  });
}

export function wagonsOf(
  state: GameState,
  board: Board,
  threshold: Threshold,
  view: WagonView = { view: 'gm', explain: false },
): Wagon[] {
  const isPublic = view.view === 'public';
  const wagons: Wagon[] = [];
  for (const s of standingsOf(state, board, isPublic)) {
    const shown = isPublic ? s.voters.filter((v) => !v.blockedBy) : s.voters;
    // A target whose every vote is withheld has nothing to show in public.
    if (isPublic && shown.length === 0 && s.penalty === 0 && s.cancelled === 0) continue;
    const voters: Voter[] = shown.map((v) => ({
      player: isPublic ? publicVoterName(state, v) : slotName(state, v.slot),
      post: v.vote.post,
      weight: v.weight,
      permalink: v.vote.permalink,
      ...(isLooseMatch(v.vote.match) ? { match: v.vote.match, written: v.vote.written ?? null } : {}),
      ...(v.vote.from ? { from: v.vote.from } : {}),
    }));
    const wagon: Wagon = {
      target: s.name,
      votes: s.votes,
      penalty: s.penalty,
      total: s.total,
      voters,
      toThreshold: toThreshold(
        s.target.kind === 'no-lynch' && state.ruleset.noLynch?.threshold
          ? thresholdOf(state.ruleset, board.living.length, true)
          : threshold,
        s.total,
      ),
    };
    if (state.ruleset.sideRules.veto) wagon.cancelled = s.cancelled;
    if (view.explain) wagon.explain = explainStanding(state, s, isPublic);
    wagons.push(wagon);
  }
  return wagons;
}

/** The targets sharing the top total (empty when nobody has a vote). */
export function leadersOf(wagons: readonly { target: string; total: number }[]): string[] {
  const top = wagons[0]?.total ?? 0;
  if (top <= 0) return [];
  return wagons.filter((w) => w.total === top).map((w) => w.target);
}

/** A token holder's vote shows as "Token" and a hidden vote as "Hidden": who cast them is the GM's secret. */
function publicVoterName(state: GameState, v: StandingVoter): string {
  if (v.vote.hidden) return 'Hidden';
  if (state.slots[v.slot]?.inactive) return 'Token';
  return slotName(state, v.slot);
}

function explainStanding(state: GameState, s: Standing, isPublic: boolean): Explanation[] {
  const name = (i: number) => slotName(state, i);
  const out: Explanation[] = [];
  for (const v of s.voters) {
    if (v.blockedBy) {
      if (!isPublic) out.push({ post: v.vote.post, text: `${name(v.slot)}'s vote does not count: ${v.blockedBy}` });
      continue;
    }
    const who = isPublic ? publicVoterName(state, v) : name(v.slot);
    const how = v.vote.source === 'gm' ? 'vote entered by the GM' : 'vote';
    const read = isLooseMatch(v.vote.match)
      ? ` → ${s.name} (${looseReading(v.vote.written, v.vote.match, v.vote.from)})`
      : '';
    out.push({ post: v.vote.post, text: `${who}: ${how}${read}${v.weight === 1 ? '' : `, counts ${v.weight}`}` });
  }
  for (const p of s.penalties) out.push({ post: p.post, text: `penalty vote (Day ${p.day}): ${p.reason}` });
  for (const veto of s.vetoes) out.push({ post: veto.post, text: `${name(veto.by)}'s veto cancels one vote` });
  return out;
}
