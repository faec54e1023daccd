import { withoutInvisibleControls } from '../model/forum-text.js';
import type { DialectSpec } from './dialect.js';

/**
 * Text from the forum (player names, snippets) written into a votal must not become
 * markup. BBCode has no escape that every engine honours, so brackets become look-alikes;
 * a number followed by ")" would turn into a smiley ("8)") on many boards, so a
 * zero-width joiner keeps them apart. Votals use `escapeText`.
 */

/** Joins two characters so no parser sees them as one code, and no reader sees it. */
export const ZWJ = '\u200D';
/** Look-alike brackets: read as brackets, parsed as text everywhere. */
const LOOKALIKE: Readonly<Record<'[' | ']' | '<' | '>', string>> = {
  '[': '\uFF3B',
  ']': '\uFF3D',
  '<': '\uFF1C',
  '>': '\uFF1E',
};

/**
 * Smilie codes as engines write them: eyes and a mouth (`:)`, `;-P`, `:D`, `=O`), the
 * "cool" faces (`8)`, `8-)`, `B)`), named codes (`:cool:`, `:smile:`), `<3` and `o_O`.
 * The joiner goes after the first character, so the rest reads the same.
 */
const SMILIES = [
  /([:;=])(?=[-']?[)(DPpOo|/\\*$@3SsXx\][])/g,
  /([8B])(?=-?\))/g,
  /(:)(?=[a-z0-9_+-]+:)/gi,
  /(<)(?=\/?3)/g,
  /([oO])(?=_[oO])/g,
];

/** Breaks every typed smilie code in `text` with a zero-width joiner. */
function breakSmilies(text: string): string {
  let out = text;
  for (const re of SMILIES) out = out.replace(re, `$1${ZWJ}`);
  return out;
}

/**
 * What any dialect does to forum text first: one line (line breaks and tabs become
 * spaces), no control characters, no bidirectional overrides that could reorder the
 * rest of the post (model/forum-text.ts, shared with the pages and webhooks), and no
 * @mentions or bare URLs that the engine would turn into a notification or a link
 * (`links`: BBCode's joiner; Markdown escapes them instead, `unlinkMarkdown`).
 */
function plainLine(text: string, { links = true }: { links?: boolean } = {}): string {
  const line = withoutInvisibleControls(text)
    .replace(/[\r\n\t\v\f\u2028\u2029]+/g, ' ')
    // C0/C1 controls.
    .replace(/[\u0000-\u001F\u007F-\u009F]/g, '')
    .replace(/@/g, `@${ZWJ}`);
  if (!links) return line;
  return line.replace(/:\/\//g, `:${ZWJ}//`).replace(/\bwww\./gi, (m) => `${m.slice(0, 3)}${ZWJ}.`);
}

/**
 * Markdown engines (Discourse, NodeBB: markdown-it with linkify) turn a bare URL or domain
 * (`evil.com`, `https://evil.com`) into a link. A backslash escape is a token of its own
 * that linkify never joins with the text around it, and shows as the character itself: the
 * dots between letters or digits and the `://` of a scheme are escaped (a `:/` smilie's
 * joiner, put there first, goes: the escape breaks the smilie too).
 */
function unlinkMarkdown(text: string): string {
  return text.replace(/:\u200D?\/\//g, '\\:\\/\\/').replace(/(?<=[\p{L}\p{N}_-])\.(?=[\p{L}\p{N}])/gu, '\\.');
}

/** Markdown: the characters that start inline markup, anywhere in a line. */
const MD_INLINE = /[\\`*_[\]<>#|~&]/g;
/** Markdown: what starts a block when a line begins with it (list, heading, setext). */
const MD_LINE_START = /^(\s*)([-+=]|\d+(?=[.)]))/;

function escapeMarkdownText(text: string): string {
  const inline = text.replace(MD_INLINE, '\\$&');
  return inline.replace(MD_LINE_START, (_m, space: string, lead: string) =>
    /^\d/.test(lead) ? `${space}${lead}\\` : `${space}\\${lead}`,
  );
}

/**
 * Inside a no-parse tag everything shows as typed, except a tag that would end it: any
 * `[` before a `/` or the tag's own name, or at the very end, becomes a look-alike.
 */
function noParseContent(text: string, tag: string): string {
  const re = new RegExp(`\\[(?=\\s*/|\\s*${tag}\\b|$)`, 'gi');
  return text.replace(re, LOOKALIKE['[']);
}

/**
 * `text` (a player name, a target, a snippet, or the votal's own words) as it must be
 * written in `dialect` to show exactly as text: no tag, link, list, heading, mention or
 * smilie can come out of it.
 */
export function escapeText(dialect: DialectSpec, text: string): string {
  const markdown = dialect.family === 'markdown';
  let s = plainLine(text, { links: !markdown });
  if (dialect.smilies) s = breakSmilies(s);
  if (dialect.html) s = s.replace(/[<>]/g, (c) => LOOKALIKE[c as '<' | '>']);
  if (markdown) return unlinkMarkdown(escapeMarkdownText(s));
  if (!/[[\]]/.test(s)) return s;
  if (dialect.noParse) return `[${dialect.noParse}]${noParseContent(s, dialect.noParse)}[/${dialect.noParse}]`;
  return s.replace(/[[\]]/g, (c) => LOOKALIKE[c as '[' | ']']);
}

/** Only http(s) links are written; anything else (javascript:, data:, relative) is not a link. */
export function safeHref(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
}

/** A link target in `dialect`: nothing in it can close the tag or the `(...)`. */
export function escapeHref(dialect: DialectSpec, href: string): string {
  const unsafe = dialect.family === 'markdown' ? /[\s()<>[\]"'`\\*_]/g : /[\s[\]"'<>\\]/g;
  return href.replace(unsafe, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
