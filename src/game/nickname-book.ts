import type { DroppedNickname, NicknameEntry } from '../model/nickname.js';
import type { Roster, Slot } from '../model/roster.js';
import { nameKey } from '../parse/name-form.js';

/**
 * The site's nickname book applied to one game's roster: each slot whose forum name (current
 * or former) has nicknames from earlier games gets them as `nicknames` (read as match
 * `nickname`, always shown; src/parse/nicknames.ts keeps "never guess"). A nickname the game
 * already knows for the slot (its name, an alias) is left out, and so is one the GM dropped.
 * So is one that is another player's own forum name in this game (current or former): a
 * forum name names its one member ("Natirasha" voted for Natirasha in a game where she plays,
 * whatever an earlier game's GM read it as: mafiascum game 1575 after game 1543's lesson).
 *
 * Linear in the roster and the book: every poll of a running game applies the book as it is
 * then (src/game/book-roster.ts), so a big forum's book must not cost slots × entries.
 */
export type BookEntry = Pick<NicknameEntry, 'forumName' | 'nickname' | 'fromTitle'>;

export function knownNicknames(
  roster: Roster,
  entries: readonly BookEntry[],
  dropped: readonly DroppedNickname[] = [],
): Roster {
  const gone = new Set(dropped.map((d) => pairKey(d.forumName, d.nickname)));
  const forumNamesHere = new Map<string, number>();
  roster.forEach((s, i) => {
    for (const n of [s.name, ...s.formerNames]) forumNamesHere.set(nameKey(n), i);
  });
  // The book by forum name, in its order (the first game a nickname came from is the one shown).
  const byForumName = new Map<string, { e: BookEntry; at: number }[]>();
  entries.forEach((e, at) => {
    const key = nameKey(e.forumName);
    if (!forumNamesHere.has(key)) return;
    const list = byForumName.get(key) ?? [];
    list.push({ e, at });
    byForumName.set(key, list);
  });
  return roster.map((slot, i) => {
    const { nicknames: _old, ...rest } = slot;
    const own = new Set([slot.name, ...slot.aliases, ...slot.formerNames].map(nameKey));
    const seen = new Set<string>();
    const mine = [...new Set([slot.name, ...slot.formerNames].map(nameKey))]
      .flatMap((k) => byForumName.get(k) ?? [])
      .sort((a, b) => a.at - b.at);
    const nicknames = mine.flatMap(({ e }) => {
      const key = nameKey(e.nickname);
      if (own.has(key) || seen.has(key)) return [];
      if ((forumNamesHere.get(key) ?? i) !== i) return [];
      // Dropped for the slot's player, whichever of the slot's names the book knew it by.
      if (gone.has(pairKey(e.forumName, e.nickname)) || gone.has(pairKey(slot.name, e.nickname))) return [];
      seen.add(key);
      return [{ name: e.nickname, from: e.fromTitle }];
    });
    return nicknames.length > 0 ? { ...rest, nicknames } : rest;
  });
}

/** The forum names a roster's book entries are looked up by (current and former names). */
export function forumNamesOf(roster: Roster): string[] {
  return [...new Set(roster.flatMap((s) => [s.name, ...s.formerNames]))];
}

/** Forum name and nickname as the book compares them (case, spaces and accents folded). */
export const pairKey = (forumName: string, nickname: string): string =>
  `${nameKey(forumName)}\u0000${nameKey(nickname)}`;

/** The book's pairs a roster reads (forum name, nickname), as `pairKey`s: which games a page of the book reaches. */
export function pairsRead(roster: Roster): Set<string> {
  const out = new Set<string>();
  for (const s of roster)
    for (const n of s.nicknames ?? []) for (const f of [s.name, ...s.formerNames]) out.add(pairKey(f, n.name));
  return out;
}

/** Whether two rosters' slots carry the same known nicknames (name and game, in order). */
export function sameNicknames(a: Roster, b: Roster): boolean {
  const of = (s: Slot | undefined) => JSON.stringify((s?.nicknames ?? []).map((n) => [n.name, n.from]));
  return a.length === b.length && a.every((s, i) => of(s) === of(b[i]));
}
