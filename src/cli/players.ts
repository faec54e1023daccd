import { readFileSync } from 'node:fs';
import { parsePlayerList, rosterTooLarge, type Roster } from '../model/roster.js';
import { CliError } from './exit-codes.js';

/**
 * The roster from `--players "A, B (Bee), C"` or `--players-file F` (one name a line, or
 * comma-separated lines), checked the way the server checks a game's roster: no empty
 * name, no name or alias twice, and a list written with ";" or tabs is explained instead
 * of read as one player (a wrong roster gives a wrong count, never an error otherwise).
 */
export function rosterFromOptions(opts: { players?: string; playersFile?: string }): Roster | null {
  const roster = listed(opts);
  const tooMany = roster && rosterTooLarge(roster.length);
  if (tooMany) throw new CliError(`${opts.playersFile ? `players file ${opts.playersFile}` : '--players'}: ${tooMany}`);
  return roster;
}

function listed(opts: { players?: string; playersFile?: string }): Roster | null {
  if (opts.players && opts.playersFile) throw new CliError('give either --players or --players-file, not both');
  if (opts.playersFile) {
    let text: string;
    try {
      text = readFileSync(opts.playersFile, 'utf8');
    } catch (e) {
      throw new CliError(`cannot read players file ${opts.playersFile}: ${(e as Error).message}`);
    }
    const roster = checkedRoster(text, (line) => `players file ${opts.playersFile}, line ${line}`);
    if (roster.length === 0) throw new CliError(`players file ${opts.playersFile} names no players`);
    return roster;
  }
  if (opts.players !== undefined) {
    const roster = checkedRoster(opts.players, () => '--players');
    if (roster.length === 0) throw new CliError('--players names no players');
    return roster;
  }
  return null;
}

/** Separators people use that the list does not: ";" and tabs. */
const FOREIGN_SEPARATOR = /[;\t]/u;
/** Commas outside an alias list "(a, b)". */
const ENTRY_SEPARATOR = /,(?![^()]*\))/u;

/** The roster, each line checked; `where(line)` names the place for a message. */
function checkedRoster(text: string, where: (line: number) => string): Roster {
  const roster: Roster = [];
  const seen = new Map<string, { name: string; at: string }>();
  text.split(/\r?\n/u).forEach((raw, i) => {
    const line = raw.replace(/#.*$/u, '');
    const at = where(i + 1);
    if (line.trim() === '') return;
    const entries = line.split(ENTRY_SEPARATOR);
    entries.forEach((entry, k) => {
      if (entry.trim() !== '') return;
      // A trailing comma ("Alice, Bob,") is harmless; an empty name between two is a slip.
      if (k === entries.length - 1 && k > 0) return;
      throw new CliError(`${at}: player ${k + 1} is empty (two commas with no name between them)`);
    });
    for (const slot of parsePlayerList(line)) {
      const foreign = [slot.name, ...slot.aliases].find((n) => FOREIGN_SEPARATOR.test(n));
      if (foreign !== undefined) {
        const sep = foreign.includes(';') ? '";"' : 'a tab';
        throw new CliError(
          `${at}: "${foreign.replace(/\t/gu, '\\t')}" would be one player with ${sep} in the name: separate players with commas ("Alice, Bob") or put one a line in --players-file`,
        );
      }
      for (const name of [slot.name, ...slot.aliases]) {
        const key = name.toLowerCase();
        const other = seen.get(key);
        if (other) throw new CliError(`${at}: "${name}" is listed twice (first as "${other.name}", ${other.at})`);
        seen.set(key, { name, at });
      }
      roster.push(slot);
    }
  });
  return roster;
}
