import { readFileSync } from 'node:fs';
import { parsePlayerList, rosterTooLarge, type Roster } from '../model/roster.js';
import { CliError } from './exit-codes.js';

/** The roster from `--players "A, B (Bee), C"` or `--players-file F` (one name a line). */
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
    const roster = parsePlayerList(text);
    if (roster.length === 0) throw new CliError(`players file ${opts.playersFile} names no players`);
    return roster;
  }
  if (opts.players !== undefined) {
    const roster = parsePlayerList(opts.players);
    if (roster.length === 0) throw new CliError('--players names no players');
    return roster;
  }
  return null;
}
