import jaroWinkler from 'talisman/metrics/jaro-winkler.js';
import type { MatchKind } from '../model/action.js';
import type { Roster, Slot } from '../model/roster.js';
import type { NameMatching } from '../rules/ruleset.js';
import { acronymOf, capName, nameKey, stripDecorations, withoutPossessive } from './name-form.js';

/**
 * Which player a written name means, climbing a ladder from the surest reading to the
 * loosest: exact (canonical or former name) → alias → unique prefix → unique substring
 * → acronym → Jaro-Winkler with a margin. A rung that finds several players stops the
 * climb as `ambiguous`: the GM decides, the parser never guesses.
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
}

/** How far below `fuzzyMin` a best guess may be and still be offered as a suggestion. */
const SUGGESTION_SLACK = 0.1;
const MEMO_SIZE = 1000;
const MAX_MEMO_KEY = 200;
/** Most words tried when a name is followed by other words. */
const MAX_LEADING_WORDS = 6;

export type NameResolver = (written: string, options?: ResolveOptions) => NameResolution;

/** A resolver for one roster: the slots' compare forms are built once, not per vote. */
export function nameResolver(roster: Roster, matching: NameMatching): NameResolver {
  const forms = roster.map(slotForms);
  // Posts repeat names; a small memo keeps a post of a thousand votes cheap.
  const memo = new Map<string, NameResolution>();
  return (written, options = {}) => {
    const key = `${options.trailingWords ?? true}\u0000${written}`;
    const known = memo.get(key);
    if (known) return { ...known, candidates: [...known.candidates] };
    const found = resolve(written, forms, matching, options);
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

function resolve(written: string, forms: readonly SlotForms[], matching: NameMatching, options: ResolveOptions): NameResolution {
  const stripped = stripDecorations(written);
  const name = capName(stripped);
  const key = nameKey(name);
  if (key === '' || forms.length === 0) return unresolved('unknown', stripped, [], null);

  const keys = [key];
  const bare = withoutPossessive(name);
  if (bare !== null) keys.push(nameKey(bare));
  const partial = key.length >= matching.minPartial;

  return (
    exactRungs(keys, forms, stripped) ??
    (partial ? rung('prefix', forms.filter((f) => f.all.some((k) => k.startsWith(key))), stripped) : null) ??
    (partial ? rung('substring', forms.filter((f) => f.all.some((k) => k.includes(key))), stripped) : null) ??
    (key.length >= 2 ? rung('acronym', forms.filter((f) => f.acronyms.includes(key)), stripped) : null) ??
    ((options.trailingWords ?? true) ? leadingWords(name, forms, stripped) : null) ??
    fuzzy(key, forms, matching, stripped)
  );
}

function slotForms(slot: Slot): SlotForms {
  const names = [nameKey(slot.name)];
  const formers = slot.formerNames.map(nameKey);
  const aliases = slot.aliases.map(nameKey);
  const acronyms = [slot.name, ...slot.aliases, ...slot.formerNames]
    .map(acronymOf)
    .filter((a): a is string => a !== null);
  return { slot, names, formers, aliases, all: [...names, ...formers, ...aliases], acronyms };
}

function exactRungs(keys: readonly string[], forms: readonly SlotForms[], written: string): NameResolution | null {
  const has = (list: readonly string[]): boolean => keys.some((k) => list.includes(k));
  // The canonical name beats a former name: a replaced player's old name may be someone's new one.
  return (
    rung('exact', forms.filter((f) => has(f.names)), written) ??
    rung('exact', forms.filter((f) => has(f.formers)), written) ??
    rung('alias', forms.filter((f) => has(f.aliases)), written)
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
  const scored = forms
    .map((f) => ({ form: f, score: Math.max(...f.all.map((k) => jaroWinkler(key, k))) }))
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
    return unresolved('ambiguous', written, close.map((s) => s.form.slot.name), score);
  }
  const suggestion = best.score + epsilon >= matching.fuzzyMin - SUGGESTION_SLACK ? [best.form.slot.name] : [];
  return unresolved('unknown', written, suggestion, suggestion.length > 0 ? score : null);
}

function rung(match: MatchKind, hits: readonly SlotForms[], written: string): NameResolution | null {
  if (hits.length === 0) return null;
  if (hits.length === 1) return resolved(match, hits[0]!.slot, written);
  return unresolved('ambiguous', written, hits.map((h) => h.slot.name), null);
}

function resolved(match: MatchKind, slot: Slot, written: string): NameResolution {
  return { match, target: slot.name, candidates: [], score: null, written, alive: slot.alive };
}

function unresolved(match: 'ambiguous' | 'unknown', written: string, candidates: string[], score: number | null): NameResolution {
  return { match, target: null, candidates, score, written, alive: null };
}

function round(n: number): number {
  return Math.round(n * 10000) / 10000;
}
