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
  const { ruleset } = state;
  const threshold = thresholdFor(ruleset.threshold, board.living.length);
  const standings = standingsOf(state, board);
  const leaders = leadersOf(standings.map((s) => ({ target: s.name, total: s.total })));
  const say = (text: string) => why.push({ post: position, text });
  const nobody = (text: string): Outcome => {
    say(text);
    return { status: 'no-lynch', eliminated: [], decidedAt: position, leaders, explain: why };
  };
  const pending = (text: string): Outcome => {
    say(text);
    return { status: 'ended', eliminated: [], decidedAt: null, leaders, explain: why };
  };

  // Each wagon against what it needs (No Lynch may have a threshold of its own).
  const needs = (s: Standing) => thresholdOf(ruleset, board.living.length, isNoLynch(s));
  const atThreshold = standings.filter((s) => {
    const n = needs(s).votes;
    return n !== null && s.total >= n;
  });
  const top = atThreshold[0];
  const reached = top !== undefined;
  if (reached) say(`${top.name} has ${top.total}, at least the ${needs(top).votes} needed (${needs(top).kind})`);
  const mode = reached || threshold.kind === 'plurality' ? 'plurality' : ruleset.shortOfThreshold;
  if (mode === 'gm') return pending(`no wagon reached ${threshold.votes}: the GM (Judge) decides`);
  if (mode === 'no-elimination') return nobody(`no wagon reached ${threshold.votes}: nobody is eliminated`);

  const pool = (reached ? atThreshold : standings).filter((s) => s.total >= Math.max(ruleset.minVotes, 1));
  if (pool.length === 0) {
    return nobody(
      ruleset.minVotes > 1 ? `nobody has ${ruleset.minVotes} votes: no lynch` : 'nobody has a vote: no lynch',
    );
  }
  const best = pool[0]!.total;
  let tied: readonly Standing[] = pool.filter((s) => s.total === best);

  if (tied.length > 1 && ruleset.noLynch?.losesTies && tied.some(isNoLynch)) {
    const players = tied.filter((s) => !isNoLynch(s));
    say(`${ruleset.noLynch.name} (${best}) is not strictly ahead of ${names(players)} (${best}): it loses the tie`);
    tied = players;
  }

  const shielded = tied.flatMap((s) => {
    const status = s.target.kind === 'slot' ? lynchShieldOf(ruleset, board.slots[s.target.slot]!) : null;
    return status ? [`${s.name} is ${status}`] : [];
  });
  if (shielded.length) return nobody(`the lynch fails: ${shielded.join(', ')}`);

  const win = (winners: readonly Standing[], draw?: Draw): Outcome => {
    const [only] = winners;
    if (winners.length === 1 && only && isNoLynch(only)) {
      const nl = ruleset.noLynch?.name ?? 'No Lynch';
      return ruleset.noLynch?.wins === 'gm'
        ? pending(`${nl} wins: the GM (Judge) decides`)
        : nobody(`${nl} wins: nobody is lynched`);
    }
    const lynched = winners.filter((s) => !isNoLynch(s));
    if (winners.length === 1) say(`${only!.name} is lynched with ${only!.total}`);
    else say(`everyone tied dies: ${names(lynched)}`);
    const eliminated = [...lynched.map((s) => s.name), ...takenAlong(state, board, lynched, say)];
    const outcome: Outcome = {
      status: reached ? 'majority' : 'ended',
      eliminated,
      decidedAt: position,
      leaders,
      explain: why,
    };
    if (draw) outcome.draw = draw;
    return outcome;
  };

  if (tied.length === 1) return win(tied);
  say(`tied at ${best}: ${names(tied)}`);
  for (const breaker of ruleset.ties.breakers) {
    const step = breakTie(breaker, tied, state);
    say(step.text);
    tied = step.kept;
    if (tied.length === 1) return win(tied);
  }
  switch (ruleset.ties.then) {
    case 'gm':
      say('the GM decides the tie');
      return { status: 'tie', eliminated: [], decidedAt: null, leaders, explain: why };
    case 'none':
      return nobody('a tie: nobody is lynched');
    case 'all':
      return win(tied.filter((s) => !isNoLynch(s)));
    case 'draw': {
      // Roster order, No Lynch last: the same tie always lists the same way.
      const order = [...tied].sort((a, b) => rosterIndex(a) - rosterIndex(b));
      const seed = state.seed ?? seedFrom(`${ruleset.name}|day ${state.day}|${order.map((s) => s.name).join('|')}`);
      const draw = drawOne(
        seed,
        order.map((s) => s.name),
      );
      say(
        `random draw among ${draw.candidates.join(', ')} (seed ${seed}, roll ${draw.roll.toFixed(6)}): ${draw.picked}`,
      );
      return win(order.filter((s) => s.name === draw.picked).slice(0, 1), draw);
    }
  }
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
