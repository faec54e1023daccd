import { z } from 'zod';

/**
 * A slot in the game: one seat, played by one or more people over time (replacements).
 * Votes by or for any name the slot has had count for the slot; the canonical name is
 * the one shown in tallies.
 */
export const Slot = z.object({
  /** The canonical name shown in tallies: the current player's forum name. */
  name: z.string().min(1),
  /** Other ways players write this name (nicknames, short forms). */
  aliases: z.array(z.string().min(1)).default([]),
  /** Names the slot had before replacements, oldest first. */
  formerNames: z.array(z.string().min(1)).default([]),
  alive: z.boolean().default(true),
});
export type Slot = z.infer<typeof Slot>;
export type SlotInput = z.input<typeof Slot>;

export const Roster = z.array(Slot);
export type Roster = z.infer<typeof Roster>;

/** "A, B, C" and/or one name a line ("#" starts a comment); "Name (alias1, alias2)" gives aliases. */
export function parsePlayerList(text: string): Roster {
  const entries = text
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*$/, ''))
    .flatMap((line) => line.split(/,(?![^()]*\))/));
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
