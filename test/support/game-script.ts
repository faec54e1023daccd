import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Body, BodyNode } from '../../src/model/body.js';
import { YamlSourceError } from '../../src/rules/source-error.js';
import { readYaml } from '../../src/rules/yaml-source.js';

/**
 * A fixture game script (fixtures/games/*.yaml): a thread written once in neutral terms
 * and rendered into each engine's real markup by test/support/render/<engine>.ts.
 *
 * Body ops, as the script's header documents them:
 *   br | {text} | {bold: [..]} | {italic: [..]} | {strike: [..]}
 *   | {color: {color, children}} | {quote: {author, children}} | {spoiler: {title, children}}
 *   | {code: "..."} | {smilie: {alt, src}} | {image: {src}}
 *   | {link: {href, kind: internal|external, children}} | {mention: {name, userId}}
 */

/** One body op after loading: tagged, so renderers can switch on `op`. */
export type ScriptNode =
  | { op: 'text'; text: string }
  | { op: 'br' }
  | { op: 'bold' | 'italic' | 'strike'; children: ScriptNode[] }
  | { op: 'color'; color: string; children: ScriptNode[] }
  | { op: 'quote'; author: string | null; children: ScriptNode[] }
  | { op: 'spoiler'; title: string | null; children: ScriptNode[] }
  | { op: 'code'; text: string }
  | { op: 'smilie'; alt: string; src: string }
  | { op: 'image'; src: string }
  | { op: 'link'; href: string; kind: 'internal' | 'external'; children: ScriptNode[] }
  | { op: 'mention'; name: string; userId: number };

/** A body op as written in YAML (one-key maps, or the bare word `br`). */
type RawOp =
  | 'br'
  | { text: string }
  | { bold: RawOp[] }
  | { italic: RawOp[] }
  | { strike: RawOp[] }
  | { color: { color: string; children: RawOp[] } }
  | { quote: { author: string | null; children: RawOp[] } }
  | { spoiler: { title?: string | null | undefined; children: RawOp[] } }
  | { code: string }
  | { smilie: { alt: string; src: string } }
  | { image: { src: string } }
  | { link: { href: string; kind: 'internal' | 'external'; children: RawOp[] } }
  | { mention: { name: string; userId: number } };

/** What each op takes, for error messages. */
const OP_FORMS: Record<string, string> = {
  br: 'the bare word br',
  text: '{text: "..."}',
  bold: '{bold: [ops]}',
  italic: '{italic: [ops]}',
  strike: '{strike: [ops]}',
  color: '{color: {color: "#rrggbb", children: [ops]}}',
  quote: '{quote: {author, children: [ops]}}',
  spoiler: '{spoiler: {title, children: [ops]}}',
  code: '{code: "..."}',
  smilie: '{smilie: {alt, src}}',
  image: '{image: {src: URL}}',
  link: '{link: {href, kind: internal|external, children: [ops]}}',
  mention: '{mention: {name, userId}}',
};

function opError(input: unknown): string {
  const keys = input && typeof input === 'object' ? Object.keys(input) : [];
  const key = keys.length === 1 ? keys[0]! : typeof input === 'string' ? input : null;
  if (key !== null && key in OP_FORMS) return `"${key}" is written ${OP_FORMS[key]}`;
  return `not a body op${key === null ? '' : ` ("${key}")`}: one of ${Object.keys(OP_FORMS).join(', ')}`;
}

const RawOp: z.ZodType<RawOp> = z.lazy(() =>
  z.union(
    [
      z.literal('br'),
      z.strictObject({ text: z.string().min(1) }),
      z.strictObject({ bold: z.array(RawOp).min(1) }),
      z.strictObject({ italic: z.array(RawOp).min(1) }),
      z.strictObject({ strike: z.array(RawOp).min(1) }),
      z.strictObject({
        color: z.strictObject({
          color: z.string().regex(/^#[0-9a-f]{3}(?:[0-9a-f]{3})?$|^[a-z]+$/i),
          children: z.array(RawOp).min(1),
        }),
      }),
      z.strictObject({
        quote: z.strictObject({ author: z.string().min(1).nullable(), children: z.array(RawOp).min(1) }),
      }),
      z.strictObject({
        spoiler: z.strictObject({ title: z.string().min(1).nullish(), children: z.array(RawOp).min(1) }),
      }),
      z.strictObject({ code: z.string().min(1) }),
      z.strictObject({ smilie: z.strictObject({ alt: z.string().min(1), src: z.string().min(1) }) }),
      z.strictObject({ image: z.strictObject({ src: z.url() }) }),
      z.strictObject({
        link: z.strictObject({
          href: z.string().min(1),
          kind: z.enum(['internal', 'external']),
          children: z.array(RawOp).min(1),
        }),
      }),
      z.strictObject({ mention: z.strictObject({ name: z.string().min(1), userId: z.number().int().positive() }) }),
    ],
    { error: (issue) => opError(issue.input) },
  ),
);

const IsoUtc = z.iso.datetime({ offset: false });

const RawPost = z.strictObject({
  /** The number the forum shows: 1, 2, 3 ... in thread order. */
  n: z.number().int().positive(),
  /** The forum's post id. */
  id: z.number().int().positive(),
  author: z.string().min(1),
  /** When it was posted (ISO 8601, UTC). */
  time: IsoUtc,
  /** The forum's "last edited" marker. */
  edited: z.strictObject({ time: IsoUtc, by: z.string().min(1) }).optional(),
  body: z.array(RawOp).min(1),
});

const RawScript = z
  .strictObject({
    ruleset: z.string().min(1),
    players: z.array(z.string().min(1)).min(1),
    thread: z.strictObject({
      title: z.string().min(1),
      id: z.number().int().positive(),
      slug: z.string().regex(/^[a-z0-9-]+$/),
      postsPerPage: z.number().int().positive(),
      /** Forum user ids: every author needs one (the markup carries it). */
      forumUserIds: z.record(z.string(), z.number().int().positive()),
    }),
    posts: z.array(RawPost).min(1),
  })
  .superRefine((s, ctx) => {
    const ids = new Set<number>();
    s.posts.forEach((p, i) => {
      const at = (...path: (string | number)[]): (string | number)[] => ['posts', i, ...path];
      if (p.n !== i + 1)
        ctx.addIssue({ code: 'custom', path: at('n'), message: `post ${i + 1} of the thread must have n: ${i + 1}` });
      if (ids.has(p.id)) ctx.addIssue({ code: 'custom', path: at('id'), message: `post id ${p.id} is used twice` });
      ids.add(p.id);
      if (s.thread.forumUserIds[p.author] === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: at('author'),
          message: `"${p.author}" has no entry in thread.forumUserIds`,
        });
      }
      const before = s.posts[i - 1];
      if (before && Date.parse(p.time) < Date.parse(before.time)) {
        ctx.addIssue({ code: 'custom', path: at('time'), message: 'posts must be in time order' });
      }
      if (p.edited && Date.parse(p.edited.time) < Date.parse(p.time)) {
        ctx.addIssue({
          code: 'custom',
          path: at('edited', 'time'),
          message: 'a post cannot be edited before it was posted',
        });
      }
    });
  });

export interface ScriptPost {
  n: number;
  id: number;
  author: string;
  /** ISO 8601 UTC. */
  time: string;
  edited: { time: string; by: string } | null;
  body: ScriptNode[];
}

export interface GameScript {
  /** Where the script came from (for messages). */
  file: string;
  ruleset: string;
  players: string[];
  thread: {
    title: string;
    id: number;
    slug: string;
    postsPerPage: number;
    forumUserIds: Record<string, number>;
  };
  posts: ScriptPost[];
}

/** A game script that cannot be used; the message lists `file:line:column: problem` lines. */
export class GameScriptError extends YamlSourceError {
  constructor(problems: ConstructorParameters<typeof YamlSourceError>[1]) {
    super('game script', problems);
  }
}

/** Parse and validate a game script's YAML text. */
function parseGameScript(text: string, file = '<game script>'): GameScript {
  const read = readYaml(RawScript, text, file);
  if (!read.ok) throw new GameScriptError(read.problems);
  const raw = read.value;
  return {
    file,
    ruleset: raw.ruleset,
    players: raw.players,
    thread: raw.thread,
    posts: raw.posts.map((p) => ({
      n: p.n,
      id: p.id,
      author: p.author,
      time: p.time,
      edited: p.edited ?? null,
      body: p.body.map(toNode),
    })),
  };
}

export function loadGameScript(file: string): GameScript {
  return parseGameScript(readFileSync(file, 'utf8'), file);
}

function toNode(raw: RawOp): ScriptNode {
  if (raw === 'br') return { op: 'br' };
  if ('text' in raw) return { op: 'text', text: raw.text };
  if ('bold' in raw) return { op: 'bold', children: raw.bold.map(toNode) };
  if ('italic' in raw) return { op: 'italic', children: raw.italic.map(toNode) };
  if ('strike' in raw) return { op: 'strike', children: raw.strike.map(toNode) };
  if ('color' in raw) return { op: 'color', color: raw.color.color, children: raw.color.children.map(toNode) };
  if ('quote' in raw) return { op: 'quote', author: raw.quote.author, children: raw.quote.children.map(toNode) };
  if ('spoiler' in raw)
    return { op: 'spoiler', title: raw.spoiler.title ?? null, children: raw.spoiler.children.map(toNode) };
  if ('code' in raw) return { op: 'code', text: raw.code };
  if ('smilie' in raw) return { op: 'smilie', alt: raw.smilie.alt, src: raw.smilie.src };
  if ('image' in raw) return { op: 'image', src: raw.image.src };
  if ('link' in raw)
    return { op: 'link', href: raw.link.href, kind: raw.link.kind, children: raw.link.children.map(toNode) };
  return { op: 'mention', name: raw.mention.name, userId: raw.mention.userId };
}

/** The posts of each page, `thread.postsPerPage` to a page. */
export function pagesOf(script: GameScript): ScriptPost[][] {
  const per = script.thread.postsPerPage;
  const pages: ScriptPost[][] = [];
  for (let i = 0; i < script.posts.length; i += per) pages.push(script.posts.slice(i, i + per));
  return pages;
}

export function userIdOf(script: GameScript, name: string): number | null {
  return script.thread.forumUserIds[name] ?? null;
}

/** Text for HTML element content. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text for a double-quoted HTML attribute value. */
export function escapeAttr(s: string): string {
  return escapeHtml(s).replace(/"/g, '&quot;');
}

// ---------------------------------------------------------------------------------------
// Shapes: what a post body says, without whitespace, layout blocks and URL spelling, so a
// script body and the body an adapter read back from rendered markup can be compared.

export type Shape =
  | { t: 'text'; text: string }
  | { t: 'br' }
  | { t: 'bold' | 'italic' | 'strike' | 'underline'; children: Shape[] }
  | { t: 'color'; color: string; children: Shape[] }
  | { t: 'quote'; author: string | null; children: Shape[] }
  | { t: 'spoiler'; title: string | null; children: Shape[] }
  | { t: 'code'; text: string }
  | { t: 'smilie'; alt: string }
  | { t: 'image'; src: string }
  | { t: 'link'; kind: 'internal' | 'external'; href: string; children: Shape[] }
  | { t: 'mention'; name: string };

/** The shape of a script body; relative hrefs and image sources resolve against `base`. */
export function scriptShape(nodes: readonly ScriptNode[], base: string): Shape[] {
  const out: Shape[] = [];
  for (const n of nodes) {
    switch (n.op) {
      case 'text':
        out.push({ t: 'text', text: n.text });
        break;
      case 'br':
        out.push({ t: 'br' });
        break;
      case 'bold':
      case 'italic':
      case 'strike':
        out.push({ t: n.op, children: scriptShape(n.children, base) });
        break;
      case 'color':
        out.push({ t: 'color', color: n.color.toLowerCase(), children: scriptShape(n.children, base) });
        break;
      case 'quote':
        out.push({ t: 'quote', author: n.author, children: scriptShape(n.children, base) });
        break;
      case 'spoiler':
        out.push({ t: 'spoiler', title: n.title, children: scriptShape(n.children, base) });
        break;
      case 'code':
        out.push({ t: 'code', text: n.text.trim() });
        break;
      case 'smilie':
        out.push({ t: 'smilie', alt: n.alt });
        break;
      case 'image':
        out.push({ t: 'image', src: new URL(n.src, base).href });
        break;
      case 'link':
        out.push({
          t: 'link',
          kind: n.kind,
          href: new URL(n.href, base).href,
          children: scriptShape(n.children, base),
        });
        break;
      case 'mention':
        out.push({ t: 'mention', name: n.name });
        break;
    }
  }
  return tidy(out);
}

/** The shape of a body an adapter read: layout blocks unwrapped, mentions by name. */
export function bodyShape(nodes: readonly BodyNode[] | Body): Shape[] {
  const out: Shape[] = [];
  for (const n of nodes) {
    switch (n.t) {
      case 'text':
        out.push({ t: 'text', text: n.text });
        break;
      case 'br':
        out.push({ t: 'br' });
        break;
      case 'block':
      case 'size':
      case 'signature':
        out.push(...bodyShape(n.children));
        break;
      case 'bold':
      case 'italic':
      case 'strike':
      case 'underline':
        out.push({ t: n.t, children: bodyShape(n.children) });
        break;
      case 'color':
        out.push({ t: 'color', color: n.color.toLowerCase(), children: bodyShape(n.children) });
        break;
      case 'quote':
        out.push({ t: 'quote', author: n.author, children: bodyShape(n.children) });
        break;
      case 'spoiler':
        out.push({ t: 'spoiler', title: n.title, children: bodyShape(n.children) });
        break;
      case 'code':
        out.push({ t: 'code', text: n.text.trim() });
        break;
      case 'smilie':
        out.push({ t: 'smilie', alt: n.alt });
        break;
      case 'image':
        out.push({ t: 'image', src: n.src });
        break;
      case 'link':
        if (n.kind === 'mention') {
          const name = bodyShape(n.children)
            .map((c) => (c.t === 'text' ? c.text : ''))
            .join('')
            .replace(/^@/, '');
          out.push({ t: 'mention', name });
        } else {
          out.push({ t: 'link', kind: n.kind, href: n.href, children: bodyShape(n.children) });
        }
        break;
    }
  }
  return tidy(out);
}

/** Adjacent texts merged, white space folded and trimmed, empty texts dropped. */
function tidy(shapes: Shape[]): Shape[] {
  const merged: Shape[] = [];
  for (const s of shapes) {
    const last = merged[merged.length - 1];
    if (s.t === 'text' && last?.t === 'text') merged[merged.length - 1] = { t: 'text', text: last.text + s.text };
    else merged.push(s);
  }
  return merged.flatMap((s): Shape[] => {
    if (s.t !== 'text') return [s];
    const text = s.text.replace(/\s+/g, ' ').trim();
    return text ? [{ t: 'text', text }] : [];
  });
}

// ---------------------------------------------------------------------------------------
// Clock faces for renderers: an instant as a board in `zone` prints it.

export interface WallClock {
  y: number;
  /** 1-12 */
  mo: number;
  d: number;
  /** 0-23 */
  h: number;
  mi: number;
  s: number;
  /** 0 = Sunday */
  weekday: number;
  /** Minutes east of UTC in force at that instant. */
  offsetMinutes: number;
}

export const MONTH_ABBR = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
export const DAY_ABBR = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

export function wallClock(iso: string, zone: string): WallClock {
  const t = Date.parse(iso);
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(t))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const y = p.year!;
  const mo = p.month!;
  const d = p.day!;
  const h = p.hour! % 24;
  const mi = p.minute!;
  const s = p.second!;
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  return {
    y,
    mo,
    d,
    h,
    mi,
    s,
    weekday: new Date(Date.UTC(y, mo - 1, d)).getUTCDay(),
    offsetMinutes: Math.round((asUtc - Math.floor(t / 1000) * 1000) / 60_000),
  };
}

/** "+0100", "-0530", "+0000" */
export function offsetText(minutes: number, separator = ''): string {
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  return `${sign}${String(Math.floor(m / 60)).padStart(2, '0')}${separator}${String(m % 60).padStart(2, '0')}`;
}

export const pad2 = (n: number): string => String(n).padStart(2, '0');

/** 12-hour clock parts: [hour 1-12, "am"|"pm"]. */
export function twelveHour(h: number): [number, 'am' | 'pm'] {
  return [h % 12 === 0 ? 12 : h % 12, h < 12 ? 'am' : 'pm'];
}

// ---------------------------------------------------------------------------------------
// Reading bodies in tests.

/** The body node type whose `t` can be `T` (`bold` shares one type with italic, underline, strike). */
type NodeKind<N, T> = N extends { t: infer K } ? (T extends K ? N : never) : never;
export type NodeOf<T extends BodyNode['t']> = NodeKind<BodyNode, T>;

/** Every node of kind `t` in a body, at any depth, in document order. */
export function nodesOf<T extends BodyNode['t']>(body: readonly BodyNode[], t: T): NodeOf<T>[] {
  const out: NodeOf<T>[] = [];
  const walk = (list: readonly BodyNode[]): void => {
    for (const n of list) {
      if (n.t === t) out.push(n as NodeOf<T>);
      if ('children' in n) walk(n.children);
    }
  };
  walk(body);
  return out;
}

/** All text of a body (code and smilie alts included), white space folded. */
export function flatText(body: readonly BodyNode[]): string {
  return collect(body, () => true);
}

/** The text a body shows outside its quotes, white space folded. */
export function textOutsideQuotes(body: readonly BodyNode[]): string {
  return collect(body, (n) => n.t !== 'quote');
}

function collect(body: readonly BodyNode[], enter: (n: BodyNode) => boolean): string {
  const parts: string[] = [];
  const walk = (list: readonly BodyNode[]): void => {
    for (const n of list) {
      if (!enter(n)) {
        parts.push(' ');
        continue;
      }
      if (n.t === 'text' || n.t === 'code') parts.push(n.text);
      else if (n.t === 'smilie') parts.push(n.alt);
      else if (n.t === 'br') parts.push(' ');
      else if ('children' in n) {
        const block = n.t === 'block' || n.t === 'quote' || n.t === 'spoiler' || n.t === 'signature';
        if (block) parts.push(' ');
        walk(n.children);
        if (block) parts.push(' ');
      }
    }
  };
  walk(body);
  return parts.join('').replace(/\s+/g, ' ').trim();
}
