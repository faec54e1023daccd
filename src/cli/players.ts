import { readFileSync } from 'node:fs';
import { parsePlayerList, type Roster } from '../model/roster.js';
import { CliError } from './exit-codes.js';

/** The roster from `--players "A, B (Bee), C"` or `--players-file F` (one name a line). */
export function rosterFromOptions(opts: { players?: string; playersFile?: string }): Roster | null {
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
