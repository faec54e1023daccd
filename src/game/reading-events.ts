import type { GmEvent } from '../model/event.js';
import type { OwnDeath } from '../tally/count.js';
import type { FoldGameResult, PostHistory } from './fold-game.js';

/**
 * The events the reading roster follows (`rosterAt`): the GM's record, and the deaths the
 * count caused by itself as kills after their post (issue #24). A player the tally
 * eliminated (a hammer, the deadline rule) is dead from the next Day's start for the
 * parser too: on Day 2 a vote for them reads as a vote for the dead, and a name that fits
 * them and one living player is the living one's. A Day held for the GM buries nobody
 * until the GM decides, so it adds nothing here. This is the one place that list is made.
 */
export function readingEvents(gmEvents: readonly GmEvent[], ownDeaths: readonly OwnDeath[]): GmEvent[] {
  return [...gmEvents, ...ownDeaths.map((d): GmEvent => ({ kind: 'kill', player: d.player, at: d.at }))];
}

export interface OwnRead<H extends readonly PostHistory[]> {
  histories: H;
  folded: FoldGameResult;
  /** The events the posts were read under: the GM's and the count's own deaths. */
  readingEvents: GmEvent[];
}

/**
 * Reads the posts and folds them until the count's own deaths are the ones the posts were
 * read with. A post's reading depends only on the deaths before it, so each round settles
 * the deaths up to the next one at least (whatever the round started from), and the one
 * answer that reads its own deaths is the count's. A game where the count killed nobody is
 * read and folded once.
 * `from`: the deaths the game's stored count found (`Tally.ownDeaths`): the next count
 * starts from them, so a count where they did not change reads and folds once (and saves
 * the readings of one roster, not two). Only a start: the rounds check it. Kept with the
 * stored count, never in the process, so a restart starts where the last count ended.
 */
export async function foldWithOwnDeaths<H extends readonly PostHistory[]>(
  gmEvents: readonly GmEvent[],
  read: (events: readonly GmEvent[]) => Promise<H> | H,
  fold: (histories: H) => FoldGameResult,
  options: { maxRounds: number; from?: readonly OwnDeath[] | undefined },
): Promise<OwnRead<H>> {
  let deaths: readonly OwnDeath[] = options.from ?? [];
  for (let round = 1; ; round++) {
    const events = readingEvents(gmEvents, deaths);
    const histories = await read(events);
    const folded = fold(histories);
    // Past the bound (never met on a real game: two rounds settle it), the last round stands.
    if (sameDeaths(folded.ownDeaths, deaths) || round >= options.maxRounds)
      return { histories, folded, readingEvents: events };
    deaths = folded.ownDeaths;
  }
}

function sameDeaths(a: readonly OwnDeath[], b: readonly OwnDeath[]): boolean {
  return a.length === b.length && a.every((d, i) => d.player === b[i]!.player && d.at === b[i]!.at);
}
