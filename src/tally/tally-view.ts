import type { EngineId } from '../model/engine.js';
import type { Outcome, PenaltyCount, SideCount, Tally, Voter } from '../model/tally.js';
import { activePenalties, boardOf } from './board.js';
import { forgiveCounts } from './forgiveness.js';
import { keywordStandings } from './side-votes.js';
import type { GameState } from './state.js';
import { slotName, untimedPosts } from './state.js';
import { thresholdFor, thresholdOf } from './threshold.js';
import { leadersOf, wagonsOf } from './wagons.js';

export interface ViewOptions {
  /** `gm` (default): everything. `public`: what the live page may show. */
  view?: 'gm' | 'public';
  /** Add `explain` to wagons, penalty counts and the outcome. */
  explain?: boolean;
}

/**
 * The state as the `Tally` contract shows it (`votal count --format json`). The public
 * view withholds what the GM keeps secret: hidden weights (shown as 1), hidden voters
 * ("Hidden") and token votes ("Token"), votes that do not count, who is inactive, and,
 * under `publish: day-end`, every vote until the Day is decided.
 */
export function toTally(state: GameState, engine: EngineId | null, options: ViewOptions = {}): Tally {
  const { ruleset } = state;
  const view = options.view ?? 'gm';
  const explain = options.explain ?? false;
  const board = boardOf(state);
  const threshold = thresholdFor(ruleset.threshold, board.living.length);
  const withheld = view === 'public' && ruleset.publish === 'day-end' && state.phase.kind === 'open';
  const wagons = withheld ? [] : wagonsOf(state, board, threshold, { view, explain });
  // The slot's current name: after a replacement the new player owns the slot, the Day's count included.
  const names = (slots: readonly number[]) => slots.map((i) => slotName(state, i));

  const tally: Tally = {
    engine,
    ruleset: ruleset.name,
    day: state.day,
    postsRead: state.postsRead,
    asOfPost: state.asOfPost,
    living: board.living.length,
    players: names(board.living),
    threshold,
    ...(ruleset.noLynch?.threshold ? { noLynchThreshold: thresholdOf(ruleset, board.living.length, true) } : {}),
    wagons,
    notVoting: withheld ? [] : names(board.living.filter((i) => !state.votes.has(i))),
    violations: [...state.violations],
    flags: [...state.flags],
    outcome: outcomeOf(state, wagons, explain, view),
    view,
  };
  if (ruleset.abstain && !withheld) {
    tally.abstaining = names(board.living.filter((i) => state.votes.get(i)?.target.kind === 'abstain'));
  }
  const penalties = penaltyCounts(state, explain);
  if (penalties.length) tally.penalties = penalties;
  const side = withheld ? [] : sideCounts(state);
  if (side.length) tally.sideVotes = side;
  const dead = state.slots.flatMap((slot, i) => (slot.alive ? [] : [slotName(state, i)]));
  if (dead.length) tally.dead = dead;
  if (state.deaths.length) tally.deaths = [...state.deaths];
  if (state.clock.deadline !== null) tally.deadline = state.clock.deadline;
  if (ruleset.missingVote.blocksPowers) tally.powersBlocked = state.powersBlocked.map((i) => slotName(state, i));
  if (view === 'gm' && ruleset.inactivity?.becomes === 'inactive') {
    tally.inactive = state.slots.flatMap((s) => (s.inactive ? [s.name] : []));
  }
  if (view === 'gm' && state.untimed !== null) tally.untimed = untimedPosts(state.untimed);
  const waiting = [...state.waiting].filter(([slot]) => state.slots[slot]?.alive);
  if (view === 'gm' && waiting.length) {
    tally.waiting = waiting.map(([slot, w]) => ({
      post: w.post,
      raw: w.raw,
      candidates: [...w.candidates],
      player: slotName(state, slot),
    }));
  }
  const notes = [...state.notes, ...(withheld ? ['votes are published when the Day is decided'] : [])];
  if (notes.length) tally.notes = notes;
  return tally;
}

function outcomeOf(state: GameState, wagons: Tally['wagons'], explain: boolean, view: 'gm' | 'public'): Outcome {
  if (state.phase.kind !== 'closed')
    return { status: 'open', eliminated: [], decidedAt: null, leaders: leadersOf(wagons) };
  // Which unread votes hold the decision is the GM's queue: players see only that it waits.
  const { explain: why, held, ...decided } = state.phase.outcome;
  const outcome = held === undefined ? decided : { ...decided, held: view === 'gm' ? held : HELD_PUBLIC };
  return explain && why ? { ...outcome, explain: why } : outcome;
}

const HELD_PUBLIC = 'votes the GM is reading could change who is eliminated';

/** Everyone who has had a penalty vote, in roster order, with the count as it stands now. */
function penaltyCounts(state: GameState, explain: boolean): PenaltyCount[] {
  return state.slots.flatMap((slot) => {
    if (slot.penalties.length === 0) return [];
    const active = activePenalties(slot);
    const count: PenaltyCount = {
      player: slot.name,
      count: active.length,
      today: active.filter((p) => p.day === state.day && p.duringDay).length,
    };
    if (explain) {
      count.explain = slot.penalties.map((p) => ({
        post: p.post,
        text: `Day ${p.day}${p.duringDay ? '' : ' (Night)'}: ${p.reason}${p.forgivenAt === null ? '' : `; forgiven after post ${p.forgivenAt}`}`,
      }));
    }
    return [count];
  });
}

/** Hammer / Filibuster on the Day's board; forgive votes per target at Night. */
function sideCounts(state: GameState): SideCount[] {
  const board = boardOf(state);
  const voter = (slot: number, cast: { post: number; permalink: string | null }): Voter => ({
    player: slotName(state, slot),
    post: cast.post,
    weight: 1,
    permalink: cast.permalink,
  });
  const out: SideCount[] = keywordStandings(state, board).map((k) => ({
    kind: k.kind,
    target: null,
    total: k.voters.length,
    needs: k.needs,
    voters: k.voters.map((i) => voter(i, state.sideVotes[k.kind].get(i)!)),
  }));
  if (state.ruleset.sideRules.forgive && state.phase.kind === 'closed') {
    for (const [target, voters] of forgiveCounts(state)) {
      out.push({
        kind: 'forgive',
        target: slotName(state, target),
        total: voters.length,
        needs: null,
        voters: voters.map((i) => voter(i, state.forgiveVotes.get(i)!)),
      });
    }
  }
  return out;
}
