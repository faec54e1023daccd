import { createHash } from 'node:crypto';
import { limited as editDistance } from 'talisman/metrics/damerau-levenshtein.js';
import { GmEvent } from '../model/event.js';
import type { Roster } from '../model/roster.js';
import { acronymsOf } from '../parse/name-form.js';
import type { PostHead } from '../store/posts-repo.js';
import { findSlot, nameKey } from '../tally/slot-names.js';
import type { GmNewsItem } from './gm-news.js';

/**
 * A player list typed by hand spells a name otherwise than the forum (issue #24): the GM's
 * list has "sapovirus", the forum account posting is "saporovirus" (MafiaScum game 1117,
 * donbot data 739243d). The poster is then no player, their votes do not count, and the
 * listed name never posts. When a poster who matches no player first posts, and exactly one
 * slot has a name that has not posted and is a slip of the keys from the poster's name, the
 * GM is offered "P is S as the forum spells it": a `replace` of S by P before P's first post,
 * which the GM accepts or dismisses. Never recorded on its own: a renamed or new account
 * with a close name is the GM's to say.
 *
 * Close is the name reader's typo rung (src/parse/names.ts): a letter changed, added, dropped
 * or two swapped in a name of 5 letters or more, two in one of 8 or more; or one name the
 * other's start or end, the shorter of 5 letters or more ("nbtnbt5" for "nbtnbt5Town"). Or
 * the poster's name is the listed name's initials, written in capitals, 3 letters or more
 * ("BNL" for BulletNLynchproof, MafiaScum game 1791 post #36).
 */
export interface SpellingInput {
  /** The GM's player list. */
  roster: Roster;
  /** The replacements the game holds, at their posts: a newcomer is a player from then on. */
  events: readonly GmEvent[];
  hosts: readonly string[];
  /** Every post's number and author, any order. */
  posts: readonly { number: number; author: string }[];
}

export interface SpellingProposal {
  /** Stable across reads: what a dismissal is recorded under. */
  key: string;
  poster: string;
  /** The slot's current name when the poster first posted. */
  slot: string;
  /** The slot's name that is close to the poster's. */
  listed: string;
  firstPost: number;
  event: GmEvent;
  text: string;
}

const MIN_TYPO = 5;
const MIN_TWO_TYPOS = 8;

const MIN_INITIALS = 3;

/** Whether the poster's name is the listed name's initials, as a player writes them in capitals. */
export function initialsOf(poster: string, listed: string): boolean {
  const letters = poster.trim();
  if (!/^\p{Lu}[\p{Lu}\p{N}]+$/u.test(letters) || letters.length < MIN_INITIALS) return false;
  return acronymsOf(listed).includes(letters.toLowerCase());
}

/** Whether two name keys are one name spelled twice (see above). */
export function closeSpelling(a: string, b: string): boolean {
  if (a === b) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < MIN_TYPO) return false;
  if (long.startsWith(short) || long.endsWith(short)) return true;
  const limit = short.length >= MIN_TWO_TYPOS ? 2 : 1;
  return long.length - short.length <= limit && editDistance(limit, a, b) <= limit;
}

export function rosterSpellings(input: SpellingInput): SpellingProposal[] {
  const hosts = new Set(input.hosts.map(nameKey));
  // Each slot's names, growing with the replacements in thread order (and the proposals);
  // a new array each time, as `findSlot` indexes an array once.
  let slots: Roster = input.roster;
  const named = (i: number, name: string): Roster =>
    slots.map((s, j) => (j === i ? { ...s, aliases: [...s.aliases, name] } : s));
  // A replacement placed by time alone is taken as known from the start: its newcomer is a player.
  const replaces = input.events
    .flatMap((e) => (e.kind === 'replace' ? [{ ...e, at: e.at ?? -1 }] : []))
    .sort((a, b) => a.at - b.at);
  const posted = new Set<string>();
  const claimed = new Set<number>();
  const out: SpellingProposal[] = [];
  let next = 0;
  for (const post of [...input.posts].sort((a, b) => a.number - b.number)) {
    while (next < replaces.length && replaces[next]!.at < post.number) {
      const e = replaces[next++]!;
      const i = findSlot(slots, e.player);
      if (i !== undefined) slots = named(i, e.by);
    }
    const key = nameKey(post.author);
    if (posted.has(key)) continue;
    posted.add(key);
    if (hosts.has(key) || findSlot(slots, post.author) !== undefined) continue;
    const near = slots.flatMap((s, i) => {
      if (claimed.has(i)) return [];
      const names = [s.name, ...s.formerNames, ...s.aliases].filter((n) => !posted.has(nameKey(n)));
      const listed = names.find((n) => closeSpelling(key, nameKey(n)) || initialsOf(post.author, n));
      return listed === undefined ? [] : [{ i, listed }];
    });
    // Close to two slots is a guess between them: the GM's review of the poster says so.
    if (near.length !== 1) continue;
    const { i, listed } = near[0]!;
    claimed.add(i);
    out.push(proposal(post.author, slots[i]!.name, listed, post.number));
    slots = named(i, post.author);
  }
  return out;
}

function proposal(poster: string, slot: string, listed: string, firstPost: number): SpellingProposal {
  const at = Math.max(0, firstPost - 1);
  return {
    key: createHash('sha256')
      .update(`spelling:${nameKey(poster)}:${nameKey(listed)}`)
      .digest('hex')
      .slice(0, 16),
    poster,
    slot,
    listed,
    firstPost,
    event: GmEvent.parse({ kind: 'replace', player: slot, by: poster, at }),
    text:
      `${poster} posts and is not a player; the player list has ${listed}, who has not posted, spelled ` +
      `${initialsOf(poster, listed) ? 'with those initials' : 'a letter or two apart'}. Is ${poster} ${listed} as the ` +
      `forum spells it? Accepted, ${poster} replaces ${slot} from #${firstPost}, ${poster}'s first post.`,
  };
}

/**
 * The spellings as news items the GM records or dismisses with the GM's own news (one queue,
 * one answer: recording one records its `replace`); a dismissed one is not offered again.
 */
export function spellingNews(
  input: Omit<SpellingInput, 'posts'> & {
    posts: readonly Pick<PostHead, 'number' | 'author' | 'permalink'>[];
    dismissed: ReadonlySet<string>;
  },
): GmNewsItem[] {
  const permalinks = new Map(input.posts.map((p) => [p.number, p.permalink]));
  return rosterSpellings(input)
    .filter((p) => !input.dismissed.has(p.key))
    .map((p) => ({
      post: p.firstPost,
      sentence: p.text,
      event: p.event,
      key: p.key,
      author: p.poster,
      permalink: permalinks.get(p.firstPost) ?? null,
    }));
}
