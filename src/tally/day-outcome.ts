import type { Draw, Explanation, Outcome } from '../model/tally.js';
import { lynchShieldOf } from './board.js';
import { drawOne, seedFrom } from './draw.js';
import { roleRule } from './role-rule.js';
import type { Board, GameState } from './state.js';
import { slotName } from './state.js';
import { thresholdFor, thresholdOf } from './threshold.js';
import { breakTie } from './tie-break.js';
import { targetName } from './vote-target.js';
import { leadersOf, standingsOf, type Standing } from './wagons.js';

/**
 * How the Day ends on this board, as decided at `position`. In order:
 *  1. a wagon at the threshold wins; short of it, `shortOfThreshold` (leader / nobody / GM);
 *  2. only wagons with at least `minVotes` (penalty votes included, vetoed votes not) can win;
 *  3. No Lynch that `losesTies` drops out of a tie (it must be strictly ahead);
 *  4. a leader whose status shields them makes the lynch fail;
 *  5. a tie goes through the `ties.breakers`, then `ties.then` (GM, all, none, draw);
 *  6. No Lynch winning: nobody, or the GM (Judge) decides;
 *  7. a lynched player whose role takes their vote target along adds it to `eliminated`.
 * `decidedAt` stays null while the GM still has to decide. Every step says why in `explain`.
 */
export function dayOutcome(state: GameState, board: Board, position: number, why: Explanation[] = []): Outcome {
  const standings = standingsOf(state, board);
  const leaders = leadersOf(standings.map((s) => ({ target: s.name, total: s.total })));
  const say = (text: string) => why.push({ post: position, text });
  const close = (status: Outcome['status'], decidedAt: number | null): Outcome => ({
    status,
    eliminated: [],
    decidedAt,
    leaders,
    explain: why,
  });
  const end: Ending = {
    state,
    board,
    position,
    why,
    leaders,
    reached: false,
    say,
    nobody: (text) => {
      say(text);
      return close('no-lynch', position);
    },
    pending: (text) => {
      say(text);
      return close('ended', null);
    },
  };

  const wagons = wagonsInPlay(end, standings);
  if ('status' in wagons) return wagons;
  end.reached = wagons.reached;
  const pool = wagons.pool;
  if (pool.length === 0) {
    const { minVotes } = state.ruleset;
    return end.nobody(minVotes > 1 ? `nobody has ${minVotes} votes: no lynch` : 'nobody has a vote: no lynch');
  }
  const best = pool[0]!.total;
  const tied = noLynchLosesTie(
    end,
    pool.filter((s) => s.total === best),
    best,
  );
  const shielded = shieldsOf(end, tied);
  if (shielded.length) return end.nobody(`the lynch fails: ${shielded.join(', ')}`);
  if (tied.length === 1) return applyWin(end, tied);
  end.say(`tied at ${best}: ${names(tied)}`);
  return applyTie(end, tied);
}

/** What every step of the Day's ending shares: where it is decided, and the two ways to end without a lynch. */
interface Ending {
  readonly state: GameState;
  readonly board: Board;
  readonly position: number;
  readonly why: Explanation[];
  readonly leaders: Outcome['leaders'];
  /** A wagon reached its threshold (the outcome is a majority, not a plurality). */
  reached: boolean;
  readonly say: (text: string) => void;
  readonly nobody: (text: string) => Outcome;
  readonly pending: (text: string) => Outcome;
}

/**
 * Steps 1-2: the wagons that can win, each against what it needs (No Lynch may have a threshold
 * of its own), or the outcome when none reached it and the ruleset does not fall back to plurality.
 */
function wagonsInPlay(end: Ending, standings: readonly Standing[]): Outcome | { reached: boolean; pool: Standing[] } {
  const { ruleset } = end.state;
  const living = end.board.living.length;
  const threshold = thresholdFor(ruleset.threshold, living);
  const needs = (s: Standing) => thresholdOf(ruleset, living, isNoLynch(s));
  const atThreshold = standings.filter((s) => {
    const n = needs(s).votes;
    return n !== null && s.total >= n;
  });
  const top = atThreshold[0];
  const reached = top !== undefined;
  if (reached) end.say(`${top.name} has ${top.total}, at least the ${needs(top).votes} needed (${needs(top).kind})`);
  const mode = reached || threshold.kind === 'plurality' ? 'plurality' : ruleset.shortOfThreshold;
  if (mode === 'gm') return end.pending(`no wagon reached ${threshold.votes}: the GM (Judge) decides`);
  if (mode === 'no-elimination') return end.nobody(`no wagon reached ${threshold.votes}: nobody is eliminated`);
  const pool = (reached ? atThreshold : standings).filter((s) => s.total >= Math.max(ruleset.minVotes, 1));
  return { reached, pool };
}

/** Step 3: No Lynch that `losesTies` must be strictly ahead, so it drops out of a tie. */
function noLynchLosesTie(end: Ending, tied: readonly Standing[], best: number): readonly Standing[] {
  const { noLynch } = end.state.ruleset;
  if (tied.length <= 1 || !noLynch?.losesTies || !tied.some(isNoLynch)) return tied;
  const players = tied.filter((s) => !isNoLynch(s));
  end.say(`${noLynch.name} (${best}) is not strictly ahead of ${names(players)} (${best}): it loses the tie`);
  return players;
}

/** Step 4: leaders whose status shields them from the lynch, each as "name is status". */
function shieldsOf(end: Ending, tied: readonly Standing[]): string[] {
  return tied.flatMap((s) => {
    const status = s.target.kind === 'slot' ? lynchShieldOf(end.state.ruleset, end.board.slots[s.target.slot]!) : null;
    return status ? [`${s.name} is ${status}`] : [];
  });
}

/** Steps 6-7: the winners die (with whoever their roles take along), or No Lynch wins. */
function applyWin(end: Ending, winners: readonly Standing[], draw?: Draw): Outcome {
  const { state, board, say } = end;
  const { noLynch } = state.ruleset;
  const [only] = winners;
  if (winners.length === 1 && only && isNoLynch(only)) {
    const nl = noLynch?.name ?? 'No Lynch';
    return noLynch?.wins === 'gm'
      ? end.pending(`${nl} wins: the GM (Judge) decides`)
      : end.nobody(`${nl} wins: nobody is lynched`);
  }
  const lynched = winners.filter((s) => !isNoLynch(s));
  if (winners.length === 1) say(`${only!.name} is lynched with ${only!.total}`);
  else say(`everyone tied dies: ${names(lynched)}`);
  const eliminated = [...lynched.map((s) => s.name), ...takenAlong(state, board, lynched, say)];
  const outcome: Outcome = {
    status: end.reached ? 'majority' : 'ended',
    eliminated,
    decidedAt: end.position,
    leaders: end.leaders,
    explain: end.why,
  };
  if (draw) outcome.draw = draw;
  return outcome;
}

/** Step 5: a tie goes through the ruleset's breakers, then `ties.then`. */
function applyTie(end: Ending, tied: readonly Standing[]): Outcome {
  const { state } = end;
  const { ties } = state.ruleset;
  let kept = tied;
  for (const breaker of ties.breakers) {
    const step = breakTie(breaker, kept, state);
    end.say(step.text);
    kept = step.kept;
    if (kept.length === 1) return applyWin(end, kept);
  }
  switch (ties.then) {
    case 'gm':
      end.say('the GM decides the tie');
      return { status: 'tie', eliminated: [], decidedAt: null, leaders: end.leaders, explain: end.why };
    case 'none':
      return end.nobody('a tie: nobody is lynched');
    case 'all':
      return applyWin(
        end,
        kept.filter((s) => !isNoLynch(s)),
      );
    case 'draw':
      return applyDraw(end, kept);
  }
}

/** The `draw` end of a tie: a seeded random pick, so the same game always draws the same. */
function applyDraw(end: Ending, tied: readonly Standing[]): Outcome {
  const { state } = end;
  // Roster order, No Lynch last: the same tie always lists the same way.
  const order = [...tied].sort((a, b) => rosterIndex(a) - rosterIndex(b));
  const seed = state.seed ?? seedFrom(`${state.ruleset.name}|day ${state.day}|${order.map((s) => s.name).join('|')}`);
  const draw = drawOne(
    seed,
    order.map((s) => s.name),
  );
  end.say(
    `random draw among ${draw.candidates.join(', ')} (seed ${seed}, roll ${draw.roll.toFixed(6)}): ${draw.picked}`,
  );
  return applyWin(end, order.filter((s) => s.name === draw.picked).slice(0, 1), draw);
}

function isNoLynch(s: Standing): boolean {
  return s.target.kind === 'no-lynch';
}

function rosterIndex(s: Standing): number {
  return s.target.kind === 'slot' ? s.target.slot : Number.MAX_SAFE_INTEGER;
}

function names(list: readonly Standing[]): string {
  return list.map((s) => s.name).join(', ');
}

/** A lynched Hunter shoots the target of their standing vote (nobody if they voted No Lynch). */
function takenAlong(state: GameState, board: Board, lynched: readonly Standing[], say: (t: string) => void): string[] {
  const out: string[] = [];
  const gone = new Set(lynched.flatMap((s) => (s.target.kind === 'slot' ? [s.target.slot] : [])));
  for (const s of lynched) {
    if (s.target.kind !== 'slot') continue;
    const slot = board.slots[s.target.slot]!;
    const role = slot.roles.find((r) => roleRule(state, r)?.lynchKillsVoteTarget);
    if (!role) continue;
    const vote = state.votes.get(s.target.slot);
    if (!vote || vote.target.kind !== 'slot') {
      say(`${s.name} (${role}) ${vote ? `voted ${targetName(state, vote.target)}` : 'had no vote'}: nobody else dies`);
      continue;
    }
    const target = vote.target.slot;
    if (gone.has(target) || !board.living.includes(target)) continue;
    gone.add(target);
    const name = slotName(state, target);
    say(`${s.name} (${role}) takes ${name}, their vote, along`);
    out.push(name);
  }
  return out;
}
