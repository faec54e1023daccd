import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { z } from 'zod';
import { ActionKind, MatchKind, ReviewReason, ViolationKind } from '../../src/model/action.js';
import { rulesetsDir } from '../../src/rules/load-ruleset.js';

/*
 * The parse-case tables: fixtures/parse-cases/<engine>.yaml, one real-looking post body
 * per case (the inside of the engine's body element), read through `votal parse`.
 */

const ROOT = join(import.meta.dirname, '../..');
const CASES_DIR = join(ROOT, 'fixtures/parse-cases');

/** The engines a case may be written in (vbulletin.yaml picks vB3 or vB4 per case). */
const CaseEngine = z.enum(['xenforo2', 'phpbb', 'proboards', 'gog', 'vbulletin3', 'vbulletin4', 'vbulletin5']);

/**
 * What a case covers, as `point:topic`. The five points of issue #4: the vote grammar,
 * reading a post as a moderator does, names, participation rules, GM corrections.
 */
export const TOPICS = {
  grammar: [
    'keywords',
    'no-lynch',
    'sleep',
    'hammer',
    'filibuster',
    'veto',
    'forgive',
    'abstain',
    'bold-required',
    'bold-optional',
    'tag',
    'colon',
    'own-line',
    'spoiler',
    'empty-vote',
    'side-vote',
  ],
  reading: [
    'quote',
    'nested-quote',
    'broken-quote',
    'spoiler',
    'strike',
    'code',
    'signature',
    'vote-count',
    'in-order',
    'unvote-vote-run',
    'bold-chatter',
    'decoration',
    'mention',
    'colour',
    'size',
  ],
  names: [
    'exact',
    'alias',
    'replacement',
    'prefix',
    'substring',
    'acronym',
    'fuzzy',
    'ambiguous',
    'unknown',
    'dead',
    'not-a-player',
    'case',
    'accent',
    'punctuation',
  ],
  rules: [
    'image',
    'smilie',
    'emoji',
    'external-link',
    'mention-link',
    'quote-source-link',
    'internal-link',
    'code',
    'edit',
    'non-english',
    'short-text',
    'quoted-language',
    'vote-lines-removed',
    'names-removed',
    'consequence',
  ],
  gm: ['target', 'ignore', 'count-anyway'],
} as const;
export type Point = keyof typeof TOPICS;
const ALL_TOPICS = new Set(Object.entries(TOPICS).flatMap(([p, ts]) => ts.map((t) => `${p}:${t}`)));

const Topic = z
  .string()
  .refine((t) => ALL_TOPICS.has(t), { message: 'not a known point:topic (see TOPICS in load-cases.ts)' });

const ExpectedAction = z.strictObject({
  kind: ActionKind,
  target: z.string().nullable(),
  match: MatchKind,
  raw: z.string().optional(),
  candidates: z.array(z.string()).optional(),
  /** Default `parsed`: every action is checked for where it came from. */
  source: z.enum(['parsed', 'gm']).default('parsed'),
});

const ExpectedEffect = z.strictObject({
  kind: z.enum(['none', 'vote', 'unvote', 'review']),
  target: z.string().nullable().default(null),
  reason: ReviewReason.nullable().default(null),
  /** `review` after an explicit unvote in the same post: the old vote is withdrawn meanwhile. */
  unvoted: z.literal(true).optional(),
});

/**
 * Where a case comes from. A case ported from another vote counter names its repository,
 * the file and the test (or, for a moderator's ruling written down by its authors, the
 * game and post); `commit` pins the version read. A case from Votal's own replays of real
 * games names the issue instead.
 */
const Source = z.union([
  z.strictObject({
    repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'owner/name'),
    commit: z
      .string()
      .regex(/^[0-9a-f]{7,40}$/)
      .optional(),
    file: z.string().min(1),
    test: z.string().min(1),
    /** Where Votal's reading differs from the source's expectation, and why. */
    differs: z.string().optional(),
  }),
  z.strictObject({ issue: z.string().regex(/^#\d+$/), game: z.string().min(1) }),
]);

const ExpectedViolation = z.strictObject({ kind: ViolationKind, detail: z.string().optional() });

/** Who plays: `votal parse --players`, `--dead`, `--replaced`. */
const Cast = {
  players: z.string().min(1).optional(),
  dead: z.string().optional(),
  replaced: z.string().optional(),
};

export const ParseCase = z.strictObject({
  /** Read as a rule: "phpBB: a vote inside a nested quote is not a vote". */
  name: z.string().min(8),
  /** Where the case comes from (another project's test, a real game). */
  source: Source.optional(),
  /** Which engine rendered the body; defaults to the file's. */
  engine: CaseEngine.optional(),
  covers: z.array(Topic).min(1),
  html: z.string().min(1),
  ...Cast,
  ruleset: z.string().optional(),
  /** Ruleset fields changed for this case (merged into the ruleset file). */
  rules: z.record(z.string(), z.unknown()).optional(),
  /** The forum's edit note for the post. */
  edit: z.string().optional(),
  /** A GM correction (`votal parse --correct`): a player, the No Lynch name, or `none`. */
  correct: z.string().optional(),
  /**
   * A known gap outside the parser (an adapter's markup map): the case states what a
   * moderator reads and is expected to fail until the gap is closed.
   */
  gap: z.string().optional(),
  expect: z.strictObject({
    actions: z.array(ExpectedAction),
    effect: ExpectedEffect,
    violations: z.array(ExpectedViolation).default([]),
  }),
});
export type ParseCase = z.infer<typeof ParseCase>;

const CaseFile = z.strictObject({
  engine: CaseEngine.optional(),
  /** The forum's address (`votal parse --url`): links to it are internal. */
  url: z.string().url(),
  ruleset: z.string().default('plurality'),
  ...Cast,
  players: z.string().min(1),
  cases: z.array(z.unknown()).min(1),
});

export interface LoadedCase extends ParseCase {
  file: string;
  engine: z.infer<typeof CaseEngine>;
  url: string;
  ruleset: string;
  players: string;
}

/** Every case of every file, validated; a bad case names its file and its name (or index). */
export function loadCases(dir: string = CASES_DIR): Map<string, LoadedCase[]> {
  const out = new Map<string, LoadedCase[]>();
  for (const f of readdirSync(dir)
    .filter((x) => /\.ya?ml$/.test(x))
    .sort()) {
    const file = basename(f);
    let raw: unknown;
    try {
      raw = parseYaml(readFileSync(join(dir, f), 'utf8'));
    } catch (e) {
      throw new Error(`${file}: not YAML: ${(e as Error).message}`);
    }
    const head = CaseFile.safeParse(raw);
    if (!head.success) throw new Error(`${file}: ${problems(head.error)}`);
    const seen = new Set<string>();
    const cases = head.data.cases.map((c, i): LoadedCase => {
      const label =
        typeof (c as { name?: unknown })?.name === 'string'
          ? `case "${(c as { name: string }).name}"`
          : `case #${i + 1}`;
      const parsed = ParseCase.safeParse(c);
      if (!parsed.success) throw new Error(`${file}: ${label}: ${problems(parsed.error)}`);
      const pc = parsed.data;
      if (seen.has(pc.name)) throw new Error(`${file}: ${label}: the name is used twice`);
      seen.add(pc.name);
      const engine = pc.engine ?? head.data.engine;
      if (!engine) throw new Error(`${file}: ${label}: no engine (the file names none, so each case must)`);
      const rulesetName = pc.ruleset ?? head.data.ruleset;
      // A case's own cast replaces the file's; an empty string clears it.
      const dead = pc.dead ?? head.data.dead;
      const replaced = pc.replaced ?? head.data.replaced;
      return {
        ...pc,
        file,
        engine,
        url: head.data.url,
        ruleset: pc.rules ? rulesetVariant(rulesetName, pc.rules) : rulesetName,
        players: pc.players ?? head.data.players,
        ...(dead ? { dead } : {}),
        ...(replaced ? { replaced } : {}),
      };
    });
    out.set(file, cases);
  }
  return out;
}

function problems(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ');
}

/**
 * A shipped ruleset with some fields changed, written to a file so the case still goes
 * through `votal parse --ruleset FILE`. Objects merge; lists and values replace.
 */
function rulesetVariant(name: string, change: Record<string, unknown>): string {
  const base = parseYaml(readFileSync(join(rulesetsDir(), `${name}.yaml`), 'utf8')) as Record<string, unknown>;
  const text = stringifyYaml(merge(base, change));
  const dir = join(tmpdir(), 'votal-parse-cases');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.yaml`);
  writeFileSync(path, text);
  return path;
}

function merge(base: Record<string, unknown>, change: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(change)) {
    const b = out[k];
    out[k] = isObject(b) && isObject(v) ? merge(b, v) : v;
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
