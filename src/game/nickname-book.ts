import type { DroppedNickname, NicknameEntry } from '../model/nickname.js';
import type { Roster } from '../model/roster.js';
import { nameKey } from '../parse/name-form.js';

/**
 * The site's nickname book applied to one game's roster: each slot whose forum name (current
 * or former) has nicknames from earlier games gets them as `nicknames` (read as match
 * `nickname`, always shown; src/parse/nicknames.ts keeps "never guess"). A nickname the game
 * already knows for the slot (its name, an alias) is left out, and so is one the GM dropped.
 * So is one that is another player's own forum name in this game (current or former): a
 * forum name names its one member ("Natirasha" voted for Natirasha in a game where she plays,
 * whatever an earlier game's GM read it as: mafiascum game 1575 after game 1543's lesson).
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
  return roster.map((slot, i) => {
    const { nicknames: _old, ...rest } = slot;
    const forumNames = new Set([slot.name, ...slot.formerNames].map(nameKey));
    const own = new Set([slot.name, ...slot.aliases, ...slot.formerNames].map(nameKey));
    const seen = new Set<string>();
    const nicknames = entries.flatMap((e) => {
      const key = nameKey(e.nickname);
      if (!forumNames.has(nameKey(e.forumName)) || own.has(key) || seen.has(key)) return [];
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
