/**
 * Whose miss a moderator's count's difference is, where the differences alone cannot say
 * (bench/real-games.ts `causeOf`). A voter Votal has on a wagon whom the count, as read,
 * puts nowhere (on no wagon and not on its not-voting line) is the reader's miss only when
 * the count post writes them in a voter's place: on a line the reader did not read. A count
 * that writes them nowhere, or only as a wagon's target at a line's start ("Zdenek -"), left
 * the voter off: the moderator's slip (MafiaScum game 1221 post #82, donbot data 739243d:
 * Zdenek's vote written as "Zdenek - Nintendoaddict", the reverse of the vote).
 *
 * "Writes them" is generous to the reader's miss: any of the slot's names (its replacements'
 * too) as words, or a word that is the first four letters or more of one ("Nintendoaddict"
 * for nintendoaddict1), after a line's first separator, in the post's own text (quotes are
 * someone else's words). Prose with no separator is not a count's line.
 */
import type { Body } from '../src/model/body.js';
import type { PostHistory } from '../src/game/fold-game.js';
import type { CheckDifference, CheckListing, CountCheck } from '../src/model/gm-count.js';
import { walkLines } from '../src/parse/own-text.js';

/**
 * A count line's target, with the marks before it, up to its first separator ("[4] Carol (",
 * "Carol -", "Not voting:"); a comma ends it too ("CreatureToolenduso, xyzzy": the GM's
 * separator lost, the voters still written, game 1787 post #2080).
 */
const TARGET = /^[\s\-*•·>[\]()\d.]*[^:|=([\-–—,;]*/u;

/** The words a post's own text writes in voters' places (after each line's first separator), lower-cased. */
export function ownWords(body: Body): string[] {
  const lines: string[] = [''];
  walkLines(
    body,
    { text: (t) => (lines[lines.length - 1] += t), end: () => lines.push('') },
    { keepStruck: true, readCode: true },
  );
  return lines.flatMap((l) => {
    const rest = l.replace(TARGET, '');
    return rest === '' ? [] : (rest.toLowerCase().match(/[\p{L}\p{N}_'-]+/gu) ?? []);
  });
}

const SHORTEST = 4;

/** Letters and digits only: "don_johnson" and "Donjohnson" are one name as a GM writes it. */
const squash = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** Whether the words hold one of the names: its words in a row, or a word that is the name, or begins it (4 letters or more), squashed. */
export function namesAny(words: readonly string[], names: readonly string[]): boolean {
  const text = ` ${words.join(' ')} `;
  const squashed = words.map(squash);
  return names.some((name) => {
    const key =
      name
        .toLowerCase()
        .match(/[\p{L}\p{N}_'-]+/gu)
        ?.join(' ') ?? '';
    const whole = squash(name);
    if (whole === '') return false;
    if (text.includes(` ${key} `)) return true;
    return squashed.some((w) => w === whole || (w.length >= SHORTEST && whole.startsWith(w)));
  });
}

/**
 * The count's own words that the GM left votes out on purpose: "This vote does not meet the
 * stated voting rules and hasn't been counted" (MafiaScum game 1505 post #55), "These votes
 * were after deadline and cannot be counted" (game 1836 post #2846, donbot data 739243d).
 * A vote Votal counts there is the GM's ruling, not the GM's slip.
 */
const LEFT_OUT =
  /(?:\bnot|n't|\bnever|\bcannot)\s+(?:been\s+|be\s+)?count(?:ed|ing)?\b|\b(?:is|are|was|were)\s+(?:invalid|void|ignored|discounted)\b|\binvalid\s+votes?\b/iu;

/** Whether a count post's own text (quotes are someone else's) says the GM left votes out on purpose. */
export function leavesVotesOut(body: Body): boolean {
  const lines: string[] = [''];
  walkLines(body, { text: (t) => (lines[lines.length - 1] += t), end: () => lines.push('') }, { keepStruck: true });
  return lines.some((l) => LEFT_OUT.test(l));
}

/**
 * A moderator's slip is votes left off, counted late or put on the wrong wagon: a few, or
 * several in a careless count (MafiaScum game 1146 post #282: four votes left off). A count
 * at odds with more than half the Day's living players is a count of something else: the
 * votes reset after a first lynch on a Day of two (game 1721 post #805: 13 of 12 alive at
 * the start), votes before the Day's start left out (game 1589 post #82, donbot data
 * 739243d): Votal's to explain, never a slip.
 */
export function isOtherCount(differences: readonly CheckDifference[], living: number): boolean {
  return votersDiffering(differences) * 2 > living;
}

/** The voters a count's differences disagree on, once each. */
export function votersDiffering(differences: readonly CheckDifference[]): number {
  return new Set(differences.flatMap((d) => (d.kind === 'voter' && d.player !== null ? [d.player] : []))).size;
}

/** What `causeOf` looks at besides the count's differences: the Day's posts as Votal read them. */
export interface CauseContext {
  slotOf: (author: string) => string | undefined;
  histories: readonly PostHistory[];
  /** Whether the count post names a player by any of their slot's names (`namesAny`). */
  namedIn: (post: number, player: string) => boolean;
  /** A post whose vote Votal dropped without a word (bench/silent-votes.ts). */
  dropped: (post: PostHistory) => boolean;
  /** The count's own text says the GM left votes out on purpose (`leavesVotesOut`). */
  leavesOut: boolean;
  /** A post written by one of the game's moderators. */
  byHost: (post: number) => boolean;
  /** The Day's living players at its start (`isOtherCount`). */
  living: number;
}

/**
 * Why a moderator's count differs from Votal's, read mechanically from the differences:
 * - `votal`: a voter the count disagrees on has a vote Votal could not read (or did not
 *   count, or has no trace of) before the count, or the vote Votal counts is a moderator's
 *   post or one the count says was left out on purpose, or the count disagrees on more voters
 *   than a slip does (bench/count-causes.ts): Votal's miss;
 * - `reader`: a name on the count that names nobody, a voter read on two wagons through
 *   the name ladder or cut out of names side by side, a wagon read with fewer names than
 *   its number where a name was not read, or a voter left off the count as read whom the post names: the count reader's miss
 *   (src/parse/gm-count.ts);
 * - `material`: the count has a vote by a slot that never posted under any of the
 *   archive's names that Day (the forum name is not the archive's);
 * - `moderator`: Votal read every vote of the voters in question and the count still
 *   disagrees, or only a stated number differs (or the names written fall short of it, every
 *   name read), or the count stops short of the last
 *   posts, or a voter's name is written exactly on two different wagons, or a voter
 *   the count never names (bench/count-causes.ts): the moderator's
 *   slip (one name twice on one wagon is a double voter's weight: still `reader`).
 * A count with several goes to the first of these, so the slips are never over-counted.
 */
export type Cause = 'votal' | 'reader' | 'material' | 'moderator';
export const CAUSES: readonly Cause[] = ['votal', 'reader', 'material', 'moderator'];

export function causeOf(count: CountCheck, ctx: CauseContext): Cause | null {
  const { slotOf, histories, namedIn, dropped, leavesOut, byHost, living } = ctx;
  if (count.differences.length === 0) return null;
  const found = new Set<Cause>();
  const hasVoter = count.differences.some((d) => d.kind === 'voter');
  if (isOtherCount(count.differences, living)) found.add('votal');
  const hasUnread = count.differences.some((d) => d.kind === 'unread');
  for (const d of count.differences) {
    const names = / says (\d+) but names (\d+)$/.exec(d.text);
    if (d.kind === 'unread') found.add('reader');
    // A voter written exactly on two wagons the moderator left there (a name twice on one
    // wagon is a double voter's weight, not a slip); else the reader read one loosely.
    else if (d.kind === 'twice') found.add(isLeftOnOldWagon(d.listed ?? []) ? 'moderator' : 'reader');
    // Fewer names than the number the moderator wrote, Votal's number the same: a name the
    // reader could not read, or, every name on the count read, one the moderator counted and
    // did not write (MafiaScum game 1446 post #534, donbot data 739243d: Fegelein's vote
    // counted in Horus's 6, his name left off the line).
    else if (names && Number(names[2]) < Number(names[1])) found.add(hasUnread ? 'reader' : 'moderator');
    else if (d.kind === 'stopped-early' || (d.kind === 'wagon' && !hasVoter)) found.add('moderator');
    else if (d.kind === 'voter' && d.player !== null) {
      const slot = slotOf(d.player) ?? d.player;
      const own = histories.filter((h) => h.number < count.post && slotOf(h.author) === slot);
      const unread = own.some((h) =>
        h.revisions[0]!.reading.actions.some(
          (a) => a.target === null && (a.match === 'unknown' || a.match === 'ambiguous'),
        ),
      );
      // Votal has no trace of a vote the voter posted that Day: Votal's count dropped it
      // (MafiaScum game 1107 post #100: the replacement's #80 "Vote: ICEninja").
      const lost =
        d.text.includes('Votal has no vote by') &&
        own.some((h) => h.revisions[0]!.reading.actions.some((a) => a.kind === 'vote' && a.target !== null));
      // The vote Votal counts is a moderator's own post (a count read as a player's vote,
      // game 1543 post #300), or one the count says the GM left out on purpose.
      // (The post the vote is at: the difference's other posts are the GM's replacement news.)
      const at = /'s vote at #(\d+)/.exec(d.text);
      const refused = leavesOut && d.votal !== null && d.votal !== 'not voting';
      if (unread || lost || refused || (at !== null && byHost(Number(at[1])))) found.add('votal');
      else if (own.some(dropped) || d.text.includes('not counted by Votal')) found.add('votal');
      else if (own.length === 0) found.add('material');
      // Nowhere on the count as read: a line the reader missed only if the post names them (bench/count-causes.ts).
      else if (d.gm === 'nowhere') found.add(namedIn(count.post, d.player) ? 'reader' : 'moderator');
      else found.add('moderator');
    }
  }
  return CAUSES.find((c) => found.has(c)) ?? 'moderator';
}

/** Every place written exactly, each on a different wagon. */
function isLeftOnOldWagon(listed: readonly CheckListing[]): boolean {
  return (
    listed.length > 1 && listed.every((l) => l.exact) && new Set(listed.map((l) => l.wagon)).size === listed.length
  );
}
