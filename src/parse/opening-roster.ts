import type { Body, BodyNode } from '../model/body.js';
import { nameKey } from './name-form.js';
import { type RunStyle, walkLines } from './own-text.js';

/**
 * The player list of a game's opening post, for the new-game form: the names the GM wrote
 * there, so a player who has not posted yet is proposed too. A ladder of rungs, the first
 * that finds a list wins:
 *
 *   1. a heading that names players ("Players:", "Alive (7):", "Roster") and the names
 *      after it, one a line (plain, bulleted, numbered, bold, member links), up to a blank
 *      line or a line that is not a name;
 *   2. the heading with the names on its own line ("Players: Alice, Bob, Carol");
 *   3. without a heading: a line of names between commas, a run of bold names one a line,
 *      or a run of member links one a line — each only when the thread confirms it (half
 *      its names have posted or are linked as members), since rule posts have lines too.
 *
 * Names are spelled as the thread spells them (a poster's or member link's own spelling
 * when the key matches). Bounded: at most 400 lines of 600 characters and 200 names; the lines
 * past the bound are counted (`readOpeningPost`) so the form can say the list may go on.
 * Quotes, code and signatures are someone else's words or not names.
 */
export interface RosterContext {
  /** The opening post's author (never a player of their own game). */
  gm: string | null;
  /** Everyone who has posted in the thread as read so far. */
  posters: readonly string[];
}

export interface OpeningRoster {
  names: string[];
  /** Which rung found it. */
  shape: 'heading-list' | 'heading-line' | 'comma-line' | 'bold-run' | 'member-run';
}

/** At least this many names make a list (two names are a sentence as often as a list). */
const MIN_ROSTER = 3;
/** Lines of the opening post read: more are not, and the new-game form says so. */
export const MAX_ROSTER_LINES = 400;
const MAX_LINE = 600;
const MAX_NAMES = 200;

interface Line {
  text: string;
  /** Every letter of the line is inside bold. */
  bold: boolean;
  /** The line is one member link (a mention) and nothing else but marks. */
  member: string | null;
  /** Member links on the line. */
  members: string[];
}

const HEADING =
  /^(?:the\s+)?(?:(?:living|alive|current|confirmed)\s+)?(?:players?|roster|alive|participants|sign-?ups?|living|playerlist|player\s+list)\b/iu;
/** Before a name: bullets, numbers ("1.", "2)", "#3"). */
const MARK = /^\s*(?:\d{1,3}\s*[.):-]|#\d{1,3}\b|[-*•·◦▪>])\s*/u;
/** After a name: a note in brackets or after a dash ("(replaced)", "- dead"). */
const NOTE = /\s*(?:[([].*|\s[-–—]\s.*)$/u;

export function readOpeningRoster(body: Body, ctx: RosterContext): OpeningRoster | null {
  return readOpeningPost(body, ctx).roster;
}

/** The roster, and how many lines of the post past the bound were not read (0: all of it). */
export function readOpeningPost(
  body: Body,
  ctx: RosterContext,
): { roster: OpeningRoster | null; linesNotRead: number } {
  const { lines, notRead } = linesOf(body);
  return { roster: rosterIn(lines, ctx), linesNotRead: notRead };
}

function rosterIn(lines: readonly Line[], ctx: RosterContext): OpeningRoster | null {
  const known = knownNames(ctx, lines);
  const gmKey = ctx.gm ? nameKey(ctx.gm) : null;
  const finish = (names: string[], shape: OpeningRoster['shape']): OpeningRoster | null => {
    const spelled = unique(names.map((n) => known.get(nameKey(n)) ?? n)).filter((n) => nameKey(n) !== gmKey);
    return spelled.length >= MIN_ROSTER ? { names: spelled.slice(0, MAX_NAMES), shape } : null;
  };
  const confirmed = (names: string[]): boolean => names.filter((n) => known.has(nameKey(n))).length * 2 >= names.length;
  return (
    headingRoster(lines, finish) ??
    commaLine(lines, confirmed, finish) ??
    runOf(lines, (l) => (l.bold ? nameOf(l.text) : null), confirmed, finish, 'bold-run') ??
    runOf(lines, (l) => l.member, confirmed, finish, 'member-run')
  );
}

type Finish = (names: string[], shape: OpeningRoster['shape']) => OpeningRoster | null;

/** Rungs 1 and 2: a heading that names players, the names after it or on its line. */
function headingRoster(lines: readonly Line[], finish: Finish): OpeningRoster | null {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.text.replace(MARK, '').trim();
    const colon = line.indexOf(':');
    const head = colon >= 0 ? line.slice(0, colon) : line;
    if (head.length > 40 || !HEADING.test(head) || /[.!?]/u.test(head)) continue;
    const rest = colon >= 0 ? line.slice(colon + 1).trim() : '';
    if (rest) {
      const names = commaNames(rest);
      const found = names ? finish(names, 'heading-line') : null;
      if (found) return found;
      continue;
    }
    const names: string[] = [];
    let j = i + 1;
    while (lines[j]?.text === '') j++; // "Players:", a blank line, then the names
    for (; j < lines.length && names.length < MAX_NAMES; j++) {
      const name = lines[j]!.member ?? nameOf(lines[j]!.text);
      if (name === null) break;
      names.push(name);
    }
    const found = finish(names, 'heading-list');
    if (found) return found;
  }
  return null;
}

/** Rung 3a: a line of names between commas, confirmed by the thread. */
function commaLine(
  lines: readonly Line[],
  confirmed: (names: string[]) => boolean,
  finish: Finish,
): OpeningRoster | null {
  for (const line of lines) {
    const names = commaNames(line.text);
    if (!names || !confirmed(names)) continue;
    const found = finish(names, 'comma-line');
    if (found) return found;
  }
  return null;
}

/** Rungs 3b, 3c: consecutive lines that are each one name in bold, or one member link. */
function runOf(
  lines: readonly Line[],
  nameIn: (l: Line) => string | null,
  confirmed: (names: string[]) => boolean,
  finish: Finish,
  shape: OpeningRoster['shape'],
): OpeningRoster | null {
  let run: string[] = [];
  const close = (): OpeningRoster | null => {
    const names = run;
    run = [];
    return names.length >= MIN_ROSTER && confirmed(names) ? finish(names, shape) : null;
  };
  for (const line of lines) {
    const name = nameIn(line);
    if (name !== null && run.length < MAX_NAMES) {
      run.push(name);
      continue;
    }
    const found = close();
    if (found) return found;
  }
  return close();
}

/** "Alice, Bob, Carol and Dave": each part a name, or null when one part is not. */
function commaNames(text: string): string[] | null {
  const parts = text.split(/\s*,\s*|\s+(?:and|&)\s+/u).filter((p) => p.trim() !== '');
  if (parts.length < MIN_ROSTER) return null;
  const names = parts.map((p) => nameOf(p));
  return names.every((n): n is string => n !== null) ? names : null;
}

/** A line (or a part of one) that is one name: marks and notes dropped; a sentence is not a name. */
function nameOf(text: string): string | null {
  const name = text
    .replace(MARK, '')
    .replace(NOTE, '')
    .replace(/[:;,]+$/u, '')
    .trim();
  if (!name || name.length > 40 || name.split(/\s+/u).length > 4) return null;
  if (/[.!?]$/u.test(name) || !/\p{L}|\d/u.test(name)) return null;
  return name;
}

/** Posters and member links by name key, each with its own spelling (a poster's first). */
function knownNames(ctx: RosterContext, lines: readonly Line[]): Map<string, string> {
  const known = new Map<string, string>();
  for (const p of ctx.posters) if (!known.has(nameKey(p))) known.set(nameKey(p), p);
  for (const l of lines) for (const m of l.members) if (!known.has(nameKey(m))) known.set(nameKey(m), m);
  return known;
}

/** The body's own lines, each with whether it is all bold and the member links on it; and the lines past the bound. */
function linesOf(body: Body): { lines: Line[]; notRead: number } {
  const lines: Line[] = [];
  let notRead = 0;
  let text = '';
  let letters = 0;
  let boldLetters = 0;
  let members: string[] = [];
  let memberText = '';
  const end = (): void => {
    const t = text.trim();
    const member = members.length === 1 && t.replace(MARK, '').trim() === memberText.trim() ? members[0]! : null;
    // A blank line is kept once: it ends a list.
    const blank = t === '' && (lines.length === 0 || lines.at(-1)!.text === '');
    if (!blank && lines.length < MAX_ROSTER_LINES)
      lines.push({ text: t.slice(0, MAX_LINE), bold: letters > 0 && boldLetters === letters, member, members });
    else if (t !== '' && lines.length >= MAX_ROSTER_LINES) notRead++;
    text = '';
    letters = 0;
    boldLetters = 0;
    members = [];
    memberText = '';
  };
  const put = (s: string, bold: boolean): void => {
    const parts = s.split('\n');
    parts.forEach((part, k) => {
      if (k > 0) end();
      if (text.length < MAX_LINE) text += part;
      const n = part.replace(/[^\p{L}\p{N}]/gu, '').length;
      letters += n;
      if (bold) boldLetters += n;
    });
  };
  // A member link's text is a name; two links side by side are two names.
  let mention: BodyNode | null = null;
  let mentionFrom = 0;
  const endMention = (): void => {
    if (!mention) return;
    const written = text.slice(mentionFrom);
    const name = written.replace(/^@/u, '').trim();
    if (name) {
      members.push(name);
      memberText += written;
    }
    mention = null;
  };
  const read = (t: string, style: RunStyle): void => {
    if (style.mention !== mention) {
      endMention();
      if (style.mention) {
        mention = style.mention;
        mentionFrom = text.length;
      }
    }
    put(t, style.bold);
  };
  const endLine = (): void => {
    endMention();
    end();
  };
  // Struck names are still names on the list (a replaced player): kept, and read as any text.
  walkLines(body, { text: read, end: endLine }, { keepStruck: true });
  endLine();
  return { lines, notRead };
}

function unique(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.filter((n) => {
    const k = nameKey(n);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
