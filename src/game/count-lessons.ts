import { createHash } from 'node:crypto';
import type { Action } from '../model/action.js';
import type { AuditAction } from '../model/audit.js';
import type { PostEvent } from '../model/event.js';
import type { CountLesson, GmCount, GmCountWagon, NameLesson } from '../model/gm-count.js';
import type { Tally } from '../model/tally.js';
import type { GmNameBook } from '../parse/gm-posts.js';
import { nameKey } from '../parse/name-form.js';
import { authorWitnesses, settleAuthorLessons } from './author-lessons.js';

/**
 * What the GM's own counts teach Votal (issue #24): a voter the count places on a wagon whose
 * standing vote Votal could not read ("vote tyler" for Zyrconium) is offered to the GM as a
 * correction of that post and, where the written name is a safe one, as a name of the
 * wagon's player from now on. Never when the name could mean two players, when the count
 * itself was read loosely (a voter or wagon not written as the slot's own name), or for a
 * voter whose vote Votal did read: that is a difference for the GM to look at, not a lesson.
 * The second kind (src/game/author-lessons.ts): a poster who is no player, whose votes the
 * counts list under a slot that has not posted, offered as that slot's replacement.
 */

/** The audit action a dismissed lesson is recorded under (detail: `{ key }`). */
export const LESSON_DISMISS = 'check.lesson-dismiss' satisfies AuditAction;
/** The audit action an accepted lesson is recorded under (detail: the lesson). */
export const LESSON_ACCEPT = 'check.lesson-accept' satisfies AuditAction;

/** A name learned is a short name: a phrase ("the guy above") is not one. */
const MAX_ALIAS_WORDS = 3;
const MAX_ALIAS_LENGTH = 30;
const MIN_ALIAS_LENGTH = 2;
/** English words that name no one by themselves: pronouns, and words that point by place or time. */
const REFERRING = new Set(
  (
    'i me my mine myself you your yours yourself he him his himself she her hers herself it its itself we us our ' +
    'they them their theirs themselves this that these those who whom whoever someone somebody anyone anybody ' +
    'everyone everybody noone nobody none one guy girl person player above below before after previous last next ' +
    'first second other another same random'
  ).split(' '),
);

export interface LessonInput {
  count: GmCount;
  countPermalink: string | null;
  /** Votal's count at the cut the check compared the GM's count with. */
  tally: Tally;
  byNumber: ReadonlyMap<number, PostEvent>;
  /** The names the game knew at the count's post (as the count was read). */
  book: GmNameBook;
  /** The GM's forum names (`gmNames`): a host's name is never learned as a player's. */
  hosts?: readonly string[];
}

/** The lessons of one count: its name lessons in the order of the voters' posts, then what it says of posters who are no players. */
export function countLessons(input: LessonInput): CountLesson[] {
  const placed = exactPlaces(input.count, input.book);
  return [...nameLessons(input, placed), ...authorWitnesses({ ...input, placed })];
}

function nameLessons(input: LessonInput, placed: ReadonlyMap<string, string | null>): NameLesson[] {
  const { count, tally } = input;
  const votalOn = new Map(tally.wagons.flatMap((w) => w.voters.map((v) => [v.player, w.target] as const)));
  const out: NameLesson[] = [];
  for (const waiting of tally.waiting ?? []) {
    const wagon = placed.get(waiting.player);
    // Not placed, placed twice, or placed where Votal has them already: nothing to learn.
    if (wagon === undefined || wagon === null || votalOn.get(waiting.player) === wagon) continue;
    const post = input.byNumber.get(waiting.post);
    const action = post ? unreadName(post.reading.actions) : null;
    if (!post || !action?.written) continue;
    // An ambiguous name could mean two players; an unknown one close to another player may mean that one.
    if (action.match === 'ambiguous') continue;
    if (action.candidates.length > 0 && !action.candidates.includes(wagon)) continue;
    const written = action.written.trim();
    const noAlias = aliasRefusal(written, input.hosts ?? []);
    out.push({
      kind: 'name',
      key: lessonKey(post.post, wagon, written),
      countPost: count.post,
      countPermalink: input.countPermalink,
      voter: waiting.player,
      wagon,
      post: post.post,
      permalink: post.permalink,
      written,
      raw: action.raw,
      alias: noAlias === null ? written : null,
      noAlias,
      text: lessonText(count.post, waiting.player, wagon, post.post, written, noAlias),
    });
  }
  return out.sort((a, b) => a.post - b.post);
}

/**
 * The lessons of every count, thread order: the first count that shows one offers it; a
 * post the counts place on two different wagons teaches nothing (the GM was unsure), nor
 * does a name they read as two players; dismissed ones are gone. Then the author lessons
 * all the counts together make sure of (`settleAuthorLessons`).
 */
export function settleLessons(perCount: readonly CountLesson[][], dismissed: ReadonlySet<string>): CountLesson[] {
  const flat = perCount.flat();
  const authors = flat.filter((l) => l.kind === 'author');
  return [
    ...settleNameLessons(
      flat.filter((l) => l.kind === 'name'),
      dismissed,
    ),
    ...settleAuthorLessons(authors, dismissed),
  ];
}

function settleNameLessons(all: readonly NameLesson[], dismissed: ReadonlySet<string>): NameLesson[] {
  const wagonsOfPost = new Map<number, Set<string>>();
  const wagonsOfName = new Map<string, Set<string>>();
  for (const l of all) {
    wagonsOfPost.set(l.post, (wagonsOfPost.get(l.post) ?? new Set()).add(l.wagon));
    wagonsOfName.set(nameKey(l.written), (wagonsOfName.get(nameKey(l.written)) ?? new Set()).add(l.wagon));
  }
  const seen = new Set<string>();
  const out: NameLesson[] = [];
  for (const l of all) {
    if (seen.has(l.key) || dismissed.has(l.key) || wagonsOfPost.get(l.post)!.size > 1) continue;
    seen.add(l.key);
    const twoPlayers = wagonsOfName.get(nameKey(l.written))!.size > 1;
    if (!twoPlayers || l.alias === null) out.push(l);
    else {
      const noAlias = `your counts read "${l.written}" as two players`;
      out.push({
        ...l,
        alias: null,
        noAlias,
        text: lessonText(l.countPost, l.voter, l.wagon, l.post, l.written, noAlias),
      });
    }
  }
  return out;
}

/**
 * Each voter the count places on one wagon, both written as the slots' own names (null: on
 * two wagons, or a name read loosely: the count is unsure of them).
 */
function exactPlaces(count: GmCount, book: GmNameBook): Map<string, string | null> {
  const placed = new Map<string, string | null>();
  for (const w of count.wagons) {
    if (w.target === null) continue;
    const sure = wagonWrittenExactly(w, book);
    for (const v of w.voters) {
      if (v.struck || v.player === null) continue;
      placed.set(v.player, placed.has(v.player) || !sure || !v.exact ? null : w.target);
    }
  }
  return placed;
}

/** The wagon's name written as its slot's own (or "old/new", a replacement written with both). */
function wagonWrittenExactly(w: GmCountWagon, book: GmNameBook): boolean {
  const parts = [w.written, ...(w.written.includes('/') ? w.written.split('/') : [])].map((p) => p.trim());
  return parts.some((p) => book.exact(p) === w.target);
}

/** The post's last vote whose name Votal could not read. */
function unreadName(actions: readonly Action[]): Action | null {
  const votes = actions.filter((a) => a.kind === 'vote');
  const last = votes.at(-1);
  return last && last.target === null && (last.match === 'unknown' || last.match === 'ambiguous') ? last : null;
}

/** Why a written name is not learned as a player's, or null when it may be. */
function aliasRefusal(written: string, hosts: readonly string[]): string | null {
  // A vote for the GM ("vote: Natirasha") read as a player's name would make the GM's own
  // posts, vote counts included, that player's (mafiascum game 1543 post #45).
  if (hosts.some((h) => nameKey(h) === nameKey(written)))
    return `"${written}" is the GM's name: not learned as a player's`;
  const words = written.split(/\s+/u).filter(Boolean);
  if (written.length < MIN_ALIAS_LENGTH || written.length > MAX_ALIAS_LENGTH || words.length > MAX_ALIAS_WORDS)
    return `"${written}" is not a name`;
  // A word that points at someone ("him", "the guy above") means someone else in another post.
  if (words.some((w) => REFERRING.has(w.toLowerCase().replace(/[^\p{L}]/gu, ''))))
    return `"${written}" points at someone: not learned as a name`;
  return null;
}

function lessonText(
  countPost: number,
  voter: string,
  wagon: string,
  post: number,
  written: string,
  noAlias: string | null,
): string {
  const ask =
    noAlias === null ? ` Count it so, and read "${written}" as ${wagon} from now on?` : ` Count it so? (${noAlias})`;
  return `Your count at #${countPost} puts ${voter} on ${wagon}; ${voter} wrote "${written}" at #${post}.${ask}`;
}

const lessonKey = (post: number, wagon: string, written: string): string =>
  createHash('sha256')
    .update(`lesson:${post}:${wagon}:${nameKey(written)}`)
    .digest('hex')
    .slice(0, 16);
