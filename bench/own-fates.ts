/**
 * `bench/real-games.ts --own-fates` (issue #24): each Day read with Votal's own
 * eliminations of the Days before it instead of the archive's lynches, as a live game is
 * read when the GM records no decision: the players Votal's count eliminated are dead for
 * the next Days' reading, and the archive's lynched player lives on when Votal eliminated
 * someone else or nobody. Deaths that are not a Day's lynch (Night kills, modkills) stay
 * the archive's: the GM records those. A Day Votal leaves to the GM (a tie, a decision held
 * for unread votes) takes the archive's lynch, the GM's decision.
 */
import type { Roster } from '../src/model/roster.js';
import type { Outcome } from '../src/model/tally.js';
import type { ArchiveGame } from './donbot-games.js';

export class OwnFates {
  /** game id -> Day -> the slots Votal's count eliminated (null: left to the GM). */
  private readonly decided = new Map<string, Map<number, string[] | null>>();

  /** The Day's roster: the archive's (`base`), with Votal's eliminations in place of its lynches. */
  rosterFor(game: ArchiveGame, day: number, base: Roster): Roster {
    const own = this.decided.get(game.id) ?? new Map<number, string[] | null>();
    const killedByVotal = new Set<string>();
    for (const [d, eliminated] of own) if (d < day) for (const name of eliminated ?? []) killedByVotal.add(name);
    return base.map((slot, i) => {
      const fate = game.fates[i]!;
      if (killedByVotal.has(slot.name)) return { ...slot, alive: false };
      if (fate >= day) return slot;
      // Dead before this Day in the archive: by its lynch (then Votal's Day decides), or otherwise.
      const lynchedThen = game.lynched.get(fate) === i;
      const votalDecided = own.get(fate);
      const alive = lynchedThen && votalDecided !== undefined && votalDecided !== null;
      return alive ? { ...slot, alive: true } : slot;
    });
  }

  /** Votal's decision of the Day: who its count eliminated, or null when the GM decides. */
  record(game: ArchiveGame, day: number, outcome: Pick<Outcome, 'decidedAt' | 'eliminated'>): void {
    const days = this.decided.get(game.id) ?? new Map<number, string[] | null>();
    days.set(day, outcome.decidedAt === null ? null : [...outcome.eliminated]);
    this.decided.set(game.id, days);
  }
}
