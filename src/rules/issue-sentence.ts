import jaroWinkler from 'talisman/metrics/jaro-winkler.js';
import { z } from 'zod';

/** The words a file's problems are told in: what one list item is, and what each field holds. */
export interface SourceWords {
  /** One item of a top-level list ("event"). */
  item?: string;
  /** Field name -> what it holds, shown beside a missing or wrong field ("the new player's name"). */
  fields?: Readonly<Record<string, string>>;
}

type Issue = z.core.$ZodIssue;
type Key = PropertyKey;

/**
 * A validator's issue as a sentence in the project's words: the one place zod's messages
 * ("Invalid discriminator value. Expected ...", "expected string, received undefined") are
 * turned into what is wrong and how to fix it. The place (file:line:column) is added by
 * the caller; `data` is what was parsed, to quote the value at fault. Messages a schema wrote itself ("unknown time zone") are kept.
 */
export function issueSentence(issue: Issue, data: unknown, words: SourceWords = {}): string {
  const path = issue.path;
  const field = fieldName(path);
  const hint = (key: Key | undefined): string => {
    const h = typeof key === 'string' ? words.fields?.[key] : undefined;
    return h ? ` (${h})` : '';
  };
  const value = valueAt(data, path);
  const last = path.at(-1);
  // A message the schema wrote itself is already in the project's words.
  if (issue.message !== zodDefault(issue, value)) return field ? `${pathText(path)}: ${issue.message}` : issue.message;
  switch (issue.code) {
    case 'invalid_union': {
      const options = (issue as { options?: unknown[] }).options;
      if ((issue as { note?: string }).note !== 'No matching discriminator' || !options) break;
      const of = ownerWord(path, words);
      const shown = value === undefined ? `no \`${field}:\`` : `${field} ${quote(value)}`;
      const close = typeof value === 'string' ? nearest(value, options.map(String)) : null;
      const guess = close ? ` (did you mean '${close}'?)` : '';
      return `${shown} is not ${article(of)} ${of} ${String(last)}${guess}; use one of ${options.join(', ')}`;
    }
    case 'invalid_type': {
      const expected = typeWords(issue.expected);
      if (path.length === 0 && value == null)
        return `the file is empty; it should be ${expected}${words.item ? ` of ${words.item}s` : ''}`;
      if (path.length === 0)
        return `the file should be ${expected}${words.item ? ` of ${words.item}s` : ''}, not ${described(value)}`;
      if (value === undefined) return `${whose(data, path, words)} needs \`${field}:\`${hint(last)}`;
      return `\`${field}:\` should be ${expected}${hint(last)}, not ${described(value)}`;
    }
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const bound = Number(small ? issue.minimum : issue.maximum);
      if (issue.origin === 'string' && small && bound === 1) return `\`${field}:\` is empty${hint(last)}`;
      const inclusive = issue.inclusive !== false;
      const limit = small ? (inclusive ? 'at least' : 'more than') : inclusive ? 'at most' : 'less than';
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint')
        return `\`${field}:\` should be ${limit} ${bound}${hint(last)}, not ${String(value)}`;
      const unit = issue.origin === 'string' ? 'characters' : 'items';
      return `\`${field}:\` should have ${limit} ${bound} ${unit}${hint(last)}`;
    }
    case 'invalid_value': {
      const values = issue.values.map(String);
      const close = typeof value === 'string' ? nearest(value, values) : null;
      return `${field} ${quote(value)} is not one of ${values.join(', ')}${close ? ` (did you mean '${close}'?)` : ''}`;
    }
    case 'invalid_format': {
      if (issue.format === 'datetime')
        return `\`${field}:\` should be an ISO 8601 time with its offset (like 2024-05-01T18:00:00Z or 2024-05-01T20:00:00+02:00), not ${described(value)}`;
      return `\`${field}:\` ${described(value)} is not a valid ${issue.format}`;
    }
    case 'unrecognized_keys':
      // Reported one key at a time by the caller (each at its own line): see unknownKeySentence.
      break;
    default:
      break;
  }
  return field ? `${pathText(path)}: ${issue.message}` : issue.message;
}

/** A key the map at `path` does not take, with the keys it does. */
export function unknownKeySentence(key: string, path: readonly Key[], data: unknown, schema: z.ZodType): string {
  const where = `${fieldName([...path, key])}: `;
  const known = keysAt(schema, data, path);
  const close = known ? nearest(key, known) : null;
  const takes = known?.length ? `; ${close ? `did you mean \`${close}\`? ` : ''}known here: ${known.join(', ')}` : '';
  return `${where}unknown key "${key}"${takes}`;
}

function pathText(path: readonly Key[]): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i === 0 ? '' : '.'}${String(k)}`)).join('');
}

/** The field as the person sees it: its keys after the list item it is in (`by`, `threshold.kind`). */
function fieldName(path: readonly Key[]): string {
  let from = 0;
  for (let i = 0; i < path.length; i++) if (typeof path[i] === 'number') from = i + 1;
  return from === path.length ? pathText(path) : pathText(path.slice(from));
}

/** What a discriminated map is: its key's name (`threshold`), or the file's item word (`event`). */
function ownerWord(path: readonly Key[], words: SourceWords): string {
  const owner = path.at(-2);
  return typeof owner === 'string' ? owner : (words.item ?? 'item');
}

/** Who lacks a key: "a replace event", "`threshold`", "the file". */
function whose(data: unknown, path: readonly Key[], words: SourceWords): string {
  const parent = path.slice(0, -1);
  const owner = valueAt(data, parent) as Record<string, unknown> | undefined;
  const kind = owner && typeof owner === 'object' ? owner.kind : undefined;
  const word = typeof parent.at(-1) === 'number' ? (words.item ?? 'item') : null;
  if (typeof kind === 'string') return `${article(kind)} ${kind} ${word ?? String(parent.at(-1))}`;
  if (word) return `${word} ${Number(parent.at(-1)) + 1}`;
  return parent.length ? `\`${pathText(parent)}\`` : 'the file';
}

const english = z.locales.en();
/** What zod itself would say: a message that differs was written by the schema. */
function zodDefault(issue: Issue, input: unknown): string | undefined {
  // zod drops the input from its issues; its message was made with it.
  const made = english.localeError({ ...issue, input } as never);
  return typeof made === 'string' ? made : made?.message;
}

function typeWords(expected: string): string {
  switch (expected) {
    case 'string':
      return 'text';
    case 'number':
      return 'a number';
    case 'int':
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'a list';
    case 'object':
      return 'a map of keys';
    case 'null':
      return 'null';
    default:
      return expected;
  }
}

function described(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return `the text ${quote(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean')
    return `${typeof value === 'number' ? 'the number ' : ''}${value}`;
  if (Array.isArray(value)) return 'a list';
  return 'a map of keys';
}

function quote(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `'${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`;
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/** The closest of `options` to a misspelt `word`, when one is close. */
function nearest(word: string, options: readonly string[]): string | null {
  let best: string | null = null;
  let score = 0.8;
  for (const o of options) {
    const s = jaroWinkler(word.toLowerCase(), o.toLowerCase());
    if (s > score) [best, score] = [o, s];
  }
  return best;
}

function valueAt(data: unknown, path: readonly Key[]): unknown {
  let v = data;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<Key, unknown>)[k];
  }
  return v;
}

interface Def {
  type: string;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  options?: z.ZodType[];
  discriminator?: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  valueType?: z.ZodType;
}
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The keys the map at `path` takes, following the schema along the data (a union by its discriminator). */
function keysAt(schema: z.ZodType, data: unknown, path: readonly Key[]): string[] | null {
  let s: z.ZodType | undefined = schema;
  for (let i = 0; s && i <= path.length; ) {
    const def = defOf(s);
    if (def.innerType) s = def.innerType;
    else if (def.type === 'pipe') s = def.in;
    else if (def.type === 'union') {
      const here = valueAt(data, path.slice(0, i)) as Record<string, unknown> | undefined;
      const d = def.discriminator;
      s = def.options?.find((o) => {
        const shape = defOf(o).shape;
        const lit = (d && shape?.[d] ? defOf(shape[d]) : null) as { values?: unknown[]; entries?: object } | null;
        const values = lit?.values ?? (lit?.entries ? Object.values(lit.entries) : undefined);
        return d && here && values?.includes(here[d]);
      });
    } else if (i === path.length) return def.shape ? Object.keys(def.shape) : null;
    else if (def.type === 'array') [s, i] = [def.element, i + 1];
    else if (def.type === 'object') [s, i] = [def.shape?.[String(path[i])], i + 1];
    else if (def.type === 'record') [s, i] = [def.valueType, i + 1];
    else return null;
  }
  return null;
}
