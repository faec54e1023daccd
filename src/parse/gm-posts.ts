import { fromIso, wallTimeToUtc } from '../../scrapers/forum-time.js';
import type { Body } from '../model/body.js';
import type { GmEvent } from '../model/event.js';
import type { Roster } from '../model/roster.js';
import type { GmPhrases, Phrase, Slot } from '../rules/gm-phrases.js';
import { ownLines } from './own-text.js';

/**
 * The GM's own posts, read for news: Day and Night starts, deaths and flips, mod-kills,
 * replacements and deadline changes. Each finding is a proposal the GM confirms; nothing
 * here changes a count. A sentence that has the shape of news but names nobody Votal
 * knows (or a time it cannot read) is returned as unread, with its reason, never dropped.
 */
export interface GmPostInput {
  number: number;
  body: Body;
  /** When the post was made (ISO): the year of a deadline written without one. */
  postedAt: string | null;
}

export interface GmProposal {
  post: number;
  /** The GM's sentence the event was read from. */
  sentence: string;
  event: GmEvent;
  /** The role a death revealed ("Vanilla Townie"), when the GM gave it. */
  flip?: string;
}

export interface GmUnread {
  post: number;
  sentence: string;
  reason: string;
}

export interface GmReading {
  proposals: GmProposal[];
  unread: GmUnread[];
}

export interface GmReadOptions {
  /** The zone of a deadline written without one (the game's or ruleset's zone). */
  timeZone?: string | null;
  /** The Day the post belongs to, for deadlines that name none. */
  day?: number | null;
}

/** Sentences longer than this are prose, not announcements: not matched (bounds the work). */
const MAX_SENTENCE = 300;
const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];
const ORDINAL_WORDS = [
  'zeroth',
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
];

/** Every name a slot answers to (lower case) -> its canonical name: one map, built once per roster. */
export function rosterNames(roster: Roster): Map<string, string> {
  const names = new Map<string, string>();
  for (const slot of roster) {
    for (const n of [slot.name, ...slot.aliases, ...slot.formerNames]) {
      const key = n.trim().toLowerCase();
      if (key && !names.has(key)) names.set(key, slot.name);
    }
  }
  return names;
}

export function readGmPost(
  post: GmPostInput,
  names: ReadonlyMap<string, string>,
  phrases: GmPhrases,
  options: GmReadOptions = {},
): GmReading {
  const proposals: GmProposal[] = [];
  const unread: GmUnread[] = [];
  const seen = new Set<string>();
  let lastKill: GmProposal | null = null;
  // A deadline after "Day 2 begins" in the same post is Day 2's.
  let day = options.day ?? null;
  const propose = (p: GmProposal): void => {
    const key = JSON.stringify(p.event);
    if (seen.has(key)) return;
    seen.add(key);
    proposals.push(p);
    if (p.event.kind === 'kill' || p.event.kind === 'modkill') lastKill = p;
  };

  for (const line of ownLines(post.body)) {
    const text = line
      .map((r) => r.text)
      .join('')
      .trim();
    const inked = line.filter((r) => /\S/.test(r.text));
    const bold = inked.length > 0 && inked.every((r) => r.bold);
    for (const sentence of sentences(text)) {
      const heading = bold && sentence.length === cleanSentence(text).length;
      // "Update: Kasia is replacing babark": the words after a short label are a sentence too.
      const label = /^[^:]{1,40}:\s+(.+)$/u.exec(sentence);
      const readings =
        label && label[1] && label[0].slice(0, label[0].indexOf(':')).split(/\s+/).length <= 3
          ? [sentence, label[1]]
          : [sentence];
      let match: { phrase: Phrase; groups: (string | undefined)[] } | null = null;
      for (const reading of readings) {
        for (const phrase of phrases.phrases) {
          if (phrase.kind.startsWith('heading-') && !heading) continue;
          const m = phrase.pattern.exec(reading);
          if (m) {
            match = { phrase, groups: m.slice(1) };
            break;
          } // the first phrase that matches
        }
        if (match) break;
      }
      if (!match) continue;
      const found = readMatch(match.phrase, match.groups, post, names, phrases, { ...options, day });
      if (found === null) continue;
      if ('reason' in found) {
        unread.push({ post: post.number, sentence, reason: found.reason });
      } else if (found.flip !== undefined) {
        // A flip tells the role of the death just announced, or of the player it names.
        const target = found.player
          ? proposals.find(
              (p) =>
                'player' in p.event &&
                p.event.player === found.player &&
                (p.event.kind === 'kill' || p.event.kind === 'modkill'),
            )
          : lastKill;
        if (target && target.flip === undefined) target.flip = found.flip;
      } else {
        if (found.event.kind === 'day-start') day = found.event.day;
        propose({ post: post.number, sentence, event: found.event, ...(found.role ? { flip: found.role } : {}) });
      }
    }
  }
  return { proposals, unread };
}

type Found =
  | { event: GmEvent; role?: string; flip?: undefined }
  | { flip: string; player: string | null }
  | { reason: string };

function readMatch(
  phrase: Phrase,
  groups: (string | undefined)[],
  post: GmPostInput,
  names: ReadonlyMap<string, string>,
  phrases: GmPhrases,
  options: GmReadOptions,
): Found | null {
  const at = post.number;
  const value: Partial<Record<Slot, string>> = {};
  let player: string | null = null;
  for (let i = 0; i < phrase.slots.length; i++) {
    const slot = phrase.slots[i]!;
    const raw = groups[i];
    if (raw === undefined) continue;
    if (slot === 'player') {
      // Only the first placeholder can have words before the name: the pattern is anchored.
      const r = resolvePlayer(raw, i === 0 && /^\^\((?!\?)/.test(phrase.pattern.source), names, phrases);
      if (r === 'nobody' || r === 'hedged') return null;
      if (r === null) return { reason: `names no player of this game: "${raw.trim()}"` };
      player = r;
    } else if (slot === 'name') {
      const name = cleanName(raw);
      const words = name.split(/\s+/);
      if (!name || words.length > 5 || words.some((w) => phrases.hedges.has(w.toLowerCase()))) return null;
      value.name = name;
    } else {
      value[slot] = raw.trim();
    }
  }
  let day: number | null = null;
  if (value.day !== undefined) {
    day = dayNumber(value.day);
    if (day === null) return null;
  }

  switch (phrase.kind) {
    case 'day-start':
    case 'heading-day-start':
      return day === null ? null : { event: { kind: 'day-start', day, at } };
    case 'day-end':
    case 'heading-day-end':
      return { event: { kind: 'day-end', at } };
    case 'kill':
      return player ? { event: { kind: 'kill', player, at }, ...(value.role ? { role: value.role } : {}) } : null;
    case 'modkill':
      return player ? { event: { kind: 'modkill', player, at } } : null;
    case 'replace': {
      if (!player || !value.name) return null;
      const already = names.get(value.name.toLowerCase());
      if (already !== undefined)
        return { reason: `"${value.name}" already plays (as ${already}): not a replacement Votal can propose` };
      return { event: { kind: 'replace', player, by: value.name, at } };
    }
    case 'deadline': {
      const time =
        value.time === undefined
          ? null
          : readDeadline(value.time, post.postedAt, options.timeZone ?? null, phrases.zones);
      if (time === null)
        return { reason: `the deadline's time is not one Votal can read: "${(value.time ?? '').trim()}"` };
      const d = day ?? options.day ?? null;
      return { event: { kind: 'deadline', time, at, ...(d ? { day: d } : {}) } };
    }
    case 'flip':
      return value.role ? { flip: value.role, player } : null;
  }
}

/**
 * A captured span to a player: the whole span, or (for the first words of a sentence)
 * its last words ("After a long Day, Bob" -> Bob), or its first words ("Bob, effective
 * now" -> Bob). Words passed over must not hedge ("Town wins if Bob").
 */
function resolvePlayer(
  raw: string,
  leading: boolean,
  names: ReadonlyMap<string, string>,
  phrases: GmPhrases,
): string | 'nobody' | 'hedged' | null {
  const words = raw.trim().split(/\s+/).filter(Boolean).slice(-12);
  const clean = (ws: string[]): string => cleanName(ws.join(' ')).toLowerCase();
  const hedged = (ws: string[]): boolean =>
    ws.some((w) => phrases.hedges.has(w.toLowerCase().replace(/[^\p{L}'-]/gu, '')));
  const whole = clean(words);
  if (phrases.nobody.has(whole)) return 'nobody';
  const exact = names.get(whole);
  if (exact) return exact;
  // Longest name first: "Mary Ann" before "Ann".
  for (let k = words.length - 1; k >= 1; k--) {
    if (leading) {
      const tail = words.slice(words.length - k);
      const hit = names.get(clean(tail)) ?? (phrases.nobody.has(clean(tail)) ? 'nobody' : undefined);
      if (hit) return hedged(words.slice(0, words.length - k)) ? 'hedged' : hit;
    }
    const head = words.slice(0, k);
    const hit = names.get(clean(head));
    if (hit) return hedged(words.slice(k)) ? 'hedged' : hit;
  }
  return hedged(words) ? 'hedged' : null;
}

/** A name as written, without the marks around it (`@Bob,` `"Bob"` `**Bob**`). */
function cleanName(raw: string): string {
  return raw.trim().replace(/^[@"'“”‘’*_~\s]+|[\s"'“”‘’*_~,;]+$/gu, '');
}

function dayNumber(raw: string): number | null {
  const s = raw.toLowerCase();
  if (/^\d+$/.test(s)) return Number(s) > 0 ? Number(s) : null;
  const n = NUMBER_WORDS.indexOf(s);
  if (n > 0) return n;
  const o = ORDINAL_WORDS.indexOf(s);
  return o > 0 ? o : null;
}

/** A line's sentences, without their end marks; questions are never news. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.split(/(?<=[.!?])\s+/u)) {
    if (/\?\s*$/.test(piece)) continue;
    const s = cleanSentence(piece);
    if (s && s.length <= MAX_SENTENCE) out.push(s);
  }
  return out;
}

function cleanSentence(s: string): string {
  return s
    .trim()
    .replace(/^[\s*_~=#>\-–—:]+/u, '')
    .replace(/[\s.!*_~=#\-–—]+$/u, '')
    .trim();
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

/**
 * A deadline as GMs write it: ISO 8601, or "[Friday,] December 4[, 2026] [at] 12:00 PM PT"
 * ("4 December", "noon", "midnight", "GMT-8" too). Without a year: the post's year, or
 * the next when that date is long past. Without a zone: the game's, or nothing is read.
 */
export function readDeadline(
  raw: string,
  postedAt: string | null,
  gameZone: string | null,
  zones: Readonly<Record<string, string>>,
): string | null {
  const s = raw.trim().replace(/[.,]+$/, '');
  const iso = /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?)\s*(Z|[+-]\d{2}:?\d{2}|[A-Z]{1,5})?$/.exec(s);
  if (iso) {
    const off = iso[2];
    if (off && /^[A-Z]/.test(off) && off !== 'Z') {
      const zone = zones[off];
      return zone ? fromIso(iso[1]!, zone) : null;
    }
    return off ? fromIso(`${iso[1]}${off}`) : gameZone ? fromIso(iso[1]!, gameZone) : null;
  }
  const lower = s.toLowerCase();
  // "Friday 12:00, December 4": the first word-and-number that is a month, either order.
  const named = /\b([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4}))?/g;
  const european = /\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]{3,9})\b(?:,?\s+(\d{4}))?/g;
  let month: number | undefined;
  let date: number | undefined;
  let year: number | undefined;
  for (const [re, monthIdx, dayIdx] of [
    [named, 1, 2],
    [european, 2, 1],
  ] as const) {
    for (const m of lower.matchAll(re)) {
      if (month) break;
      const mo = MONTHS[m[monthIdx]!.slice(0, 3)];
      if (mo) {
        month = mo;
        date = Number(m[dayIdx]);
        year = m[3] ? Number(m[3]) : undefined;
      }
    }
  }
  if (!month || !date || date > 31) return null;

  let hour: number | null = null;
  let minute = 0;
  const clock =
    /\b(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)(?![a-z])/.exec(lower) ?? /\b(\d{1,2}):(\d{2})\b/.exec(lower);
  if (clock) {
    hour = Number(clock[1]);
    minute = clock[2] ? Number(clock[2]) : 0;
    const half = clock[3]?.[0];
    if (half === 'p' && hour < 12) hour += 12;
    if (half === 'a' && hour === 12) hour = 0;
  } else if (/\b(noon|midday)\b/.test(lower)) {
    hour = 12;
  } else if (/\bmidnight\b/.test(lower)) {
    hour = 24;
  }
  if (hour === null || hour > 24 || minute > 59) return null;

  const offset = /\b(?:gmt|utc)\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?\b/i.exec(s);
  const abbreviation = /\b([A-Z]{1,5})\b\s*$/.exec(s.replace(/\)$/, ''))?.[1];
  const zone = offset ? null : (abbreviation && zones[abbreviation]) || gameZone;
  if (!offset && !zone) return null;

  const posted = postedAt ? new Date(postedAt) : null;
  let y = year ?? posted?.getUTCFullYear();
  if (y === undefined) return null;
  const at = (yy: number): string | null => {
    if (offset) {
      const sign = offset[1] === '-' ? -1 : 1;
      const minutes = sign * (Number(offset[2]) * 60 + Number(offset[3] ?? 0));
      return new Date(Date.UTC(yy, month! - 1, date!, hour!, minute) - minutes * 60_000).toISOString();
    }
    return wallTimeToUtc(yy, month!, date!, hour!, minute, 0, zone!);
  };
  let result = at(y);
  // "December 30" written in a post of January 2: long past in this year, so next year's.
  if (result && year === undefined && posted && Date.parse(result) < posted.getTime() - 60 * 86_400_000) {
    y += 1;
    result = at(y);
  }
  return result;
}
