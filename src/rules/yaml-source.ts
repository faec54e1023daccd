import { isCollection, isMap, isScalar, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { z } from 'zod';
import { issueSentence, type SourceWords, unknownKeySentence } from './issue-sentence.js';
import type { SourceProblem } from './source-error.js';

type PathKey = PropertyKey;

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
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true });
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
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        problems.push(at(keyOffset(doc, issue.path, key), unknownKeySentence(key, issue.path, data, schema)));
      }
      continue;
    }
    problems.push(at(nodeOffset(doc, issue.path), issueSentence(issue, data, words)));
  }
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return { ok: false, problems };
}

/**
 * The start of the node at `path`. A missing key points at the key of the map that
 * lacks it (`threshold:` when `threshold.denominator` is missing), or at the list item;
 * a map or list that is wrong as a whole points at its key (`veto:`), a scalar at itself.
 */
function nodeOffset(doc: Document, path: readonly PathKey[]): number {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as unknown[], true) as Node | undefined;
    if (!node?.range) continue;
    const owner = path[n - 1];
    if ((n < path.length || isCollection(node)) && typeof owner === 'string')
      return keyOffset(doc, path.slice(0, n - 1), owner);
    return node.range[0];
  }
  return 0;
}

/** An unknown key is reported at the key itself, not at the map holding it. */
function keyOffset(doc: Document, path: readonly PathKey[], key: string): number {
  const map = path.length === 0 ? doc.contents : doc.getIn(path as unknown[], true);
  if (isMap(map)) {
    for (const pair of map.items) {
      if (isScalar(pair.key) && String(pair.key.value) === key && pair.key.range) return pair.key.range[0];
    }
  }
  return nodeOffset(doc, path);
}
