import { fromIso, wallTimeToUtc } from '../../scrapers/forum-time.js';
import type { Body } from '../model/body.js';
import type { GmEvent } from '../model/event.js';
import type { Roster } from '../model/roster.js';
import type { MatchKind } from '../model/action.js';
import type { DeathCause, GmPhrases, Phrase, Slot } from '../rules/gm-phrases.js';
import { NameMatching } from '../rules/ruleset.js';
import { nameKey } from './name-form.js';
import { nameResolver, type NameResolver } from './names.js';
import { type OwnLine, ownLines } from './own-text.js';
import { NUMBER_WORDS } from './number-words.js';

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
  /** What a death was: lynch, night kill, day kill, mod-kill, or `kill` where the GM and the phase say nothing. */
  cause?: DeathCause;
  /** The Night or Day a death happened in, or the Night a day-end opens, where the GM or the phase gives it. */
  phase?: { kind: 'day' | 'night'; number: number };
  /** Names read by the name ladder rather than exactly: shown to the GM ("WierdRa" read as WeirdRa). */
  readAs?: NameRead[];
  /** A newcomer's group, as the GM wrote it in brackets ("SXTLHGaiden and Bert"). */
  group?: string;
}

export interface NameRead {
  written: string;
  as: string;
  match: MatchKind;
}

export interface GmUnread {
  post: number;
  sentence: string;
  reason: string;
}

/**
 * What a post says that is news only with what came before it, for the news reader to
 * settle with the game it knows: a slot whose replacement the GM seeks, and a newcomer
 * welcomed without the slot they take (who must not play yet, and must post in the thread).
 */
export type GmAside = { post: number; sentence: string } & (
  | { kind: 'sought'; player: string }
  | { kind: 'welcome'; name: string }
);

export interface GmReading {
  proposals: GmProposal[];
  unread: GmUnread[];
  /** In the post's order. */
  asides: GmAside[];
  /** The post says the game is over ("Mafia wins!", "A win condition has been achieved"). */
  over: boolean;
}

export interface GmReadOptions {
  /** The zone of a deadline written without one (the game's or ruleset's zone). */
  timeZone?: string | null;
  /** The Day the post belongs to, for deadlines that name none. */
  day?: number | null;
  /** Whether a Night began after that Day (the phase decides a death the GM did not name). */
  night?: boolean;
}

/** Sentences longer than this are prose, not announcements: not matched (bounds the work). */
const MAX_SENTENCE = 300;
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

/**
 * The names news reads, the way the count reads votes: every name of every slot (the
 * roster, replacements recorded and proposed, aliases), exactly first and then by the
 * name ladder (src/parse/names.ts), and the thread's posters, where a newcomer's name is
 * taken from. Built once per roster state.
 */
export interface GmNameBook {
  /** A name written exactly as a slot's (name, alias or former name), lower case or not. */
  exact(written: string): string | undefined;
  /**
   * The name ladder: a misspelt or shortened name, with how it was read; `ambiguous` names
   * candidates. `inSlot`: the name stands where only a name does (a vote count's line), so a
   * shortening of three letters is read ("Nos" for Nosferatu), as in a vote.
   */
  ladder(written: string, inSlot?: boolean): { target: string; match: MatchKind } | { ambiguous: string[] } | null;
  /** A poster of the thread by the name as written (any case), in the poster's own spelling. */
  poster(written: string): string | undefined;
}

export interface GmNameOptions {
  matching?: NameMatching;
  /** The authors of the thread's posts: a newcomer is one of them (once they post). */
  posters?: readonly string[];
}

/** A written name this short is read exactly only: "the", "and", "Day" must never match a player loosely. */
const MIN_LOOSE = 4;
/** The same in a name's own place (`GmNameBook.ladder`'s `inSlot`): "Me!" is still no one's. */
const MIN_LOOSE_IN_SLOT = 3;

export function rosterNames(roster: Roster, options: GmNameOptions = {}): GmNameBook {
  const names = new Map<string, string>();
  for (const slot of roster) {
    for (const n of [slot.name, ...slot.aliases, ...slot.formerNames]) {
      const key = nameKey(n);
      if (key && !names.has(key)) names.set(key, slot.name);
    }
  }
  const posters = new Map<string, string>();
  for (const p of options.posters ?? []) {
    const key = nameKey(p);
    if (key && !posters.has(key)) posters.set(key, p);
  }
  let resolver: NameResolver | null = null;
  return {
    exact: (written) => names.get(nameKey(written)),
    poster: (written) => posters.get(nameKey(written)),
    ladder: (written, inSlot = false) => {
      const key = nameKey(written);
      const min = inSlot ? MIN_LOOSE_IN_SLOT : MIN_LOOSE;
      if (key.length < 2 || roster.length === 0) return null;
      resolver ??= nameResolver(roster, options.matching ?? NameMatching.parse({}));
      const r = resolver(written, { trailingWords: false });
      if (r.match === 'ambiguous') return key.length >= min ? { ambiguous: r.candidates } : null;
      if (r.target === null) return null;
      // An acronym must be written as one ("VP"), and other loose readings need letters enough.
      const loose = r.match !== 'exact' && r.match !== 'alias';
      if (loose && r.match === 'acronym' ? !/\p{Lu}.*\p{Lu}/u.test(written) : loose && key.length < min) return null;
      return { target: r.target, match: r.match };
    },
  };
}

/** `rest`: words after the name in its slot ("rapidcanyon -Sane Day Cop- has been lynched D2"). */
type Resolved = { name: string; read?: NameRead; rest?: string };
type PlayerReading = Resolved | 'nobody' | 'hedged' | { ambiguous: string[] } | null;

/** The name ladder compares a name with every slot: a post may ask it this often, then exact names only. */
export const MAX_LADDER_PER_POST = 100;

export function readGmPost(
  post: GmPostInput,
  book: GmNameBook,
  phrases: GmPhrases,
  options: GmReadOptions = {},
): GmReading {
  let ladderLeft = MAX_LADDER_PER_POST;
  const names: GmNameBook = { ...book, ladder: (w, inSlot) => (ladderLeft-- > 0 ? book.ladder(w, inSlot) : null) };
  const read: PostRead = {
    post,
    names,
    phrases,
    options,
    sheet: newsSheet(post.number),
    asides: [],
    // A deadline after "Day 2 begins" in the same post is Day 2's.
    day: options.day ?? null,
    majority: false,
    quietNight: false,
  };
  for (const line of ownLines(post.body)) readLine(read, line);
  const { proposals, unread } = read.sheet;
  settlePhases(post, proposals, unread, options, { majority: read.majority, quietNight: read.quietNight });
  return { proposals, unread, asides: read.asides, over: read.sheet.over() };
}

/** One post as it is read: what it is read with, and what its sentences have said so far. */
interface PostRead {
  post: GmPostInput;
  names: GmNameBook;
  phrases: GmPhrases;
  options: GmReadOptions;
  sheet: NewsSheet;
  asides: GmAside[];
  /** The Day the post is in: a Day it opens is the Day of what follows. */
  day: number | null;
  /** The post tells the new majority: with the Night's deaths, it opens the Day. */
  majority: boolean;
  /** The post says no one died. */
  quietNight: boolean;
}

/** One line of the GM's own text, sentence by sentence; a bold line read whole is a heading. */
function readLine(read: PostRead, line: OwnLine): void {
  const text = line
    .map((r) => r.text)
    .join('')
    .trim();
  const inked = line.filter((r) => /\S/.test(r.text));
  const bold = inked.length > 0 && inked.every((r) => r.bold);
  // A clause after a replacement ("Elyse replaces Macros and F-16 replaces GuthrieGov") is read next, as a sentence.
  const queue = sentences(text);
  for (let sentence = queue.shift(); sentence !== undefined; sentence = queue.shift()) {
    // A table row ("Day 1 Starts | Ends | Day 2 Starts") lists phases; it announces none.
    if (sentence.includes('|')) continue;
    const heading = bold && sentence.length === cleanSentence(text).length;
    readSentence(read, sentence, heading, queue);
  }
}

/** A sentence: a phase it opens with, then paired replacements, deaths, or the one phrase it matches. */
function readSentence(read: PostRead, sentence: string, heading: boolean, queue: string[]): void {
  const { post, names, phrases, options, sheet } = read;
  const written = phaseForms(sentence);
  const opened = phaseClause(written, post, names, phrases, { ...options, day: read.day });
  if (opened) {
    if (opened.event.kind === 'day-start') read.day = opened.event.day;
    sheet.propose({ post: post.number, sentence, event: opened.event, ...(opened.extra ?? {}) });
  }
  // The rest of a sentence that opened with a phase is read on its own.
  const said = opened ? opened.rest : written;
  const readings = leadIns(said, phrases);
  const tryKinds = (keep: (p: Phrase) => boolean) => matchPhrase(readings, phrases, heading, keep);
  const pairs = readRespectively(readings, names, phrases);
  if (pairs) {
    proposeRespectively(read, pairs, sentence);
    return;
  }
  let match = tryKinds((p) => p.kind !== 'flip' && p.kind !== 'kill' && p.kind !== 'modkill');
  if (!match) {
    // Deaths in any order of name, role, verb and Night/Day, one or several.
    const deaths = readDeaths(said, names, phrases);
    if (deaths === 'nobody') {
      read.quietNight = true;
      return;
    }
    if (deaths !== null && !(deaths.found === undefined && killTemplate(readings, phrases))) {
      sheet.proposeDeaths(deaths, sentence);
      return;
    }
  }
  match ??= tryKinds((p) => p.kind === 'kill' || p.kind === 'modkill' || p.kind === 'flip');
  if (!match) {
    const flavour = readFlavourDeath(said, names, phrases);
    if (flavour) sheet.proposeDeaths({ found: [flavour] }, sentence);
    return;
  }
  const { phrase, groups } = match;
  if (phrase.kind === 'majority') {
    read.majority = true;
    return;
  }
  if (phrase.kind === 'game-end') {
    if (!hedges(said, phrases)) sheet.end();
    return;
  }
  const found = readMatch(phrase, groups, post, names, phrases, { ...options, day: read.day });
  if (found === null) return;
  if (found === 'nobody') {
    read.quietNight = true;
    return;
  }
  if ('reason' in found) read.sheet.unread.push({ post: post.number, sentence, reason: found.reason });
  else if ('aside' in found) read.asides.push({ post: post.number, sentence, ...found.aside });
  else if (found.flip !== undefined) proposeFlip(read, found, sentence);
  else proposeFound(read, found, sentence, queue);
}

/** Paired replacements ("A and B replace C and D, respectively"): each pair proposed, or left unread with its reason. */
function proposeRespectively(
  read: PostRead,
  pairs: NonNullable<ReturnType<typeof readRespectively>>,
  sentence: string,
): void {
  const at = read.post.number;
  for (const r of pairs)
    if ('reason' in r) read.sheet.unread.push({ post: at, sentence, reason: r.reason });
    else
      read.sheet.propose({
        post: at,
        sentence,
        event: { ...r.event, at },
        ...(r.read ? { readAs: [r.read] } : {}),
      });
}

/**
 * A flip tells the role of the death just announced, or of the player it names;
 * a flip alone ("Zodiark13 was a Vanilla Townie") announces that player's death.
 */
function proposeFlip(read: PostRead, found: Extract<Found, { flip: string }>, sentence: string): void {
  const { sheet, post } = read;
  const target = found.player ? sheet.killOf(found.player.name) : sheet.lastKill();
  if (target) {
    target.flip ??= found.flip;
  } else if (found.player && !sheet.over()) {
    sheet.propose({
      post: post.number,
      sentence,
      event: { kind: 'kill', player: found.player.name, at: post.number },
      cause: 'kill',
      flip: found.flip,
      ...(found.player.read ? { readAs: [found.player.read] } : {}),
    });
  }
}

/** The event a phrase read, and what the same sentence goes on to say of its slot. */
function proposeFound(
  read: PostRead,
  found: Extract<Found, { event: GmEvent }>,
  sentence: string,
  queue: string[],
): void {
  const { sheet, post, names, phrases } = read;
  if (found.event.kind === 'day-start') read.day = found.event.day;
  sheet.propose({
    post: post.number,
    sentence,
    event: found.event,
    ...(found.role ? { flip: found.role } : {}),
    ...(found.extra ?? {}),
  });
  // A roster line says the slot's fate after its replacement ("gorckat replaces rapidcanyon
  // -Sane Day Cop- has been lynched D2"): the death is read of the slot, by its name there.
  const then = found.then === undefined ? null : readDeaths(found.then, names, phrases);
  if (then !== null && then !== 'nobody') sheet.proposeDeaths(then, sentence);
  const more = found.more === undefined ? null : /^(?:[,;]\s*)?and\s+(?:also\s+)?(\S.*)$/iu.exec(found.more);
  if (more) queue.unshift(more[1]!);
}

/** What one post proposes and leaves unread, as its sentences are read: each event once, a death's flip on its death. */
interface NewsSheet {
  proposals: GmProposal[];
  unread: GmUnread[];
  propose(p: GmProposal): void;
  /** The death proposed of a player in this post. */
  killOf(player: string): GmProposal | undefined;
  /** The death proposed last: a flip alone ("He was a Goon") is its role. */
  lastKill(): GmProposal | null;
  proposeDeaths(deaths: { found?: Death[]; reason?: string }, sentence: string): void;
  /** The game is over: a role told alone after this is a survivor's ("Mafia wins! Norlkaz was a Vanilla Townie"). */
  end(): void;
  over(): boolean;
}

function newsSheet(post: number): NewsSheet {
  const proposals: GmProposal[] = [];
  const unread: GmUnread[] = [];
  const seen = new Set<string>();
  let last: GmProposal | null = null;
  let over = false;
  const isDeath = (p: GmProposal): boolean => p.event.kind === 'kill' || p.event.kind === 'modkill';
  const propose = (p: GmProposal): void => {
    const key = JSON.stringify(p.event);
    if (seen.has(key)) return;
    seen.add(key);
    proposals.push(p);
    if (isDeath(p)) last = p;
  };
  const killOf = (player: string): GmProposal | undefined =>
    proposals.find((p) => 'player' in p.event && p.event.player === player && isDeath(p));
  const proposeDeaths = (deaths: { found?: Death[]; reason?: string }, sentence: string): void => {
    if (deaths.reason) unread.push({ post, sentence, reason: deaths.reason });
    for (const d of deaths.found ?? []) {
      const known = killOf(d.player);
      if (known) {
        known.flip ??= d.role;
        continue;
      }
      propose({
        post,
        sentence,
        event: { kind: d.cause === 'modkill' ? 'modkill' : 'kill', player: d.player, at: post },
        cause: d.cause,
        ...(d.phase ? { phase: d.phase } : {}),
        ...(d.role ? { flip: d.role } : {}),
        ...(d.read ? { readAs: [d.read] } : {}),
      });
    }
  };
  return {
    proposals,
    unread,
    propose,
    killOf,
    lastKill: () => last,
    proposeDeaths,
    end: () => {
      over = true;
    },
    over: () => over,
  };
}

/** The sentence of a Day start read from the post as a whole (the Night's deaths and the new majority). */
export const OPENED_BY_MAJORITY = 'the Night\u2019s news and the new majority';

/**
 * What the post as a whole says of the phase: deaths the GM did not say the kind of
 * take it from the post (a post that opens a Day announces the Night's deaths), and a post
 * with the Night's deaths and the new majority ("With 9 alive, it takes 5 to lynch") opens
 * the next Day even without the word.
 */
function settlePhases(
  post: GmPostInput,
  proposals: GmProposal[],
  unread: GmUnread[],
  options: GmReadOptions,
  said: { majority: boolean; quietNight: boolean },
): void {
  const deaths = proposals.filter((p) => p.event.kind === 'kill' || p.event.kind === 'modkill');
  let start = proposals.find((p) => p.event.kind === 'day-start');
  const ends = proposals.some((p) => p.event.kind === 'day-end');
  const lynch = deaths.some((p) => p.cause === 'lynch');
  if (!start && !ends && !lynch && said.majority && (deaths.length > 0 || said.quietNight)) {
    const night = deaths.find((p) => p.phase?.kind === 'night')?.phase?.number;
    const number = night !== undefined ? night + 1 : options.day ? options.day + 1 : null;
    const sentence = OPENED_BY_MAJORITY;
    if (number === null) unread.push({ post: post.number, sentence, reason: 'opens a Day but says not which' });
    else {
      start = { post: post.number, sentence, event: { kind: 'day-start', day: number, at: post.number } };
      proposals.unshift(start);
    }
  }
  // One death on the Day, of a kind the GM did not name, in the post that ends the Day: its lynch.
  const dayDeaths = deaths.filter((p) => p.cause === 'kill' && p.phase?.kind === 'day');
  if (ends && dayDeaths.length === 1) dayDeaths[0]!.cause = 'lynch';
  for (const p of deaths) {
    if (p.cause === 'kill') {
      if (p.phase) p.cause = p.phase.kind === 'night' ? 'night-kill' : 'day-kill';
      else if (start || options.night) p.cause = 'night-kill';
    }
    if (p.phase) continue;
    const dayNow = start && start.event.kind === 'day-start' ? start.event.day : (options.day ?? null);
    if (p.cause === 'lynch' && options.day) p.phase = { kind: 'day', number: options.day };
    if (p.cause === 'day-kill' && dayNow) p.phase = { kind: 'day', number: dayNow };
    if (p.cause === 'night-kill' && dayNow) p.phase = { kind: 'night', number: start ? dayNow - 1 : dayNow };
    if (p.phase && p.phase.number < 1) delete p.phase;
  }
}

/** Whether a kill template reads the sentence ("The village has lynched X": no name before the verb). */
function killTemplate(readings: readonly string[], phrases: GmPhrases): boolean {
  return readings.some((r) =>
    phrases.phrases.some((p) => (p.kind === 'kill' || p.kind === 'modkill') && p.pattern.test(r)),
  );
}

/** "D1", "n2": the short phase forms, written out so one phrase reads both. */
function phaseForms(sentence: string): string {
  return sentence.replace(
    /\b([DdNn])(\d{1,3})\b/gu,
    (_m, p: string, n: string) => `${p.toLowerCase() === 'd' ? 'Day' : 'Night'} ${n}`,
  );
}

/**
 * A sentence, and the same after a short label ("Update: Kasia is replacing babark") or a
 * lead-in clause ("With 11/13 players confirmed, Day 1 starts now"; "Yes, X replaces Y"):
 * words passed over must not hedge ("If Bob dies, Night 2 begins").
 */
function leadIns(sentence: string, phrases: GmPhrases): string[] {
  const out = [sentence];
  const label = /^([^:]{1,40}):\s+(.+)$/u.exec(sentence);
  if (label?.[2] && label[1]!.split(/\s+/).length <= 3) out.push(label[2]);
  // "It is now night 2: Deadline for all night actions is ...": the clause before the colon.
  if (label?.[1] && label[1].split(/\s+/).length >= 2 && !hedges(label[1], phrases)) out.push(label[1]);
  let from = 0;
  for (let k = 0; k < 3; k++) {
    const comma = sentence.indexOf(',', from);
    if (comma < 0) break;
    const before = sentence.slice(0, comma);
    if (before.split(/\s+/).length > 12 || hedges(before, phrases)) break;
    const after = sentence.slice(comma + 1).trim();
    if (after) out.push(after);
    from = comma + 1;
  }
  return out;
}

const PHASE_KINDS = new Set(['day-start', 'day-end', 'night-end']);

type PhraseMatch = { phrase: Phrase; groups: (string | undefined)[] };

/**
 * The first phrase of the kinds kept that matches a reading of the sentence. A replacement
 * is also read in the sentence cut at a clause break after it (";", "...", a bracket, a
 * dash, a comma), when the words cut off hold no condition: "Egg replaces Clusk92; thank
 * you", "pisskop replaces Scarab, however as stated previously there will be no further
 * extensions" (a phrase matches a whole sentence, and a name's span is short).
 */
function matchPhrase(
  readings: readonly string[],
  phrases: GmPhrases,
  heading: boolean,
  keep: (p: Phrase) => boolean,
): PhraseMatch | null {
  const first = (texts: readonly string[], also: (p: Phrase) => boolean): PhraseMatch | null => {
    for (const reading of texts)
      for (const phrase of phrases.phrases) {
        if (!keep(phrase) || !also(phrase) || (phrase.kind.startsWith('heading-') && !heading)) continue;
        const m = phrase.pattern.exec(reading);
        if (m) return { phrase, groups: m.slice(1) };
      }
    return null;
  };
  return (
    first(readings, () => true) ??
    first(clauseCuts(readings, phrases), (p) => p.kind === 'replace' || p.kind === 'replacement-sought')
  );
}

const CLAUSE_BREAK = /\s*(?:;|\.{2,}|…|\s[([]|\s[-–—]+\s|,\s)/gu;

/** Each reading cut at each clause break, where the words cut off are no condition. */
function clauseCuts(readings: readonly string[], phrases: GmPhrases): string[] {
  const out: string[] = [];
  for (const reading of readings)
    for (const m of reading.matchAll(CLAUSE_BREAK)) {
      const cut = reading.slice(0, m.index).trim();
      const off = reading.slice(m.index).split(/\s+/);
      if (cut && !off.some((w) => phrases.conditions.has(w.toLowerCase().replace(/[^\p{L}'-]/gu, '')))) out.push(cut);
    }
  return out;
}

/**
 * A phase said in a sentence's first clause, before ", and", "and" or a comma ("Night 1 is
 * over, and ICEninja, Vanilla Townie has been killed"; "Day has begun, and the thread is
 * now unlocked"): read besides the whole sentence, which says the rest. Neither part hedges.
 */
function phaseClause(
  sentence: string,
  post: GmPostInput,
  names: GmNameBook,
  phrases: GmPhrases,
  options: GmReadOptions,
): { event: GmEvent; extra?: Partial<GmProposal>; rest: string } | null {
  const m = /^(.{3,60}?)(?:,\s*and\s+|,\s+|\s+and\s+)(.+)$/u.exec(sentence);
  if (!m || hedges(m[1]!, phrases) || hedges(m[2]!, phrases)) return null;
  for (const phrase of phrases.phrases) {
    if (!PHASE_KINDS.has(phrase.kind)) continue;
    const groups = phrase.pattern.exec(m[1]!);
    if (!groups) continue;
    const found = readMatch(phrase, groups.slice(1), post, names, phrases, options);
    return found !== null && found !== 'nobody' && 'event' in found ? { ...found, rest: m[2]! } : null;
  }
  return null;
}

const hedges = (text: string, phrases: GmPhrases): boolean =>
  text.split(/\s+/).some((w) => phrases.hedges.has(w.toLowerCase().replace(/[^\p{L}'-]/gu, '')));

type Found =
  /** `then`: what the same sentence goes on to say of the event's slot (a replacement's roster line: its death). */
  | {
      event: GmEvent;
      role?: string;
      flip?: undefined;
      extra?: Partial<GmProposal>;
      then?: string;
      /** The words after a replacement's slot: maybe a clause of its own ("and Bob replaces Carol"). */
      more?: string;
    }
  | { flip: string; player: Resolved | null }
  | { aside: { kind: 'sought'; player: string } | { kind: 'welcome'; name: string } }
  | { reason: string };

function readMatch(
  phrase: Phrase,
  groups: (string | undefined)[],
  post: GmPostInput,
  names: GmNameBook,
  phrases: GmPhrases,
  options: GmReadOptions,
): Found | 'nobody' | null {
  const slots = readSlots(phrase, groups, names, phrases);
  if (slots === null || slots === 'nobody' || 'reason' in slots) return slots;
  const { value, player } = slots;
  let day: number | null = null;
  if (value.day !== undefined) {
    day = dayNumber(value.day);
    if (day === null) return null;
  }
  const at = post.number;
  switch (phrase.kind) {
    case 'day-start':
    case 'heading-day-start':
    case 'night-end':
    case 'day-end':
    case 'heading-day-end':
      return phaseFound(phrase, day, at, options);
    case 'kill':
    case 'modkill':
      return player ? deathFound(phrase, value, player, at, phrases) : null;
    case 'replace':
      return player ? replaceFound(value, player, at, names, phrases) : null;
    case 'deadline':
      return deadlineFound(value, day, post, phrases, options);
    case 'flip':
      return value.role ? { flip: value.role, player } : null;
    case 'majority':
    case 'game-end':
      return null;
    case 'replacement-sought':
      return player ? { aside: { kind: 'sought', player: player.name } } : null;
    case 'welcome':
      return welcomeFound(value, names);
  }
}

/** What a phrase's placeholders caught: its player read as a name of this game, other slots as written. */
type SlotValues = { value: Partial<Record<Slot, string>>; player: Resolved | null };

function readSlots(
  phrase: Phrase,
  groups: (string | undefined)[],
  names: GmNameBook,
  phrases: GmPhrases,
): SlotValues | { reason: string } | 'nobody' | null {
  const value: Partial<Record<Slot, string>> = {};
  let player: Resolved | null = null;
  for (let i = 0; i < phrase.slots.length; i++) {
    const slot = phrase.slots[i]!;
    const raw = groups[i];
    if (raw === undefined) continue;
    if (slot === 'player') {
      // Only the first placeholder can have words before the name: the pattern is anchored.
      const r = resolvePlayer(raw, i === 0 && /^\^\((?!\?)/.test(phrase.pattern.source), names, phrases, {
        afterVerb: i > 0,
      });
      if (r === 'nobody') return 'nobody';
      if (r === 'hedged') return null;
      // A flip of no known name ("Anime was a mistake") is talk: only a death or a replacement is shown unread.
      // Nor is a search for a replacement of no one known (it is not an event).
      const talk = phrase.kind === 'flip' || phrase.kind === 'replacement-sought';
      if (r === null) return talk ? null : { reason: `names no player of this game: "${cleanName(raw)}"` };
      if ('ambiguous' in r) return talk ? null : { reason: `"${cleanName(raw)}" could be ${r.ambiguous.join(' or ')}` };
      player = r;
    } else if (slot === 'name') {
      value.name = raw;
    } else {
      value[slot] = raw.trim();
    }
  }
  return { value, player };
}

/** A phase phrase: the Day it opens, or the Day's end (and the Night it opens, if numbered). */
function phaseFound(phrase: Phrase, day: number | null, at: number, options: GmReadOptions): Found | null {
  // "Night is over", "Day has begun": the Day after the Night the game is in.
  const nextDay = options.night && options.day ? options.day + 1 : null;
  if (phrase.kind === 'day-start' || phrase.kind === 'heading-day-start') {
    const opens = day ?? (phrase.slots.includes('day') ? null : nextDay);
    return opens === null ? null : { event: { kind: 'day-start', day: opens, at } };
  }
  if (phrase.kind === 'night-end') {
    const opens = day === null ? (phrase.slots.includes('day') ? null : nextDay) : day + 1;
    return opens === null ? null : { event: { kind: 'day-start', day: opens, at } };
  }
  return {
    event: { kind: 'day-end', at },
    // "Night 2 begins": the Night a day-end opens carries its number.
    ...(day !== null && /night \{day\}/i.test(phrase.template)
      ? { extra: { phase: { kind: 'night' as const, number: day } } }
      : {}),
  };
}

/** A kill or modkill phrase: the player's death, with the role and cause the phrase tells. */
function deathFound(
  phrase: Phrase,
  value: SlotValues['value'],
  player: Resolved,
  at: number,
  phrases: GmPhrases,
): Found {
  const readAs = player.read ? { readAs: [player.read] } : {};
  if (phrase.kind === 'modkill')
    return { event: { kind: 'modkill', player: player.name, at }, extra: { ...readAs, cause: 'modkill' } };
  return {
    event: { kind: 'kill', player: player.name, at },
    ...(value.role ? { role: value.role } : {}),
    extra: { ...readAs, ...(causeOf(phrase, phrases) ? { cause: causeOf(phrase, phrases)! } : {}) },
  };
}

/** A replacement: the newcomer must not play yet; words after the slot may say its fate or another clause. */
function replaceFound(
  value: SlotValues['value'],
  player: Resolved,
  at: number,
  names: GmNameBook,
  phrases: GmPhrases,
): Found | null {
  if (value.name === undefined) return null;
  const newcomer = newcomerName(value.name, names, phrases);
  if (newcomer === null) return null;
  const already = names.exact(newcomer.name);
  if (already !== undefined)
    return { reason: `"${newcomer.name}" already plays (as ${already}): not a replacement Votal can propose` };
  const readAs = player.read ? { readAs: [player.read] } : {};
  return {
    event: { kind: 'replace', player: player.name, by: newcomer.name, at },
    extra: { ...readAs, ...(newcomer.group ? { group: newcomer.group } : {}) },
    ...(player.rest ? { then: `${player.name} ${player.rest}`, more: player.rest } : {}),
  };
}

/** A deadline: its time read in the thread's zone, of the Day it names or the Day the post is in. */
function deadlineFound(
  value: SlotValues['value'],
  day: number | null,
  post: GmPostInput,
  phrases: GmPhrases,
  options: GmReadOptions,
): Found {
  const time =
    value.time === undefined ? null : readDeadline(value.time, post.postedAt, options.timeZone ?? null, phrases.zones);
  if (time === null) return { reason: `the deadline's time is not one Votal can read: "${(value.time ?? '').trim()}"` };
  const d = day ?? options.day ?? null;
  return { event: { kind: 'deadline', time, at: post.number, ...(d ? { day: d } : {}) } };
}

/**
 * Only a poster of the thread who does not play yet, named alone: "Welcome to Day 2,
 * everyone" and "Welcome to the Mafia Café Cheetory6" welcome no one to a slot.
 */
function welcomeFound(value: SlotValues['value'], names: GmNameBook): Found | null {
  const poster = value.name === undefined ? undefined : names.poster(cleanName(value.name));
  return poster && names.exact(poster) === undefined ? { aside: { kind: 'welcome', name: poster } } : null;
}

/** "A and B replace C and D, respectively"; "C and D have been replaced by A and B respectively". */
const RESPECTIVELY =
  /^(.{1,120}?)\s+(replace|are replacing|will replace|have replaced|(?:have been|are|were|will be) replaced by)\s+(.{1,120}?),?\s+respectively\b/iu;
const LIST_BREAK = /\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*/u;

/**
 * Replacements paired in order ("respectively"): as many newcomers as slots, two or more,
 * each slot a name of the game read whole and each newcomer one who does not play yet;
 * a pair Votal cannot read is left to the GM with its reason.
 */
function readRespectively(
  readings: readonly string[],
  names: GmNameBook,
  phrases: GmPhrases,
): ({ event: { kind: 'replace'; player: string; by: string }; read?: NameRead } | { reason: string })[] | null {
  for (const reading of readings) {
    const m = RESPECTIVELY.exec(reading);
    if (!m || hedges(reading, phrases)) continue;
    const passive = /replaced by$/iu.test(m[2]!);
    const [slots, newcomers] = (passive ? [m[1]!, m[3]!] : [m[3]!, m[1]!]).map((l) => l.split(LIST_BREAK));
    if (slots!.length < 2 || slots!.length !== newcomers!.length) continue;
    return slots!.map((written, i) => {
      const r = resolvePlayer(written, false, names, phrases, { whole: true });
      const by = newcomerName(newcomers![i]!, names, phrases);
      if (r === null || r === 'nobody' || r === 'hedged' || 'ambiguous' in r || !by)
        return { reason: `names no player of this game: "${cleanName(written)}"` };
      const already = names.exact(by.name);
      if (already !== undefined)
        return { reason: `"${by.name}" already plays (as ${already}): not a replacement Votal can propose` };
      return { event: { kind: 'replace' as const, player: r.name, by: by.name }, ...(r.read ? { read: r.read } : {}) };
    });
  }
  return null;
}

/** What a kill template's sentence says the death was, by the death words in it. */
function causeOf(phrase: Phrase, phrases: GmPhrases): DeathCause | undefined {
  const t = phrase.template.toLowerCase();
  for (const { words, cause } of phrases.deathWords) if (cause !== 'kill' && t.includes(words)) return cause;
  return undefined;
}

/**
 * A newcomer's group between commas, as brackets are: "adorkable, hydra of InflatablePie and
 * esuriospiritus, replaces Venrob" (MafiaScum game 1379 post #316).
 */
const HYDRA_APPOSITION = /\s*,\s*((?:an?\s+|the\s+)?hydra\s+(?:of|between)\s+[^,]{1,80}?)\s*,?\s*$/iu;

/**
 * The newcomer of a replacement: a poster of the thread found among the words ("Aaaaand
 * chamber" -> chamber, "Welcome GreyICE who" -> GreyICE), else the words without the
 * fillers before them; never more than a short name. A group in brackets is kept apart.
 */
function newcomerName(raw: string, names: GmNameBook, phrases: GmPhrases): { name: string; group?: string } | null {
  let text = cleanName(raw);
  let group: string | undefined;
  const bracket = /\s*\(([^()]*)\)\s*$/u.exec(text) ?? HYDRA_APPOSITION.exec(text);
  if (bracket) {
    group = bracket[1]!.trim() || undefined;
    text = cleanName(text.slice(0, bracket.index));
  }
  const words = text.split(/\s+/).filter(Boolean).slice(-8);
  if (words.length === 0) return null;
  for (let len = words.length; len >= 1; len--) {
    for (let from = words.length - len; from >= 0; from--) {
      const who = names.poster(cleanName(words.slice(from, from + len).join(' ')));
      if (who) return { name: who, ...(group ? { group } : {}) };
    }
  }
  const squash = (w: string): string => w.toLowerCase().replace(/(\p{L})\1+/gu, '$1');
  const fillers = new Set([...phrases.fillers].map((f) => f.split(' ').map(squash).join(' ')));
  let start = 0;
  while (start < words.length - 1) {
    const two = words
      .slice(start, start + 2)
      .map(squash)
      .join(' ');
    if (fillers.has(two) && start + 2 < words.length) start += 2;
    else if (fillers.has(squash(words[start]!))) start += 1;
    else break;
  }
  const rest = words.slice(start);
  if (rest.length > 4 || rest.some((w) => phrases.hedges.has(w.toLowerCase()))) return null;
  const name = cleanName(rest.join(' '));
  // "I replaced Future's post": a pronoun that is no poster is nobody's forum name.
  if (!name || phrases.pronouns.has(name.toLowerCase())) return null;
  return { name, ...(group ? { group } : {}) };
}

/**
 * A captured span to a player: the whole span, or (for the first words of a sentence)
 * its last words ("After a long Day, Bob" -> Bob), or its first words ("Bob, effective
 * now" -> Bob). Words passed over must not hedge ("Town wins if Bob"). Exact names
 * first; then the name ladder on the span and its last or first two words.
 */
function resolvePlayer(
  raw: string,
  leading: boolean,
  names: GmNameBook,
  phrases: GmPhrases,
  how: {
    /** The span follows the template's verb ("qwints replaces {Yodaloid who never picked up his role pm}"). */
    afterVerb?: boolean;
    /**
     * The span is a piece of a death's subject, already cut at its commas and dashes: the
     * ladder reads it whole, never a word of it ("role cop neighbour" is no "petroleumjelly").
     */
    whole?: boolean;
  } = {},
): PlayerReading {
  const afterVerb = how.afterVerb ?? false;
  // The name is among the last words of a leading span ("After a long Day, Bob"), else the first.
  const all = raw.trim().split(/\s+/).filter(Boolean);
  const words = leading ? all.slice(-12) : all.slice(0, 12);
  const clean = (ws: string[]): string => cleanName(ws.join(' '));
  const among = (ws: string[], set: ReadonlySet<string>): boolean =>
    ws.some((w) => set.has(w.toLowerCase().replace(/[^\p{L}'-]/gu, '')));
  const hedged = (ws: string[]): boolean => among(ws, phrases.hedges);
  const whole = clean(words);
  if (phrases.nobody.has(whole.toLowerCase())) return 'nobody';
  const exact = names.exact(whole);
  if (exact) return { name: exact };
  // Longest name first: "Mary Ann" before "Ann".
  for (let k = words.length - 1; k >= 1; k--) {
    if (leading) {
      const tail = words.slice(words.length - k);
      const hit = names.exact(clean(tail)) ?? (phrases.nobody.has(clean(tail).toLowerCase()) ? 'nobody' : undefined);
      if (hit) return hedged(words.slice(0, words.length - k)) ? 'hedged' : hit === 'nobody' ? hit : { name: hit };
    }
    // After the verb, the words after the name are a clause of their own: only a condition
    // there hedges the news (before it, "Frank was not killed", every hedge does).
    const head = words.slice(0, k);
    const hit = names.exact(clean(head));
    const after = afterVerb ? among(all.slice(k), phrases.conditions) : hedged(words.slice(k));
    if (hit) return after ? 'hedged' : { name: hit, rest: words.slice(k).join(' ') };
  }
  if (hedged(words)) return 'hedged';
  // The name ladder: the span, or its last (leading) or first two words.
  const spans: string[][] = words.length <= 4 ? [words] : [];
  for (let k = how.whole ? 0 : Math.min(2, words.length - 1); k >= 1; k--) {
    if (leading) spans.push(words.slice(words.length - k));
    spans.push(words.slice(0, k));
  }
  for (const span of spans) {
    const written = clean(span);
    const r = names.ladder(written);
    if (r === null) continue;
    if ('ambiguous' in r) return r;
    return { name: r.target, read: { written, as: r.target, match: r.match } };
  }
  return null;
}

interface Death {
  player: string;
  role?: string;
  cause: DeathCause;
  phase?: { kind: 'day' | 'night'; number: number };
  read?: NameRead;
}

const deathPatterns = new WeakMap<GmPhrases, RegExp>();
const spaced = (w: string): string => w.split(' ').map(escapeRegExp).join('\\s+');
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function deathPattern(phrases: GmPhrases): RegExp {
  let re = deathPatterns.get(phrases);
  if (!re) {
    const aux = phrases.auxiliaries.map(spaced).join('|');
    const words = phrases.deathWords.map((d) => spaced(d.words)).join('|');
    // A death word after a dash stands alone ("PeregrineV- vanilla townie -has been Killed");
    // glued to a word by a hyphen it is part of a role ("Town One-Shot Vigilante").
    re = new RegExp(
      `(?:^|(?<=[\\s,(]|(?:^|\\s)[\\-–—]+))(?:(${aux})\\s+)?(${words || '(?!)'})(?=$|[\\s,.!;:\\-–—)])`,
      'iu',
    );
    deathPatterns.set(phrases, re);
  }
  return re;
}

/**
 * Deaths however the GM orders name, role and verb: "VP Baltar (Vanilla Townie) killed
 * night 1", "PeregrineV- vanilla townie -has been Killed N1", "Themanhimself , Vanilla
 * Townie lynched day one", "Skold was killed and was a Mafia Goon", "A and B have been
 * nightkilled". The names come before the death word, each maybe with its role (in
 * brackets, between dashes, after a comma); after it, the Night or Day and "and was a X".
 * Without a helping verb the words after it must be only those: "Bob killed Ann" is not
 * read (that is someone's action, not the GM's news).
 */
function readDeaths(
  sentence: string,
  names: GmNameBook,
  phrases: GmPhrases,
  depth = 0,
): { found?: Death[]; reason?: string } | 'nobody' | null {
  const m = deathPattern(phrases).exec(sentence);
  if (!m) return null;
  const aux = m[1];
  const spoken = m[2]!.toLowerCase().replace(/\s+/g, ' ');
  const cause = phrases.deathWords.find((d) => d.words === spoken)?.cause ?? 'kill';
  const subject = sentence.slice(0, m.index).trim();
  let rest = sentence.slice(m.index + m[0].length).trim();
  // "Bob was lynched on Day 1 and Carol was killed on Night 1": a second death clause is read on its own.
  let second: ReturnType<typeof readDeaths> = null;
  const again = depth < 3 ? deathPattern(phrases).exec(rest) : null;
  if (again?.[1]) {
    const before = rest.slice(0, again.index);
    const cut = Math.max(before.lastIndexOf(' and '), before.lastIndexOf(','), before.lastIndexOf(';'));
    if (cut >= 0) {
      second = readDeaths(rest.slice(cut).replace(/^(?:[,;]|\s+and)\s*/u, ''), names, phrases, depth + 1);
      rest = rest.slice(0, cut);
    }
  }
  if (!subject || hedges(rest, phrases)) return null;
  const first = readOneDeath(subject, aux, cause, rest, names, phrases);
  if (second === null || second === 'nobody') return first;
  if (first === null || first === 'nobody') return second;
  const reasons = [first.reason, second.reason].filter(Boolean);
  return {
    found: [
      ...(first.found ?? []),
      ...(second.found ?? []).filter((d) => !first.found?.some((f) => f.player === d.player)),
    ],
    ...(reasons.length ? { reason: reasons.join('; ') } : {}),
  };
}

function readOneDeath(
  subject: string,
  aux: string | undefined,
  cause: DeathCause,
  rest: string,
  names: GmNameBook,
  phrases: GmPhrases,
): { found?: Death[]; reason?: string } | 'nobody' | null {
  let phase: Death['phase'];
  const when = /\b(?:(?:on|during|in|at|of)\s+)?(?:the\s+)?(day|night)\s+(\d{1,3}|[a-z]{3,12})\b/iu.exec(rest);
  if (when) {
    const n = dayNumber(when[2]!);
    if (n !== null) phase = { kind: when[1]!.toLowerCase() === 'night' ? 'night' : 'day', number: n };
    rest = rest.replace(when[0], ' ');
  }
  let role: string | undefined;
  const flip = /\b(?:and\s+)?(?:was|were|is)\s+(?:a|an|the)\s+([^,.;!?()]{1,60})/iu.exec(rest);
  if (flip) {
    role = flip[1]!.trim();
    rest = rest.replace(flip[0], ' ');
  }
  if (/\b(?:last\s+night|tonight|overnight|during\s+the\s+night|in\s+the\s+night)\b/iu.test(rest) && cause === 'kill')
    cause = 'night-kill';
  rest = rest
    .replace(/\bby\b.*$/iu, ' ')
    .replace(/\b(?:today|tonight|last\s+night|overnight|this\s+morning|now)\b/giu, ' ');
  if (!aux && /[\p{L}\p{N}]/u.test(rest)) return null;
  // "Frank was killed, I am sure of it": a clause of its own after the death is talk, not news.
  if (/^\s*,\s*[\p{L}\p{N}]/u.test(rest)) return null;

  const found: Death[] = [];
  const unknown: string[] = [];
  let nobody = false;
  // "Setael (1): Zdenek, KingTwelveSixteen, neko2086 LYNCHED": a vote count's wagon, its voters no deaths.
  if (!aux && WAGON_COUNT.test(subject)) return null;
  const segments = splitSubject(subject);
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const last = found.at(-1);
    if (seg.bracket) {
      if (last && last.role === undefined) last.role = seg.text;
      continue;
    }
    // After a player, a piece names another only whole: its words are the role's ("[04] Robbnva † - town - role cop").
    const r = resolvePlayer(seg.text, i === 0, names, phrases, { whole: found.length > 0 });
    if (r === 'hedged') return null;
    if (r === 'nobody') {
      nobody = true;
      continue;
    }
    if (r !== null && 'ambiguous' in r)
      return { reason: `"${cleanName(seg.text)}" could be ${r.ambiguous.join(' or ')}` };
    if (r !== null) {
      if (!found.some((d) => d.player === r.name))
        found.push({ player: r.name, cause, ...(r.read ? { read: r.read } : {}) });
      continue;
    }
    if (last && last.role === undefined && seg.text.split(/\s+/).length <= 5) last.role = cleanName(seg.text);
    else if (!(found.length === 0 && i === 0 && segments.length > 1)) unknown.push(cleanName(seg.text));
  }
  // Without a helping verb, three names or more are a wagon's voters ("FrankJaeger - Eddie Cane, momo, Keyser Soze (LYNCHED)").
  if (!aux && found.length >= 3) return null;
  if (found.length === 0) {
    if (nobody) return 'nobody';
    if (!aux) return null;
    const who = unknown.at(-1) ?? cleanName(subject);
    return who.split(/\s+/).length <= 4 ? { reason: `names no player of this game: "${who}"` } : null;
  }
  if (role !== undefined && found.length === 1 && found[0]!.role === undefined) found[0]!.role = role;
  for (const d of found) if (phase) d.phase = phase;
  const reason = unknown.length > 0 && aux ? `names no player of this game: "${unknown.join('", "')}"` : undefined;
  return { found, ...(reason ? { reason } : {}) };
}

const FLAVOUR_PHASE = /^(.{3,200}?)\s+(?:(?:on|during|in)\s+)?(?:the\s+)?(day|night)\s+(\d{1,3}|[a-z]{3,12})$/iu;
/** A verb of the GM's own story: a past participle ("eviscerated", "hung", "shot", "strung up"). */
const PARTICIPLE = /^[\p{L}'’]{1,30}(?:ed|en|ung|ot|wn|nt|ain)$/iu;

/**
 * A death in the GM's own words, written as the roster line of a flip: "Guderian, Vanilla
 * Townie, stabbed and left for dead Day 1", "Juls, Town Mason was Cooked Night 1",
 * "Robcapone (Mafia Rolecop) vigged Day 3". Read only in that shape: a player's exact
 * name, then a role, then a few words that start with a past participle, and the Day or
 * Night last; words of an action or a claim (`not-deaths`) and any other name are not a death.
 */
function readFlavourDeath(sentence: string, names: GmNameBook, phrases: GmPhrases): Death | null {
  const m = FLAVOUR_PHASE.exec(sentence);
  const number = m ? dayNumber(m[3]!) : null;
  if (!m || number === null) return null;
  const before = m[1]!;
  // The verb phrase: after the role's closing comma, dash or bracket, or after a helping verb.
  const aux = phrases.auxiliaries.map(spaced).join('|');
  const cut =
    new RegExp(`^(.*)\\s+(?:${aux})\\s+((?:[\\p{L}'’]+\\s+){0,5}[\\p{L}'’]+)$`, 'iu').exec(before) ??
    /^(.*[,)\-–—])\s*((?:[\p{L}'’]+\s+){0,5}[\p{L}'’]+)$/u.exec(before);
  if (!cut) return null;
  const verbs = cut[2]!.split(/\s+/);
  const first = verbs[0]!;
  if (!PARTICIPLE.test(first) || verbs.some((w) => phrases.hedges.has(w.toLowerCase()))) return null;
  if (verbs.some((w) => phrases.notDeaths.some((n) => w.toLowerCase().startsWith(n)) || names.exact(w))) return null;
  const segments = splitSubject(cut[1]!.replace(/[,\-–—\s]+$/u, ''));
  if (segments.length !== 2) return null;
  const player = names.exact(cleanName(segments[0]!.text));
  const role = cleanName(segments[1]!.text);
  if (!player || names.exact(role) || role.split(/\s+/).length > 5 || hedges(role, phrases)) return null;
  const kind = m[2]!.toLowerCase() === 'night' ? 'night' : 'day';
  return { player, role, cause: 'kill', phase: { kind, number } };
}

/**
 * A wagon's count after its name in a vote count line ("Setael (1):", "Mulch [3]", "{6}"), or
 * a colon before a list ("eagerSnake: House, ..."); a slot's number first ("[01] Bulbazoor -
 * Mafia - watcher - lynched day 1") is a roster line, not a count.
 */
const WAGON_COUNT = /[^\s([{]\s*[([{]\s*(?:L\s*-\s*)?\d{1,2}\s*[)\]}]|:[^,:]+,/u;

/** The subject of a death: names and roles, split at commas, "and", dashes and brackets. */
function splitSubject(subject: string): { text: string; bracket: boolean }[] {
  const out: { text: string; bracket: boolean }[] = [];
  const pieces = subject.split(/(\([^()]*\))/u);
  for (const piece of pieces.slice(0, 40)) {
    if (piece.startsWith('(') && piece.endsWith(')')) {
      const text = piece.slice(1, -1).trim();
      if (text) out.push({ text, bracket: true });
      continue;
    }
    for (const part of piece.split(/\s*[,:;]\s*|\s+(?:and|&)\s+|\s+[-–—]+\s*|\s*[-–—]+\s+|\s*[-–—]+$|^[-–—]+\s*/u)) {
      const text = part?.trim();
      if (text) out.push({ text, bracket: false });
    }
  }
  return out;
}

/** A name as written, without the marks around it (`@Bob,` `"Bob"` `**Bob**`). */
function cleanName(raw: string): string {
  return raw.trim().replace(/^[@"'“”‘’*_~\s]+|[\s"'“”‘’*_~,;…]+$/gu, '');
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
    .replace(/[\s.!*_~=#\-–—…]+$/u, '')
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
