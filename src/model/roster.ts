import { z } from 'zod';

/**
 * A slot in the game: one seat, played by one or more people over time (replacements).
 * Votes by or for any name the slot has had count for the slot; the canonical name is
 * the one shown in tallies.
 */
/**
 * A nickname the forum's GMs taught in an earlier game for this slot's forum name (the
 * site's nickname book): read as the player, always shown, never as exact.
 */
export const KnownNickname = z.object({
  name: z.string().min(1),
  /** The game it was learned in, as its GM knows it (its title). */
  from: z.string().min(1),
});
export type KnownNickname = z.infer<typeof KnownNickname>;

export const Slot = z.object({
  /** The canonical name shown in tallies: the current player's forum name. */
  name: z.string().min(1),
  /** Other ways players write this name (nicknames, short forms). */
  aliases: z.array(z.string().min(1)).default([]),
  /** Names the slot had before replacements, oldest first. */
  formerNames: z.array(z.string().min(1)).default([]),
  /** Nicknames from earlier games on the same site (`KnownNickname`); absent when none. */
  nicknames: z.array(KnownNickname).optional(),
  alive: z.boolean().default(true),
});
export type Slot = z.infer<typeof Slot>;
export type SlotInput = z.input<typeof Slot>;

export const Roster = z.array(Slot);

/**
 * The most players a game may have. Forum games run from a handful to a few dozen, the
 * largest known to a couple of hundred; a 60,000-name roster is an attack on the fold and
 * the name matcher (each vote is matched against every name), not a game.
 */
export const MAX_PLAYERS = 500;

/** Why a roster of `count` players is refused, or null when it is within the cap. */
export function rosterTooLarge(count: number): string | null {
  return count > MAX_PLAYERS
    ? `${count.toLocaleString('en-US')} players is more than a game can have (${MAX_PLAYERS} at most)`
    : null;
}
export type Roster = z.infer<typeof Roster>;

/**
 * A line split at its commas outside "(...)": one pass (a lookahead for the next ")" after
 * every comma read the rest of the line each time, minutes for a line of 60,000 names).
 */
function outsideParentheses(line: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (ch === ',' && depth === 0) {
      parts.push(line.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(line.slice(start));
  return parts;
}

/** "A, B, C" and/or one name a line ("#" starts a comment); "Name (alias1, alias2)" gives aliases. */
export function parsePlayerList(text: string): Roster {
  const entries = text
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*$/, ''))
    .flatMap(outsideParentheses);
  const out: Roster = [];
  for (const entry of entries) {
    const line = entry.trim();
    if (!line) continue;
    const m = /^(.*?)\s*\(([^)]*)\)\s*$/.exec(line);
    const name = (m ? m[1] : line)!.trim();
    const aliases = m
      ? m[2]!
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean)
      : [];
    out.push(Slot.parse({ name, aliases }));
  }
  return out;
}
