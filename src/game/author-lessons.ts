import { createHash } from 'node:crypto';
import type { PostEvent } from '../model/event.js';
import type { AuthorLesson, GmCount } from '../model/gm-count.js';
import type { Tally } from '../model/tally.js';
import type { GmNameBook } from '../parse/gm-posts.js';
import { nameKey } from '../parse/name-form.js';

/**
 * Who plays a slot under another name (issue #24): a forum account renamed ("randomidget"
 * posts as "Randomnamechange") or a replacement nobody announced leaves a poster who is no
 * player, whose votes do not count, and a slot that never posts, which the GM's counts list
 * with exactly that poster's votes. Each count says whether it lists the silent slot where
 * the poster's standing vote is; the GM is offered "P plays S" only when at least two counts
 * agree, none disagrees, and P and S agree with no other slot or poster (never a guess).
 */

/** Counts that must list the slot where the poster's vote stood. */
const MIN_AGREEING = 2;

export interface AuthorInput {
  count: GmCount;
  countPermalink: string | null;
  /** Votal's count at the cut the GM's count is compared at. */
  tally: Tally;
  byNumber: ReadonlyMap<number, PostEvent>;
  book: GmNameBook;
  /** Where the count lists each voter it is sure of (null: unsure, on two wagons or loosely read). */
  placed: ReadonlyMap<string, string | null>;
}

/** A non-player's standing vote this Day: the target (null: unvoted), or unread. */
type Standing = { post: number; target: string | null } | 'unread';

/** What one count says of each poster who is no player and each slot that has not posted. */
export function authorWitnesses(input: AuthorInput): AuthorLesson[] {
  const { count, tally, byNumber, book, placed } = input;
  const standing = posterVotes(tally, byNumber);
  if (standing.size === 0) return [];
  const cut = tally.asOfPost ?? -1;
  const firsts = firstPosts(byNumber);
  const posted = new Set([...firsts].flatMap(([author, first]) => (first <= cut ? (book.exact(author) ?? []) : [])));
  const notVoting = new Set(
    (count.notVoting ?? []).flatMap((v) => (v.player && v.exact && !v.struck ? [v.player] : [])),
  );
  // A slot Votal counts a vote for (the GM's own vote event) has its vote accounted for.
  const voting = new Set(tally.wagons.flatMap((w) => w.voters.map((v) => v.player)));
  const out: AuthorLesson[] = [];
  for (const slot of tally.players) {
    if (posted.has(slot) || voting.has(slot)) continue;
    const wagon = placed.get(slot);
    // Listed loosely or twice, or nowhere: the count says nothing of this slot.
    if (wagon === null || (wagon === undefined && !notVoting.has(slot))) continue;
    for (const [poster, vote] of standing) {
      if (vote === 'unread') continue;
      const on = wagon ?? null;
      // Neither voting says nothing: every silent slot and every quiet poster are alike in that.
      if (on === null && vote.target === null) continue;
      const agrees = on !== null && vote.target === on;
      out.push({
        kind: 'author',
        key: authorKey(poster, slot),
        countPost: count.post,
        countPermalink: input.countPermalink,
        poster,
        slot,
        wagon: on,
        post: vote.post,
        permalink: byNumber.get(vote.post)?.permalink ?? null,
        firstPost: firsts.get(poster) ?? vote.post,
        agreeing: agrees ? [count.post] : [],
        disagreeing: agrees ? [] : [count.post],
        text: witnessText(count.post, poster, slot, on, vote, agrees),
      });
    }
  }
  return out;
}

/**
 * The author lessons offered, from every count's witnesses in thread order: a poster and a
 * slot two counts agree on and none disagrees with, when neither agrees with another slot or
 * poster (a pair with an agreeing count and no disagreeing one is a rival); dismissed ones
 * are gone.
 */
export function settleAuthorLessons(
  witnesses: readonly AuthorLesson[],
  dismissed: ReadonlySet<string>,
): AuthorLesson[] {
  const byKey = new Map<string, AuthorLesson[]>();
  for (const w of witnesses) byKey.set(w.key, [...(byKey.get(w.key) ?? []), w]);
  const pairs = [...byKey.values()].map((list) => ({
    list,
    agreeing: [...new Set(list.flatMap((w) => w.agreeing))].sort((a, b) => a - b),
    disagreeing: [...new Set(list.flatMap((w) => w.disagreeing))].sort((a, b) => a - b),
  }));
  const open = pairs.filter((p) => p.agreeing.length > 0 && p.disagreeing.length === 0);
  const out: AuthorLesson[] = [];
  for (const p of open) {
    const first = p.list[0]!;
    if (p.agreeing.length < MIN_AGREEING || dismissed.has(first.key)) continue;
    const rival = open.some(
      (o) => o !== p && (o.list[0]!.slot === first.slot || nameKey(o.list[0]!.poster) === nameKey(first.poster)),
    );
    if (rival) continue;
    // Offered by the count that made it sure: the second that agrees.
    const sure = p.list.filter((w) => w.agreeing.length > 0)[MIN_AGREEING - 1]!;
    out.push({ ...sure, agreeing: p.agreeing, disagreeing: [], text: lessonText(sure, p.agreeing) });
  }
  return out.sort((a, b) => a.countPost - b.countPost || a.firstPost - b.firstPost);
}

/** Each non-player's last vote or unvote this Day, as the count flagged it. */
function posterVotes(tally: Tally, byNumber: ReadonlyMap<number, PostEvent>): Map<string, Standing> {
  const last = new Map<string, number>();
  for (const f of tally.flags)
    if (f.kind === 'vote-by-non-player' && f.player !== null && f.post > (last.get(f.player) ?? -1))
      last.set(f.player, f.post);
  const out = new Map<string, Standing>();
  for (const [poster, post] of last) {
    const effect = byNumber.get(post)?.reading.effect;
    if (effect?.kind === 'vote') out.set(poster, { post, target: effect.target });
    else if (effect?.kind === 'unvote') out.set(poster, { post, target: null });
    else out.set(poster, 'unread');
  }
  return out;
}

/** Each author's first post, worked out once per log (a check reads many counts of one log). */
const firstPostsOf = new WeakMap<ReadonlyMap<number, PostEvent>, Map<string, number>>();
function firstPosts(byNumber: ReadonlyMap<number, PostEvent>): Map<string, number> {
  let firsts = firstPostsOf.get(byNumber);
  if (firsts) return firsts;
  firsts = new Map();
  for (const p of byNumber.values()) if (p.post < (firsts.get(p.author) ?? Infinity)) firsts.set(p.author, p.post);
  firstPostsOf.set(byNumber, firsts);
  return firsts;
}

function witnessText(
  countPost: number,
  poster: string,
  slot: string,
  wagon: string | null,
  vote: { post: number; target: string | null },
  agrees: boolean,
): string {
  const listed = wagon === null ? `${slot} as not voting` : `${slot} on ${wagon}`;
  const theirs = vote.target === null ? `unvoted at #${vote.post}` : `voted ${vote.target} at #${vote.post}`;
  return `Your count at #${countPost} lists ${listed}, who has not posted; ${poster}, not a player, ${theirs}${agrees ? '' : ': not the same'}`;
}

function lessonText(sure: AuthorLesson, agreeing: readonly number[]): string {
  const shown = agreeing.slice(0, 3).map((c) => `#${c}`);
  const more = agreeing.length > 3 ? ` and ${agreeing.length - 3} more` : '';
  const counts = more ? `${shown.join(', ')}${more}` : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
  const { poster, slot } = sure;
  return (
    `${poster} posts votes and is not a player; ${slot} has not posted. Your counts at ${counts} list ${slot} ` +
    `where ${poster}'s vote stood, and none elsewhere. Does ${poster} play ${slot} (renamed or replacement)? ` +
    `Accepted, ${poster} replaces ${slot} from #${sure.firstPost}, ${poster}'s first post.`
  );
}

const authorKey = (poster: string, slot: string): string =>
  createHash('sha256')
    .update(`author:${nameKey(poster)}:${slot}`)
    .digest('hex')
    .slice(0, 16);
