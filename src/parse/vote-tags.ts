import type { VoteGrammar } from '../rules/ruleset.js';
import { targetAction } from './grammar-target.js';
import type { TextSpan, WrittenAction } from './grammar-types.js';
import { isTargetless, type Vocabulary } from './grammar-vocabulary.js';
import { cleanArg, clip, MAX_ARG } from './grammar-words.js';
import type { OwnLine } from './own-text.js';

/**
 * Typed vote tags (`[vote]Bob[/vote]`, `[unvote][/unvote]`, `[v]`/`[uv]`, any one-word
 * keyword as a tag: `[hammer][/hammer]`): explicit vote markers, read whether the forum
 * renders the tag or leaves it as text, with no bold and no colon needed.
 */

export interface TagAction {
  action: WrittenAction;
  inSpoiler: boolean;
}

/** A typed tag, opening or closing: `[vote]`, `[/vote]`, `[UV]`. */
const TAG = /\[(\/?)(\p{L}{1,20})\]/gu;

/**
 * Typed vote tags on a line: `[vote]Bob[/vote]`, `[unvote][/unvote]`, a lone `[unvote]`.
 * An opening tag with no closing tag on the line is text, except a targetless one.
 */
export function tagActions(
  line: OwnLine,
  text: string,
  lineIndex: number,
  grammar: VoteGrammar,
  vocab: Vocabulary,
): TagAction[] {
  if (!text.includes('[')) return [];
  const out: TagAction[] = [];
  // Only the grammar's tags; a tag's closing tag must be the next of them ("[vote]Bob[/vote]").
  const tokens = [...text.matchAll(TAG)].filter((t) => vocab.tags.has(t[2]!.toLowerCase()));
  for (let k = 0; k < tokens.length; k++) {
    const open = tokens[k]!;
    if (open[1] === '/') continue;
    const name = open[2]!.toLowerCase();
    const kind = vocab.tags.get(name)!;
    const next = tokens[k + 1];
    const close = next && next[1] === '/' && next[2]!.toLowerCase() === name ? next : undefined;
    if (!close && kind !== 'unvote' && !isTargetless(kind)) continue;
    const start = open.index;
    const end = close ? close.index + close[0].length : open.index + open[0].length;
    const inner = close ? cleanArg(text.slice(open.index + open[0].length, close.index)) : '';
    const raw = clip(text.slice(start, end));
    const action = targetAction(kind, inner.slice(0, MAX_ARG), raw, { line: lineIndex, start, end }, grammar, vocab);
    if (action) out.push({ action: { ...action, marker: 'tag' }, inSpoiler: runAt(line, start)?.inSpoiler ?? false });
    if (close) k++;
  }
  return out;
}

/**
 * Typed closing tags of the grammar's vote tags that close nothing ("VOTE: kondi[/unvote]",
 * a mistyped `[/vote]`): blanked, so the closer reads as neither an action nor a name.
 */
export function strayClosers(
  text: string,
  lineIndex: number,
  vocab: Vocabulary,
  tags: readonly TagAction[],
): TextSpan[] {
  if (!text.includes('[/')) return [];
  const out: TextSpan[] = [];
  for (const m of text.matchAll(TAG)) {
    if (m[1] !== '/' || !vocab.tags.has(m[2]!.toLowerCase())) continue;
    const start = m.index;
    const end = start + m[0].length;
    if (tags.some((t) => t.action.span.start <= start && t.action.span.end >= end)) continue;
    out.push({ line: lineIndex, start, end });
  }
  return out;
}

/** The text with the spans blanked out (same length, so offsets still hold). */
export function maskSpans(text: string, spans: readonly TextSpan[]): string {
  const parts: string[] = [];
  let pos = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.start < pos) continue;
    parts.push(text.slice(pos, s.start), ' '.repeat(s.end - s.start));
    pos = s.end;
  }
  parts.push(text.slice(pos));
  return parts.join('');
}

/** The run holding offset `pos` of the line's text. */
function runAt(line: OwnLine, pos: number): OwnLine[number] | undefined {
  let at = 0;
  for (const run of line) {
    at += run.text.length;
    if (pos < at) return run;
  }
  return undefined;
}
