/**
 * A compound CSS selector (tag, #id, .class, [attr], [attr=v], [attr^=v], [attr*=v],
 * [attr$=v], [attr~=v]; comma lists; no combinators), matched on a tag name and its
 * attributes as the parser opens the tag, before any DOM exists: the page scan tries
 * it on every open tag of the page.
 */
type AttrTest = { name: string; op: '' | '=' | '^=' | '*=' | '$=' | '~='; value: string };
interface Compound {
  tag: string | null;
  id: string | null;
  classes: string[];
  attrs: AttrTest[];
}

export interface CompoundSelector {
  matches(tag: string, attribs: Readonly<Record<string, string>>): boolean;
  /** Per alternative, what a tag must have to possibly match: its name and a literal of its source text. */
  readonly prefilters: readonly Prefilter[];
}

export interface Prefilter {
  /** The tag name, lower case; null for any tag. */
  tag: string | null;
  /**
   * A class name, id or attribute value the tag's source text must contain (case as
   * written), or null when the selector names none. Attribute names are never used:
   * HTML writes them in any case.
   */
  needle: Literal | null;
}

/** A literal of a tag's source, and whether it must start or end a value (or a class word) there. */
export interface Literal {
  text: string;
  /** Preceded by a quote, `=` or white space (a class name, an id, `[a=v]`, `[a^=v]`, `[a~=v]`). */
  start: boolean;
  /** Followed by a quote, white space or the tag's end (a class name, an id, `[a=v]`, `[a$=v]`, `[a~=v]`). */
  end: boolean;
}

export function compileCompound(selectorList: string): CompoundSelector {
  const alternatives = selectorList
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parseCompound);
  // Alternatives by tag name, so most tags are turned away by one map lookup.
  const byTag = new Map<string, Compound[]>();
  const anyTag: Compound[] = [];
  for (const c of alternatives) {
    if (c.tag === null) anyTag.push(c);
    else byTag.set(c.tag, [...(byTag.get(c.tag) ?? []), c]);
  }
  return {
    prefilters: alternatives.map(prefilter),
    matches: (tag, attribs) => {
      const list = byTag.get(tag);
      if (list) for (const c of list) if (matchOne(c, tag, attribs)) return true;
      for (const c of anyTag) if (matchOne(c, tag, attribs)) return true;
      return false;
    },
  };
}

/** The longest literal an alternative requires: the rarest cheap test of a tag's source. */
function prefilter(c: Compound): Prefilter {
  const word = (text: string): Literal => ({ text, start: true, end: true });
  const literals = [
    ...c.classes.map(word),
    ...(c.id !== null ? [word(c.id)] : []),
    ...c.attrs
      .filter((a) => a.op !== '')
      .map((a) => ({ text: a.value, start: a.op !== '*=' && a.op !== '$=', end: a.op !== '*=' && a.op !== '^=' })),
  ];
  const needle =
    literals.filter((l) => l.text !== '' && !/[&"'<>]/.test(l.text)).sort((a, b) => b.text.length - a.text.length)[0] ??
    null;
  return { tag: c.tag, needle };
}

/**
 * Whether a tag's source text (`<` to `>`, no entity in it) holds the literal where a
 * value or class word holds it: a tag that does not can never match the selector.
 */
export function sourceHolds(source: string, l: Literal): boolean {
  const n = l.text.length;
  for (let i = source.indexOf(l.text); i >= 0; i = source.indexOf(l.text, i + 1)) {
    if (l.start && !opensValue(source.charCodeAt(i - 1))) continue;
    if (l.end && !closesValue(source.charCodeAt(i + n))) continue;
    return true;
  }
  return false;
}

/** `"`, `'`, `=` or white space: what stands before a value (or a class word inside one). */
function opensValue(c: number): boolean {
  return c === 34 || c === 39 || c === 61 || isSpace(c);
}

/** `"`, `'`, white space, `/` or `>`: what may stand after one. */
function closesValue(c: number): boolean {
  return c === 34 || c === 39 || c === 47 || c === 62 || isSpace(c);
}

function parseCompound(s: string): Compound {
  if (/[\s>+~]/.test(s.replace(/\[[^\]]*\]/g, ''))) {
    throw new Error(`"${s}" is not a compound selector (no combinators in page scan selectors)`);
  }
  const c: Compound = { tag: null, id: null, classes: [], attrs: [] };
  const re =
    /^([a-zA-Z][\w-]*|\*)|#([\w-]+)|\.([\w-]+)|\[\s*([\w-]+)\s*(?:([~^*$]?=)\s*(?:"([^"]*)"|'([^']*)'|([^\]\s]*))\s*)?\]/y;
  let pos = 0;
  while (pos < s.length) {
    re.lastIndex = pos;
    const m = re.exec(pos === 0 ? s : s.slice(0));
    if (!m || m.index !== pos) throw new Error(`cannot read selector "${s}" at "${s.slice(pos)}"`);
    if (m[1]) c.tag = m[1] === '*' ? null : m[1].toLowerCase();
    else if (m[2]) c.id = m[2];
    else if (m[3]) c.classes.push(m[3]);
    else if (m[4])
      c.attrs.push({ name: m[4].toLowerCase(), op: (m[5] ?? '') as AttrTest['op'], value: m[6] ?? m[7] ?? m[8] ?? '' });
    pos = re.lastIndex;
  }
  return c;
}

/** `word` stands in the space-separated list `list` (no split: this runs on every tag). */
function hasWord(list: string, word: string): boolean {
  let i = list.indexOf(word);
  while (i >= 0) {
    const before = i === 0 || isSpace(list.charCodeAt(i - 1));
    const end = i + word.length;
    if (before && (end === list.length || isSpace(list.charCodeAt(end)))) return true;
    i = list.indexOf(word, i + 1);
  }
  return false;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
}

function matchOne(c: Compound, tag: string, attribs: Readonly<Record<string, string>>): boolean {
  if (c.tag !== null && c.tag !== tag) return false;
  if (c.id !== null && attribs.id !== c.id) return false;
  if (c.classes.length) {
    const cls = attribs.class;
    if (cls === undefined) return false;
    for (const k of c.classes) if (!hasWord(cls, k)) return false;
  }
  for (const a of c.attrs) {
    const v = attribs[a.name];
    if (v === undefined) return false;
    switch (a.op) {
      case '':
        break;
      case '=':
        if (v !== a.value) return false;
        break;
      case '^=':
        if (!v.startsWith(a.value)) return false;
        break;
      case '*=':
        if (!v.includes(a.value)) return false;
        break;
      case '$=':
        if (!v.endsWith(a.value)) return false;
        break;
      case '~=':
        if (!hasWord(v, a.value)) return false;
        break;
    }
  }
  return true;
}
