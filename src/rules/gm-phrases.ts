import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { rulesetsDir } from './load-ruleset.js';
import { YamlSourceError } from './source-error.js';
import { readYaml } from './yaml-source.js';

/**
 * The phrases a GM writes when the game changes ("Day 2 begins", "Bob was lynched"), as
 * data: `rulesets/gm-phrases/default.yaml`, plus `<ruleset>.yaml` beside it for a game
 * family's own wording. Templates, not regular expressions (see the default file for the
 * syntax), so a phrase written by a GM can neither run away nor match more than it says.
 */
const Templates = z.array(z.string().min(1).max(300)).max(200).default([]);

export const GmPhrasesFile = z.strictObject({
  'day-start': Templates,
  'day-end': Templates,
  /** "Night 2 is over": the Day after that Night begins (its number is the Night's plus one). */
  'night-end': Templates,
  'heading-day-start': Templates,
  'heading-day-end': Templates,
  kill: Templates,
  modkill: Templates,
  replace: Templates,
  deadline: Templates,
  flip: Templates,
  /** "With 9 alive, it takes 5 to lynch": the new Day's majority (a Day opened without the word). */
  majority: Templates,
  /** "Bob has requested a replacement": a slot whose replacement the GM seeks (a later welcome's slot). */
  'replacement-sought': Templates,
  /** "Please welcome Ann": a newcomer the GM names without the slot (the slot sought before it). */
  welcome: Templates,
  /** "Mafia wins!": the game is over; the roles told after it are the survivors', no deaths. */
  'game-end': Templates,
  /**
   * The words of a death, by what it was: the structural death reader finds one of them
   * with the names, roles and Night/Day number around it, in any order.
   */
  deaths: z
    .strictObject({
      lynch: z.array(z.string().min(1).max(60)).max(100).default([]),
      'night-kill': z.array(z.string().min(1).max(60)).max(100).default([]),
      'day-kill': z.array(z.string().min(1).max(60)).max(100).default([]),
      modkill: z.array(z.string().min(1).max(60)).max(100).default([]),
      kill: z.array(z.string().min(1).max(60)).max(100).default([]),
    })
    .default({ lynch: [], 'night-kill': [], 'day-kill': [], modkill: [], kill: [] }),
  /** The helping verbs a death word may follow ("has been", "were"). */
  auxiliaries: z.array(z.string().min(1).max(40)).max(50).default([]),
  /** Words before a newcomer's name that are not part of it ("Aaaaand chamber replaces"). */
  fillers: z.array(z.string().min(1).max(40)).max(100).default([]),
  /** Words that start an action or a claim, never a death, after a name and role ("investigated", "claimed"). */
  'not-deaths': z.array(z.string().min(1).max(40)).max(100).default([]),
  nobody: z.array(z.string().min(1)).max(50).default([]),
  /** Words that stand for someone and are no forum name: "I replaced Future's post" brings in no "I". */
  pronouns: z.array(z.string().min(1).max(20)).max(50).default([]),
  hedges: z.array(z.string().min(1)).max(100).default([]),
  /** The hedges that make what comes before them a condition, even after the name ("Bob replaces Carol if she does not post"). */
  conditions: z.array(z.string().min(1)).max(50).default([]),
  zones: z.record(z.string().regex(/^[A-Z]{1,6}$/), z.string().min(1)).default({}),
});
export type GmPhrasesFile = z.infer<typeof GmPhrasesFile>;

export type PhraseKind =
  | 'day-start'
  | 'day-end'
  | 'night-end'
  | 'heading-day-start'
  | 'heading-day-end'
  | 'kill'
  | 'modkill'
  | 'replace'
  | 'deadline'
  | 'flip'
  | 'majority'
  | 'replacement-sought'
  | 'welcome'
  | 'game-end';
const PHRASE_KINDS: readonly PhraseKind[] = [
  'day-start',
  'day-end',
  'night-end',
  'heading-day-start',
  'heading-day-end',
  'kill',
  'modkill',
  'replace',
  'deadline',
  'flip',
  'majority',
  'replacement-sought',
  'welcome',
  'game-end',
];

export type Slot = 'player' | 'name' | 'day' | 'role' | 'time' | 'words' | 'n';

/** One template compiled: a whole-sentence pattern and the slots of its groups, in order. */
export interface Phrase {
  kind: PhraseKind;
  template: string;
  pattern: RegExp;
  slots: Slot[];
}

export type DeathCause = 'lynch' | 'night-kill' | 'day-kill' | 'modkill' | 'kill';
const DEATH_CAUSES: readonly DeathCause[] = ['lynch', 'night-kill', 'day-kill', 'modkill', 'kill'];

export interface GmPhrases {
  phrases: Phrase[];
  /** Each death word (lower case, single-spaced) with what it says the death was; longest first. */
  deathWords: { words: string; cause: DeathCause }[];
  auxiliaries: string[];
  fillers: ReadonlySet<string>;
  /** Lower case word starts: a flavour verb beginning with one is not a death. */
  notDeaths: readonly string[];
  nobody: ReadonlySet<string>;
  pronouns: ReadonlySet<string>;
  hedges: ReadonlySet<string>;
  conditions: ReadonlySet<string>;
  zones: Readonly<Record<string, string>>;
}

export class GmPhrasesError extends YamlSourceError {
  constructor(problems: ConstructorParameters<typeof YamlSourceError>[1]) {
    super('GM phrases file', problems);
  }
}

const SLOTS: Record<Slot, string> = {
  // Captures stop at sentence punctuation; the recogniser resolves the words to a name.
  player: '([^.!?;()\\n]{1,80}?)',
  // A newcomer may bring a group in brackets: "Perpetual Nonsense (SXTLHGaiden and Bert)",
  // or between commas: "adorkable, hydra of InflatablePie and esuriospiritus," (MafiaScum game 1379 post #316).
  name: '([^.!?;:()\\n,]{1,60}?(?:\\s*\\([^()\\n]{1,80}\\)|\\s*,\\s*(?:an?\\s+|the\\s+)?hydra\\s+(?:of|between)\\s+[^.!?;:()\\n,]{1,80},)?)',
  day: '(\\d{1,3}|[a-z]{3,12})',
  role: '([^.!?;:()\\n,]{1,60}?)',
  time: '([^\\n]{4,80}?)',
  words: '([^.!?\\n]{1,80}?)',
  n: '(\\d{1,3}|[a-z]{3,12})',
};

/** Why a template cannot be compiled, or null. */
export function templateProblem(template: string): string | null {
  try {
    compileTemplate('kill', template);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * Template to whole-sentence pattern. The template is split at white space outside groups
 * into parts; each part is literal text, placeholders and at most one group, glued
 * together ("{player}," is a name then a comma). Parts are joined by white space; an
 * optional part takes its white space with it, so "was [now] lynched" matches
 * "was lynched".
 */
export function compileTemplate(kind: PhraseKind, template: string): Phrase {
  const slots: Slot[] = [];
  const source = sequence(template, slots, template);
  return { kind, template, pattern: new RegExp(`^${source}$`, 'iu'), slots };
}

function sequence(text: string, slots: Slot[], whole: string): string {
  const parts: { source: string; optional: boolean }[] = [];
  let part = '';
  let depth = 0;
  for (const c of text.trim()) {
    if (c === '(' || c === '[') depth++;
    if (c === ')' || c === ']') depth--;
    if (depth < 0) throw new Error(`stray "${c}" in "${whole}"`);
    if (depth > 1) throw new Error(`groups cannot nest in "${whole}"`);
    if (depth === 0 && /\s/.test(c)) {
      if (part) parts.push(compilePart(part, slots, whole));
      part = '';
    } else {
      part += c;
    }
  }
  if (depth !== 0) throw new Error(`a group is not closed in "${whole}"`);
  if (part) parts.push(compilePart(part, slots, whole));
  if (parts.length === 0) throw new Error(`an empty phrase in "${whole}"`);
  // White space goes with the optional part beside it: before a required part is placed,
  // an optional one carries the space after it ("[the] deadline"), later the space before.
  let source = '';
  let placed = false;
  for (const p of parts) {
    if (!placed) source += p.optional ? `(?:${p.source}\\s+)?` : p.source;
    else source += p.optional ? `(?:\\s+${p.source})?` : `\\s+${p.source}`;
    placed ||= !p.optional;
  }
  return source;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compilePart(part: string, slots: Slot[], whole: string): { source: string; optional: boolean } {
  // A part that is one [optional] group is optional as a whole.
  if (part.startsWith('[') && part.endsWith(']') && part.indexOf(']') === part.length - 1) {
    return { source: group(part.slice(1, -1), slots, whole), optional: true };
  }
  let source = '';
  let i = 0;
  while (i < part.length) {
    const c = part[i]!;
    if (c === '{') {
      const end = part.indexOf('}', i);
      const slot = (end > i ? part.slice(i + 1, end) : '') as Slot;
      if (!Object.hasOwn(SLOTS, slot))
        throw new Error(
          `unknown placeholder "${part.slice(i, end + 1 || undefined)}" in "${whole}" (use {player}, {name}, {day}, {role}, {time}, {words} or {n})`,
        );
      source += SLOTS[slot];
      slots.push(slot);
      i = end + 1;
    } else if (c === '(' || c === '[') {
      const end = part.indexOf(c === '(' ? ')' : ']', i);
      source += group(part.slice(i + 1, end), slots, whole) + (c === '[' ? '?' : '');
      i = end + 1;
    } else if (c === ')' || c === ']' || c === '}') {
      throw new Error(`stray "${c}" in "${whole}"`);
    } else {
      source += escapeRegExp(c);
      i++;
    }
  }
  return { source, optional: false };
}

/** `a|b c|{day}`: one of the options, each a small sequence of its own. */
function group(inner: string, slots: Slot[], whole: string): string {
  const options = inner.split('|');
  if (options.some((o) => o.trim() === '')) throw new Error(`an empty option in "${whole}"`);
  return `(?:${options.map((o) => sequence(o, slots, whole)).join('|')})`;
}

/** The default phrases, with the ruleset's own file added where there is one. */
export function loadGmPhrases(ruleset?: string | null): GmPhrases {
  const dir = join(rulesetsDir(), 'gm-phrases');
  const files = [join(dir, 'default.yaml')];
  if (ruleset && /^[a-z0-9-]+$/.test(ruleset) && existsSync(join(dir, `${ruleset}.yaml`)))
    files.push(join(dir, `${ruleset}.yaml`));
  return compileGmPhrases(files.map((f) => parseGmPhrases(readFileSync(f, 'utf8'), f)));
}

/** Validates one phrases file; every bad template is a problem at its line. */
export function parseGmPhrases(text: string, file: string): GmPhrasesFile {
  const checked = GmPhrasesFile.superRefine((value, ctx) => {
    for (const kind of PHRASE_KINDS) {
      value[kind].forEach((t, index) => {
        const problem = templateProblem(t);
        if (problem) ctx.addIssue({ code: 'custom', path: [kind, index], message: problem });
      });
    }
  });
  const result = readYaml(checked, text, file);
  if (!result.ok) throw new GmPhrasesError(result.problems);
  return result.value;
}

export function compileGmPhrases(files: readonly GmPhrasesFile[]): GmPhrases {
  const phrases: Phrase[] = [];
  const nobody = new Set<string>();
  const pronouns = new Set<string>();
  const hedges = new Set<string>();
  const conditions = new Set<string>();
  const zones: Record<string, string> = {};
  const deathWords = new Map<string, DeathCause>();
  const auxiliaries = new Set<string>();
  const fillers = new Set<string>();
  const notDeaths = new Set<string>();
  const spaced = (w: string): string => w.trim().toLowerCase().replace(/\s+/g, ' ');
  for (const f of files) {
    for (const kind of PHRASE_KINDS) for (const t of f[kind]) phrases.push(compileTemplate(kind, t));
    for (const cause of DEATH_CAUSES) for (const w of f.deaths[cause]) deathWords.set(spaced(w), cause);
    for (const w of f.auxiliaries) auxiliaries.add(spaced(w));
    for (const w of f.fillers) fillers.add(spaced(w));
    for (const w of f['not-deaths']) notDeaths.add(spaced(w));
    for (const w of f.nobody) nobody.add(w.toLowerCase());
    for (const w of f.pronouns) pronouns.add(w.toLowerCase());
    for (const w of f.hedges) hedges.add(w.toLowerCase());
    for (const w of f.conditions) conditions.add(w.toLowerCase());
    Object.assign(zones, f.zones);
  }
  const byLength = (a: string, b: string): number => b.length - a.length;
  return {
    phrases,
    deathWords: [...deathWords].map(([words, cause]) => ({ words, cause })).sort((a, b) => byLength(a.words, b.words)),
    auxiliaries: [...auxiliaries].sort(byLength),
    fillers,
    notDeaths: [...notDeaths],
    nobody,
    pronouns,
    hedges,
    conditions,
    zones,
  };
}
