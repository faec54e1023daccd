import type { Tally } from '../model/tally.js';
import { openFlags } from './render-votal.js';
import { outcomeLine } from './votal-lines.js';

/**
 * What changed between the count a draft was made from and the current one, in the words a
 * GM reads before approving an old draft: posts read, each wagon that moved, who is (no
 * longer) not voting, the living and the outcome. Pure.
 */
export interface CountChanges {
  postsRead: { from: number; to: number };
  asOfPost: { from: number | null; to: number | null };
  /** Wagons whose total differs (0 for a wagon that does not exist on that side), in the current count's order. */
  wagons: { target: string; from: number; to: number }[];
  notVoting: { from: string[]; to: string[] } | null;
  living: { from: number; to: number } | null;
  outcome: { from: string; to: string } | null;
  /** Review items still open for the GM. */
  openFlags: { from: number; to: number } | null;
  /** One sentence per change, e.g. "Alice: 2 → 4 votes". */
  summary: string[];
}

export function countChanges(from: Tally, to: Tally): CountChanges {
  const totals = (t: Tally) => new Map(t.wagons.map((w) => [w.target, w.total]));
  const before = totals(from);
  const after = totals(to);
  const targets = [...to.wagons.map((w) => w.target), ...from.wagons.map((w) => w.target).filter((t) => !after.has(t))];
  const wagons = targets
    .map((target) => ({ target, from: before.get(target) ?? 0, to: after.get(target) ?? 0 }))
    .filter((w) => w.from !== w.to);
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  const notVoting = same(from.notVoting, to.notVoting) ? null : { from: from.notVoting, to: to.notVoting };
  const living = from.living === to.living ? null : { from: from.living, to: to.living };
  const outcome = outcomeLine(from) === outcomeLine(to) ? null : { from: outcomeLine(from), to: outcomeLine(to) };
  const flags = { from: openFlags(from).length, to: openFlags(to).length };

  const votes = (n: number) => `${n} ${n === 1 ? 'vote' : 'votes'}`;
  const list = (names: readonly string[]) => (names.length ? names.join(', ') : 'nobody');
  // Only what changed: a recount of the same posts (a GM event, a ruleset change) lists no "22 → 22".
  const postsMoved = from.postsRead !== to.postsRead || from.asOfPost !== to.asOfPost;
  const changed = [
    ...(postsMoved
      ? [
          `Posts read: ${from.postsRead} → ${to.postsRead}${to.asOfPost !== null ? ` (now as of post ${to.asOfPost})` : ''}.`,
        ]
      : []),
    ...wagons.map((w) => `${w.target}: ${votes(w.from)} → ${votes(w.to)}.`),
    ...(living ? [`Alive: ${living.from} → ${living.to}.`] : []),
    ...(notVoting ? [`Not voting: ${list(notVoting.from)} → ${list(notVoting.to)}.`] : []),
    ...(outcome ? [`Outcome: ${outcome.from} → ${outcome.to}`] : []),
    ...(flags.from !== flags.to ? [`Votes for the GM to check: ${flags.from} → ${flags.to}.`] : []),
  ];
  const summary = changed.length ? changed : ['The count was made again from the same posts and reads the same.'];
  return {
    postsRead: { from: from.postsRead, to: to.postsRead },
    asOfPost: { from: from.asOfPost, to: to.asOfPost },
    wagons,
    notVoting,
    living,
    outcome,
    openFlags: flags.from === flags.to ? null : flags,
    summary,
  };
}
