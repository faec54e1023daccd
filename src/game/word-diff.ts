/** One run of a word diff: kept, removed (only in the old text) or added (only in the new). */
export interface DiffPart {
  op: 'same' | 'del' | 'ins';
  text: string;
}

/** Words and the spaces between them, so joining the parts gives the text back. */
function tokens(text: string): string[] {
  return text.match(/\s+|[^\s]+/g) ?? [];
}

/**
 * A word-level diff of two revisions of a post (longest common subsequence). Posts are
 * short; past `limit` tokens a side, the texts are shown as one removal and one addition.
 */
export function wordDiff(before: string, after: string, limit = 2000): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  const parts: DiffPart[] = [];
  const push = (op: DiffPart['op'], text: string): void => {
    const last = parts.at(-1);
    if (last && last.op === op) last.text += text;
    else if (text) parts.push({ op, text });
  };
  if (a.length > limit || b.length > limit) {
    push('del', before);
    push('ins', after);
    return parts;
  }
  // lcs[i][j]: length of the LCS of a[i..] and b[j..].
  const lcs: Uint32Array[] = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    const row = lcs[i]!;
    const next = lcs[i + 1]!;
    for (let j = b.length - 1; j >= 0; j--) {
      row[j] = a[i] === b[j] ? next[j + 1]! + 1 : Math.max(next[j]!, row[j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push('same', a[i]!);
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) {
      push('del', a[i]!);
      i++;
    } else {
      push('ins', b[j]!);
      j++;
    }
  }
  while (i < a.length) push('del', a[i++]!);
  while (j < b.length) push('ins', b[j++]!);
  return parts;
}
