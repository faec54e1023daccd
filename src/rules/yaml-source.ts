import {
  isCollection,
  isMap,
  isScalar,
  LineCounter,
  parseDocument,
  visit,
  type Document,
  type Node,
  type YAMLMap,
} from 'yaml';
import type { z } from 'zod';
import { issueSentence, type SourceWords, unknownKeySentence } from './issue-sentence.js';
import type { SourceProblem } from './source-error.js';

type PathKey = PropertyKey;

/** Problems listed one by one; the rest are counted (a file with 20,000 unknown keys is one mistake). */
export const SHOWN_PROBLEMS = 20;

/**
 * How deeply lists and maps may nest. Rulesets, events and site profiles need a handful of
 * levels; the parser and the schema recurse per level, so a file 5,000 levels deep would end
 * in "Maximum call stack size exceeded". It is refused before it is parsed.
 */
export const MAX_YAML_DEPTH = 64;

/**
 * The first line where `text` nests lists and maps deeper than `max`, or null: one pass over
 * the text. Block levels are the indentation stack (each `- ` or `? ` entry opening one more),
 * flow levels the open `[` and `{` outside quotes and comments; block scalars' lines are text.
 */
export function tooDeepAt(text: string, max = MAX_YAML_DEPTH): number | null {
  const indents: number[] = [];
  let flow = 0;
  let scalarOf: number | null = null; // the indentation of the line whose block scalar this is
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let at = 0;
    while (at < line.length && line[at] === ' ') at++;
    if (scalarOf !== null) {
      if (at === line.length || at > scalarOf) continue;
      scalarOf = null;
    }
    const base = at;
    if (flow === 0) {
      if (at === line.length || line[at] === '#') continue;
      while (indents.length > 0 && indents[indents.length - 1]! >= at) indents.pop();
      indents.push(at);
      // `- - - x`: each entry marker on the line is one more level.
      while ((line[at] === '-' || line[at] === '?') && (line[at + 1] === ' ' || at + 1 === line.length)) {
        at += 2;
        indents.push(at);
        while (line[at] === ' ') at++;
      }
    }
    // Flow collections and quotes open only where a value starts; inside a flow, anywhere.
    let quote: string | null = null;
    let last: string | null = null;
    let deepest = flow;
    for (let j = at; j < line.length; j++) {
      const ch = line[j]!;
      if (quote !== null) {
        if (ch === '\\' && quote === '"') j++;
        else if (ch === quote) quote = null;
        continue;
      }
      const opens = flow > 0 || last === null || last === ':' || last === '-';
      if (ch === '#' && (j === 0 || line[j - 1] === ' ' || line[j - 1] === '\t')) break;
      if (opens && (ch === '"' || ch === "'")) quote = ch;
      else if (opens && (ch === '[' || ch === '{')) deepest = Math.max(deepest, ++flow);
      else if (flow > 0 && (ch === ']' || ch === '}')) flow--;
      if (ch !== ' ' && ch !== '\t') last = ch;
    }
    if (indents.length + deepest > max) return i + 1;
    if (flow === 0 && /(?:^|[\s:-])[|>][-+0-9]*\s*(?:#.*)?$/.test(line.slice(at))) scalarOf = base;
  }
  return null;
}

/**
 * Parses YAML text and validates it with a zod schema. Returns the data, or every
 * problem placed at its line and column (YAML syntax first; then schema issues).
 */
export function readYaml<S extends z.ZodType>(
  schema: S,
  text: string,
  file: string,
  /** The words problems are told in (what a list item is, what each field holds). */
  words: SourceWords = {},
): { ok: true; value: z.output<S> } | { ok: false; problems: SourceProblem[] } {
  const deep = tooDeepAt(text);
  if (deep !== null) {
    const message = `too deeply nested: lists and maps more than ${MAX_YAML_DEPTH} levels deep`;
    return { ok: false, problems: [{ file, line: deep, column: 1, message }] };
  }
  const lineCounter = new LineCounter();
  // yaml's own duplicate-key check compares every key with every other (quadratic in a
  // map's size); `duplicateKeys` below does it with one set per map.
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: false });
  const at = (offset: number, message: string): SourceProblem => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col, message };
  };

  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.map((e) => {
        const pos = e.linePos?.[0];
        // yaml appends " at line L, column C:" and a source excerpt; we print the place ourselves.
        const message = e.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '');
        return pos ? { file, line: pos.line, column: pos.col, message } : at(e.pos[0], message);
      }),
    };
  }
  const duplicates = duplicateKeys(doc).map((offset) => at(offset, 'Map keys must be unique'));
  if (duplicates.length > 0) return { ok: false, problems: shown(duplicates) };

  let data: unknown;
  try {
    data = doc.toJS();
  } catch (error) {
    // yaml refuses alias expansion that would blow up (a "billion laughs" bomb): bad input.
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, problems: [{ file, line: 1, column: 1, message }] };
  }
  const result = schema.safeParse(data);
  if (result.success) return { ok: true, value: result.data };

  const problems: SourceProblem[] = [];
  const keys = new KeyPlaces(doc);
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        problems.push(at(keys.offset(issue.path, key), unknownKeySentence(key, issue.path, data, schema)));
      }
      continue;
    }
    problems.push(at(nodeOffset(doc, issue.path, keys), issueSentence(issue, data, words)));
  }
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return { ok: false, problems: shown(problems) };
}

/** The first SHOWN_PROBLEMS problems, and one more entry counting the rest (`omitted`). */
function shown(problems: SourceProblem[]): SourceProblem[] {
  if (problems.length <= SHOWN_PROBLEMS) return problems;
  const rest = problems.length - SHOWN_PROBLEMS;
  const next = problems[SHOWN_PROBLEMS]!;
  return [
    ...problems.slice(0, SHOWN_PROBLEMS),
    { ...next, message: `and ${rest.toLocaleString('en-US')} more problems like these`, omitted: rest },
  ];
}

/** The offsets of keys that repeat a key earlier in the same map. */
function duplicateKeys(doc: Document): number[] {
  const found: number[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const key = `${typeof pair.key.value}:${String(pair.key.value)}`;
        if (seen.has(key)) found.push(pair.key.range?.[0] ?? 0);
        seen.add(key);
      }
    },
  });
  return found;
}

/**
 * The start of the node at `path`. A missing key points at the key of the map that
 * lacks it (`threshold:` when `threshold.denominator` is missing), or at the list item;
 * a map or list that is wrong as a whole points at its key (`veto:`), a scalar at itself.
 */
function nodeOffset(doc: Document, path: readonly PathKey[], keys: KeyPlaces): number {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as unknown[], true) as Node | undefined;
    if (!node?.range) continue;
    const owner = path[n - 1];
    if ((n < path.length || isCollection(node)) && typeof owner === 'string')
      return keys.offset(path.slice(0, n - 1), owner);
    return node.range[0];
  }
  return 0;
}

/**
 * Where each key of a map starts, indexed once per map: an unknown key is reported at the key
 * itself, and 20,000 of them cost one pass over the map, not one pass each.
 */
class KeyPlaces {
  readonly #doc: Document;
  readonly #index = new Map<YAMLMap, Map<string, number>>();

  constructor(doc: Document) {
    this.#doc = doc;
  }

  offset(path: readonly PathKey[], key: string): number {
    const map = path.length === 0 ? this.#doc.contents : this.#doc.getIn(path as unknown[], true);
    if (isMap(map)) {
      let places = this.#index.get(map);
      if (!places) {
        places = new Map();
        for (const pair of map.items) {
          const k = isScalar(pair.key) ? String(pair.key.value) : null;
          if (k !== null && pair.key !== null && (pair.key as Node).range && !places.has(k))
            places.set(k, (pair.key as Node).range![0]);
        }
        this.#index.set(map, places);
      }
      const found = places.get(key);
      if (found !== undefined) return found;
    }
    return nodeOffset(this.#doc, path, this);
  }
}
