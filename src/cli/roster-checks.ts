import type { GmEvent } from '../model/event.js';
import type { Roster } from '../model/roster.js';
import { resolveName } from '../parse/names.js';
import type { NameMatching } from '../rules/ruleset.js';
import { findSlot, foldedOnly, nameKey } from '../tally/slot-names.js';
import { CliError } from './exit-codes.js';

/*
 * A wrong player list gives a wrong count with exit 0: a typo ("Carl" for Carol) leaves
 * the real poster a non-player and the typed name never voting. These checks say so, with
 * "did you mean", before anyone reads the count.
 */

/**
 * The roster with the replacements the GM events make as names of their slots, matched as
 * the tally matches a post's author (src/tally/slot-names.ts), so a check and the count agree.
 */
function knownSlots(roster: Roster, events: readonly GmEvent[]): Roster {
  let known = roster;
  for (const e of events) {
    if (e.kind !== 'replace') continue;
    const i = findSlot(known, e.player);
    // A replacement of nobody leaves its new name a name of no slot, as before: still known.
    known =
      i === undefined
        ? [...known, { name: e.by, aliases: [], formerNames: [], alive: true }]
        : known.map((s, j) => (j === i ? { ...s, aliases: [...s.aliases, e.by] } : s));
  }
  return known;
}

/** The player names an event gives. */
function namesOf(e: GmEvent): string[] {
  if (e.kind === 'decide') return e.eliminated;
  if ('player' in e && typeof e.player === 'string') return [e.player];
  return [];
}

/**
 * GM events that name no player are an error (exit 2): "kill Dana" with no Dana in the
 * game is a typo, and counting on without it gives the wrong living list.
 */
export function checkEventNames(
  events: readonly GmEvent[],
  roster: Roster,
  matching: NameMatching,
  file: string,
): string[] {
  const known = knownSlots(roster, events);
  const problems: string[] = [];
  events.forEach((e, i) => {
    for (const name of namesOf(e)) {
      if (findSlot(known, name) !== undefined) continue;
      problems.push(
        `${file}: event ${i + 1} (${e.kind}) names "${name}", who is not a player${didYouMean(name, roster, matching)}`,
      );
    }
  });
  return problems;
}

export function refuseUnknownEventNames(problems: readonly string[]): void {
  if (problems.length === 0) return;
  throw new CliError(`${problems.join('\n')}\n(--allow-unknown counts anyway)`);
}

/**
 * Posters who match no player, and players who never posted, each with the closest name
 * of the other list: the roster was probably typed wrong. A poster matched only by folding
 * the name ("Humble Poirot" for HumblePoirot) counts, and is said once. Exactly one of each
 * is said together as well: the poster may play the slot under another name.
 */
export function posterNotes(
  posters: readonly string[],
  roster: Roster,
  hosts: readonly string[],
  events: readonly GmEvent[],
  matching: NameMatching,
): string[] {
  const known = knownSlots(roster, events);
  const hostKeys = new Set(hosts.map(nameKey));
  const distinct = [...new Set(posters)];
  const strangers = distinct.filter((p) => findSlot(known, p) === undefined && !hostKeys.has(nameKey(p)));
  const posted = new Set(distinct.flatMap((p) => findSlot(known, p) ?? []));
  const silent = roster.filter((_, i) => !posted.has(i));
  const strangerRoster = strangers.map((name) => ({ name, aliases: [], formerNames: [], alive: true }));
  const notes: string[] = [];
  for (const p of distinct)
    if (foldedOnly(known, p)) notes.push(`matched "${p}" to ${known[findSlot(known, p)!]!.name}`);
  for (const p of strangers)
    notes.push(`"${p}" posted but is not in the player list${didYouMean(p, roster, matching)}`);
  for (const s of silent)
    notes.push(`player "${s.name}" never posted${didYouMean(s.name, strangerRoster, matching, 'a poster')}`);
  // One of each: a typo in the list (said above), or a renamed account or an unannounced
  // replacement, for the GM to say which.
  const [p, s] = [strangers[0], silent[0]?.name];
  if (strangers.length === 1 && silent.length === 1 && p && s)
    notes.push(
      `"${p}" posts and is not a player; "${s}" never posted: if ${p} plays ${s} (renamed or replacement), ` +
        `give --events a replace before ${p}'s first post (kind: replace, player: ${s}, by: ${p})`,
    );
  return notes;
}

/** ` (did you mean "Carol"?)` when one name reads close, else nothing. */
function didYouMean(name: string, roster: Roster, matching: NameMatching, what = 'a player'): string {
  if (roster.length === 0) return '';
  const r = resolveName(name, roster, matching, { trailingWords: false });
  const guess = r.target ?? r.candidates[0] ?? null;
  return guess === null || guess.toLowerCase() === name.toLowerCase() ? '' : ` (did you mean ${what}, "${guess}"?)`;
}
