import type { DialectSpec } from './dialect.js';
import { escapeHref, escapeText, safeHref } from './escape.js';

/**
 * A votal before it is written in a dialect: text (always escaped when written), bold,
 * italic, links and colours. Renderers build this; only `writeInline` makes markup, so no
 * text can reach the post unescaped.
 */
export type Inline =
  | string
  | { readonly t: 'b' | 'i'; readonly c: readonly Inline[] }
  | { readonly t: 'link'; readonly href: string | null; readonly c: readonly Inline[] }
  | { readonly t: 'color'; readonly color: Colour; readonly c: readonly Inline[] };

/** The few colours a votal uses (named, so no value from anywhere reaches a tag option). */
export type Colour = 'red' | 'green' | 'gray';

export const bold = (...c: Inline[]): Inline => ({ t: 'b', c });
export const italic = (...c: Inline[]): Inline => ({ t: 'i', c });
export const link = (href: string | null, ...c: Inline[]): Inline => ({ t: 'link', href, c });
export const colour = (color: Colour, ...c: Inline[]): Inline => ({ t: 'color', color, c });

/** `items` with `sep` between them (", " for name lists). */
export function joined(items: readonly Inline[][], sep: Inline = ', '): Inline[] {
  return items.flatMap((item, i) => (i === 0 ? item : [sep, ...item]));
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, key: string) => values[key] ?? m);
}

export function writeInline(d: DialectSpec, nodes: readonly Inline[]): string {
  let out = '';
  for (const n of nodes) {
    if (typeof n === 'string') {
      out += escapeText(d, n);
      continue;
    }
    const inner = writeInline(d, n.c);
    switch (n.t) {
      case 'b':
        out += inner ? d.bold[0] + inner + d.bold[1] : '';
        break;
      case 'i':
        out += inner ? d.italic[0] + inner + d.italic[1] : '';
        break;
      case 'link': {
        const href = n.href === null ? null : safeHref(n.href);
        out += href && inner ? fill(d.link, { href: escapeHref(d, href), text: inner }) : inner;
        break;
      }
      case 'color':
        out += d.color && inner ? fill(d.color, { color: n.color, text: inner }) : inner;
        break;
    }
  }
  return out;
}

/** Bulleted items: the dialect's list, or plain lines where it has none. */
export function writeList(d: DialectSpec, items: readonly (readonly Inline[])[]): string {
  const lines = items.map((item) => writeInline(d, item));
  if (!d.list) return lines.join('\n');
  const { open, item, close } = d.list;
  return [open, ...lines.map((l) => item + l), close].filter((l) => l !== '').join('\n');
}
