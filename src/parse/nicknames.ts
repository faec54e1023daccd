import type { MatchKind } from '../model/action.js';
import type { Roster } from '../model/roster.js';
import { capName, nameKey, stripDecorations } from './name-form.js';

/**
 * Nicknames from earlier games on the same site ("PK" for PeregrineKnight, learned when an
 * earlier GM accepted a lesson): a name no rung of the ladder reads may be one. Read with
 * care, never guessing: the nickname is the player's only when nothing in this game's own
 * roster fits the name too. A name the ladder reads as another player (their name, alias,
 * or any looser reading), or that two players' nicknames share, is ambiguous: the GM decides.
 */

/** A name's reading, as names.ts resolves it (its own type there: names.ts imports this file). */
interface NameResolution {
  match: MatchKind;
  target: string | null;
  candidates: string[];
  score: number | null;
  written: string;
  alive: boolean | null;
  from?: string;
}

interface Known {
  target: string;
  alive: boolean;
  from: string;
}

/** The roster's known nicknames, by name key; null when no slot has one (the common case). */
export function nicknameBook(roster: Roster): ReadonlyMap<string, readonly Known[]> | null {
  const book = new Map<string, Known[]>();
  for (const slot of roster)
    for (const n of slot.nicknames ?? []) {
      const key = nameKey(n.name);
      if (key === '') continue;
      const known = book.get(key) ?? [];
      if (!known.some((k) => k.target === slot.name))
        known.push({ target: slot.name, alive: slot.alive, from: n.from });
      book.set(key, known);
    }
  return book.size === 0 ? null : book;
}

/**
 * The ladder's reading of `written` with the roster's known nicknames: unchanged when the
 * name is no nickname; the nickname's player (`nickname`, with its game) when the ladder found
 * nobody or the same player; ambiguous when the ladder or another nickname names someone else.
 */
export function withNickname(
  found: NameResolution,
  written: string,
  book: ReadonlyMap<string, readonly Known[]> | null,
): NameResolution {
  const known = book?.get(nameKey(capName(stripDecorations(written))));
  if (!known) return found;
  // The game's own names beat the book: the GM typed this one for the same player.
  const plain = found.match === 'exact' || found.match === 'alias';
  if (plain && known.length === 1 && found.target === known[0]!.target) return found;
  const owners = known.map((k) => k.target);
  const others = [...new Set([...(found.target === null ? found.candidates : [found.target]), ...owners])].filter(
    (c) => found.match !== 'unknown' || owners.includes(c),
  );
  // Ambiguous with the book's part in it kept (`from`: the nicknames' games), for the GM's flag.
  const from = [...new Set(known.map((k) => k.from))].join("', '");
  if (known.length > 1 || found.match === 'ambiguous' || (found.target !== null && found.target !== owners[0]))
    return { ...found, match: 'ambiguous', target: null, candidates: others, score: null, alive: null, from };
  const k = known[0]!;
  return {
    match: 'nickname',
    target: k.target,
    candidates: [],
    score: null,
    written: found.written,
    alive: k.alive,
    from: k.from,
  };
}
