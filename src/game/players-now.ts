import type { GmEvent } from '../model/event.js';
import type { Roster, Slot } from '../model/roster.js';
import type { Tally } from '../model/tally.js';
import { nameKey } from '../tally/slot-names.js';

/**
 * The players as the count knows them now, for the GM's Players panel and the API's game
 * answer: the roster as created, with GM replacements applied (the new player names the
 * slot, the old name becomes a former name) and alive / dead from the latest count (GM
 * kills, mod-kills, revives, rule deaths, the Day's eliminated), not from the roster's
 * creation-time flag.
 */
export function playersNow(roster: Roster, events: readonly GmEvent[], tally: Tally | null): Slot[] {
  const slots = roster.map((s) => ({ ...s, aliases: [...s.aliases], formerNames: [...s.formerNames] }));
  const replacements = events
    .filter((e): e is Extract<GmEvent, { kind: 'replace' }> => e.kind === 'replace')
    .map((e, order) => ({ e, order }))
    // In game order (post, then time), as the fold applies them; recording order breaks ties.
    .sort((a, b) => position(a.e) - position(b.e) || a.order - b.order);
  for (const { e } of replacements) {
    const key = nameKey(e.player);
    const slot =
      slots.find((s) => nameKey(s.name) === key) ?? slots.find((s) => s.formerNames.some((n) => nameKey(n) === key));
    if (!slot || nameKey(slot.name) === nameKey(e.by)) continue;
    slot.formerNames.push(slot.name);
    slot.name = e.by;
  }
  if (!tally) return slots;
  // `dead` is in every count made since it was added; an older count only has the Day's living.
  const died =
    tally.dead ?? slots.map((s) => s.name).filter((n) => !tally.players.some((p) => nameKey(p) === nameKey(n)));
  // The Day's eliminated are dead from its end (the count buries them at the next Day's start),
  // as the live page's `livingNow` has it: one living list everywhere.
  const dead = new Set([...died, ...tally.outcome.eliminated].map(nameKey));
  return slots.map((s) => ({ ...s, alive: !dead.has(nameKey(s.name)) }));
}

function position(e: GmEvent): number {
  if ('at' in e && typeof e.at === 'number') return e.at;
  return Number.MAX_SAFE_INTEGER;
}
