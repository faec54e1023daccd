/**
 * The complete real MafiaScum games of the Computational-Mafia project, read from its mirror
 * (github.com/Computational-Mafia/donbot, commit 739243d "updated scraped posts"; the files
 * were dropped from the repository's tip): `data/posts/<thread>.jsonl` (every post of each
 * game's thread), `data/archive.txt` (per game: moderators, notes, the players with
 * replacements, each one's role and fate) and `data/transitions.tsv` (the post that ended
 * each Day). Third-party data: it stays out of this repository and is only read.
 *
 *   VOTAL_DONBOT_MIRROR=<git dir> VOTAL_DONBOT_COMMIT=<commit> to read another copy.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const MIRROR = process.env['VOTAL_DONBOT_MIRROR'] ?? '/work/.mirror/Computational-Mafia+donbot/repo';
export const COMMIT = process.env['VOTAL_DONBOT_COMMIT'] ?? '739243d02a00deec0d92d31e3e43e065e11b5067';
export const SOURCE = `github.com/Computational-Mafia/donbot@${COMMIT.slice(0, 7)}`;

export function fromMirror(path: string): string {
  return execFileSync('git', ['--git-dir', MIRROR, 'show', `${COMMIT}:${path}`], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    // A missing file is reported as skipped by the caller; git's own message would only repeat it.
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

/** Why the material cannot be read (nothing is measured then), or null. */
export function mirrorProblem(): string | null {
  if (!existsSync(MIRROR))
    return (
      `material absent: no mirror of Computational-Mafia/donbot at ${MIRROR}.\n` +
      'Bring it with the fetch tool (github:Computational-Mafia/donbot) or set VOTAL_DONBOT_MIRROR; nothing was measured.'
    );
  try {
    execFileSync('git', ['--git-dir', MIRROR, 'cat-file', '-e', `${COMMIT}:data/archive.txt`], { stdio: 'ignore' });
  } catch {
    return `material absent: ${MIRROR} has no data/archive.txt at ${COMMIT}; nothing was measured.`;
  }
  return null;
}

/** How a slot left the game, as the archive writes it ("lynched Day 2", "killed Night 1", "modkilled day 3"). */
export interface ArchiveDeath {
  cause: 'lynch' | 'kill' | 'modkill';
  phase: 'day' | 'night';
  number: number;
}

export interface ArchiveGame {
  id: string;
  url: string;
  thread: string;
  title: string;
  moderators: string[];
  notes: string;
  /** Each slot's names, newest first ("A replaced B": A is playing now). */
  slots: string[][];
  /** The Day after whose end the slot is gone (lynched Day d, killed Night d: d); survivors Infinity. */
  fates: number[];
  /** Day -> the lynched slot's index. */
  lynched: Map<number, number>;
  /** Each slot's role as the archive writes it ("Town Vanilla", "Mafia Goon"). */
  roles: string[];
  /** Each slot's death, or null (survived, endgamed, or a fate the archive words otherwise). */
  deaths: (ArchiveDeath | null)[];
  /** Each slot's fate as written ("survived", "Endgamed Day 5", "lynched Day 1"). */
  fateTexts: string[];
}

/** The archive, read as donbot's data_loading.py reads it. */
export function readArchive(text: string): ArchiveGame[] {
  const games: ArchiveGame[] = [];
  for (const block of text.split('\n\n\n')) {
    const lines = block.split('\n').filter((l, i) => i > 0 || l.trim() !== '');
    if (!lines[0]?.startsWith('http')) continue;
    const url = lines[0].trim();
    const thread = /[?&]t=(\d+)/.exec(url)?.[1];
    const title = lines[1] ?? '';
    const id = /\d+/.exec(title.replace(/[^\d\s]/g, ' '))?.[0];
    if (!thread || !id) continue;
    const moderators = (lines.find((l) => l.startsWith('Moderator: ')) ?? 'Moderator: ')
      .slice('Moderator: '.length)
      .split(', ')
      .filter((m) => m !== '');
    const notes = (lines.find((l) => l.startsWith('Notes: ')) ?? 'Notes: ').slice('Notes: '.length);
    const playersAt = lines.indexOf('Players');
    const game: ArchiveGame = {
      id,
      url,
      thread,
      title,
      moderators,
      notes,
      slots: [],
      fates: [],
      lynched: new Map(),
      roles: [],
      deaths: [],
      fateTexts: [],
    };
    for (const line of lines.slice(playersAt + 1)) if (line.trim() !== '') addSlot(game, line);
    games.push(game);
  }
  return games;
}

function addSlot(game: ArchiveGame, line: string): void {
  const parts = line.split(', ');
  const fateText = (parts.at(-1) ?? '').trim();
  const fate = fateText.toLowerCase();
  game.slots.push(parts[0]!.split(' replaced ').map((n) => n.trim()));
  game.roles.push(parts.slice(1, -1).join(', ').trim());
  game.fateTexts.push(fateText);
  const phase = Number(/(\d+)\s*$/.exec(fate)?.[1]);
  game.fates.push(fate.includes('survived') || fate.includes('endgamed') || Number.isNaN(phase) ? Infinity : phase);
  if (fate.includes('lynched') && !Number.isNaN(phase)) game.lynched.set(phase, game.slots.length - 1);
  // "killed ngiht 2": the archive's own typo of night.
  const death = /\b(lynched|modkilled|killed|shot)\s+(day|night|ngiht)\s+(\d+)\s*$/u.exec(fate);
  game.deaths.push(
    death
      ? {
          cause: death[1] === 'lynched' ? 'lynch' : death[1] === 'modkilled' ? 'modkill' : 'kill',
          phase: death[2] === 'day' ? 'day' : 'night',
          number: Number(death[3]),
        }
      : null,
  );
}

/** Game id -> the post that ended each Day (the last row of a game wins, as in donbot). */
export function readTransitions(text: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const line of text.split('\n')) {
    const [id, ...ends] = line.split('\t');
    if (!id || !/^\d+$/.test(id.trim())) continue;
    const days: number[] = [];
    for (const e of ends) {
      if (!/^\s*\d+\s*$/.test(e)) break;
      days.push(Number(e));
    }
    out.set(id.trim(), days);
  }
  return out;
}

export interface RawPost {
  number: number;
  user: string;
  content: string;
}

/** A game's posts, or null when the mirror has no file for its thread. */
export function postsOf(game: Pick<ArchiveGame, 'thread'>): RawPost[] | null {
  try {
    return fromMirror(`data/posts/${game.thread}.jsonl`)
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as RawPost);
  } catch {
    return null;
  }
}
