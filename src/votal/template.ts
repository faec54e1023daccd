/**
 * The votal template language: placeholders and two kinds of section, nothing else.
 *
 *   {{name}}                       the named part of the votal (already written in the dialect)
 *   {{#each wagons}} … {{/each}}   once per wagon, in the tally's order; inside it
 *                                  {{target}} {{count}} {{status}} {{voters}} {{line}}
 *   {{#if name}} … {{/if}}         only when the part is not empty (or `wagons` has any)
 *
 * Every value is written by the renderer and escaped for the dialect; the template's own
 * text is the GM's and goes into the post as written. There are no expressions, helpers
 * or partials: a template cannot run anything. A placeholder alone on its line that comes
 * out empty takes its line with it; section tags alone on a line leave no line behind.
 */

export class TemplateError extends Error {
  override name = 'TemplateError';
}

/** Parts of the votal a template can place. */
const VOTAL_PLACEHOLDERS = [
  'header',
  'title',
  'day',
  'asOf',
  'wagons',
  'notVoting',
  'abstaining',
  'alive',
  'dead',
  'threshold',
  'penalties',
  'deadline',
  'notes',
  'violations',
  'outcome',
  'explain',
] as const;
/** Parts of one wagon, inside {{#each wagons}}. */
const WAGON_PLACEHOLDERS = ['target', 'count', 'status', 'voters', 'line'] as const;

export type VotalPart = (typeof VOTAL_PLACEHOLDERS)[number];
export type WagonPart = (typeof WAGON_PLACEHOLDERS)[number];

export type TemplateNode =
  | { readonly k: 'text'; readonly text: string }
  | { readonly k: 'var'; readonly name: string; readonly indent: string; readonly eol: string }
  | { readonly k: 'each'; readonly body: readonly TemplateNode[] }
  | { readonly k: 'if'; readonly name: string; readonly body: readonly TemplateNode[] };

export interface CompiledTemplate {
  readonly nodes: readonly TemplateNode[];
}

const MAX_TEMPLATE = 64 * 1024;

interface Token {
  kind: 'text' | 'tag';
  text: string;
  /** Offset in the source (for line:column). */
  at: number;
  /** Set by the standalone pass: the whitespace before the tag on its line, and the rest of the line. */
  indent?: string;
  eol?: string;
  standalone?: boolean;
}

function position(src: string, at: number): string {
  const before = src.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const open = src.indexOf('{{', i);
    if (open === -1) {
      tokens.push({ kind: 'text', text: src.slice(i), at: i });
      break;
    }
    if (open > i) tokens.push({ kind: 'text', text: src.slice(i, open), at: i });
    const close = src.indexOf('}}', open + 2);
    const newline = src.indexOf('\n', open + 2);
    if (close === -1 || (newline !== -1 && newline < close)) {
      throw new TemplateError(`votal template: "{{" at ${position(src, open)} is not closed with "}}" on its line`);
    }
    tokens.push({ kind: 'tag', text: src.slice(open + 2, close).trim(), at: open });
    i = close + 2;
  }
  return tokens;
}

/** Marks tags alone on their line and moves that line's whitespace and newline into them. */
function markStandalone(tokens: Token[]): void {
  const original = tokens.map((t) => t.text);
  // What each text token keeps: [from, to) of its original text.
  const keep = original.map((text) => [0, text.length]);
  tokens.forEach((tok, i) => {
    if (tok.kind !== 'tag') return;
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    // The line starts in the text before the tag, or the tag starts the template.
    let indent = '';
    if (prev) {
      if (prev.kind !== 'text') return;
      const text = original[i - 1]!;
      const lineStart = text.lastIndexOf('\n') + 1;
      if (lineStart === 0 && i > 1) return;
      indent = text.slice(lineStart);
      if (!/^[ \t]*$/.test(indent)) return;
    }
    // The line ends in the text after the tag, or the tag ends the template.
    let eol = '';
    if (next) {
      if (next.kind !== 'text') return;
      const last = i + 1 === tokens.length - 1;
      const m = (last ? /^[ \t]*(\r?\n|$)/ : /^[ \t]*\r?\n/).exec(original[i + 1]!);
      if (!m) return;
      eol = m[0];
    }
    tok.standalone = true;
    tok.indent = indent;
    tok.eol = eol;
    if (prev) keep[i - 1]![1] = original[i - 1]!.length - indent.length;
    if (next) keep[i + 1]![0] = eol.length;
  });
  tokens.forEach((tok, j) => {
    if (tok.kind !== 'text') return;
    const [from, to] = keep[j] as [number, number];
    tok.text = from < to ? original[j]!.slice(from, to) : '';
  });
}

/**
 * Parses and checks a template: unknown placeholders, sections that do not close or
 * close the wrong thing, and nested {{#each}} are errors naming the place.
 */
export function compileTemplate(template: string): CompiledTemplate {
  const src = template.replace(/\r\n?/g, '\n');
  if (src.length > MAX_TEMPLATE) throw new TemplateError(`votal template: longer than ${MAX_TEMPLATE} characters`);
  const tokens = tokenize(src);
  markStandalone(tokens);

  type Frame = { kind: 'root' | 'each' | 'if'; name: string; at: number; body: TemplateNode[] };
  const stack: Frame[] = [{ kind: 'root', name: '', at: 0, body: [] }];
  const top = () => stack[stack.length - 1]!;
  const inEach = () => stack.some((f) => f.kind === 'each');
  const known = () => (inEach() ? [...WAGON_PLACEHOLDERS, ...VOTAL_PLACEHOLDERS] : [...VOTAL_PLACEHOLDERS]);
  const unknown = (what: string, tok: Token, names: readonly string[]) =>
    new TemplateError(
      `votal template: unknown ${what} "{{${tok.text}}}" at ${position(src, tok.at)} (known here: ${names.join(', ')})`,
    );

  for (const tok of tokens) {
    if (tok.kind === 'text') {
      if (tok.text) top().body.push({ k: 'text', text: tok.text });
      continue;
    }
    const section = /^([#/])\s*(\w+)(?:\s+(\w+))?$/.exec(tok.text);
    if (section) {
      // The pattern makes groups 1 and 2 always present; group 3 is optional.
      const sigil = section[1] === '#' ? '#' : '/';
      const keyword = section[2]!;
      const arg = section[3];
      if (sigil === '#') {
        if (keyword === 'each') {
          if (arg !== 'wagons') throw unknown('list', tok, ['wagons']);
          if (inEach())
            throw new TemplateError(
              `votal template: {{#each wagons}} at ${position(src, tok.at)} is inside another {{#each}}`,
            );
          stack.push({ kind: 'each', name: arg, at: tok.at, body: [] });
        } else if (keyword === 'if') {
          const names = [...known(), 'wagons'];
          if (!arg || !names.includes(arg)) throw unknown('condition', tok, [...new Set(names)]);
          stack.push({ kind: 'if', name: arg, at: tok.at, body: [] });
        } else {
          throw new TemplateError(
            `votal template: unknown section "{{${tok.text}}}" at ${position(src, tok.at)} (sections: #each wagons, #if name)`,
          );
        }
        continue;
      }
      const frame = top();
      if (frame.kind === 'root' || frame.kind !== keyword || arg !== undefined) {
        const open =
          frame.kind === 'root'
            ? 'no open section'
            : `{{#${frame.kind} ${frame.name}}} from ${position(src, frame.at)} is open`;
        throw new TemplateError(
          `votal template: "{{${tok.text}}}" at ${position(src, tok.at)} closes nothing (${open})`,
        );
      }
      stack.pop();
      top().body.push(
        frame.kind === 'each' ? { k: 'each', body: frame.body } : { k: 'if', name: frame.name, body: frame.body },
      );
      continue;
    }
    if (!/^\w+$/.test(tok.text) || !known().includes(tok.text as VotalPart)) throw unknown('placeholder', tok, known());
    top().body.push({
      k: 'var',
      name: tok.text,
      indent: tok.standalone ? (tok.indent ?? '') : '',
      eol: tok.standalone ? (tok.eol ?? '') : '',
    });
  }
  const open = top();
  if (open.kind !== 'root') {
    throw new TemplateError(
      `votal template: {{#${open.kind} ${open.name}}} at ${position(src, open.at)} is never closed with {{/${open.kind}}}`,
    );
  }
  return { nodes: open.body };
}

/** The values a template is filled with: the votal's parts and one record per wagon. */
export interface TemplateValues {
  readonly parts: Readonly<Record<VotalPart, string>>;
  readonly wagons: readonly Readonly<Record<WagonPart, string>>[];
}

export function fillTemplate(tpl: CompiledTemplate, values: TemplateValues): string {
  const write = (nodes: readonly TemplateNode[], scope: Readonly<Record<string, string>>): string => {
    let out = '';
    for (const n of nodes) {
      switch (n.k) {
        case 'text':
          out += n.text;
          break;
        case 'var': {
          const value = scope[n.name] ?? '';
          // Standalone and empty: the line goes. Otherwise the line keeps its indent and end.
          if (value !== '' || n.eol === '') out += n.indent + value + n.eol;
          break;
        }
        case 'each':
          for (const w of values.wagons) out += write(n.body, { ...scope, ...w });
          break;
        case 'if': {
          const on = n.name === 'wagons' ? values.wagons.length > 0 : (scope[n.name] ?? '') !== '';
          if (on) out += write(n.body, scope);
          break;
        }
      }
    }
    return out;
  };
  const text = write(tpl.nodes, values.parts);
  // At most one blank line in a row, none at the ends.
  return (
    text
      .replace(/[ \t]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .replace(/^\n+|\n+$/g, '') + '\n'
  );
}
