import { limited as editDistance } from 'talisman/metrics/damerau-levenshtein.js';
import jaroWinkler from 'talisman/metrics/jaro-winkler.js';
import metaphone from 'talisman/phonetics/metaphone.js';
import type { MatchKind } from '../model/action.js';
import type { Roster, Slot } from '../model/roster.js';
import { NameMatching } from '../rules/ruleset.js';
import { isEnglishWord } from './english-words.js';
import {
  acronymsOf,
  capName,
  JOINING_WORDS,
  nameKey,
  nameWords,
  stripDecorations,
  withoutPossessive,
} from './name-form.js';
import { nicknameBook, withNickname } from './nicknames.js';

/**
 * Which player a written name means, climbing a ladder from the surest reading to the
 * loosest: exact (canonical or former name) → alias → alternatives ("X / or / Y": two
 * players is ambiguous) → unique prefix → unique substring → acronym or a whole short word
 * of the name ("AJ" for "Aj The Epic") → a unique initial ("Z") → the name's words
 * shortened or reordered ("Scotty B", "Brosius Scott") → the name behind a leading extra
 * word ("Creepy Scott Brosius", or "the" glued on: "thegreygnarl") → the name with its letters or syllables stretched
 * ("Slandarrrrr", "Anenineninenineni") → the name as written without its digits or with
 * them read as letters ("acfan" for ac1983fan, "Frog" for Fro99er) or as words ("MagicalSeven"
 * for Magical7, "2inamillion" for TwoInAMillion) → the start of the name and its digits ("Arc9"
 * for ArcAngel9) → its letters with other digits ("bgg1886"
 * for bgg1996) → a slip of the keys, held-down letters
 * aside ("Tahah" for talah, "Greyfox" for GrayFoxxxx; "Illl" for llll, letters that look alike) → initials
 * and the last word in full ("bbstar" for basketballstar24) → two initials swapped
 * ("SMRP" for Some Random Mafia Player) → the name written backwards ("Jordan" for
 * XnadrojX) → a unique two-letter prefix that spells no English word ("Oz" for
 * Ozgin) → a part of the name and a word for the rest ("Fuzzybutterwhatever"; any English
 * word after a start that ends at one of the name's words: "FIREWATER" for FireScreamer) → a word of
 * one player's name among words naming nobody ("jagged toaster" for Jagged Appliance)
 * → a first word the ladder reads as one player, then words naming nobody ("Fuzzy dude")
 * → a word said N times ("Yesx3" for YES YES YES) → Jaro-Winkler with a margin (against
 * whole names and, from four letters, each word of a name of several words: "Balter" for
 * VP Baltar) → when that finds no one, the start of a name with one slip of the keys
 * ("Wickid" for Wickedestjr) → when all that finds no one, the name as it sounds ("Stephan"
 * for StefanB) or initials taken from anywhere in the name ("KTB" for Kthxbye). The acronym rung also reads a
 * one-word username as English words ("TMHS": the-man-him-self, "JJB": jar-jar-binks,
 * "tne": the-new-earth; a joining word may be left out: "GF" for The Goodfather, "PPP" for
 * pieceofpecanpie). "X/Y" with one part a player's own name and the others naming nobody
 * ("monkey/backhand", an old name or "replacement") is that player. A rung
 * that finds several players stops the climb as `ambiguous`: the GM decides, the parser
 * never guesses; unless one of them only is alive (the dead take no votes). A former name's acronym that competes with another slot's current name is
 * ambiguous too: replaced players' old names must not win quietly.
 */
export interface NameResolution {
  match: MatchKind;
  /** The slot's canonical name, or null when unresolved. */
  target: string | null;
  /** Who it could be (ambiguous), the fuzzy runner-up, or a "did you mean" (unknown). */
  candidates: string[];
  /** Jaro-Winkler score, for fuzzy readings and suggestions. */
  score: number | null;
  /** The name after decorations were stripped. */
  written: string;
  /** Whether the resolved slot is alive; null when unresolved. Dead players still resolve. */
  alive: boolean | null;
  /** `nickname` only: the earlier game the nickname was learned in. */
  from?: string;
}

export interface ResolveOptions {
  /**
   * Accept a name followed by more words ("Bob because he lied" → Bob), exact or
   * alias only. Off where the vote must stand alone on its line.
   */
  trailingWords?: boolean;
}

interface SlotForms {
  slot: Slot;
  names: string[];
  formers: string[];
  aliases: string[];
  all: string[];
  acronyms: string[];
  /** Acronyms of former names only (they must not beat a current name quietly). */
  formerAcronyms: string[];
  /** Each name's words (canonical, aliases, former names). */
  words: string[][];
  /** The names as written (current, aliases, former), for initials read through their words. */
  written: string[];
  /** How many of `written` are the current name and aliases. */
  currentNames: number;
  /** Current names and aliases with runs of a letter written once ("slandaar" → "slandar"). */
  collapsed: string[];
  /** What a slip of the keys is compared with: every name, without its digits, and long words of names. */
  typoForms: string[];
}

/** A word of a name is compared alone, by similarity, only from this many letters ("Balter"). */
const MIN_FUZZY_WORD = 4;
/** How far below `fuzzyMin` a best guess may be and still be offered as a suggestion. */
const SUGGESTION_SLACK = 0.1;
const MEMO_SIZE = 1000;
const MAX_MEMO_KEY = 200;
/** Most words tried when a name is followed by other words. */
const MAX_LEADING_WORDS = 6;
/** A name written this long may carry one slip of the keys; from `MIN_TWO_TYPOS` letters, two. */
const MIN_TYPO = 5;
const MIN_TWO_TYPOS = 8;
/** Most words compared word by word ("Scotty B"); names are short. */
const MAX_NAME_WORDS = 6;
/** "Scotty" for "Scott": a written word may run this many letters past a name's word. */
const WORD_OVERRUN = 2;
/**
 * Initials read through English words: "TMHS", "tne", "PoPP", two to six letters and the
 * digits the name ends with ("TP42" for theplague42). Written in capitals, or spelling no
 * English word ("me", "pie" are words, not initials).
 */
const SPLIT_INITIALS = /^(\p{L}{2,6})\p{N}{0,4}$/u;
/** A dictionary word inside a username is at least this long ("the", "jar"); shorter ones split anything. */
const MIN_SPLIT_WORD = 3;
/** The last piece of a split need not be a word ("koopa", "binks"), but not a lone letter. */
const MIN_LAST_PIECE = 2;
/** Longest username split into words (the split is quadratic in it). */
const MAX_SPLIT_NAME = 30;
/**
 * A letter written three or more times running is stretched ("Slandarrrrr"), and so is a
 * piece of two to four letters ("vivivivijayayayay", "Anenineninenineni").
 */
const STRETCHED = /(\p{L})\1\1|(\p{L}{2,4})\2\2/u;
/** Three letters doubled are stretched too ("SillvverrWollff" for SilverWolf). */
const DOUBLED_THRICE = /(\p{L})\1.*(\p{L})\2.*(\p{L})\3/u;
/** Words that offer a choice between two names: "X / or / Y", "X or Y". */
const ALTERNATIVES = /\s+or\s+|\s*[/|]\s*/iu;
const MAX_ALTERNATIVES = 4;

export type NameResolver = (written: string, options?: ResolveOptions) => NameResolution;

/** A resolver for one roster: the slots' compare forms are built once, not per vote. */
export function nameResolver(roster: Roster, matching: NameMatching): NameResolver {
  const forms = roster.map(slotForms);
  const nicknames = nicknameBook(roster);
  // Posts repeat names; a small memo keeps a post of a thousand votes cheap.
  const memo = new Map<string, NameResolution>();
  return (written, options = {}) => {
    const key = `${options.trailingWords ?? true}\u0000${written}`;
    const known = memo.get(key);
    if (known) return { ...known, candidates: [...known.candidates] };
    const found = withNickname(resolve(written, forms, matching, options), written, nicknames);
    if (memo.size < MEMO_SIZE && written.length <= MAX_MEMO_KEY) memo.set(key, found);
    return { ...found, candidates: [...found.candidates] };
  };
}

export function resolveName(
  written: string,
  roster: Roster,
  matching: NameMatching,
  options: ResolveOptions = {},
): NameResolution {
  return nameResolver(roster, matching)(written, options);
}

function resolve(
  written: string,
  forms: readonly SlotForms[],
  matching: NameMatching,
  options: ResolveOptions,
): NameResolution {
  const stripped = stripDecorations(written);
  const name = capName(stripped);
  const key = nameKey(name);
  if (key === '' || forms.length === 0) return unresolved('unknown', stripped, [], null);

  const keys = [key];
  const bare = withoutPossessive(name);
  if (bare !== null) keys.push(nameKey(bare));
  const exact = exactRungs(keys, forms, stripped);
  if (exact) return exact;

  const partial = key.length >= matching.minPartial;
  const loose =
    alternatives(name, forms, matching, stripped) ??
    firstSentence(written, forms, matching, options, stripped) ??
    restated(written, forms, matching, stripped) ??
    (partial
      ? rung(
          'prefix',
          forms.filter((f) => f.all.some((k) => k.startsWith(key))),
          stripped,
        )
      : null) ??
    (partial
      ? rung(
          'substring',
          forms.filter((f) => f.all.some((k) => k.includes(key))),
          stripped,
        )
      : null) ??
    (key.length >= 2 ? shortForm(key, forms, stripped, readsAsInitials(name)) : null) ??
    (key.length === 1
      ? rung(
          'prefix',
          forms.filter((f) => f.all.some((k) => k.startsWith(key))),
          stripped,
        )
      : null) ??
    wordByWord(name, forms, stripped) ??
    ((options.trailingWords ?? true) ? leadingWords(name, forms, stripped) : null) ??
    extraLeadingWord(name, forms, matching, stripped) ??
    gluedThe(key, forms, matching, stripped) ??
    stretched(key, forms, matching, stripped) ??
    digitsRead(key, forms, matching, stripped) ??
    startThenDigits(key, forms, matching, stripped) ??
    numberWords(key, forms, stripped) ??
    otherDigits(key, forms, matching, stripped) ??
    lookalikes(name, forms, stripped) ??
    typo(key, forms, stripped) ??
    initialsThenWord(key, forms, stripped) ??
    swappedInitials(key, forms, stripped, readsAsInitials(name)) ??
    reversed(key, forms, stripped) ??
    twoLetters(key, forms, stripped) ??
    placeholder(key, forms, stripped) ??
    otherWordForRest(key, forms, stripped) ??
    wordAmongOthers(name, forms, stripped) ??
    wordsApart(name, forms, stripped) ??
    ((options.trailingWords ?? true) ? nameThenWords(name, forms, matching, stripped) : null) ??
    timesWritten(key, forms, stripped) ??
    lastResort(slippedPrefixAfterFuzzy(key, forms, matching, stripped), name, key, forms, matching);
  return withFormerAcronyms(loose, key, forms, matching);
}

/** Whether a written name looks like initials to read through a username's words (`SPLIT_INITIALS`). */
function readsAsInitials(name: string): boolean {
  const letters = SPLIT_INITIALS.exec(name)?.[1];
  if (letters === undefined) return false;
  return letters === letters.toUpperCase() || !isEnglishWord(letters.toLowerCase());
}

/**
 * An acronym or a whole word of a name, all short forms: "SB" for "Scott Brosius", "AJ"
 * for "Aj The Epic", and, for what reads as initials (capitals, or no English word), a
 * username read as English words ("TMHS" for themanhimself, "tne" for thenewearth). One level of the ladder, so two
 * players found two ways is ambiguous.
 */
function shortForm(
  key: string,
  forms: readonly SlotForms[],
  written: string,
  capitals: boolean,
): NameResolution | null {
  const initials = forms.filter((f) => f.acronyms.includes(key));
  const split = (f: SlotForms, whole: boolean): boolean =>
    f.written.some((n, i) => wordsSplitInto(n, key, i < f.currentNames, whole));
  let bySplit = capitals ? forms.filter((f) => !initials.includes(f) && split(f, false)) : [];
  // A name's own initials beat a username cut after a word into any rest ("AP": AngryPidgeon,
  // not aristo-phanes); a split into whole words still competes ("TMHS": the-man-him-self).
  if (initials.length > 0) bySplit = bySplit.filter((f) => split(f, true));
  const byAcronym = [...initials, ...bySplit];
  const byWord = forms.filter((f) => !byAcronym.includes(f) && f.words.some((ws) => ws.length > 1 && ws.includes(key)));
  if (byAcronym.length + byWord.length === 0) return null;
  if (byAcronym.length + byWord.length > 1) {
    const living = [...byAcronym, ...byWord].filter((h) => h.slot.alive);
    const kind = living.length === 1 && byAcronym.includes(living[0]!) ? 'acronym' : 'substring';
    return (
      onlyLiving(kind, [...byAcronym, ...byWord], written) ??
      unresolved(
        'ambiguous',
        written,
        [...byAcronym, ...byWord].map((h) => h.slot.name),
        null,
      )
    );
  }
  return byAcronym.length === 1
    ? resolved('acronym', byAcronym[0]!.slot, written)
    : resolved('substring', byWord[0]!.slot, written);
}

/**
 * Whether a username reads as words with these initials: "themanhimself" as
 * the-man-him-self for "tmhs", "thirdkoopa" as third-koopa for "tk". Every piece but the
 * last is an English word of `MIN_SPLIT_WORD` letters or more, or a joining word
 * ("piece-of-pecan-pie" for "PoPP"); the last may be any name ("binks", "koopa"), or, with
 * `whole`, must be a word too. One piece per initial, so "tmh" does not read
 * "themanhimself" here (its CamelCase acronym does).
 */
function splitsInto(username: string, written: string, whole = false): boolean {
  // Digits after the words are no word of their own: "evilpacman18" reads as evil-pac-man;
  // initials may end with them ("TP42" for theplague42), and then they must be the name's.
  const digits = /\p{N}+$/u.exec(written)?.[0] ?? '';
  if (digits !== '' && !username.endsWith(digits)) return false;
  const initials = written.slice(0, written.length - digits.length);
  const name = username.replace(/\p{N}+$/u, '');
  if (name.length > MAX_SPLIT_NAME || name.length <= initials.length || !/^\p{L}+$/u.test(name)) return false;
  // fits[j][i]: name.slice(i) splits into the pieces for initials.slice(j).
  const known = new Map<number, boolean>();
  const fits = (i: number, j: number): boolean => {
    const id = j * (name.length + 1) + i;
    const seen = known.get(id);
    if (seen !== undefined) return seen;
    let ok = false;
    if (name[i] === initials[j]) {
      if (j === initials.length - 1) ok = name.length - i >= MIN_LAST_PIECE && (!whole || isSplitWord(name.slice(i)));
      else
        for (let end = i + 2; end < name.length && !ok; end++) ok = fits(end, j + 1) && isSplitWord(name.slice(i, end));
    }
    // A joining word between two words may be left out ("PPP": piece-(of)-pecan-pie), as
    // in a name of several words ("GF" for The Goodfather).
    if (!ok && j > 0) ok = [...JOINING_WORDS].some((w) => name.startsWith(w, i) && fits(i + w.length, j));
    known.set(id, ok);
    return ok;
  };
  return fits(0, 0);
}

/** A piece of a split username: an English word of `MIN_SPLIT_WORD` letters, or a joining word ("of"). */
function isSplitWord(piece: string): boolean {
  return JOINING_WORDS.has(piece) || (piece.length >= MIN_SPLIT_WORD && isEnglishWord(piece));
}

/**
 * Whether a name's words read as these initials, each word giving its first letter, or
 * the English words it is made of ("Lady Lambdadelta" as lady-lambda-delta for "LLD",
 * "WeaponsofMassConstruction" as weapons-of-mass-construction for "WOMC"), or, written
 * in capitals in a longer name, its own letters ("AlmasterGM" for "AGM": GM is already
 * initials). Every word but a joining word ("the", "of") gives at least one initial, so
 * the plain acronym stays the shortest reading. A one-word name is split whole only when
 * it is a current name or alias (`oneWord`): a former name split anywhere into dictionary words would compete
 * with the living players' own initials ("MT": Magic Trainer, not mort-has for Morthas).
 */
function wordsSplitInto(name: string, initials: string, oneWord: boolean, whole = false): boolean {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .flatMap((w) =>
      w
        .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
        .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
        .split(' '),
    )
    .filter((w) => w !== '');
  const joining = words.map((w) => JOINING_WORDS.has(w.toLowerCase()));
  const content = joining.filter((j) => !j).length;
  if (words.length > MAX_NAME_WORDS || content > initials.length) return false;
  if (words.length === 1) return oneWord && splitsInto(words[0]!.toLowerCase(), initials, whole);
  // Content words after each word: each gives at least one initial.
  const after = words.map((_, w) => joining.slice(w + 1).filter((j) => !j).length);
  const known = new Map<number, boolean>();
  // fits(w, j): words from w on read as initials from j on.
  const fits = (w: number, j: number): boolean => {
    if (w === words.length) return j === initials.length;
    const id = w * (initials.length + 1) + j;
    const seen = known.get(id);
    if (seen !== undefined) return seen;
    const word = words[w]!;
    const lower = word.toLowerCase();
    const left = after[w]!;
    // A joining word may be left out ("GF" for The Goodfather, as "M&L" leaves out "and").
    let ok = (joining[w]! && fits(w + 1, j)) || (lower[0] === initials[j] && fits(w + 1, j + 1));
    if (!ok && /^\p{Lu}{2,4}$/u.test(word) && initials.startsWith(lower, j)) ok = fits(w + 1, j + word.length);
    for (let k = 2; !ok && j + k + left <= initials.length; k++)
      ok = splitsInto(lower, initials.slice(j, j + k), whole) && fits(w + 1, j + k);
    known.set(id, ok);
    return ok;
  };
  return fits(0, 0);
}

/**
 * "Creepy Scott Brosius": one word before what is exactly a player's name of two or more
 * words; or before a one-word name of `MIN_TYPO` letters or more ("Princess Reinoe",
 * "scum hiraki": mafiascum games 1591 post #6, 1126 post #502) when that word names nobody
 * at all and says no "not" ("not Bob" must not vote Bob). Read as substring, so it is shown.
 */
function extraLeadingWord(
  name: string,
  forms: readonly SlotForms[],
  matching: NameMatching,
  written: string,
): NameResolution | null {
  const words = name.split(' ').filter((w) => w !== '');
  if (words.length < 2) return null;
  const rest = words.slice(1).join(' ');
  const found = exactRungs([nameKey(rest)], forms, written);
  if (!found || found.target === null) return found;
  const slot = forms.find((f) => f.slot.name === found.target)!;
  const several = [slot.slot.name, ...slot.slot.aliases, ...slot.slot.formerNames].some(
    (n) => nameKey(n) === nameKey(rest) && nameWords(n).length >= 2,
  );
  if (several) return { ...found, match: 'substring' };
  if (words.length !== 2 || nameKey(rest).length < MIN_TYPO || NOT_WORDS.test(words[0]!)) return null;
  const lead = resolve(words[0]!, forms, matching, { trailingWords: false });
  return lead.match === 'unknown' && lead.candidates.length === 0 ? { ...found, match: 'substring' } : null;
}

/**
 * "thegreygnarl" for greygnarl (mafiascum game 1521, the moderator's counts from post
 * #233): "the" written onto a player's exact name, as "The greygnarl" with a space is read
 * by `extraLeadingWord`. Not when the whole is an English word ("theology"); one player
 * only; read as substring, so it is shown.
 */
function gluedThe(
  key: string,
  forms: readonly SlotForms[],
  matching: NameMatching,
  written: string,
): NameResolution | null {
  if (!key.startsWith('the') || key.length - 3 < matching.minPartial || isEnglishWord(key)) return null;
  const found = exactRungs([key.slice(3)], forms, written);
  return found?.target ? { ...found, match: 'substring' } : null;
}

/** Words before a name that turn a vote for it around ("not Bob", "anti-Bob", "except Bob"). */
const NOT_WORDS = /^(?:not|no|never|non|nor|neither|anti|except|but|unvote|un|against|nobody|none)$/iu;

/**
 * "Slandarrrrrrrr": a letter held down. With every run of a letter written once on both
 * sides, the name is the same, or a unique prefix of one; read as fuzzy, so it is shown.
 */
function stretched(
  key: string,
  forms: readonly SlotForms[],
  matching: NameMatching,
  written: string,
): NameResolution | null {
  if (!STRETCHED.test(key) && !DOUBLED_THRICE.test(key)) return null;
  const short = collapseRuns(key);
  const same = rung(
    'fuzzy',
    forms.filter((f) => f.collapsed.includes(short)),
    written,
  );
  if (same || short.length < matching.minPartial) return same;
  return rung(
    'fuzzy',
    forms.filter((f) => f.collapsed.some((c) => c.startsWith(short))),
    written,
  );
}

/**
 * "Oz" for Ozgin: two letters one name starts with, like a unique initial, unless they
 * spell an English word ("me", "no" are words before they are names).
 */
function twoLetters(key: string, forms: readonly SlotForms[], written: string): NameResolution | null {
  if (key.length !== 2 || !/^\p{L}{2}$/u.test(key) || isEnglishWord(key)) return null;
  return rung(
    'prefix',
    forms.filter((f) => f.all.some((k) => k.startsWith(key))),
    written,
  );
}

/**
 * "Tahah" for talah, "Clara" for Ciara24, "Gellatin" for Gallatin: a slip of the keys (a
 * letter changed, added, dropped or two swapped; two in a long name) in a player's name,
 * the name without its digits, or a word of a name of several words. Only one player may
 * be that close; read as fuzzy, so it is shown. Short names are left to the similarity
 * rung: one letter off in four is another name ("Bud" is not "Bub").
 */
function typo(key: string, forms: readonly SlotForms[], written: string): NameResolution | null {
  if (key.length < MIN_TYPO) return null;
  const limit = key.length >= MIN_TWO_TYPOS ? 2 : 1;
  // Held-down letters aside on both sides: "Greyfox" is one slip from GrayFoxxxx.
  const mine = [...new Set([key, withoutHeldLetters(key)])];
  const close = (k: string): boolean =>
    mine.some((m) => Math.abs(k.length - m.length) <= limit && editDistance(limit, m, k) <= limit);
  const found = rung(
    'fuzzy',
    forms.filter((f) => f.typoForms.some(close)),
    written,
  );
  if (found?.target == null) return found;
  // The similarity score goes with it, so the reading shows how close the name was.
  const slot = forms.find((f) => f.slot.name === found.target)!;
  return { ...found, score: round(Math.max(...slot.typoForms.map((k) => jaroWinkler(key, k)))) };
}

/** Characters most fonts draw alike: capital I, small l, one, bar. */
const LOOKALIKES = /[Il1|]/gu;

/**
 * "Illl", "IIII" and "1|Il" for llll (mafiascum game 1636 posts #745, #741, #743): letters
 * that look alike read as one, on both sides, as written (capital I is not small i). The
 * same name so read, one player only; read as fuzzy, so it is shown.
 */
function lookalikes(name: string, forms: readonly SlotForms[], written: string): NameResolution | null {
  const looks = (n: string): string => nameKey(n.replace(LOOKALIKES, 'l'));
  if (!/[Il1|]/u.test(name)) return null;
  const key = looks(name);
  return rung(
    'fuzzy',
    forms.filter((f) => f.written.some((n) => /[Il1|]/u.test(n) && looks(n) === key)),
    written,
  );
}

/** The word written in full after initials has at least this many letters ("star"). */
const MIN_WORD_AFTER_INITIALS = 3;

/**
 * "bbstar" for basketballstar24, "pmatt" for projectmatt (mafiascum games 1368 post #821,
 * 1393 post #1371): the initials of a one-word username's first English words, then the
 * rest of the name as it ends. Written as no English word; one player only; read as
 * acronym, so it is shown.
 */
function initialsThenWord(key: string, forms: readonly SlotForms[], written: string): NameResolution | null {
  if (key.length < 4 || !/^\p{L}+$/u.test(key) || isEnglishWord(key)) return null;
  const fits = (n: string): boolean => {
    const name = n.replace(/\p{N}+$/u, '');
    for (let cut = 1; cut + MIN_WORD_AFTER_INITIALS <= key.length; cut++) {
      const tail = key.slice(cut);
      const head = name.slice(0, name.length - tail.length);
      if (name.endsWith(tail) && head.length > cut && splitsInto(head, key.slice(0, cut), true)) return true;
    }
    return false;
  };
  return rung(
    'acronym',
    forms.filter((f) => [...f.names, ...f.aliases].some(fits)),
    written,
  );
}

/** Initials this long may have two letters swapped ("SMRP"); shorter ones would be other initials. */
const MIN_SWAPPED_INITIALS = 4;

/**
 * "SMRP" for Some Random Mafia Player, "IASW" for IAlwaysWinSometimes (mafiascum games
 * 1761 post #471, 1893 post #2876): what reads as initials, with two neighbouring letters
 * swapped, is a name's acronym. One player only; read as fuzzy, so it is shown.
 */
function swappedInitials(
  key: string,
  forms: readonly SlotForms[],
  written: string,
  capitals: boolean,
): NameResolution | null {
  if (!capitals || key.length < MIN_SWAPPED_INITIALS || !/^\p{L}+$/u.test(key)) return null;
  const swaps = new Set<string>();
  for (let i = 0; i + 1 < key.length; i++)
    if (key[i] !== key[i + 1]) swaps.add(key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2));
  return rung(
    'fuzzy',
    forms.filter((f) => f.acronyms.some((a) => swaps.has(a))),
    written,
  );
}

/** A name read backwards inside a longer one needs this many letters ("Jordan" in XnadrojX). */
const MIN_REVERSED = 5;

/**
 * "Jordan", "xjordanx" for XnadrojX (mafiascum games 1850 posts #539, #763; 1873 post #69):
 * a name spelled backwards, read the right way round. The whole name, or from
 * `MIN_REVERSED` letters a part of one player's name only; read as fuzzy, so it is shown.
 */
function reversed(key: string, forms: readonly SlotForms[], written: string): NameResolution | null {
  const back = [...key].reverse().join('');
  if (back === key || !/\p{L}/u.test(key)) return null;
  const whole = rung(
    'fuzzy',
    forms.filter((f) => f.all.includes(back)),
    written,
  );
  if (whole || key.length < MIN_REVERSED) return whole;
  return rung(
    'fuzzy',
    forms.filter((f) => f.all.some((k) => k.includes(back))),
    written,
  );
}

/** Words a player writes for the part of a name they forgot: "Fuzzybutterwhatever", "somethingwaffles". */
const PLACEHOLDER_END = /(?:whatever|something|thing|numbers|stuff)$/u;
const PLACEHOLDER_START = /^(?:something|whatever|someone)/u;
/** The part of the name written beside a placeholder has at least this many letters. */
const MIN_PLACEHOLDER_PART = 4;

/**
 * "Fuzzybutterwhatever" for fuzzybutternut, "darkshadownumbers" for Darkshadow64540,
 * "somethingwaffles" for SlingshotWaffles (mafiascum games 1462 post #1542, 1897 post #70,
 * 1903 post #58): the part of the name the player remembered, and a word for the rest.
 * The part starts one player's name (or, for a word before it, ends it), else is inside
 * one player's name only; read as substring, so it is shown.
 */
function placeholder(key: string, forms: readonly SlotForms[], written: string): NameResolution | null {
  const end = PLACEHOLDER_END.exec(key);
  const head = end ? key.slice(0, end.index) : '';
  if (head.length >= MIN_PLACEHOLDER_PART)
    return (
      rung(
        'substring',
        forms.filter((f) => f.all.some((k) => k.startsWith(head))),
        written,
      ) ??
      rung(
        'substring',
        forms.filter((f) => f.all.some((k) => k.includes(head))),
        written,
      )
    );
  const start = PLACEHOLDER_START.exec(key);
  const tail = start ? key.slice(start[0].length) : '';
  if (tail.length < MIN_PLACEHOLDER_PART) return null;
  return rung(
    'substring',
    forms.filter((f) => f.all.some((k) => k.endsWith(tail))),
    written,
  );
}

/**
 * "FIREWATER" for FireScreamer, "mariomaker4" for MarioManiac4, "lalalaGIRAFFE" for
 * lalaladucks (mafiascum games 1888 post #682, 1931 post #1558, 1720 post #159): the
 * start of a name up to one of its words (a CamelCase hump, a space, or an English word
 * the name ends with), then another English word in place of the rest, and the name's
 * digits if any. The start has `MIN_PLACEHOLDER_PART` letters; one player only, and a
 * word that is another player's name makes it ambiguous; read as substring, so it is shown.
 */
function otherWordForRest(key: string, forms: readonly SlotForms[], written: string): NameResolution | null {
  // One written word only: words apart ("Fuzzy dude") are the later rungs', which weigh each word.
  if (/\s/u.test(written.trim())) return null;
  const digits = /\p{N}+$/u.exec(key)?.[0] ?? '';
  const letters = key.slice(0, key.length - digits.length);
  if (letters.length < MIN_PLACEHOLDER_PART + MIN_SPLIT_WORD || !/^\p{L}+$/u.test(letters)) return null;
  const fits = (name: string): string | null => {
    const whole = nameKey(name);
    const own = /\p{N}+$/u.exec(whole)?.[0] ?? '';
    if (digits !== '' && digits !== own) return null;
    const plain = whole.slice(0, whole.length - own.length);
    for (const cut of restCuts(name, plain)) {
      const head = plain.slice(0, cut);
      const word = letters.slice(cut);
      if (letters.startsWith(head) && word !== plain.slice(cut) && isSplitWord(word) && !JOINING_WORDS.has(word))
        return word;
    }
    return null;
  };
  const words = new Set<string>();
  const hits = forms.filter((f) =>
    f.written.some((n) => {
      const word = fits(n);
      if (word !== null) words.add(word);
      return word !== null;
    }),
  );
  if (hits.length === 0) return null;
  const named = forms.filter((f) => !hits.includes(f) && [...words].some((w) => f.all.includes(w)));
  return rung('substring', [...hits, ...named], written);
}

/** Where a name's rest may start after its first part: at its later words, or an English word it ends with. */
function restCuts(name: string, plain: string): number[] {
  const cuts = new Set<number>();
  let at = 0;
  for (const w of nameWords(name).slice(0, -1)) {
    at += w.length;
    cuts.add(at);
  }
  for (let i = MIN_PLACEHOLDER_PART; plain.length - i >= MIN_SPLIT_WORD; i++)
    if (isEnglishWord(plain.slice(i))) cuts.add(i);
  return [...cuts].filter((c) => c >= MIN_PLACEHOLDER_PART && plain.length - c >= MIN_SPLIT_WORD).sort((a, b) => a - b);
}

/** Most words a name with one of a player's words among others may have ("Little Uzi Vert"). */
const MAX_WORDS_AMONG = 4;
/** A word of a name found among other words has at least this many letters ("Bob"). */
const MIN_WORD_AMONG = 3;

/**
 * "jagged toaster" for Jagged Appliance, "Evil Coyote" for RedCoyote, "Bisyphilis Bob" for
 * Bicephalous Bob (mafiascum games 1609 post #1983, 1688 post #1325, 1596 post #857): a
 * written name of a few words, one of which is a whole word of a player's name of several
 * words (not a joining word), the name as a whole naming nobody. One player only, and no
 * "not" before it; read as substring, so it is shown.
 */
function wordAmongOthers(name: string, forms: readonly SlotForms[], written: string): NameResolution | null {
  const ws = nameWords(name);
  if (ws.length < 2 || ws.length > MAX_WORDS_AMONG || NOT_WORDS.test(ws[0]!)) return null;
  const mine = ws.filter((w) => w.length >= MIN_WORD_AMONG && !JOINING_WORDS.has(w));
  const hits = forms.filter((f) => f.words.some((nw) => nw.length > 1 && mine.some((w) => nw.includes(w))));
  if (hits.length === 0) return null;
  // A written word that is another player's whole name names that player too: ambiguous.
  const named = forms.filter((f) => !hits.includes(f) && mine.some((w) => f.all.includes(w)));
  return rung('substring', [...hits, ...named], written);
}

/** Other words a name's words may have between them ("pappum's lying ass rat"). */
const MAX_WORDS_BETWEEN = 3;

/**
 * "pappum's lying ass rat" for pappums rat (mafiascum game 1323): a name of several words
 * written whole and in order, other words between them, the first and last written
 * words the name's own. One player only; read as fuzzy, so it is shown.
 */
function wordsApart(name: string, forms: readonly SlotForms[], written: string): NameResolution | null {
  // A possessive is the name's own letters: "pappum's" is pappums.
  const ws = nameWords(name.replace(/['’](?=s\b)/giu, ''));
  if (ws.length < 3) return null;
  const fits = (nw: readonly string[]): boolean =>
    nw.length >= 2 &&
    nw.length < ws.length &&
    ws.length - nw.length <= MAX_WORDS_BETWEEN &&
    nw[0] === ws[0] &&
    nw.at(-1) === ws.at(-1) &&
    inOrder(nw, ws);
  return rung(
    'fuzzy',
    forms.filter((f) => f.words.some(fits)),
    written,
  );
}

/** Whether every word of `name` is in `words`, in order. */
function inOrder(name: readonly string[], words: readonly string[]): boolean {
  let k = 0;
  for (const w of words) if (w === name[k]) k++;
  return k === name.length;
}

/** "Yesx3": a word, then "x" and how many times it is said (two to five). */
const TIMES_WRITTEN = /^(\p{L}{2,})x([2-5])$/u;

/**
 * "Yesx3" for YES YES YES (mafiascum game 1509 post #409): a name that says one word
 * several times, written as the word and "x" the count. Exactly that name, one player
 * only; read as fuzzy, so it is shown.
 */
function timesWritten(key: string, forms: readonly SlotForms[], written: string): NameResolution | null {
  const m = TIMES_WRITTEN.exec(key);
  if (!m) return null;
  const said = m[1]!.repeat(Number(m[2]));
  return rung(
    'fuzzy',
    forms.filter((f) => f.all.includes(said)),
    written,
  );
}

/** A loosely read first word is followed by at most this many words ("Chevy the car"). */
const MAX_WORDS_AFTER = 3;
/** A first word read loosely before other words has at least this many letters ("Fuzzy"). */
const MIN_LOOSE_FIRST = 4;

/**
 * "Fuzzy dude" for Fuzzyman, "Chevy the car" for Chevre (mafiascum games 1444 post #351,
 * 1585 post #280): a first word that the ladder reads as one player, then a few words
 * that name nobody, not even as a suggestion (a name next to another player's is not this
 * player's). `leadingWords` takes exact names; this takes the looser readings, shown
 * as they are (an exact first word is shown as substring).
 */
function nameThenWords(
  name: string,
  forms: readonly SlotForms[],
  matching: NameMatching,
  written: string,
): NameResolution | null {
  const words = name.split(' ').filter((w) => nameKey(w) !== '');
  if (words.length < 2 || words.length > 1 + MAX_WORDS_AFTER || NOT_WORDS.test(words[0]!)) return null;
  const first = stripDecorations(words[0]!);
  if (nameKey(first).length < MIN_LOOSE_FIRST) return null;
  const found = resolve(first, forms, matching, { trailingWords: false });
  if (found.target === null) return null;
  const namesNobody = (w: string): boolean => {
    const r = resolve(w, forms, matching, { trailingWords: false });
    return r.match === 'unknown' && r.candidates.length === 0;
  };
  if (!words.slice(1).every(namesNobody)) return null;
  const match = found.match === 'exact' || found.match === 'alias' ? 'substring' : found.match;
  return { ...found, match, written };
}

/** A shortened name with a slip of the keys is read from this many letters ("Vjay", "rolf"). */
const MIN_SLIPPED_PREFIX = 4;
/** Below this many letters a shortened name's slip may not be a changed letter ("pass" is not "Pasc…"). */
const MIN_SLIPPED_CHANGE = 5;
/** An English word is read as a shortened name with a changed letter from this many letters ("dragon"). */
const MIN_SLIPPED_WORD = 6;

/**
 * "Wickid" for Wickedestjr, "Vjay" for vijay2vasandani, "rolf" for roflcopter, "tchii" for
 * Tchill13 (mafiascum games 1207 post #732, 1332 post #634, 1410 post #826, 1938 post
 * #719): the start of a name (not the whole name), written with one slip of the keys, from
 * the ruleset's `minPartial` letters as any prefix. Only when the similarity
 * rung found no one (and suggests no other player), the first letter is right, and the
 * slip fits one living player only; a short or English word must not have a changed
 * letter ("pass" is not Pasc…). Read as fuzzy, so it is shown.
 */
function slippedPrefixAfterFuzzy(
  key: string,
  forms: readonly SlotForms[],
  matching: NameMatching,
  written: string,
): NameResolution {
  const similar = fuzzy(key, forms, matching, written);
  if (similar.match !== 'unknown') return similar;
  const found = key.length >= matching.minPartial ? slippedPrefix(key, forms, written) : null;
  if (found?.target == null) return found ?? similar;
  // A living player suggested by similarity is a rival reading; a dead one takes no votes.
  const suggested = forms.find((f) => f.slot.name === similar.candidates[0]);
  return !suggested?.slot.alive || suggested.slot.name === found.target ? found : similar;
}

/**
 * Readings for a name the whole ladder found no one for, loosest of all: the name as it
 * sounds, then initials taken from anywhere in the name. Each reads one player only when
 * no other player fits it, and a living player that similarity suggests instead is a rival
 * reading: both go to the GM. Read as fuzzy, so it is shown.
 */
function lastResort(
  found: NameResolution,
  name: string,
  key: string,
  forms: readonly SlotForms[],
  matching: NameMatching,
): NameResolution {
  // A ruleset that raises the similarity bar asks for close spellings only.
  if (found.match !== 'unknown' || matching.fuzzyMin > DEFAULT_FUZZY_MIN) return found;
  const loose = soundsAlike(name, key, forms, found.written) ?? initialsInOrder(name, key, forms, found.written);
  if (loose?.target == null) return loose ?? found;
  const suggested = forms.find((f) => f.slot.name === found.candidates[0]);
  if (!suggested?.slot.alive || suggested.slot.name === loose.target) return loose;
  return unresolved('ambiguous', found.written, [loose.target, suggested.slot.name], found.score);
}

const DEFAULT_FUZZY_MIN = NameMatching.parse({}).fuzzyMin;
/** A name sounds like another from this many letters; shorter ones share their sound with too many. */
const MIN_SOUND = 5;
/** How many letters a name spelled by its sound may differ in length from the player's. */
const SOUND_LENGTH_SLACK = 2;

/**
 * "Stephan" for StefanB, "Chilly" for Tchill13: a name spelled as it sounds, its Metaphone code (the whole name's sounds) that of one player's name (without its digits) or of a word of it
 * (`MIN_SOUND` letters or more: "Freud" does not sound like Lil Uzi Vert), near its length. Another player who sounds the
 * same makes it ambiguous.
 */
function soundsAlike(name: string, key: string, forms: readonly SlotForms[], written: string): NameResolution | null {
  if (key.length < MIN_SOUND || !/^\p{L}+$/u.test(name)) return null;
  const sound = metaphone(key);
  if (sound.length < 2) return null;
  const fits = (form: string): boolean =>
    Math.abs(form.length - key.length) <= SOUND_LENGTH_SLACK && metaphone(form) === sound;
  return rung(
    'fuzzy',
    forms.filter((f) =>
      [...f.all.map((k) => k.replace(/\p{N}+/gu, '')), ...f.words.flat().filter((w) => w.length >= MIN_SOUND)].some(
        (k) => k !== '' && fits(k),
      ),
    ),
    written,
  );
}

/** Initials taken from anywhere in a name: two to four letters. */
const SCATTERED_INITIALS = /^\p{L}{2,4}$/u;

/**
 * "KTB" for Kthxbye (k-thx-bye), "DF" for Dierfire (dier-fire): initials of pieces that
 * are no dictionary words, so no rung above splits the name. The first letter starts the
 * name, the last starts an English word that ends it (digits aside), any others fall in
 * order between; but not from inside a word ("pjm" is no initials of project-matt). Only
 * what reads as initials (`readsAsInitials`) and spells no English word ("NO" is no one's
 * initials); one player only.
 */
function initialsInOrder(
  name: string,
  key: string,
  forms: readonly SlotForms[],
  written: string,
): NameResolution | null {
  if (!SCATTERED_INITIALS.test(key) || !readsAsInitials(name) || isEnglishWord(key)) return null;
  const fits = (form: string): boolean => {
    const letters = form.replace(/\p{N}+$/u, '');
    if (!/^\p{L}+$/u.test(letters) || letters[0] !== key[0]) return false;
    return [...letters].some((c, at) => {
      if (at < key.length - 1 || c !== key.at(-1) || !isSplitWord(letters.slice(at))) return false;
      const before = letters.slice(0, at);
      if (key.length > 2 && isEnglishWord(before)) return false;
      let from = 1;
      for (const letter of key.slice(1, -1)) {
        from = before.indexOf(letter, from) + 1;
        if (from === 0) return false;
      }
      return true;
    });
  };
  return rung(
    'fuzzy',
    forms.filter((f) => f.all.some(fits)),
    written,
  );
}

function slippedPrefix(key: string, forms: readonly SlotForms[], written: string): NameResolution | null {
  if (key.length < MIN_SLIPPED_PREFIX || !/^\p{L}+$/u.test(key)) return null;
  const changeAllowed = key.length >= (isEnglishWord(key) ? MIN_SLIPPED_WORD : MIN_SLIPPED_CHANGE);
  const fits = (name: string): boolean => {
    if (name[0] !== key[0]) return false;
    for (let n = key.length - 1; n <= key.length + 1; n++) {
      // A whole name with a slip is the typo rung's, which reads short names more warily.
      if (n < MIN_SLIPPED_PREFIX || n >= name.length) continue;
      const slip = slipOf(key, name.slice(0, n));
      if (slip !== null && (slip !== 'change' || changeAllowed)) return true;
    }
    return false;
  };
  const found = rung(
    'fuzzy',
    forms.filter((f) => f.all.some(fits)),
    written,
  );
  if (found?.target == null) return found;
  const slot = forms.find((f) => f.slot.name === found.target)!;
  return { ...found, score: round(Math.max(...slot.all.map((k) => jaroWinkler(key, k)))) };
}

/** The one slip of the keys that turns `b` into `a`, or null when they differ otherwise (or not at all). */
function slipOf(a: string, b: string): 'change' | 'swap' | 'extra' | 'missing' | null {
  if (a === b) return null;
  if (a.length === b.length) {
    const at = [...a].flatMap((ch, i) => (ch === b[i] ? [] : [i]));
    if (at.length === 1) return 'change';
    const [i, j] = at;
    return at.length === 2 && j === i! + 1 && a[i!] === b[j!] && a[j!] === b[i!] ? 'swap' : null;
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  if (long.length !== short.length + 1) return null;
  for (let i = 0; i < long.length; i++)
    if (long.slice(0, i) + long.slice(i + 1) === short) return a.length > b.length ? 'extra' : 'missing';
  return null;
}

/** Digits players read as the letters they look like ("Fro99er" is said "Frogger"). */
const DIGIT_LETTERS: Record<string, string[]> = {
  '0': ['o'],
  '1': ['i', 'l'],
  '3': ['e'],
  '4': ['a'],
  '5': ['s'],
  '7': ['t'],
  '9': ['g'],
};

/**
 * A name with digits as players write it: without them ("acfan" for ac1983fan, "TN" for
 * tn5421) or with the digits read as letters ("Frogger", "Frog" for Fro99er). The same
 * name, or (from `minPartial` letters) a unique prefix of one; read as fuzzy, so it is shown.
 */
function digitsRead(
  key: string,
  forms: readonly SlotForms[],
  matching: NameMatching,
  written: string,
): NameResolution | null {
  if (/\p{N}/u.test(key)) return null;
  const readings = (f: SlotForms): string[] =>
    f.all
      .filter((k) => /\p{N}/u.test(k) && /\p{L}/u.test(k))
      .flatMap((k) => [k.replace(/\p{N}+/gu, ''), ...asLetters(k)]);
  const same = rung(
    'fuzzy',
    forms.filter((f) => readings(f).includes(key)),
    written,
  );
  if (same || key.length < matching.minPartial) return same;
  return rung(
    'fuzzy',
    forms.filter((f) => readings(f).some((r) => r.startsWith(key))),
    written,
  );
}

/**
 * "Arc9" for ArcAngel9 (mafiascum game 1444 post #790): the start of a name, then the
 * digits it ends with. The start has `minPartial` letters; one player only; read as prefix.
 */
function startThenDigits(
  key: string,
  forms: readonly SlotForms[],
  matching: NameMatching,
  written: string,
): NameResolution | null {
  const m = /^(\p{L}+)(\p{N}+)$/u.exec(key);
  if (!m || m[1]!.length < matching.minPartial) return null;
  const [, start, digits] = m as unknown as [string, string, string];
  return rung(
    'prefix',
    forms.filter((f) =>
      f.all.some((k) => k.endsWith(digits) && /\p{L}$/u.test(k.slice(0, -digits.length)) && k.startsWith(start)),
    ),
    written,
  );
}

/** A name's shape with every run of digits as one mark: "flames682" and "flames8675309" are "flames#". */
function digitShape(key: string): string {
  return key.replace(/\p{N}+/gu, '#');
}

/**
 * "Flames8675309" for Flames682, "bgg1886" for bgg1996 (mafiascum games 1602 post #18,
 * 1175 post #97): the name's letters as written, its digits misremembered. The same
 * letters with digits in the same places, from `minPartial` letters; a player named by
 * the letters alone competes ("Flames"). One player only; read as fuzzy, so it is shown.
 */
function otherDigits(
  key: string,
  forms: readonly SlotForms[],
  matching: NameMatching,
  written: string,
): NameResolution | null {
  const letters = key.replace(/\p{N}+/gu, '');
  if (letters === key || letters.length < matching.minPartial || !/^\p{L}+$/u.test(letters)) return null;
  const shape = digitShape(key);
  return rung(
    'fuzzy',
    forms.filter((f) => f.all.some((k) => (k !== key && digitShape(k) === shape) || k === letters)),
    written,
  );
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const NUMBER_WORD = new RegExp(NUMBER_WORDS.join('|'), 'gu');

/** A compare form with every number word written as its digit ("twoinamillion" → "2inamillion"). */
function asDigits(key: string): string {
  return key.replace(NUMBER_WORD, (w) => String(NUMBER_WORDS.indexOf(w)));
}

/**
 * "MagicalSeven" for Magical7, "2inamillion" for TwoInAMillion (mafiascum games 1444 post
 * #460, 1933 post #1128): a number written as a word on one side and as its digit on the
 * other. Both read with digits; the same name, one player only; read as fuzzy, so it is shown.
 */
function numberWords(key: string, forms: readonly SlotForms[], written: string): NameResolution | null {
  const mine = asDigits(key);
  const numbered = (k: string): boolean => /\p{N}/u.test(k) || asDigits(k) !== k;
  if (!numbered(key)) return null;
  return rung(
    'fuzzy',
    forms.filter((f) => f.all.some((k) => numbered(k) && k !== key && asDigits(k) === mine)),
    written,
  );
}

/** The name's digits read as letters, every way the table allows (at most a few). */
function asLetters(key: string): string[] {
  let out = [''];
  for (const ch of key) {
    const as = DIGIT_LETTERS[ch] ?? [ch];
    out = out.flatMap((o) => as.map((a) => o + a)).slice(0, 16);
  }
  return out.filter((o) => !/\p{N}/u.test(o));
}

/** A letter held down (three or more running) written once: "grayfoxxxx" → "grayfox"; "ll" stays. */
function withoutHeldLetters(key: string): string {
  return key.replace(/(\p{L})\1{2,}/gu, '$1');
}

function collapseRuns(key: string): string {
  // The shortest repeated piece first: "vivivi" is "vi", not "vivi".
  return key.replace(/(\p{L})\1+/gu, '$1').replace(/(\p{L}{2,4}?)\1{2,}/gu, '$1');
}

/**
 * "Vote: Rainbowdash / or / Nikanor": a choice between players is not a vote for the
 * first of them. Each part is read on its own; two players found is ambiguous.
 */
function alternatives(
  name: string,
  forms: readonly SlotForms[],
  matching: NameMatching,
  written: string,
): NameResolution | null {
  const parts = name
    .split(ALTERNATIVES)
    .map((p) => p.trim())
    .filter((p) => nameKey(p) !== '' && nameKey(p) !== 'or');
  if (parts.length < 2 || parts.length > MAX_ALTERNATIVES) return null;
  const read = parts.map((part) => resolve(part, forms, matching, { trailingWords: false }));
  const found = new Set(read.flatMap((r) => (r.target === null ? [] : [r.target])));
  if (found.size >= 2) return unresolved('ambiguous', written, [...found], null);
  // "monkey/backhand", "Xegarus/replacement" (mafiascum games 1933 post #1936, 1433 post
  // #297): one part is a player's own name, the others the same player or nobody, not even
  // as a suggestion (an old nickname, "replacement"). Read as substring, so it is shown.
  const sure = read.find((r) => r.match === 'exact' || r.match === 'alias');
  const same = (r: NameResolution): boolean =>
    r.target !== null ? r.target === sure?.target : r.match === 'unknown' && r.candidates.length === 0;
  if (sure && read.every(same)) {
    return { ...sure, match: 'substring', written };
  }
  return null;
}

/**
 * The name's words, each written in full or shortened, in any order: "Scotty B" and
 * "Brosius Scott" for "Scott Brosius". Every written word must stand for its own word of
 * the name, and there must be two or more.
 */
function wordByWord(name: string, forms: readonly SlotForms[], written: string): NameResolution | null {
  const ws = nameWords(name);
  if (ws.length < 2 || ws.length > MAX_NAME_WORDS) return null;
  const hits = forms.filter((f) => f.words.some((nw) => nw.length === ws.length && wordsAgree(ws, nw)));
  if (hits.length === 0) return null;
  if (hits.length > 1)
    return unresolved(
      'ambiguous',
      written,
      hits.map((h) => h.slot.name),
      null,
    );
  return resolved('fuzzy', hits[0]!.slot, written);
}

/** Whether each written word stands for a different word of the name (greedy; names are short). */
function wordsAgree(written: readonly string[], name: readonly string[]): boolean {
  const used = new Set<number>();
  for (const w of written) {
    const i = name.findIndex((n, k) => !used.has(k) && wordStandsFor(w, n));
    if (i < 0) return false;
    used.add(i);
  }
  return true;
}

function wordStandsFor(w: string, n: string): boolean {
  if (n.startsWith(w)) return true;
  return n.length >= 3 && w.startsWith(n) && w.length - n.length <= WORD_OVERRUN;
}

/**
 * A replaced player's former name read as an acronym must not beat another slot's current
 * name, nor be beaten by it: either way the GM decides.
 */
function withFormerAcronyms(
  found: NameResolution,
  key: string,
  forms: readonly SlotForms[],
  matching: NameMatching,
): NameResolution {
  if (found.target === null || key.length < 2) return found;
  const formers = forms.filter((f) => f.formerAcronyms.includes(key) && f.slot.name !== found.target);
  if (formers.length > 0) {
    return unresolved('ambiguous', found.written, [found.target, ...formers.map((f) => f.slot.name)], null);
  }
  const chosen = forms.find((f) => f.slot.name === found.target);
  if (found.match !== 'acronym' || !chosen || currentInitials(chosen, key)) return found;
  // Chosen through a former name only: a current name that reads as these initials, or
  // close to them, competes ("CD": cool-dog for CooLDoG; not Herself for "HF").
  const rivals = forms.filter(
    (f) =>
      f !== chosen &&
      (currentInitials(f, key, true) ||
        [...f.names, ...f.aliases].some((k) => jaroWinkler(key, k) >= matching.fuzzyMin)),
  );
  return rivals.length > 0
    ? unresolved('ambiguous', found.written, [chosen.slot.name, ...rivals.map((f) => f.slot.name)], null)
    : found;
}

/**
 * Whether a slot's current name or alias reads as these initials: its acronym, its words
 * split into English words ("HF": having-fitz), or the whole name so split ("CD": cool-dog);
 * `whole`: only splits whose last piece is a word too (a rival must read as well as that).
 */
function currentInitials(f: SlotForms, key: string, whole = false): boolean {
  if (f.acronyms.some((a) => a === key && !f.formerAcronyms.includes(a))) return true;
  return f.written
    .slice(0, f.currentNames)
    .some((n) => wordsSplitInto(n, key, true, whole) || splitsInto(nameKey(n), key, whole));
}

function slotForms(slot: Slot): SlotForms {
  const names = [nameKey(slot.name)];
  const formers = slot.formerNames.map(nameKey);
  const aliases = slot.aliases.map(nameKey);
  const current = [slot.name, ...slot.aliases].flatMap(acronymsOf);
  const formerAcronyms = slot.formerNames.flatMap(acronymsOf).filter((a) => !current.includes(a));
  const acronyms = [...new Set([...current, ...formerAcronyms])];
  const words = [slot.name, ...slot.aliases, ...slot.formerNames].map(nameWords);
  // Former names too: a slot's replaced player is still voted by the old name stretched.
  const collapsed = [...names, ...aliases, ...formers].map(collapseRuns);
  return {
    slot,
    names,
    formers,
    aliases,
    all: [...names, ...formers, ...aliases],
    acronyms,
    formerAcronyms,
    words,
    written: [slot.name, ...slot.aliases, ...slot.formerNames],
    currentNames: 1 + slot.aliases.length,
    collapsed,
    typoForms: typoForms([...names, ...formers, ...aliases], words),
  };
}

function typoForms(keys: readonly string[], words: readonly string[][]): string[] {
  const out = new Set<string>();
  for (const k of keys) {
    out.add(k);
    out.add(k.replace(/\p{N}+/gu, ''));
    out.add(withoutHeldLetters(k));
  }
  for (const ws of words) if (ws.length > 1) for (const w of ws) out.add(w);
  return [...out].filter((k) => k.length >= MIN_TYPO - 1);
}

function exactRungs(keys: readonly string[], forms: readonly SlotForms[], written: string): NameResolution | null {
  const has = (list: readonly string[]): boolean => keys.some((k) => list.includes(k));
  // The canonical name beats a former name: a replaced player's old name may be someone's new one.
  return (
    rung(
      'exact',
      forms.filter((f) => has(f.names)),
      written,
    ) ??
    rung(
      'exact',
      forms.filter((f) => has(f.formers)),
      written,
    ) ??
    rung(
      'alias',
      forms.filter((f) => has(f.aliases)),
      written,
    )
  );
}

/** "Bob because he lied": the longest run of leading words that is exactly a name. */
function leadingWords(name: string, forms: readonly SlotForms[], written: string): NameResolution | null {
  const words = name.split(' ');
  for (let n = Math.min(words.length - 1, MAX_LEADING_WORDS); n >= 1; n--) {
    const head = stripDecorations(words.slice(0, n).join(' '));
    const key = nameKey(head);
    if (key === '') continue;
    const keys = [key];
    const bare = withoutPossessive(head);
    if (bare !== null) keys.push(nameKey(bare));
    const found = exactRungs(keys, forms, written);
    if (found) return found;
  }
  return null;
}

function fuzzy(key: string, forms: readonly SlotForms[], matching: NameMatching, written: string): NameResolution {
  // Two letters are too few for a similarity score to mean anything.
  if (key.length < matching.minPartial) return unresolved('unknown', written, [], null);
  // A word of a name of several words counts as the name ("Balter" for VP Baltar), with the
  // same margin over every other player: a misspelled surname is still one player's.
  const words = (f: SlotForms): string[] =>
    key.length < MIN_FUZZY_WORD
      ? []
      : f.words.flatMap((ws) => (ws.length > 1 ? ws : [])).filter((w) => w.length >= MIN_FUZZY_WORD);
  const scored = forms
    .map((f) => ({ form: f, score: Math.max(...[...f.all, ...words(f)].map((k) => jaroWinkler(key, k))) }))
    .sort((a, b) => b.score - a.score);
  const best = scored[0]!;
  const runnerUp = scored[1];
  const second = runnerUp?.score ?? 0;
  const score = round(best.score);
  const epsilon = 1e-9;

  if (best.score + epsilon >= matching.fuzzyMin && best.score - second + epsilon >= matching.fuzzyMargin) {
    const candidates = runnerUp && runnerUp.score + epsilon >= matching.fuzzyMin ? [runnerUp.form.slot.name] : [];
    return { ...resolved('fuzzy', best.form.slot, written), candidates, score };
  }
  if (best.score + epsilon >= matching.fuzzyMin) {
    const close = scored.filter((s) => best.score - s.score < matching.fuzzyMargin - epsilon);
    return unresolved(
      'ambiguous',
      written,
      close.map((s) => s.form.slot.name),
      score,
    );
  }
  const suggestion = best.score + epsilon >= matching.fuzzyMin - SUGGESTION_SLACK ? [best.form.slot.name] : [];
  return unresolved('unknown', written, suggestion, suggestion.length > 0 ? score : null);
}

function rung(match: MatchKind, hits: readonly SlotForms[], written: string): NameResolution | null {
  if (hits.length === 0) return null;
  if (hits.length === 1) return resolved(match, hits[0]!.slot, written);
  const living = onlyLiving(match, hits, written);
  if (living) return living;
  return unresolved(
    'ambiguous',
    written,
    hits.map((h) => h.slot.name),
    null,
  );
}

/**
 * "PB" for PeaceBringer when Prolapsed Brain is dead: a reading that fits one living player
 * and only dead others is the living one's (a dead player takes no votes); the dead stay
 * listed as candidates. Two living players still go to review.
 */
function onlyLiving(match: MatchKind, hits: readonly SlotForms[], written: string): NameResolution | null {
  const living = hits.filter((h) => h.slot.alive);
  if (living.length !== 1) return null;
  const others = hits.filter((h) => h !== living[0]).map((h) => h.slot.name);
  return { ...resolved(match, living[0]!.slot, written), candidates: others };
}

function resolved(match: MatchKind, slot: Slot, written: string): NameResolution {
  return { match, target: slot.name, candidates: [], score: null, written, alive: slot.alive };
}

function unresolved(
  match: 'ambiguous' | 'unknown',
  written: string,
  candidates: string[],
  score: number | null,
): NameResolution {
  return { match, target: null, candidates, score, written, alive: null };
}

function round(n: number): number {
  return Math.round(n * 10000) / 10000;
}

/** A name, then the voter's next sentence: "zodiark. THIS IS L-1", "Bob! He lied". */
const SENTENCE_END = /[.!?]+\s+(?=\S)/u;
/**
 * Words that say the same name again: "X aka Y", "X a.k.a. Y", "X; Y", "X (Y)". Prose puts
 * a space after ";" and before "(": a name's own punctuation ("alert('n2')") has none.
 */
const RESTATES = /\s+a\.?k\.?a\.?\s+|\s*;\s+|\s+\(\s*|\s*\)(?:\s+|$)/iu;
const MAX_RESTATED = 4;
/** Longest text split into sentences or restatements; a vote target is a name, not a paragraph. */
const MAX_REMARKED = 200;

/**
 * "vote: zodiark. THIS IS L-1" (mafiascum game 1193 post #502): the first sentence is
 * the name, read on the whole ladder; what follows is talk, and may name other players
 * ("Bob. Carol, you too"). Only when that sentence names someone, from `minPartial`
 * letters ("J. Bob" is no vote for a J), and when two or more words follow it.
 */
function firstSentence(
  written: string,
  forms: readonly SlotForms[],
  matching: NameMatching,
  options: ResolveOptions,
  stripped: string,
): NameResolution | null {
  const text = written.slice(0, MAX_REMARKED);
  const end = SENTENCE_END.exec(text);
  if (!end) return null;
  const head = text.slice(0, end.index);
  if (nameKey(stripDecorations(head)).length < matching.minPartial) return null;
  // One word after the dot may be the rest of the name ("Mrs. Smyth"): a sentence has more.
  const after = text.slice(end.index + end[0].length).trim();
  if (after.split(/\s+/u).length < 2) return null;
  const found = resolve(head, forms, matching, options);
  return found.match === 'unknown' ? null : { ...found, written: stripped };
}

/**
 * "He who must not be named (Lord Voldemort)", "Shad aka Impoetic", "BBT;
 * BlueBloodedToffee" (mafiascum games 1393 post #15, 1857 post #2871, 1584 post #380):
 * the same player written twice, or a description and the name. Each part is read on the
 * whole ladder; it counts when the parts that name someone all name one player and one of
 * them names that player exactly or every part does. Two players named is ambiguous.
 * A name found after other words is read as `substring`, so it is shown.
 */
function restated(
  written: string,
  forms: readonly SlotForms[],
  matching: NameMatching,
  stripped: string,
): NameResolution | null {
  const parts = written
    .slice(0, MAX_REMARKED)
    .split(RESTATES)
    .filter((p) => nameKey(stripDecorations(p)) !== '');
  if (parts.length < 2 || parts.length > MAX_RESTATED) return null;
  const read = parts.map((p) => resolve(p, forms, matching, { trailingWords: false }));
  const named = new Set(read.flatMap((r) => (r.match === 'ambiguous' ? r.candidates : r.target ? [r.target] : [])));
  if (named.size > 1 || read.some((r) => r.match === 'ambiguous'))
    return unresolved('ambiguous', stripped, [...named], null);
  const sure = read.some((r) => r.match === 'exact' || r.match === 'alias');
  if (named.size === 0 || !(sure || read.every((r) => r.target !== null))) return null;
  const slot = forms.find((f) => named.has(f.slot.name))!.slot;
  const first = read[0]!;
  return first.target !== null ? { ...first, written: stripped } : resolved('substring', slot, stripped);
}
